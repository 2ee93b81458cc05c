"""Clue (Cluedo): cards, engine, events and log, agents, and replay.

Each name is imported from its module on first use, so importing one submodule stays cheap.
"""

from typing import TYPE_CHECKING

from reasoning.lazy import lazy_exports

if TYPE_CHECKING:
    from games.clue.agent import Accuse as Accuse
    from games.clue.agent import Agent as Agent
    from games.clue.agent import ClueAction as ClueAction
    from games.clue.agent import ClueObservation as ClueObservation
    from games.clue.agent import Phase as Phase
    from games.clue.agent import ReviewingAgent as ReviewingAgent
    from games.clue.agent import Show as Show
    from games.clue.agent import ShownCard as ShownCard
    from games.clue.agent import Suggest as Suggest
    from games.clue.agent import legal_actions as legal_actions
    from games.clue.agents import random_agent as random_agent
    from games.clue.cards import CATEGORIES as CATEGORIES
    from games.clue.cards import ROOMS as ROOMS
    from games.clue.cards import SUSPECTS as SUSPECTS
    from games.clue.cards import WEAPONS as WEAPONS
    from games.clue.cards import Card as Card
    from games.clue.cards import Category as Category
    from games.clue.cards import Deck as Deck
    from games.clue.cards import Triple as Triple
    from games.clue.engine import ClueGame as ClueGame
    from games.clue.engine import ClueMove as ClueMove
    from games.clue.engine import ClueState as ClueState
    from games.clue.entry import ENTRY as ENTRY
    from games.clue.entry import read_clue_log as read_clue_log
    from games.clue.entry import replay as replay
    from games.clue.events import CLUE_EVENT as CLUE_EVENT
    from games.clue.events import AccusationEvent as AccusationEvent
    from games.clue.events import CheckedDeduction as CheckedDeduction
    from games.clue.events import ClueConfig as ClueConfig
    from games.clue.events import ClueEvent as ClueEvent
    from games.clue.events import ClueOutcome as ClueOutcome
    from games.clue.events import ClueResult as ClueResult
    from games.clue.events import Deal as Deal
    from games.clue.events import Deduction as Deduction
    from games.clue.events import DeductionEvent as DeductionEvent
    from games.clue.events import DeductionKind as DeductionKind
    from games.clue.events import DeductionReview as DeductionReview
    from games.clue.events import DeductionReviewEvent as DeductionReviewEvent
    from games.clue.events import EndReason as EndReason
    from games.clue.events import GameEnd as GameEnd
    from games.clue.events import GameStart as GameStart
    from games.clue.events import HandEvent as HandEvent
    from games.clue.events import NoRefutationEvent as NoRefutationEvent
    from games.clue.events import PassEvent as PassEvent
    from games.clue.events import RefuteEvent as RefuteEvent
    from games.clue.events import SuggestionEvent as SuggestionEvent
    from games.clue.events import TurnStart as TurnStart
    from games.core.protocol import IllegalAction as IllegalAction
    from games.core.replay import ReplayError as ReplayError
    from games.core.runlog import LogError as LogError

_HOMES = {
    "random_agent": "games.clue.agents",
    "AccusationEvent": "games.clue.events",
    "Accuse": "games.clue.agent",
    "Agent": "games.clue.agent",
    "CATEGORIES": "games.clue.cards",
    "CLUE_EVENT": "games.clue.events",
    "Card": "games.clue.cards",
    "Category": "games.clue.cards",
    "CheckedDeduction": "games.clue.events",
    "ClueAction": "games.clue.agent",
    "ClueConfig": "games.clue.events",
    "ClueEvent": "games.clue.events",
    "ClueGame": "games.clue.engine",
    "ClueMove": "games.clue.engine",
    "ClueObservation": "games.clue.agent",
    "ClueOutcome": "games.clue.events",
    "ClueResult": "games.clue.events",
    "ClueState": "games.clue.engine",
    "Deal": "games.clue.events",
    "Deck": "games.clue.cards",
    "Deduction": "games.clue.events",
    "DeductionEvent": "games.clue.events",
    "DeductionKind": "games.clue.events",
    "DeductionReview": "games.clue.events",
    "DeductionReviewEvent": "games.clue.events",
    "ENTRY": "games.clue.entry",
    "EndReason": "games.clue.events",
    "GameEnd": "games.clue.events",
    "GameStart": "games.clue.events",
    "HandEvent": "games.clue.events",
    "IllegalAction": "games.core.protocol",
    "LogError": "games.core.runlog",
    "NoRefutationEvent": "games.clue.events",
    "PassEvent": "games.clue.events",
    "Phase": "games.clue.agent",
    "ROOMS": "games.clue.cards",
    "RefuteEvent": "games.clue.events",
    "ReplayError": "games.core.replay",
    "ReviewingAgent": "games.clue.agent",
    "SUSPECTS": "games.clue.cards",
    "Show": "games.clue.agent",
    "ShownCard": "games.clue.agent",
    "Suggest": "games.clue.agent",
    "SuggestionEvent": "games.clue.events",
    "Triple": "games.clue.cards",
    "TurnStart": "games.clue.events",
    "WEAPONS": "games.clue.cards",
    "legal_actions": "games.clue.agent",
    "read_clue_log": "games.clue.entry",
    "replay": "games.clue.entry",
}

__all__ = sorted(_HOMES)
__getattr__ = lazy_exports(__name__, _HOMES)
