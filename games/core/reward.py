"""Rewards for training from the exact audit: one number per decision, with its parts.

A decision's reward adds three terms, each weighted by ``RewardWeights``:

- the claims term: the mean, over the claims the reply stated, of the weight of each claim's
  judgement (sound, lucky, wrong or unjudged; ``reasoning.verifier.judge``), 0 when it stated
  none;
- the recall term: ``recall`` times the share of what the decision could have stated that it
  stated completely and truly (the game defines it; Hanabi: every tracked slot);
- the value term: ``value`` times the chosen move's value scaled to [0, 1] (Hanabi: the mean
  rollout score over 25), when one is given.

A term that is not available (no recall defined, no value asked for) adds 0. A reply that cannot
be read as an answer scores ``malformed`` and nothing else. With the default weights a reply's
reward lies in [-1, 3]: -1 when every claim is wrong and nothing is recalled, 3 for sound,
complete claims on every slot and a move worth the full score.

Every game has a reward function in the shape TRL's trainers call (``GRPOTrainer(...,
reward_funcs=[...])``): ``reward(prompts, completions, **columns) -> list[float | None]``, the
completions as text or as chat messages, the dataset's columns as keyword lists (``position``
above all: where the decision was made, as ``gumshoe export dataset`` writes it). A row of another
game, or without a position, gets None (TRL leaves it to the other reward functions). Games that
log their decisions give their own position (Hanabi: ``games.hanabi.position.Position``); in the
others a position is a ``CallPosition``: the log up to the event holding the claims a recorded
call's reply stated. A new reply is read as the game's LLM seat reads one, put in that event's
place, and the prefix is audited again (``rescore``): its claims are judged exactly where they
were stated, and the recall is the seat's over the game so far (the detective judges the one
answer with its audit's own function instead, which is what the prefix's audit would do, at a
tenth of the cost). ``trl_reward`` makes each game's function from its scoring of one row.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from games.core.log import GameLog, LogHeader
from reasoning.claims import Judgement
from reasoning.llm import MalformedAnswer


class RewardWeights(BaseModel):
    """The weight of each judgement in the claims term, of the recall and value terms, and the
    reward of a reply that cannot be read (see the module docstring)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sound: float = 1.0
    """A claim entailed by what the speaker knew, and true."""
    lucky: float = 0.0
    """A true claim its speaker could not deduce: a guess that held."""
    wrong: float = -1.0
    """A false claim."""
    unjudged: float = -1.0
    """A claim the audit cannot judge (Hanabi: about a seat or slot that does not exist)."""
    recall: float = 1.0
    value: float = 1.0
    malformed: float = -1.0


class Reward(BaseModel):
    """A decision's reward and what it is made of: the counts of its claims by judgement, the
    claims term, the recall and the scaled value (None where not available)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    total: float
    parsed: bool
    claims: int = Field(default=0, ge=0)
    sound: int = Field(default=0, ge=0)
    lucky: int = Field(default=0, ge=0)
    wrong: int = Field(default=0, ge=0)
    unjudged: int = Field(default=0, ge=0)
    claims_term: float = 0.0
    recall: float | None = None
    value: float | None = None


def malformed(weights: RewardWeights) -> Reward:
    """The reward of a reply that cannot be read as an answer."""
    return Reward(total=weights.malformed, parsed=False)


def reward(
    judgements: Sequence[Judgement],
    weights: RewardWeights,
    *,
    recall: float | None = None,
    value: float | None = None,
) -> Reward:
    """The reward of a readable reply whose stated claims were judged ``judgements``, with its
    ``recall`` and its move's ``value`` in [0, 1] where available (module docstring)."""
    if value is not None and not 0.0 <= value <= 1.0:
        raise ValueError(f"value: must be in [0, 1], got {value}")
    if recall is not None and not 0.0 <= recall <= 1.0:
        raise ValueError(f"recall: must be in [0, 1], got {recall}")
    counts = {kind: judgements.count(kind) for kind in ("sound", "lucky", "wrong", "unjudged")}
    per_claim = {
        "sound": weights.sound,
        "lucky": weights.lucky,
        "wrong": weights.wrong,
        "unjudged": weights.unjudged,
    }
    claims_term = (
        sum(per_claim[kind] * count for kind, count in counts.items()) / len(judgements)
        if judgements
        else 0.0
    )
    total = claims_term
    total += weights.recall * recall if recall is not None else 0.0
    total += weights.value * value if value is not None else 0.0
    return Reward(
        total=total,
        parsed=True,
        claims=len(judgements),
        claims_term=claims_term,
        recall=recall,
        value=value,
        **counts,
    )


class CallPosition(BaseModel):
    """Where a recorded LLM call's reply stated claims: the log's header and its events up to
    the one holding them (as JSON), the seat, the call's index in the seat's recording, and the
    part of the event that call answered where one event holds several calls' claims (the
    detective's question)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int = Field(ge=0)
    call: int = Field(ge=0)
    part: str | None = None
    header: dict[str, Any]
    events: list[dict[str, Any]] = Field(min_length=1)


def position_events(entry: Any, position: CallPosition) -> tuple[LogHeader, list[Any]]:
    """The header and the events of ``position``, read as ``entry`` (a ``GameEntry``) reads
    its logs' records."""
    header = LogHeader.model_validate_json(json.dumps(position.header))
    return header, [entry.event_adapter.validate_json(json.dumps(e)) for e in position.events]


def events_before(entry: Any, position: CallPosition) -> GameLog[Any]:
    """The log of ``position`` without the event holding the call's claims: the game as the seat
    found it when asked."""
    header, events = position_events(entry, position)
    return GameLog.of_events(header, events[:-1])


def call_positions(log: GameLog[Any]) -> dict[tuple[int, int], CallPosition]:
    """The position of every recorded call a log names on an event (``call``, or ``calls`` per
    part), by (seat, call)."""
    header = log.header.model_dump(mode="json")
    dumped: list[dict[str, Any]] = []
    found: dict[tuple[int, int], CallPosition] = {}
    for event in log.events:
        dumped.append(event.model_dump(mode="json"))
        seat = getattr(event, "seat", 0)
        named: dict[str | None, Any] = {None: getattr(event, "call", None)}
        named.update(getattr(event, "calls", None) or {})
        for part, call in named.items():
            if isinstance(call, int) and isinstance(seat, int):
                found[seat, call] = CallPosition(
                    seat=seat, call=call, part=part, header=header, events=list(dumped)
                )
    return found


class Restate(Protocol):
    """A game's reading of a reply in place of the call it answers: the event of ``position``
    holding the claims ``text`` states instead (MalformedAnswer when the game's LLM seat could
    not read ``text`` as that call's answer)."""

    def __call__(self, event: Any, text: str, position: CallPosition) -> Any: ...


def rescore(
    entry: Any, position: CallPosition, text: str, restate: Restate, weights: RewardWeights
) -> Reward:
    """The reward of ``text`` answering the call of ``position`` in a game of ``entry`` (a
    ``GameEntry``): read by ``restate`` into the claims' event, the log up to it audited again,
    the rows of that call judged, and the seat's recall over the game so far (None where the
    game defines none)."""
    header, events = position_events(entry, position)
    try:
        events[-1] = restate(events[-1], text, position)
    except MalformedAnswer:
        return malformed(weights)
    record = entry.audit(GameLog.of_events(header, events))
    line = len(events) + 1
    judgements = [
        row.judgement
        for row in record.rows
        if row.seat == position.seat and row.where.line == line and row.call == position.call
    ]
    summary = next((s for s in record.seats if s.seat == position.seat), None)
    return reward(judgements, weights, recall=None if summary is None else summary.recall)


def completion_text(completion: str | Sequence[Mapping[str, Any]]) -> str:
    """A completion's text: itself, or the content of its last message (TRL hands conversational
    completions as lists of ``{role, content}``)."""
    if isinstance(completion, str):
        return completion
    if not completion:
        return ""
    return str(completion[-1]["content"])


Scorer = Callable[[str, str, Mapping[str, Any]], Reward]
"""One row's scoring: its position (JSON), the completion's text and the row's other columns."""
GameScorer = Callable[..., Reward]
"""A game's scoring of one row: ``(position, text, columns, weights, **options)``."""
RewardFunction = Callable[..., list[float | None]]
"""A reward function in TRL's shape: ``(prompts, completions, position=..., **columns)``."""


def trl_reward(
    game: str,
    score: GameScorer,
    default: RewardWeights,
    doc: str,
    options: tuple[str, ...] = (),
) -> RewardFunction:
    """``game``'s reward function in TRL's shape, scoring each row with ``score`` under the
    ``weights`` it is given (``default`` unless bound, e.g. with ``functools.partial``) and the
    keyword ``options`` the game takes besides the columns; named ``<game>_reward``, as TRL logs
    it, and documented by ``doc``."""

    def reward(
        prompts: Sequence[Any],
        completions: Sequence[Any],
        position: Sequence[str | None],
        weights: RewardWeights = default,
        **columns: Any,
    ) -> list[float | None]:
        chosen = {name: columns.pop(name) for name in options if name in columns}
        return rewards(
            game,
            lambda where, text, row: score(where, text, row, weights, **chosen),
            completions,
            position,
            columns,
        )

    reward.__name__ = reward.__qualname__ = f"{game}_reward"
    reward.__doc__ = doc
    return reward


def rewards(
    game: str,
    score: Scorer,
    completions: Sequence[str | Sequence[Mapping[str, Any]]],
    position: Sequence[str | None],
    columns: Mapping[str, Sequence[Any]],
) -> list[float | None]:
    """The TRL-shaped rewards of ``completions`` of ``game``: each row's total by ``score``, None
    for a row of another game (its ``game`` column) or without a position; ValueError naming the
    row when its position is not one."""
    games = columns.get("game")
    out: list[float | None] = []
    for row, (completion, where) in enumerate(zip(completions, position, strict=True)):
        if where is None or (games is not None and games[row] != game):
            out.append(None)
            continue
        own = {key: values[row] for key, values in columns.items()}
        try:
            out.append(score(where, completion_text(completion), own).total)
        except (ValidationError, json.JSONDecodeError) as err:
            first = str(err).strip().splitlines()[0]
            raise ValueError(f"position of row {row}: not a {game} position ({first})") from None
    return out
