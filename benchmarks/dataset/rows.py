"""The rows of a run exported as a dataset: one per audited claim, per LLM decision, per game,
and per slot of an answer given in words (with how it was read).

Every game of every run is read once (its log, its audit record from ``GameEntry.audit``, the
decisions its log records from ``GameEntry.logged_decisions``, its recorded LLM calls from
``RUN/llm/<game id>.seat<k>.jsonl``) into flat rows of plain types, so the tables load in any
dataframe or ``datasets`` without gumshoe. A game's own structures (a claim's extra columns, the
game's figures, its config, a decision's position) are JSON text. Conversations are lists of
``{role, content}`` messages, as chat templates and TRL take them: a decision's ``prompt`` (what
was sent), ``completion`` (the reply) and ``messages`` (both).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from benchmarks.viewer.game import detect_game
from games.core.audit import AuditRecord, ReadAnswer
from games.core.decisions import LoggedDecision
from games.core.log import GameLog
from games.core.recordings import seat_calls
from games.core.reward import CallPosition, call_positions
from games.core.runlog import RunDir, RunDirError, field_errors, iter_lines
from reasoning.llm import RecordedCall, json_objects, load_recording, recording_file
from reasoning.textfile import UserFileError, parse_jsonl_line

DECISIONS_FILE = "decisions.jsonl"
"""What ``gumshoe hanabi annotate`` writes into a run: decisions with rollout values."""


class GameKey(BaseModel):
    """The columns every table starts with: which run and which of its games."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    run: str = Field(description="The run directory's name.")
    game: str = Field(description="The game: clue, detective, hanabi, mystery or undercover.")
    game_id: str = Field(description="The game's id in its run (its log's file name).")


class SeatRow(GameKey):
    """The columns of a row about something a seat said: the game's seed, the seat, its agent,
    and where it was said."""

    seed: int | None = Field(description="The seed the game was dealt from.")
    seat: int = Field(description="The seat that said it.")
    agent: str = Field(description="The agent at that seat.")
    line: int | None = Field(description="The log line it was said on.")
    round: int | None = Field(description="The round it was said in, where the game counts.")


class ClaimRow(SeatRow):
    """One claim a seat stated, as the game's audit judged it."""

    turn: int | None = Field(description="The turn it was stated in, where the game counts.")
    claim: str = Field(description="The claim, as the audit writes it.")
    status: str = Field(description="ENTAILED, CONTRADICTED, UNDETERMINED or UNKNOWN.")
    correctness: str | None = Field(description="TRUE or FALSE by the hidden truth.")
    judgement: str = Field(description="sound, lucky, wrong or unjudged.")
    repeat: bool = Field(description="Stated before by the same seat (not counted).")
    detail: str = Field(description="The game's extra columns (JSON object).")
    call: int | None = Field(
        description="The index, in the seat's recording, of the LLM call whose reply stated "
        "the claim (the `call` of its decision row); None where no call was recorded."
    )


class ChatTurn(BaseModel):
    """One message of a conversation."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: str = Field(description="system, user or assistant.")
    content: str = Field(description="The message's text.")


class DecisionRow(GameKey):
    """One LLM call of a seat, joined to the decision the game logged from it where it did."""

    seat: int = Field(description="The seat that was asked.")
    agent: str = Field(description="The agent at that seat.")
    turn: int | None = Field(description="The turn decided, where the game logs its decisions.")
    logged: bool = Field(
        description="The answer the game logged as the seat's decision (else a re-prompt, a "
        "proposal, or a call of a game that logs no decisions)."
    )
    call: int | None = Field(description="The call's index in the seat's recording.")
    model: str | None = Field(description="The model asked.")
    system_prompt: str | None = Field(description="The system message.")
    user_prompt: str = Field(description="The first user message: the question.")
    prompt: list[ChatTurn] = Field(
        description="The conversation sent, re-prompts included (only the question where the "
        "call was not recorded): TRL's conversational prompt."
    )
    completion: list[ChatTurn] = Field(
        description="The raw completion the server returned, as one assistant message (none "
        "when the call failed or was not recorded): TRL's conversational completion."
    )
    messages: list[ChatTurn] = Field(
        description="The prompt and the completion: the whole conversation, for a chat template."
    )
    reasoning: str | None = Field(description="The server's separate reasoning text.")
    finish_reason: str | None = Field(description="Why the completion ended.")
    prompt_tokens: int | None = Field(description="Prompt tokens of the call.")
    completion_tokens: int | None = Field(description="Completion tokens of the call.")
    failure: str | None = Field(description="The endpoint failure, for a call that failed.")
    parsed: str | None = Field(description="The parsed answer (JSON object).")
    legal: list[int] = Field(description="The legal moves, as the game numbers them.")
    chosen: int | None = Field(description="The move made.")
    ratings: list[float] = Field(description="The seat's rating of each legal move.")
    values: list[float] = Field(
        description="Each legal move's rollout value (Hanabi: `gumshoe hanabi annotate`)."
    )
    fallback: bool | None = Field(description="The move was a random legal one.")
    position: str | None = Field(
        description="Where the decision was made, enough to judge another reply there (JSON): "
        "the game's own position where it logs its decisions (Hanabi), else the log up to the "
        "event holding the claims the call's reply stated; None for a call that stated none. "
        "The game's reward function reads it (`games.<game>.reward.reward`)."
    )


class GameRow(GameKey):
    """One game: its seats, result and audit summary."""

    seed: int | None = Field(description="The seed the game was dealt from.")
    agents: list[str] = Field(description="The agent at each seat.")
    status: str = Field(description="finished, errored, or incomplete (no end event).")
    reason: str | None = Field(description="Why the game ended, or its error.")
    returns: list[float] = Field(description="Each seat's return.")
    ranks: list[int] = Field(description="Each seat's rank.")
    complete: bool = Field(description="The log reaches the game's end.")
    has_truth: bool = Field(description="The log holds the truth claims are judged by.")
    stated: int = Field(description="Distinct claims stated, every seat.")
    sound: int | None = Field(description="Of them sound.")
    lucky: int | None = Field(description="Of them lucky.")
    wrong: int | None = Field(description="Of them wrong.")
    decisions: int = Field(description="LLM decisions the log records.")
    calls: int = Field(description="LLM calls recorded.")
    figures: str = Field(description="The game's figures from its audit (JSON object).")
    config: str = Field(description="The game's config (JSON object).")


class ReadingRow(SeatRow):
    """One slot of an answer a seat gave in words, and how it was read."""

    question: str = Field(description="The question answered.")
    text: str = Field(description="The answer, in the seat's words.")
    slot: str = Field(description="The slot (part of the answer) read.")
    outcome: str = Field(description="asserted, several, rejected, none or unsure.")
    option: str | None = Field(description="The option asserted (only for asserted).")
    options: list[str] = Field(description="The options named together (several).")
    rejected: list[str] = Field(description="The options named to be denied.")
    evidence: str = Field(
        description="The words that decided the slot (JSON list: start, end, words, options, "
        "stance), spans of the text."
    )
    slot_reader: str = Field(description="Who decided the slot: offline or llm.")
    reader: str = Field(description="The reader the answer was read with.")
    note: str = Field(description="Why the slot is unsure, when it is.")
    reading_calls: int = Field(description="The reader's LLM calls for the whole answer.")
    ballots: list[str] = Field(description="The LLM vote's ballots, in order (empty: no vote).")
    decided_by: str | None = Field(description="repeat or no repeat (the LLM vote), or none.")
    call: int | None = Field(description="The recorded LLM call the answer came from.")


TABLES: dict[str, type[BaseModel]] = {
    "claims": ClaimRow,
    "decisions": DecisionRow,
    "games": GameRow,
    "readings": ReadingRow,
}
"""Every table's name and row model."""


class Tables(BaseModel):
    """The rows of every table, and the runs they came from with their games."""

    model_config = ConfigDict(extra="forbid")

    claims: list[ClaimRow] = Field(default_factory=list)
    decisions: list[DecisionRow] = Field(default_factory=list)
    games: list[GameRow] = Field(default_factory=list)
    readings: list[ReadingRow] = Field(default_factory=list)
    runs: dict[str, int] = Field(default_factory=dict)

    def rows(self, table: str) -> Sequence[BaseModel]:
        """The rows of ``table``."""
        rows: Sequence[BaseModel] = getattr(self, table)
        return rows


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def run_logs(run: Path) -> list[Path]:
    """The game logs of run directory ``run``; RunDirError when it is not a run or holds no
    games."""
    if not (run / RunDir.CONFIG_FILE).is_file():
        raise RunDirError(f"{run}: not a run directory (no {RunDir.CONFIG_FILE})")
    logs = sorted((run / RunDir.GAMES_DIR).glob("*.jsonl"))
    if not logs:
        raise RunDirError(f"{run}: a run without games (no {RunDir.GAMES_DIR}/*.jsonl)")
    return logs


def claim_rows(run: str, game_id: str, record: AuditRecord) -> list[ClaimRow]:
    """One row per row of a game's audit record."""
    agents = {s.seat: s.agent for s in record.seats}
    return [
        ClaimRow(
            run=run,
            game=record.game,
            game_id=game_id,
            seed=record.seed,
            seat=row.seat,
            agent=agents.get(row.seat, ""),
            line=row.where.line,
            round=row.where.round,
            turn=row.where.turn,
            claim=row.claim,
            status=row.status.value,
            correctness=None if row.correctness is None else row.correctness.value,
            judgement=row.judgement,
            repeat=row.repeat,
            detail=_json(row.detail),
            call=row.call,
        )
        for row in record.rows
    ]


def reading_rows(run: str, game_id: str, record: AuditRecord) -> list[ReadingRow]:
    """One row per slot of every answer in words the game's audit lists."""
    agents = {s.seat: s.agent for s in record.seats}

    def rows(read: ReadAnswer) -> Iterator[ReadingRow]:
        reading, vote = read.reading, read.reading.vote
        for slot in reading.slots:
            yield ReadingRow(
                run=run,
                game=record.game,
                game_id=game_id,
                seed=record.seed,
                seat=read.seat,
                agent=agents.get(read.seat, ""),
                line=read.where.line,
                round=read.where.round,
                question=read.question,
                text=read.text,
                slot=slot.slot,
                outcome=slot.outcome,
                option=slot.option,
                options=list(slot.options),
                rejected=list(slot.rejected),
                evidence=_json([e.model_dump() for e in slot.evidence]),
                slot_reader=slot.reader,
                reader=reading.reader,
                note=slot.note,
                reading_calls=reading.calls,
                ballots=list(vote.ballots) if vote else [],
                decided_by=vote.decided_by if vote else None,
                call=read.call,
            )

    return [row for read in record.readings for row in rows(read)]


def game_row(
    run: str, game_id: str, log: GameLog[Any], record: AuditRecord, decisions: int, calls: int
) -> GameRow:
    """A game's row: seats and result from its log, counts from its audit."""
    header, end = log.header, log.end

    def total(key: str) -> int | None:
        counts = [getattr(s, key) for s in record.seats]
        return None if any(c is None for c in counts) else sum(counts)

    return GameRow(
        run=run,
        game=record.game,
        game_id=game_id,
        seed=record.seed,
        agents=[s.agent for s in header.seats] if header else [s.agent for s in record.seats],
        status=end.status if end else "incomplete",
        reason=(end.error or end.reason) if end else None,
        returns=list(end.returns) if end else [],
        ranks=list(end.ranks) if end else [],
        complete=record.complete,
        has_truth=record.has_truth,
        stated=sum(s.stated for s in record.seats),
        sound=total("sound"),
        lucky=total("lucky"),
        wrong=total("wrong"),
        decisions=decisions,
        calls=calls,
        figures=_json(record.figures),
        config=_json(header.config if header else {}),
    )


def seat_recording(run_dir: Path, game_id: str, seat: int) -> list[RecordedCall]:
    """The calls recorded for ``seat`` in game ``game_id`` (none when not recorded)."""
    found = recording_file(seat_calls(run_dir, game_id, seat))
    return [] if found is None else load_recording(found, inside=run_dir)


def _first(call: RecordedCall, role: str) -> str | None:
    return next((m.content for m in call.messages if m.role == role), None)


def _parsed(text: str | None) -> str | None:
    found = json_objects(text or "")
    return _json(found[0]) if found else None


class DecisionJoin:
    """Joins one seat's recorded calls to the decisions its game logged, in order: a logged
    decision's answer is the last call asking its prompt after the previous decision's; calls in
    between (re-prompts, proposals) belong to its turn."""

    def __init__(
        self,
        run: str,
        game: str,
        game_id: str,
        seat: int,
        agent: str,
        positions: Mapping[int, CallPosition] | None = None,
    ) -> None:
        """Rows of ``seat`` of game ``game_id``; ``positions`` by call index, where its log
        names the calls whose replies stated claims."""
        self.positions = positions or {}
        self.base: dict[str, Any] = {
            "run": run,
            "game": game,
            "game_id": game_id,
            "seat": seat,
            "agent": agent,
        }

    def call_fields(self, index: int, call: RecordedCall) -> dict[str, Any]:
        """The columns one recorded call fills."""
        reply = call.reply
        prompt = [ChatTurn(role=m.role, content=m.content) for m in call.messages]
        completion = [] if reply is None else [ChatTurn(role="assistant", content=reply.content)]
        return {
            "call": index,
            "model": reply.model if reply is not None else call.model,
            "system_prompt": _first(call, "system"),
            "user_prompt": _first(call, "user") or "",
            "prompt": prompt,
            "completion": completion,
            "messages": prompt + completion,
            "reasoning": reply.reasoning if reply is not None else None,
            "finish_reason": reply.finish_reason if reply is not None else None,
            "prompt_tokens": reply.prompt_tokens if reply is not None else None,
            "completion_tokens": reply.completion_tokens if reply is not None else None,
            "failure": call.failure.detail if call.failure is not None else None,
            "parsed": _parsed(reply.content if reply is not None else None),
        }

    def unlogged(self, index: int, call: RecordedCall, turn: int | None) -> DecisionRow:
        """A recorded call no logged decision takes as its answer."""
        return DecisionRow(
            **self.base,
            **self.call_fields(index, call),
            turn=turn,
            logged=False,
            legal=[],
            chosen=None,
            ratings=[],
            values=[],
            fallback=None,
            position=(self.positions[index].model_dump_json() if index in self.positions else None),
        )

    def logged(
        self,
        decision: LoggedDecision,
        answer: tuple[int, RecordedCall] | None,
        values: Sequence[float],
    ) -> DecisionRow:
        """A logged decision, with the call that answered it where it was recorded."""
        question = [ChatTurn(role="user", content=decision.prompt)]
        fields: dict[str, Any] = {
            "call": None,
            "model": None,
            "system_prompt": None,
            "prompt": question,
            "completion": [],
            "messages": question,
            "finish_reason": None,
            "prompt_tokens": None,
            "completion_tokens": None,
            "failure": None,
        }
        if answer is not None:
            fields.update(self.call_fields(*answer))
        else:
            fields["reasoning"] = decision.reasoning
        fields.update(user_prompt=decision.prompt, parsed=decision.response or None)
        return DecisionRow(
            **self.base,
            **fields,
            turn=decision.turn,
            logged=True,
            legal=list(decision.legal),
            chosen=decision.chosen,
            ratings=list(decision.ratings),
            values=list(values),
            fallback=decision.fallback,
            position=None if decision.position is None else _json(decision.position),
        )

    def rows(
        self,
        decisions: Sequence[LoggedDecision],
        calls: Sequence[RecordedCall],
        values: dict[int, list[float]],
    ) -> Iterator[DecisionRow]:
        """Every decision and call of the seat, in order (``values`` by turn)."""
        cursor = 0
        for decision in decisions:
            asked = [
                i
                for i in range(cursor, len(calls))
                if decision.prompt and _first(calls[i], "user") == decision.prompt
            ]
            if not asked:
                yield self.logged(decision, None, values.get(decision.turn, []))
                continue
            answer = asked[-1]
            for i in range(cursor, answer):
                yield self.unlogged(i, calls[i], decision.turn)
            yield self.logged(decision, (answer, calls[answer]), values.get(decision.turn, []))
            cursor = answer + 1
        for i in range(cursor, len(calls)):
            yield self.unlogged(i, calls[i], None)


def annotated_values(run_dir: Path) -> dict[tuple[str, int, int], list[float]]:
    """The rollout values ``hanabi annotate`` wrote into the run, by (game id, seat, turn)."""
    path = run_dir / DECISIONS_FILE
    if not os.path.lexists(path):
        return {}
    found: dict[tuple[str, int, int], list[float]] = {}
    for lineno, line in iter_lines(path, inside=run_dir):
        try:
            record = AnnotatedDecision.model_validate(parse_jsonl_line(line, path, lineno))
        except UserFileError as err:
            raise RunDirError(str(err)) from None
        except ValidationError as err:
            reason = field_errors(err)
            raise RunDirError(f"{path}:{lineno}: not a decision record ({reason})") from None
        found[record.game, record.seat, record.turn] = record.values
    return found


class AnnotatedDecision(BaseModel):
    """What ``annotated_values`` takes from a line of ``hanabi annotate``'s decisions file,
    with strict types (a seat of ``true`` is no seat)."""

    model_config = ConfigDict(extra="ignore", strict=True)

    game: str
    seat: int = Field(ge=0)
    turn: int = Field(ge=0)
    values: list[float] = []


def export_run(run_dir: Path, tables: Tables) -> None:
    """Add every game of run directory ``run_dir`` to ``tables`` (RunDirError, LogError or
    ValueError naming the file when one cannot be read)."""
    run = run_dir.resolve().name
    if run in tables.runs:
        raise RunDirError(f"{run_dir}: a second run named {run!r}; rename one")
    logs = run_logs(run_dir)
    values = annotated_values(run_dir)
    for path in logs:
        entry = detect_game(path, run_dir)
        log: GameLog[Any] = entry.read_log(path, inside=run_dir)
        record = entry.audit(log)
        decisions = entry.logged_decisions(log)
        seats = log.header.seats if log.header is not None else ()
        calls = 0
        positions = call_positions(log)
        for seat, info in enumerate(seats):
            recorded = seat_recording(run_dir, path.stem, seat)
            calls += len(recorded)
            own_positions = {c: p for (s, c), p in positions.items() if s == seat}
            join = DecisionJoin(run, entry.info.name, path.stem, seat, info.agent, own_positions)
            own = [d for d in decisions if d.seat == seat]
            by_turn = {
                turn: v
                for (game_id, s, turn), v in values.items()
                if (game_id, s) == (path.stem, seat)
            }
            tables.decisions += join.rows(own, recorded, by_turn)
        tables.claims += claim_rows(run, path.stem, record)
        tables.readings += reading_rows(run, path.stem, record)
        tables.games.append(game_row(run, path.stem, log, record, len(decisions), calls))
    tables.runs[run] = len(logs)
