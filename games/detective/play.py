"""Playing one detective game with a named agent."""

from __future__ import annotations

from games.core.log import SeatInfo
from games.core.loop import play
from games.core.runlog import EventSink
from games.detective.agents import AgentSettings, LLMAgent, ProverAgent, make_agent
from games.detective.engine import DetectiveState
from games.detective.entry import ENTRY
from games.detective.events import DetectiveConfig
from reasoning.llm import UsageMeter


def play_game(
    config: DetectiveConfig,
    seed: int,
    agent: str,
    settings: AgentSettings | None = None,
    log: EventSink | None = None,
) -> tuple[DetectiveState, ProverAgent | LLMAgent]:
    """Play the case ``config`` names for ``seed`` with the agent named ``agent``, logging to
    ``log``; the finished state and the agent (for its fallbacks)."""
    seated = make_agent(agent, seed, settings)
    seats = [SeatInfo(name="P0", agent=seated.name)]
    state = ENTRY.new_state(config, seed, seats)
    try:
        play(
            state,
            [seated],
            ENTRY.header(config, seed, seats),
            log,
            max_decisions=ENTRY.info.max_decisions,
        )
    finally:
        if isinstance(seated, ProverAgent):
            seated.close()
    return state, seated


def usage_meters(agent: ProverAgent | LLMAgent) -> tuple[UsageMeter, ...]:
    """The meters of an LLM agent's players (its location choice's, then one per question it
    answered); none for the prover."""
    return agent.meters if isinstance(agent, LLMAgent) else ()
