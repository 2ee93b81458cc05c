"""Optional packages: imported only through ``reasoning.extras`` (never at a module's top), each
extra declared in pyproject.toml and installed by ``make test``, and a feature whose package is
missing says in one line which ``pip install 'gumshoe[...]'`` adds it (exit status 2), while the
rest of a command runs (a bench without matplotlib writes its tables, not its plot)."""

from __future__ import annotations

import ast
import json
import re
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from provers.isabelle.server import IsabelleServer
from reasoning.extras import EXTRAS, MissingExtra, extra_missing, optional_import, require_extra

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("reasoning", "formalize", "provers", "games", "benchmarks")
OWN_EXTRA = {"benchmarks/inspect_eval": "inspect"}
"""Folders that are an extra's own code, entered only after the extra was checked: they import
its package at the top."""
runner = CliRunner()


def project() -> dict[str, object]:
    loaded = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert isinstance(loaded, dict)
    return loaded


def block(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Make ``modules`` (and their submodules) impossible to import, as if not installed."""
    for name in list(sys.modules):
        if name.split(".")[0] in modules:
            monkeypatch.delitem(sys.modules, name)
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


CORE_MODULES = frozenset(
    {"z3", "cvc5", "pysat", "numpy", "lark", "pydantic", "pydantic_core", "pydantic_settings"}
    | {"typer", "rich"}
    | {"openai"}
)
"""The modules of the core dependencies (``pyproject.toml``'s ``dependencies``)."""
TOOL_MODULES = {
    "hypothesis": "the games' hypothesis strategies, for users' property tests (`testing`)",
    "pytest": "the pytest plugin, loaded by pytest only",
    "selenium": "bench viewer's browser (a maintainer's benchmark, `dev`)",
    "PIL": "bench viewer's screenshots (with selenium)",
    "pyspiel": "bench hanabi-engine's reference engine (`dev`)",
    "hanabi_learning_environment": "bench hanabi-engine's reference engine (`dev`)",
}
"""Third-party modules imported by code that only their own tools run."""


def imports(root: Path) -> Iterator[tuple[str, ast.AST, str, bool]]:
    """Every absolute import in the packages under ``root`` outside the extras' own folders:
    ``path``, the node, the module, and whether it is for the type checker alone."""
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            relative = path.relative_to(root).as_posix()
            if any(relative.startswith(folder) for folder in OWN_EXTRA):
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            checked = {
                id(node)
                for branch in ast.walk(tree)
                if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
                for statement in branch.body
                for node in ast.walk(statement)
            }
            for node in ast.walk(tree):
                names: list[str] = []
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                for name in names:
                    yield relative, node, name, id(node) in checked


def undeclared_imports(root: Path) -> list[str]:
    """Every import of a third-party module that is neither a core dependency's, an extra's
    (those go through the helper) nor a tool's: ``path:line module``."""
    optional = {module for modules in EXTRAS.values() for module in modules}
    known = set(sys.stdlib_module_names) | set(PACKAGES) | CORE_MODULES | optional
    known |= set(TOOL_MODULES)
    return [
        f"{path}:{getattr(node, 'lineno', 0)} {name}"
        for path, node, name, _ in imports(root)
        if name.split(".")[0] not in known
    ]


def optional_imports_at_the_top(root: Path) -> list[str]:
    """Every import of an extra's package in the packages under ``root`` that runs when its
    module is imported, or that does not go through ``reasoning.extras``: ``path:line module``.
    Imports for the type checker alone (``if TYPE_CHECKING:``) are allowed."""
    optional = {module for modules in EXTRAS.values() for module in modules}
    return [
        f"{path}:{getattr(node, 'lineno', 0)} {name}"
        for path, node, name, typing_only in imports(root)
        if name.split(".")[0] in optional and not typing_only
    ]


def test_no_module_imports_an_optional_package_but_through_the_helper() -> None:
    assert optional_imports_at_the_top(ROOT) == []


def test_every_third_party_import_is_a_declared_dependency() -> None:
    assert undeclared_imports(ROOT) == []
    core = " ".join(str(r) for r in project()["dependencies"])  # type: ignore[attr-defined]
    for module in CORE_MODULES - {"z3", "pysat"}:
        assert module.replace("_", "-") in core, module


def test_every_extra_is_declared_and_installed_by_make_test() -> None:
    declared = project()["optional-dependencies"]
    assert isinstance(declared, dict)
    assert set(EXTRAS) <= set(declared)
    assert set(declared) - set(EXTRAS) == {"dev", "docs", "testing"}
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    listed = re.search(r"^EXTRAS := (.+)$", makefile, re.MULTILINE)
    assert listed is not None and "-e '.[$(EXTRAS)]'" in makefile
    needed_by_tests = set(EXTRAS) - {"local-llm"}
    assert set(listed.group(1).split(",")) == {"dev", "docs", *needed_by_tests}


def test_the_core_install_holds_no_optional_package() -> None:
    core = " ".join(str(r) for r in project()["dependencies"])  # type: ignore[attr-defined]
    for extra in EXTRAS:
        for requirement in project()["optional-dependencies"][extra]:  # type: ignore[index]
            name = re.split(r"[<>=\[ ]", requirement)[0]
            assert name not in core, f"{name} (of [{extra}]) is in the core dependencies"
    assert "torch" not in core and "scipy" not in core and "matplotlib" not in core


def test_a_missing_package_is_named_with_its_extra_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    block(monkeypatch, "matplotlib")
    with pytest.raises(MissingExtra) as raised:
        optional_import("matplotlib.pyplot", "plots", "the plot")
    message = str(raised.value)
    assert message == (
        "the plot needs matplotlib, which is not installed: pip install 'gumshoe[plots]'"
    )
    assert raised.value.extra == "plots" and "\n" not in message
    assert extra_missing("plots", "x") is not None
    with pytest.raises(MissingExtra):
        require_extra("plots", "x")
    with pytest.raises(ValueError, match="not a package"):
        optional_import("numpy", "plots", "x")


def test_the_attributional_score_without_embeddings_exits_2_before_playing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    block(monkeypatch, "sentence_transformers")
    done = runner.invoke(app, ["play", "undercover", "--agents", "prover*6", "--scores"])
    assert done.exit_code == 2
    assert done.output.strip() == (
        "error: the Attributional Score (MiniLM sentence embeddings) needs "
        "sentence_transformers, which is not installed: pip install 'gumshoe[embeddings]'"
    )
    out = tmp_path / "run"
    bench = runner.invoke(app, ["bench", "undercover", "--seeds", "1", "--out", str(out)])
    assert bench.exit_code == 2 and "gumshoe[embeddings]" in bench.output
    assert not out.exists()


def test_a_bench_without_matplotlib_writes_its_tables_and_names_the_plots_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    block(monkeypatch, "matplotlib")
    out = tmp_path / "run"
    done = runner.invoke(app, ["bench", "clue", "--games", "1", "--quiet", "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert "plot: no plot (a run's plot needs matplotlib" in done.output
    assert "pip install 'gumshoe[plots]'" in done.output
    assert json.loads((out / "summary.json").read_text())["plot"] is None
    assert not list(out.glob("*.png"))


def test_isabelle_without_its_client_stops_before_starting_a_server(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    block(monkeypatch, "isabelle_client")
    server = IsabelleServer(str(tmp_path / "no-isabelle"))
    with pytest.raises(MissingExtra, match=re.escape("pip install 'gumshoe[isabelle]'")):
        server.start(timeout=1.0)
    assert not server.running


def test_a_scheduler_without_dask_names_the_distributed_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from benchmarks.runner import probe_scheduler

    block(monkeypatch, "distributed", "dask")
    with pytest.raises(MissingExtra, match=re.escape("gumshoe[distributed]")):
        probe_scheduler("tcp://127.0.0.1:1", timeout_s=0.1)
