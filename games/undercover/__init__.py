"""Undercover-V (seed 002): the engine, its events and log, word pairs, the lexicon, its entry
in the registry of games (with the agents) and replay.

The prover-backed checker, the neuro-symbolic pipeline and the metrics are imported from their
modules (``games.undercover.checker``, ``.pipeline``, ``.metrics``).

Each name is imported from its module on first use, so importing one submodule stays cheap.
"""

from typing import TYPE_CHECKING

from reasoning.lazy import lazy_exports

if TYPE_CHECKING:
    from games.core.protocol import IllegalAction as IllegalAction
    from games.core.replay import ReplayError as ReplayError
    from games.core.runlog import LogError as LogError
    from games.undercover.agent import Agent as Agent
    from games.undercover.agent import Description as Description
    from games.undercover.agent import Observation as Observation
    from games.undercover.engine import DescriptionChecker as DescriptionChecker
    from games.undercover.engine import UndercoverGame as UndercoverGame
    from games.undercover.engine import UndercoverState as UndercoverState
    from games.undercover.entry import ENTRY as ENTRY
    from games.undercover.entry import read_undercover_log as read_undercover_log
    from games.undercover.entry import replay as replay
    from games.undercover.events import CheckOutcome as CheckOutcome
    from games.undercover.events import Side as Side
    from games.undercover.events import UndercoverConfig as UndercoverConfig
    from games.undercover.events import UndercoverEvent as UndercoverEvent
    from games.undercover.events import UndercoverResult as UndercoverResult
    from games.undercover.events import UndercoverSetup as UndercoverSetup
    from games.undercover.lexicon import Lexicon as Lexicon
    from games.undercover.lexicon import LexiconError as LexiconError
    from games.undercover.lexicon import UnknownWord as UnknownWord
    from games.undercover.words import WordPair as WordPair
    from games.undercover.words import WordPairError as WordPairError
    from games.undercover.words import builtin_pairs as builtin_pairs
    from games.undercover.words import pair_catalogue as pair_catalogue

_HOMES = {
    "Agent": "games.undercover.agent",
    "CheckOutcome": "games.undercover.events",
    "Description": "games.undercover.agent",
    "DescriptionChecker": "games.undercover.engine",
    "ENTRY": "games.undercover.entry",
    "IllegalAction": "games.core.protocol",
    "Lexicon": "games.undercover.lexicon",
    "LexiconError": "games.undercover.lexicon",
    "LogError": "games.core.runlog",
    "Observation": "games.undercover.agent",
    "ReplayError": "games.core.replay",
    "Side": "games.undercover.events",
    "UndercoverConfig": "games.undercover.events",
    "UndercoverEvent": "games.undercover.events",
    "UndercoverGame": "games.undercover.engine",
    "UndercoverResult": "games.undercover.events",
    "UndercoverSetup": "games.undercover.events",
    "UndercoverState": "games.undercover.engine",
    "UnknownWord": "games.undercover.lexicon",
    "WordPair": "games.undercover.words",
    "WordPairError": "games.undercover.words",
    "builtin_pairs": "games.undercover.words",
    "pair_catalogue": "games.undercover.words",
    "read_undercover_log": "games.undercover.entry",
    "replay": "games.undercover.entry",
}

__all__ = sorted(_HOMES)
__getattr__ = lazy_exports(__name__, _HOMES)
