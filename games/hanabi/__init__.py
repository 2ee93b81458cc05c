"""Hanabi: the engine (reference-exact deals and rules), knowledge views, agents and statistics."""

from games.hanabi.agents import AGENT_NAMES, AGENTS, HanabiAgentSettings, RandomAgent, make_agent
from games.hanabi.config import HANABI_INFO, HanabiConfig, Scoring
from games.hanabi.engine import HanabiGame, HanabiObservation, IllegalMoveError, Turn
from games.hanabi.events import (
    HANABI_EVENT,
    DealEvent,
    DiscardEvent,
    HanabiEvent,
    HintEvent,
    PlayEvent,
    deal_event,
    turn_event,
)
from games.hanabi.knowledge import (
    KnowledgeView,
    possible_sets,
    public_knowledge,
    seat_knowledge,
)
from games.hanabi.moves import Move, move_table
from games.hanabi.play import HanabiAgent, play_game
from games.hanabi.stats import ScoreStats, score_stats
from games.hanabi.symbolic import SymbolicAgent

__all__ = [
    "AGENTS",
    "AGENT_NAMES",
    "HANABI_EVENT",
    "HANABI_INFO",
    "DealEvent",
    "DiscardEvent",
    "HanabiAgent",
    "HanabiAgentSettings",
    "HanabiConfig",
    "HanabiEvent",
    "HanabiGame",
    "HanabiObservation",
    "HintEvent",
    "IllegalMoveError",
    "KnowledgeView",
    "Move",
    "PlayEvent",
    "RandomAgent",
    "ScoreStats",
    "Scoring",
    "SymbolicAgent",
    "Turn",
    "deal_event",
    "make_agent",
    "move_table",
    "play_game",
    "possible_sets",
    "public_knowledge",
    "score_stats",
    "seat_knowledge",
    "turn_event",
]
