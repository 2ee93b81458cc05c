"""Hanabi on the shared game core: the protocol state, its log events, ``ENTRY``."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from games.core.log import GameLog, LogHeader, SeatInfo
from games.core.printer import Echo
from games.core.protocol import IllegalAction, SeatResult
from games.core.registry import GameEntry, LoggedActionError, PlaySetup
from games.core.runlog import game_id
from games.hanabi.agents import AGENTS, HanabiAgentSettings
from games.hanabi.config import HANABI_INFO, MAX_SEED
from games.hanabi.engine import (
    MAX_LIVES,
    MAX_SCORE,
    HanabiGame,
    HanabiObservation,
    deal_event,
    end_event,
    turn_event,
)
from games.hanabi.events import (
    HANABI_EVENT,
    DealEvent,
    DecisionEvent,
    DiscardEvent,
    GameEnd,
    HanabiConfig,
    HanabiEvent,
    HanabiMove,
    HintEvent,
    PlayEvent,
)
from games.hanabi.playing import HanabiOptions, HanabiPrinter

if TYPE_CHECKING:
    from pydantic import BaseModel

    from games.core.audit import AuditRecord
    from games.core.decisions import LoggedDecision
    from games.core.view import ViewParts


class HanabiState:
    """A ``HanabiGame`` as a ``GameState``: the deal event, one event per move, ``game_end``."""

    def __init__(self, game: HanabiGame) -> None:
        self.game = game
        self._events: list[HanabiEvent] = [deal_event(game)]

    def current_players(self) -> list[int]:
        """The seat to move (none once the game is over)."""
        return self.game.current_players()

    def legal_actions(self, seat: int) -> list[int]:
        """The seat's legal move numbers."""
        return self.game.legal_actions(seat)

    def apply(self, actions: Mapping[int, Any]) -> None:
        """Play one seat's move number (a ``HanabiMove`` logs its decision first);
        IllegalAction (state unchanged) when not legal."""
        if len(actions) != 1:
            raise IllegalAction(f"expected one seat's move, got {len(actions)}")
        ((seat, move),) = actions.items()
        action = move.action if isinstance(move, HanabiMove) else move
        if not isinstance(action, int) or isinstance(action, bool):
            raise IllegalAction(f"move {action!r} is not a move number")
        self.game.apply({seat: action})
        index = len(self.game.history) - 1
        if isinstance(move, HanabiMove):
            self._events.append(move.decision)
        self._events.append(turn_event(self.game, index, self.game.history[index]))
        if self.game.is_terminal():
            self._events.append(end_event(self.game))

    def observation(self, seat: int) -> HanabiObservation:
        """What ``seat`` knows now."""
        return self.game.observation(seat)

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self.game.is_terminal()

    def returns(self) -> list[float]:
        """The shared score for every seat (the configured scoring mode)."""
        return self.game.returns()

    def result(self) -> SeatResult:
        """Every seat's return is the score and every seat ranks first; the end reason."""
        reason = self.game.end_reason()
        if reason is None:
            raise ValueError("the game is still running")
        players = self.game.players
        return SeatResult(returns=tuple(self.returns()), ranks=(1,) * players, reason=reason)

    def events(self) -> list[HanabiEvent]:
        """The deal and every move so far."""
        return self._events


MOVE_EVENTS = (PlayEvent, DiscardEvent, HintEvent)
"""The events that record a move."""


def hanabi_actions(
    events: Sequence[HanabiEvent],
) -> Iterator[tuple[int, Mapping[int, int | HanabiMove]]]:
    """Every move a log records, as ``{seat: move number}``, or a ``HanabiMove`` with the
    decision logged before it (indexed by the decision)."""
    decision: tuple[int, DecisionEvent] | None = None
    for index, event in enumerate(events):
        if isinstance(event, DecisionEvent):
            decision = (index, event)
        elif isinstance(event, MOVE_EVENTS):
            if decision is None:
                yield index, {event.seat: event.action}
            else:
                yield decision[0], {event.seat: HanabiMove(event.action, decision[1])}
            decision = None
    if decision is not None:
        raise LoggedActionError(decision[0], "the log ends after a decision, before its move")


def check_hanabi_events(events: Sequence[HanabiEvent]) -> tuple[int, str] | None:
    """Hanabi's own log rules: the deal first; move ``n`` and the decision before it are turn
    ``n``; a decision is followed by its seat's move; ``game_end`` is last."""
    moves = 0
    for index, event in enumerate(events):
        if (index == 0) != isinstance(event, DealEvent):
            return index, "the deal must be the first event and only the first"
        if isinstance(event, GameEnd) and index != len(events) - 1:
            return index, "game_end must be the last event"
        if isinstance(event, MOVE_EVENTS):
            moves += 1
        due = moves if isinstance(event, (*MOVE_EVENTS, DealEvent)) else moves + 1
        if event.turn != due:
            return index, f"turn {event.turn} where {due} was due"
        if isinstance(event, DecisionEvent):
            after = events[index + 1] if index + 1 < len(events) else None
            if after is not None and not (
                isinstance(after, MOVE_EVENTS)
                and after.seat == event.seat
                and after.action == event.chosen
            ):
                return index, "a decision must be followed by its seat's chosen move"
    return None


class HanabiEntry(GameEntry[HanabiEvent, HanabiConfig, HanabiAgentSettings, HanabiOptions]):
    """Hanabi in the registry of games; the header's config is a ``HanabiConfig``."""

    info = HANABI_INFO
    play_options = HanabiOptions
    model_agents = "mycroft,symbolic"
    default_agents = "symbolic*3"
    max_seed = MAX_SEED
    config_type = HanabiConfig
    event_adapter = HANABI_EVENT
    agents = AGENTS
    outcome_keys = ("score", "perfect", "strikes")

    def outcome(self, log: GameLog[HanabiEvent], seats: Sequence[int]) -> dict[str, float]:
        """The shared result of a finished game, whoever the seats: its score (in the logged
        scoring mode), whether it is perfect, and the strikes (lives lost); a cooperative game
        has no winner."""
        end = log.events[-1] if log.events else None
        if not isinstance(end, GameEnd) or log.end is None or log.end.status != "finished":
            return {}
        return {
            "score": float(end.score),
            "perfect": float(sum(end.fireworks) == MAX_SCORE),
            "strikes": float(MAX_LIVES - end.lives),
        }

    def default_config(self, players: int) -> HanabiConfig:
        """``players`` seats, fireworks scoring."""
        self.info.check_players(players)
        return HanabiConfig(players=players)

    def config_players(self, config: HanabiConfig) -> int:
        """The seats of the configured game."""
        return config.players

    def new_state(self, config: HanabiConfig, seed: int, seats: Sequence[SeatInfo]) -> HanabiState:
        """A fresh game dealt from ``seed`` as the reference engine deals it."""
        return HanabiState(HanabiGame(config, seed))

    def seat_count(self, options: HanabiOptions) -> int | None:
        """``--players``, when given."""
        return options.players

    def play_setup(
        self,
        options: HanabiOptions,
        specs: tuple[str, ...],
        seed: int,
        settings: HanabiAgentSettings,
        recorded: HanabiConfig | None,
    ) -> PlaySetup[HanabiConfig, HanabiAgentSettings]:
        """``len(specs)`` players under ``options.scoring`` (or the recorded game), the LLM
        agents' options in the settings."""
        config = recorded or HanabiConfig(players=len(specs), scoring=options.scoring)
        update = {
            "scoring": config.scoring,
            "view": options.sherlock_view,
            "best_of": options.best_of,
            "mixture": options.mixture,
            "invalid": options.invalid,
        }
        return PlaySetup(config, settings.model_copy(update=update), specs)

    def game_id(self, config: HanabiConfig, seed: int) -> str:
        """``hanabi-p<players>-seed<seed>``."""
        return game_id("hanabi", seed, f"p{config.players}")

    def printer(
        self, options: HanabiOptions, settings: HanabiAgentSettings, echo: Echo
    ) -> HanabiPrinter:
        """Each turn with the deciding seat's knowledge (``options.view``), each move, the score."""
        return HanabiPrinter(echo, options.view)

    def reward_function(self) -> Callable[..., list[float | None]]:
        """Hanabi's reward function in TRL's shape (``games.hanabi.reward``)."""
        from games.hanabi.reward import reward

        return reward

    def answer_models(self) -> list[type[BaseModel]]:
        """Hanabi's answer models at their largest (``games.hanabi.llm_schemas``)."""
        from games.hanabi.llm_schemas import largest_answer_models

        return largest_answer_models()

    def audit(self, log: GameLog[HanabiEvent]) -> AuditRecord:
        """Hanabi's audit (``games.hanabi.audit``)."""
        from games.hanabi.audit import audit_record

        return audit_record(log)

    def view(self, log: GameLog[HanabiEvent]) -> ViewParts:
        """Hanabi's step texts and knowledge panels (``games.hanabi.view``)."""
        from games.hanabi.view import hanabi_view

        return hanabi_view(log)

    def logged_decisions(self, log: GameLog[HanabiEvent]) -> list[LoggedDecision]:
        """The LLM seats' decisions a log records (``games.hanabi.position``)."""
        from games.hanabi.position import logged_decisions

        return logged_decisions(log)

    def replay_state(self, log: GameLog[HanabiEvent]) -> HanabiState:
        """The game the log's header deals."""
        return self.new_state(self.logged_config(log), log.seed, log.header.seats)

    def logged_actions(
        self, events: Sequence[HanabiEvent]
    ) -> Iterator[tuple[int, Mapping[int, Any]]]:
        """See ``hanabi_actions``."""
        return hanabi_actions(events)

    def bare_action(self, action: Any) -> Any:
        """The move number, without its decision record."""
        return action.action if isinstance(action, HanabiMove) else action

    def check_events(
        self, header: LogHeader, events: Sequence[HanabiEvent]
    ) -> tuple[int, str] | None:
        """See ``check_hanabi_events``."""
        return check_hanabi_events(events)


ENTRY = HanabiEntry()
"""Hanabi's entry in ``games.core.registry``."""
