"""Undercover-V (seed 002): the engine, its events and log, word pairs, the lexicon, its entry
in the registry of games (with the agents) and replay.

The prover-backed checker, the neuro-symbolic pipeline and the metrics are imported from their
modules (``games.undercover.checker``, ``.pipeline``, ``.metrics``).
"""

from games.core.replay import ReplayError
from games.core.runlog import LogError
from games.undercover.agent import Agent, Description, Observation
from games.undercover.engine import (
    DescriptionChecker,
    IllegalAction,
    UndercoverGame,
    UndercoverState,
    play_game,
)
from games.undercover.entry import ENTRY, read_undercover_log, replay
from games.undercover.events import (
    CheckOutcome,
    Side,
    UndercoverConfig,
    UndercoverEvent,
    UndercoverResult,
    UndercoverSetup,
)
from games.undercover.lexicon import Lexicon, LexiconError, UnknownWord
from games.undercover.words import WordPair, WordPairError, builtin_pairs, pair_catalogue

__all__ = [
    "ENTRY",
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
    "UndercoverSetup",
    "UndercoverState",
    "UnknownWord",
    "WordPair",
    "WordPairError",
    "builtin_pairs",
    "pair_catalogue",
    "play_game",
    "read_undercover_log",
    "replay",
]
