"""Undercover-V (seed 002): the engine, its events and log, word pairs, the lexicon, replay.

Agents, the prover-backed checker, the neuro-symbolic pipeline and the metrics are imported from
their modules (``games.undercover.agents``, ``.checker``, ``.pipeline``, ``.metrics``), which
bring in prover backends, the LLM client or the embedding model.
"""

from games.runlog import LogError
from games.undercover.agent import Agent, Description, Observation
from games.undercover.engine import DescriptionChecker, IllegalAction, UndercoverGame, play_game
from games.undercover.events import (
    CheckOutcome,
    Side,
    UndercoverConfig,
    UndercoverEvent,
    UndercoverResult,
    read_undercover_log,
)
from games.undercover.lexicon import Lexicon, LexiconError, UnknownWord
from games.undercover.replay import ReplayError, replay
from games.undercover.words import WordPair, WordPairError, builtin_pairs, pair_catalogue

__all__ = [
    "Agent",
    "CheckOutcome",
    "Description",
    "DescriptionChecker",
    "IllegalAction",
    "Lexicon",
    "LexiconError",
    "LogError",
    "Observation",
    "ReplayError",
    "Side",
    "UndercoverConfig",
    "UndercoverEvent",
    "UndercoverGame",
    "UndercoverResult",
    "UnknownWord",
    "WordPair",
    "WordPairError",
    "builtin_pairs",
    "pair_catalogue",
    "play_game",
    "read_undercover_log",
    "replay",
]
