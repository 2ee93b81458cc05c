"""The one play loop: ask the seats the game waits for, apply their joint action, log as it goes.

The log gets the common header, every event the game produces as soon as it is produced, and the
common end event (``games.core.log``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Protocol, runtime_checkable

from games.core.log import LogEnd, LogHeader
from games.core.protocol import GameState, SeatResult
from games.core.runlog import EventSink


class Agent(Protocol):
    """A player: from its observation, an action (which may carry stated deductions).

    Three members are optional and read through ``games.core.agents``: ``meters`` (the chat
    meters of an agent that asks a model), ``fallbacks`` (a ``FallbackSnapshot`` of the random
    actions it fell back to) and ``close()`` (frees what it holds; called once the game is over).
    """

    @property
    def name(self) -> str:
        """The agent's name, recorded in the log."""
        ...

    def act(self, obs: Any) -> Any:
        """The action for the decision ``obs`` asks for."""
        ...


@runtime_checkable
class LegalChooser(Protocol):
    """A player that picks from the legal actions the loop lists beside its observation (the
    random agent, as OpenSpiel's ``uniform_random`` reads the state's legal actions); it is
    seated as it is, without the game's seat adapter."""

    @property
    def name(self) -> str:
        """The agent's name, recorded in the log."""
        ...

    def choose(self, obs: Any, legal: Sequence[Any]) -> Any:
        """The action for ``obs``, given the legal ones (empty where a decision is open, such
        as a sentence to say)."""
        ...


def decide(agent: Agent | LegalChooser, obs: Any, legal: Callable[[], Sequence[Any]]) -> Any:
    """``agent``'s action for ``obs``: a chooser is given the legal actions, any other agent
    its observation alone."""
    if isinstance(agent, LegalChooser):
        return agent.choose(obs, legal())
    return agent.act(obs)


Watcher = Callable[[int, Any], None]
"""Called with a seat and its observation before the seat's agent decides."""


class GameBoundExceeded(RuntimeError):
    """A game went on past its own bound on decisions: a bug in its rules."""


def finished_end(result: SeatResult) -> LogEnd:
    """The end event of a game played to its end."""
    return LogEnd(
        status="finished", returns=result.returns, ranks=result.ranks, reason=result.reason
    )


def errored_end(error: BaseException) -> LogEnd:
    """The end event of a game an error cut short."""
    return LogEnd(status="errored", reason="error", error=f"{type(error).__name__}: {error}")


def play(
    state: GameState,
    agents: Sequence[Agent | LegalChooser],
    header: LogHeader,
    log: EventSink | None = None,
    *,
    max_decisions: int,
    watch: Watcher | None = None,
) -> SeatResult:
    """Play ``state`` to its end with ``agents[seat]`` deciding for each seat; ``watch`` sees
    each seat's observation just before its agent decides (a narrating command prints it).

    An illegal action is a bug in the agent: the game's own error is raised again naming it;
    more than ``max_decisions`` joint actions raise GameBoundExceeded.
    """
    if len(agents) != len(header.seats):
        raise ValueError(f"agents: {len(agents)} given for {len(header.seats)} seats")
    written = 0

    def flush() -> None:
        nonlocal written
        events = state.events()
        if log is not None:
            for event in events[written:]:
                log.write(event)
        written = len(events)

    if log is not None:
        log.write(header)
    flush()
    decisions = 0
    while not state.is_terminal():
        if decisions >= max_decisions:
            raise GameBoundExceeded(f"no end after {max_decisions} decisions")
        joint = {}
        for seat in state.current_players():
            obs = state.observation(seat)
            if watch is not None:
                watch(seat, obs)
            joint[seat] = decide(agents[seat], obs, partial(state.legal_actions, seat))
        try:
            state.apply(joint)
        except ValueError as err:
            who = ", ".join(f"agent {agents[s].name!r} at seat {s}" for s in joint)
            raise type(err)(f"{who} returned an illegal action: {err}") from err
        decisions += 1
        flush()
    result = state.result()
    if log is not None:
        log.write(finished_end(result))
    return result
