"""Clue hands as constraint sets: atoms per (card, place), the rules, and a player's knowledge."""

from formalize.clue.knowledge import ClueKnowledge, InconsistentKnowledge, KnowledgeGrid
from formalize.clue.propagation import RulePropagation
from formalize.clue.setup import ClueSetup, Fact, FactKind

__all__ = [
    "ClueKnowledge",
    "ClueSetup",
    "Fact",
    "FactKind",
    "InconsistentKnowledge",
    "KnowledgeGrid",
    "RulePropagation",
]
