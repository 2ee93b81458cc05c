"""DESIGN.md's layering holds: a package imports only packages below it; provers and formalize
are peers that never import each other."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ALLOWED: dict[str, set[str]] = {
    "reasoning": set(),
    "provers": {"reasoning"},
    "formalize": {"reasoning"},
    "games": {"reasoning", "provers", "formalize"},
    "benchmarks": {"reasoning", "provers", "formalize", "games"},
}


def _imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names & set(ALLOWED)


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_only_layers_below(package: str) -> None:
    offending = {
        str(path.relative_to(ROOT)): sorted(bad)
        for path in sorted((ROOT / package).rglob("*.py"))
        if (bad := _imported_packages(path) - ALLOWED[package] - {package})
    }
    assert offending == {}


def test_world_model_does_not_import_the_interrogation_scripts() -> None:
    """Detective cases build on formalize.world alone; interrogation scripts sit above it."""
    offending = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "formalize" / "world").rglob("*.py"))
        if "formalize.interrogation" in path.read_text(encoding="utf-8")
    ]
    assert offending == []
