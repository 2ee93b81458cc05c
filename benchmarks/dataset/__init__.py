"""Runs exported as a dataset: flat tables of claims, LLM decisions and games, with a card.

Each name is imported from its module on first use, so importing one submodule stays cheap.
"""

from typing import TYPE_CHECKING

from reasoning.lazy import lazy_exports

if TYPE_CHECKING:
    from benchmarks.dataset.rows import TABLES as TABLES
    from benchmarks.dataset.rows import ClaimRow as ClaimRow
    from benchmarks.dataset.rows import DecisionRow as DecisionRow
    from benchmarks.dataset.rows import GameRow as GameRow
    from benchmarks.dataset.rows import Tables as Tables
    from benchmarks.dataset.rows import export_run as export_run

_HOMES = {
    "ClaimRow": "benchmarks.dataset.rows",
    "DecisionRow": "benchmarks.dataset.rows",
    "GameRow": "benchmarks.dataset.rows",
    "TABLES": "benchmarks.dataset.rows",
    "Tables": "benchmarks.dataset.rows",
    "export_run": "benchmarks.dataset.rows",
}

__all__ = sorted(_HOMES)
__getattr__ = lazy_exports(__name__, _HOMES)
