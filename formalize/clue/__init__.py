"""Clue hands as constraint sets: atoms per (card, place), the rules, and a player's knowledge.

Each name is imported from its module on first use, so importing one submodule stays cheap.
"""

from typing import TYPE_CHECKING

from reasoning.lazy import lazy_exports

if TYPE_CHECKING:
    from formalize.clue.knowledge import ClueKnowledge as ClueKnowledge
    from formalize.clue.knowledge import InconsistentKnowledge as InconsistentKnowledge
    from formalize.clue.knowledge import KnowledgeGrid as KnowledgeGrid
    from formalize.clue.propagation import RulePropagation as RulePropagation
    from formalize.clue.setup import ClueSetup as ClueSetup
    from formalize.clue.setup import Fact as Fact
    from formalize.clue.setup import FactKind as FactKind

_HOMES = {
    "ClueKnowledge": "formalize.clue.knowledge",
    "ClueSetup": "formalize.clue.setup",
    "Fact": "formalize.clue.setup",
    "FactKind": "formalize.clue.setup",
    "InconsistentKnowledge": "formalize.clue.knowledge",
    "KnowledgeGrid": "formalize.clue.knowledge",
    "RulePropagation": "formalize.clue.propagation",
}

__all__ = sorted(_HOMES)
__getattr__ = lazy_exports(__name__, _HOMES)
