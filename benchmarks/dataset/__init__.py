"""Runs exported as a dataset: flat tables of claims, LLM decisions and games, with a card."""

from benchmarks.dataset.rows import TABLES, ClaimRow, DecisionRow, GameRow, Tables, export_run

__all__ = ["TABLES", "ClaimRow", "DecisionRow", "GameRow", "Tables", "export_run"]
