"""Recording chat calls to a JSONL file and replaying them, so LLM games re-run exactly."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Self

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from reasoning.llm.chat import ChatClient, ChatOptions, complete_with
from reasoning.llm.errors import LLMEndpointError, ReplayExhausted, ReplayMismatch
from reasoning.llm.messages import ChatMessage, ChatReply
from reasoning.llm.usage import UsageMeter
from reasoning.outfile import named_os_error, open_append
from reasoning.textfile import (
    UserFileError,
    iter_user_gzip_lines,
    iter_user_lines,
    parse_jsonl_line,
)


class RecordedFailure(BaseModel):
    """An endpoint failure as recorded, so a replay raises the same ``LLMEndpointError``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    endpoint: str
    attempts: int
    detail: str
    status: int | None = None

    def error(self) -> LLMEndpointError:
        """The error this record stands for."""
        return LLMEndpointError(self.endpoint, self.attempts, self.detail, self.status)


class RecordedCall(BaseModel):
    """One line of a recording: the request (model, seed, messages), its reply or failure, and
    when it was asked (UTC; None in recordings made before calls were timed)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    index: int
    model: str
    seed: int | None
    messages: list[ChatMessage]
    reply: ChatReply | None = None
    failure: RecordedFailure | None = None
    started_at: datetime | None = None

    @model_validator(mode="after")
    def _one_outcome(self) -> Self:
        if (self.reply is None) == (self.failure is None):
            raise ValueError("a recorded call holds exactly one of 'reply' and 'failure'")
        return self


class RecordingClient:
    """Pass calls to ``inner`` and append each request with its reply to ``path`` as JSONL.

    Each line is written and flushed as soon as the call ends, so an interrupted run keeps
    every finished call; an ``LLMEndpointError`` is recorded too (then re-raised), so a game
    that errored errors the same way on replay. An existing file is appended to and numbering
    continues after it.
    """

    def __init__(self, inner: ChatClient, path: Path) -> None:
        self._inner = inner
        self.path = path
        self._lock = threading.Lock()
        path.parent.mkdir(parents=True, exist_ok=True)
        self._next_index = _count_lines(path)
        self.last_index: int | None = None
        """The ``index`` of the latest call recorded (None before the first)."""

    @property
    def model(self) -> str:
        """The wrapped client's model."""
        return self._inner.model

    @property
    def meter(self) -> UsageMeter:
        """The wrapped client's usage meter."""
        return self._inner.meter

    def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        seed: int | None = None,
        options: ChatOptions | None = None,
    ) -> ChatReply:
        """Ask the wrapped client, then record the call and its reply or endpoint failure."""
        started = datetime.now(UTC)
        try:
            reply = complete_with(self._inner, messages, seed=seed, options=options)
        except LLMEndpointError as exc:
            failure = RecordedFailure(
                endpoint=exc.endpoint, attempts=exc.attempts, detail=exc.detail, status=exc.status
            )
            self._write(messages, seed, None, failure, started)
            raise
        self._write(messages, seed, reply, None, started)
        return reply

    def _model_or_unknown(self) -> str:
        """The model, or "" when a failure left it unknown (no name given, no model list)."""
        try:
            return self._inner.model
        except LLMEndpointError:
            return ""

    def _write(
        self,
        messages: Sequence[ChatMessage],
        seed: int | None,
        reply: ChatReply | None,
        failure: RecordedFailure | None,
        started: datetime,
    ) -> None:
        with self._lock:
            record = RecordedCall(
                index=self._next_index,
                model=self._model_or_unknown(),
                seed=seed,
                messages=list(messages),
                reply=reply,
                failure=failure,
                started_at=started,
            )
            with open_append(self.path) as handle:
                try:
                    handle.write(record.model_dump_json() + "\n")
                    handle.flush()
                except OSError as err:
                    raise named_os_error(err, self.path) from None
            self.last_index = self._next_index
            self._next_index += 1


class ReplayClient:
    """Answer calls from a recording, in order, checking each request against the recorded one.

    The model, seed and messages must match what was recorded at the same position; the first
    difference raises ``ReplayMismatch`` naming the call index and field. An empty ``model``
    takes the recording's. A recorded endpoint failure is raised again as
    ``LLMEndpointError``. Replies and failures are counted in ``meter`` as the endpoint's were
    (retries inside a recorded call are not replayed); options are not checked, as the reply
    already shows the mode and cap it was asked with.
    """

    def __init__(self, path: Path, *, model: str = "", meter: UsageMeter | None = None) -> None:
        self.path = path
        self._meter = meter if meter is not None else UsageMeter()
        self._calls = load_recording(path)
        self._model = model or (self._calls[0].model if self._calls else "")
        self._next = 0
        self._lock = threading.Lock()
        self.last_index: int | None = None
        """The recorded ``index`` of the latest call answered (None before the first)."""

    @property
    def model(self) -> str:
        """The model requests are checked against."""
        return self._model

    @property
    def meter(self) -> UsageMeter:
        """Where replayed calls are counted."""
        return self._meter

    @property
    def remaining(self) -> int:
        """Recorded calls not replayed yet."""
        with self._lock:
            return len(self._calls) - self._next

    def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        seed: int | None = None,
        options: ChatOptions | None = None,
    ) -> ChatReply:
        """Return the next recorded reply if the request matches its recording."""
        with self._lock:
            index = self._next
            if index >= len(self._calls):
                raise ReplayExhausted(self.path, index)
            _check_same(self._calls[index], self._model, seed, messages, index)
            self._next += 1
            self.last_index = self._calls[index].index
        recorded = self._calls[index]
        if recorded.failure is not None:
            self._meter.record_error()
            raise recorded.failure.error()
        assert recorded.reply is not None  # guaranteed by RecordedCall's validator
        self._meter.record_reply(recorded.reply)
        return recorded.reply


def recording_file(path: Path) -> Path | None:
    """The file that holds the recording ``path`` names: ``path`` itself, else ``path`` with
    ``.gz`` added (a gzip-compressed recording, as long games are kept); None when neither is
    (anything standing at either name counts: reading it refuses what is not a regular file)."""
    for candidate in (path, path.with_name(path.name + ".gz")):
        if os.path.lexists(candidate):
            return candidate
    return None


def load_recording(path: Path, *, inside: Path | None = None) -> list[RecordedCall]:
    """Read a recording (``recording_file`` finds a compressed one; ``inside``: the folder it
    was found in, see ``reasoning.textfile.open_user_file``); a bad line raises ``ValueError``
    naming the file and line number."""
    found = recording_file(path) or path
    try:
        read = iter_user_gzip_lines if found.suffix == ".gz" else iter_user_lines
        lines = [
            (number, parse_jsonl_line(line, found, number))
            for number, _, line in read(found, inside=inside)
            if line.strip()
        ]
    except UserFileError as err:
        where = f"line {err.line}: " if err.line else ""
        raise ValueError(f"{err.path}: not a readable recording: {where}{err.reason}") from None
    calls: list[RecordedCall] = []
    for number, record in lines:
        try:
            calls.append(RecordedCall.model_validate(record))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(part) for part in item['loc']) or 'call'}: {item['msg']}"
                for item in exc.errors(include_url=False)
            )
            raise ValueError(f"{found}, line {number}: not a recorded call: {problems}") from None
    return calls


def _check_same(
    recorded: RecordedCall,
    model: str,
    seed: int | None,
    messages: Sequence[ChatMessage],
    index: int,
) -> None:
    if recorded.model != model:
        raise ReplayMismatch(index, "model", recorded.model, model)
    if recorded.seed != seed:
        raise ReplayMismatch(index, "seed", recorded.seed, seed)
    for position, (old, new) in enumerate(zip(recorded.messages, messages, strict=False)):
        if old.role != new.role:
            raise ReplayMismatch(index, f"messages[{position}].role", old.role, new.role)
        if old.content != new.content:
            raise ReplayMismatch(index, f"messages[{position}].content", old.content, new.content)
    if len(recorded.messages) != len(messages):
        raise ReplayMismatch(index, "len(messages)", len(recorded.messages), len(messages))


def _count_lines(path: Path) -> int:
    if not os.path.lexists(path):
        return 0
    return sum(1 for _, _, line in iter_user_lines(path) if line.strip())
