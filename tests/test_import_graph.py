"""No import circles: between modules (type-hint imports included), nor between the packages and
top-level modules of a layer (``benchmarks.viewer`` and ``benchmarks.runner``, say).

A name read from a package with lazy exports counts as an import of the module it lives in (the
package's ``_HOMES``), since that is the module the name's first use loads.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("reasoning", "provers", "formalize", "games", "benchmarks")


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


MODULES = _modules()


def _lazy_homes(path: Path) -> dict[str, str]:
    """A package ``__init__``'s lazy exports (name -> home module), if it declares them."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == "_HOMES"
            and isinstance(node.value, ast.Dict)
        ):
            pairs = zip(node.value.keys, node.value.values, strict=True)
            return {
                k.value: v.value
                for k, v in pairs
                if isinstance(k, ast.Constant)
                and isinstance(k.value, str)
                and isinstance(v, ast.Constant)
                and isinstance(v.value, str)
            }
    return {}


HOMES = {m: _lazy_homes(p) for m, p in MODULES.items() if p.name == "__init__.py"}


def _module_level(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports a module runs (or names for the type checker) when it is loaded: not those
    inside functions, which load later, on first use."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If | ast.Try):
            yield from _module_level(node.body)
            yield from _module_level(node.orelse)


def _targets(module: str, node: ast.Import | ast.ImportFrom, in_init: bool) -> set[str]:
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    base = node.module or ""
    if node.level:
        parts = module.split(".")[: len(module.split(".")) - node.level + (1 if in_init else 0)]
        base = ".".join([*parts, *([node.module] if node.module else [])])
    found = set()
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        if sub in MODULES:
            found.add(sub)
        elif alias.name in HOMES.get(base, {}):
            found.add(HOMES[base][alias.name])
        else:
            found.add(base)
    return found


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        in_init = path.name == "__init__.py"
        targets: set[str] = set()
        if not (in_init and HOMES[module]):  # a lazy package's own imports are type-only
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in _module_level(tree.body):
                targets |= _targets(module, node, in_init)
        graph[module] = {t for t in targets if t in MODULES and t != module}
    return graph


def _circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _unit(module: str) -> str:
    """The package or top-level module of a layer a module belongs to (``games.clue``,
    ``benchmarks.viewer``, ``benchmarks.runner``)."""
    return ".".join(module.split(".")[:2])


def test_the_circle_finder_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_imports_itself_round_a_circle() -> None:
    assert _circles(_graph()) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_no_circle_between_the_parts_of_a_layer(package: str) -> None:
    units: dict[str, set[str]] = {}
    for module, targets in _graph().items():
        if module.split(".")[0] == package:
            inside = {_unit(t) for t in targets if t.split(".")[0] == package}
            units.setdefault(_unit(module), set()).update(inside - {_unit(module)})
    units = {u: {t for t in ts if t in units} for u, ts in units.items()}
    assert _circles(units) == []


def test_only_the_console_imports_the_console() -> None:
    """``benchmarks.console`` composes the command table and the demo from the benchmarks below
    it: no benchmark, and nothing else, imports it (no back arrow)."""
    back = sorted(
        module
        for module, targets in _graph().items()
        if not module.startswith("benchmarks.console")
        and any(t.startswith("benchmarks.console") for t in targets)
    )
    assert back == []
