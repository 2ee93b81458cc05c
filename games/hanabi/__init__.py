"""Hanabi: the engine (reference-exact deals and rules), knowledge views, agents and statistics.

Each name is imported from its module on first use, so importing one submodule stays cheap.
"""

from typing import TYPE_CHECKING

from reasoning.lazy import lazy_exports

if TYPE_CHECKING:
    from games.core.protocol import IllegalAction as IllegalAction
    from games.core.random_agent import RandomAgent as RandomAgent
    from games.hanabi.agents import AGENT_NAMES as AGENT_NAMES
    from games.hanabi.agents import AGENTS as AGENTS
    from games.hanabi.agents import HanabiAgent as HanabiAgent
    from games.hanabi.agents import HanabiAgentSettings as HanabiAgentSettings
    from games.hanabi.agents import make_agent as make_agent
    from games.hanabi.config import HANABI_INFO as HANABI_INFO
    from games.hanabi.config import Scoring as Scoring
    from games.hanabi.engine import HanabiGame as HanabiGame
    from games.hanabi.engine import HanabiObservation as HanabiObservation
    from games.hanabi.engine import Turn as Turn
    from games.hanabi.engine import deal_event as deal_event
    from games.hanabi.engine import turn_event as turn_event
    from games.hanabi.events import HANABI_EVENT as HANABI_EVENT
    from games.hanabi.events import DealEvent as DealEvent
    from games.hanabi.events import DiscardEvent as DiscardEvent
    from games.hanabi.events import HanabiConfig as HanabiConfig
    from games.hanabi.events import HanabiEvent as HanabiEvent
    from games.hanabi.events import HintEvent as HintEvent
    from games.hanabi.events import PlayEvent as PlayEvent
    from games.hanabi.knowledge import KnowledgeView as KnowledgeView
    from games.hanabi.knowledge import possible_sets as possible_sets
    from games.hanabi.knowledge import public_knowledge as public_knowledge
    from games.hanabi.knowledge import seat_knowledge as seat_knowledge
    from games.hanabi.moves import Move as Move
    from games.hanabi.moves import move_table as move_table
    from games.hanabi.position import Position as Position
    from games.hanabi.reward import decision_reward as decision_reward
    from games.hanabi.reward import exact_deductions as exact_deductions
    from games.hanabi.stats import ScoreStats as ScoreStats
    from games.hanabi.stats import score_stats as score_stats
    from games.hanabi.symbolic import SymbolicAgent as SymbolicAgent

_HOMES = {
    "AGENTS": "games.hanabi.agents",
    "AGENT_NAMES": "games.hanabi.agents",
    "DealEvent": "games.hanabi.events",
    "DiscardEvent": "games.hanabi.events",
    "HANABI_EVENT": "games.hanabi.events",
    "HANABI_INFO": "games.hanabi.config",
    "HanabiAgent": "games.hanabi.agents",
    "HanabiAgentSettings": "games.hanabi.agents",
    "HanabiConfig": "games.hanabi.events",
    "HanabiEvent": "games.hanabi.events",
    "HanabiGame": "games.hanabi.engine",
    "HanabiObservation": "games.hanabi.engine",
    "HintEvent": "games.hanabi.events",
    "IllegalAction": "games.core.protocol",
    "KnowledgeView": "games.hanabi.knowledge",
    "Move": "games.hanabi.moves",
    "PlayEvent": "games.hanabi.events",
    "Position": "games.hanabi.position",
    "RandomAgent": "games.core.random_agent",
    "ScoreStats": "games.hanabi.stats",
    "Scoring": "games.hanabi.config",
    "SymbolicAgent": "games.hanabi.symbolic",
    "Turn": "games.hanabi.engine",
    "deal_event": "games.hanabi.engine",
    "decision_reward": "games.hanabi.reward",
    "exact_deductions": "games.hanabi.reward",
    "make_agent": "games.hanabi.agents",
    "move_table": "games.hanabi.moves",
    "possible_sets": "games.hanabi.knowledge",
    "public_knowledge": "games.hanabi.knowledge",
    "score_stats": "games.hanabi.stats",
    "seat_knowledge": "games.hanabi.knowledge",
    "turn_event": "games.hanabi.engine",
}

__all__ = sorted(_HOMES)
__getattr__ = lazy_exports(__name__, _HOMES)
