"""The machinery every game shares: the game protocol, the log format, the registry of games,
agents and their seat lists, settings, the LLM player, the play loop and replay."""

from games.core.agents import AgentRegistry, AgentSpecError, AgentType, seat_seed
from games.core.log import SCHEMA_VERSION, GameLog, LogEnd, LogHeader, SeatInfo, read_game_log
from games.core.loop import Agent, GameBoundExceeded, errored_end, finished_end, play
from games.core.protocol import GameInfo, GameState, SeatResult
from games.core.registry import GAME_MODULES, GameEntry, game_names, get_game
from games.core.replay import ReplayError, replay
from games.core.runlog import LogError
from games.core.settings import GameSettings

__all__ = [
    "GAME_MODULES",
    "SCHEMA_VERSION",
    "Agent",
    "AgentRegistry",
    "AgentSpecError",
    "AgentType",
    "GameBoundExceeded",
    "GameEntry",
    "GameInfo",
    "GameLog",
    "GameSettings",
    "GameState",
    "LogEnd",
    "LogError",
    "LogHeader",
    "ReplayError",
    "SeatInfo",
    "SeatResult",
    "errored_end",
    "finished_end",
    "game_names",
    "get_game",
    "play",
    "read_game_log",
    "replay",
    "seat_seed",
]
