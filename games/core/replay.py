"""One replay for every game: rebuild the game from its log, re-apply the logged actions, and
check that the engine produces exactly the logged events (and the logged end)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.log import GameLog
from games.core.registry import GameEntry, LoggedActionError
from games.core.runlog import LogError


class ReplayError(LogError):
    """The log and the engine disagree; names the file and the line where they part."""


def replay(entry: GameEntry[Any, Any, Any, Any], log: GameLog[Any]) -> Any:
    """Replay ``log`` with ``entry``'s engine and return the state it reaches.

    A log cut short replays as far as it goes. Every event the engine produces must equal the
    logged one at the same position, and a finished end event must give the engine's result.
    """
    try:
        state = entry.replay_state(log)
    except ValueError as err:
        raise ReplayError(log.path, log.line_of(0), str(err)) from None
    checked = 0

    def compare() -> None:
        nonlocal checked
        produced = state.events()
        for index in range(checked, len(produced)):
            if index >= len(log.events):
                return
            if produced[index] != log.events[index]:
                raise ReplayError(
                    log.path,
                    log.line_of(index),
                    f"logged {log.events[index]!r}, the engine gives {produced[index]!r}",
                )
            checked = index + 1

    compare()
    try:
        for index, joint in entry.logged_actions(log.events):
            _apply(state, log, index, joint)
            compare()
    except LoggedActionError as err:
        raise ReplayError(log.path, log.line_of(err.index), str(err)) from None
    if checked < len(log.events):
        raise ReplayError(
            log.path, log.line_of(checked), "the engine produces no such event from these actions"
        )
    if log.end is not None and log.end.status == "finished":
        result = state.result()
        got = (tuple(result.returns), tuple(result.ranks), result.reason)
        logged = (log.end.returns, log.end.ranks, log.end.reason)
        if got != logged:
            raise ReplayError(
                log.path,
                log.line_of(len(log.lines) - 1) + 1,
                f"end {logged}, the engine gives {got}",
            )
    return state


def _apply(state: Any, log: GameLog[Any], index: int, joint: Mapping[int, Any]) -> None:
    """Apply one logged joint action; ReplayError at its line when the game refuses it."""
    if state.is_terminal():
        raise ReplayError(log.path, log.line_of(index), "an action after the game ended")
    try:
        state.apply(joint)
    except ValueError as err:
        raise ReplayError(
            log.path, log.line_of(index), f"the logged action is illegal: {err}"
        ) from None
