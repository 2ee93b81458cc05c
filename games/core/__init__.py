"""The machinery every game shares: the game protocol, the log format, the registry of games,
agents and their seat lists, settings, the LLM player, the play loop and replay.

Each name is imported from its module on first use, so importing one submodule stays cheap.
"""

from typing import TYPE_CHECKING

from reasoning.lazy import lazy_exports

if TYPE_CHECKING:
    from games.core.agents import AgentRegistry as AgentRegistry
    from games.core.agents import AgentSpecError as AgentSpecError
    from games.core.agents import AgentType as AgentType
    from games.core.agents import seat_seed as seat_seed
    from games.core.decisions import LoggedDecision as LoggedDecision
    from games.core.log import SCHEMA_VERSION as SCHEMA_VERSION
    from games.core.log import GameLog as GameLog
    from games.core.log import LogEnd as LogEnd
    from games.core.log import LogHeader as LogHeader
    from games.core.log import SeatInfo as SeatInfo
    from games.core.log import read_game_log as read_game_log
    from games.core.loop import Agent as Agent
    from games.core.loop import GameBoundExceeded as GameBoundExceeded
    from games.core.loop import errored_end as errored_end
    from games.core.loop import finished_end as finished_end
    from games.core.loop import play as play
    from games.core.protocol import GameInfo as GameInfo
    from games.core.protocol import GameState as GameState
    from games.core.protocol import SeatResult as SeatResult
    from games.core.registry import GAME_MODULES as GAME_MODULES
    from games.core.registry import GameEntry as GameEntry
    from games.core.registry import game_names as game_names
    from games.core.registry import get_game as get_game
    from games.core.replay import ReplayError as ReplayError
    from games.core.replay import replay as replay
    from games.core.reward import Reward as Reward
    from games.core.reward import RewardWeights as RewardWeights
    from games.core.runlog import LogError as LogError
    from games.core.settings import GameSettings as GameSettings

_HOMES = {
    "Agent": "games.core.loop",
    "AgentRegistry": "games.core.agents",
    "AgentSpecError": "games.core.agents",
    "AgentType": "games.core.agents",
    "GAME_MODULES": "games.core.registry",
    "GameBoundExceeded": "games.core.loop",
    "GameEntry": "games.core.registry",
    "GameInfo": "games.core.protocol",
    "GameLog": "games.core.log",
    "GameSettings": "games.core.settings",
    "GameState": "games.core.protocol",
    "LogEnd": "games.core.log",
    "LogError": "games.core.runlog",
    "LogHeader": "games.core.log",
    "LoggedDecision": "games.core.decisions",
    "ReplayError": "games.core.replay",
    "Reward": "games.core.reward",
    "RewardWeights": "games.core.reward",
    "SCHEMA_VERSION": "games.core.log",
    "SeatInfo": "games.core.log",
    "SeatResult": "games.core.protocol",
    "errored_end": "games.core.loop",
    "finished_end": "games.core.loop",
    "game_names": "games.core.registry",
    "get_game": "games.core.registry",
    "play": "games.core.loop",
    "read_game_log": "games.core.log",
    "replay": "games.core.replay",
    "seat_seed": "games.core.agents",
}

__all__ = sorted(_HOMES)
__getattr__ = lazy_exports(__name__, _HOMES)
