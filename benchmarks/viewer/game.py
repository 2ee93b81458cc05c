"""One game's view for the page: the game's log read, audited and drawn, with its recorded calls.

``view_log`` builds the ``GameView`` of a log (``games.core.view``); ``pack`` compresses it the way
a page embeds it (gzip, then base64), so a run's page can carry thousands of games unopened.
"""

from __future__ import annotations

import base64
import gzip
import io
import os
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.core.log import GameLog
from games.core.registry import GameEntry, game_names, get_game
from games.core.runlog import LogError
from games.core.view import Call, GameView, Message, Step, ViewParts, game_view, view_steps
from reasoning.llm.recording import RecordedCall, load_recording, recording_file
from reasoning.textfile import UserFileError, iter_user_lines, parse_jsonl_line


def detect_game(path: Path, inside: Path | None = None) -> GameEntry[Any, Any, Any, Any]:
    """The registered game whose log ``path`` is: the header's ``game``, else the first game
    whose reader accepts it; ValueError naming the file (and the line of a first line that is
    not a JSON object) otherwise."""
    lines = iter_user_lines(path, inside=inside, allow_bom=False)
    with closing(lines):
        first = next(((n, line) for n, _, line in lines if line.strip()), None)
    if first is None:
        raise LogError(path, 1, "the log is empty")
    try:
        header = parse_jsonl_line(first[1], path, first[0])
    except UserFileError as err:
        raise LogError(path, err.line, err.reason) from None
    if header.get("game") in game_names():
        return get_game(str(header["game"]))
    for name in game_names():
        entry = get_game(name)
        try:
            entry.read_log(path, inside=inside)
        except (ValueError, LogError):
            continue
        return entry
    raise ValueError(f"{path}: not a game log of any registered game ({', '.join(game_names())})")


def recording_paths(log_path: Path, seats: int) -> list[tuple[int, Path]]:
    """Each seat's recorded LLM calls beside a log, as (seat, file): ``llm/<log stem>.seat<k>
    .jsonl[.gz]`` in the log's folder, else in its run's (the folder above; read with
    ``recording_home``)."""
    for folder in (log_path.parent / "llm", log_path.parent.parent / "llm"):
        if not os.path.lexists(folder):
            continue
        found = [
            (seat, path)
            for seat in range(seats)
            if (path := recording_file(folder / f"{log_path.stem}.seat{seat}.jsonl")) is not None
        ]
        if found:
            return found
    return []


def recorded_calls(log_path: Path, seats: int) -> list[Call]:
    """The LLM calls recorded beside a log (see ``recording_paths``), every seat in turn, each
    with its index in its seat's recording and the call it follows up."""
    calls: list[Call] = []
    for seat, path in recording_paths(log_path, seats):
        previous: RecordedCall | None = None
        for recorded in load_recording(path, inside=recording_home(path)):
            reply = recorded.reply
            calls.append(
                Call(
                    seat=seat,
                    index=recorded.index,
                    follows=previous.index if previous and sends_back(recorded, previous) else None,
                    messages=[Message(role=m.role, content=m.content) for m in recorded.messages],
                    reply=reply.content if reply is not None else f"failed: {recorded.failure}",
                    prompt_tokens=reply.prompt_tokens if reply is not None else None,
                    completion_tokens=reply.completion_tokens if reply is not None else None,
                    latency_s=reply.latency_s if reply is not None else None,
                )
            )
            previous = recorded
    return calls


def sends_back(call: RecordedCall, previous: RecordedCall) -> bool:
    """Whether ``call``'s prompt sends ``previous``'s reply back to the model (as a re-prompt
    or a revision does: the reply, then what to change)."""
    messages = call.messages
    return (
        previous.reply is not None
        and len(messages) >= 2
        and messages[-2].role == "assistant"
        and messages[-2].content == previous.reply.content
    )


def recording_home(recording: Path) -> Path:
    """The folder holding the ``llm`` folder a recording was found in: below it no link is
    followed when the recording is read (it comes with the log, not from the user)."""
    return recording.parent.parent


@dataclass(frozen=True)
class LoggedView:
    """The view of one game log with its steps left in the log: ``view`` (its ``steps`` empty)
    and the log they are read from, one at a time, as the view is packed; so a long log's page
    is written in memory for the game's state and the compressed page, not the log's size."""

    view: GameView
    log: GameLog[Any]
    parts: ViewParts | None

    def steps(self) -> Iterator[Step]:
        """The view's steps, one per logged event (``games.core.view.view_steps``)."""
        return view_steps(self.log, self.parts)


def view_log(path: Path, inside: Path | None = None) -> LoggedView:
    """The view of one game log (``inside``: the run folder it was found in): steps, the game's
    panels, its audit and recorded calls. The audit comes from the game's viewer when it
    computed it on the way, else from its auditor."""
    entry = detect_game(path, inside)
    log: GameLog[Any] = entry.read_log(path, inside=inside)
    parts: ViewParts | None = entry.view(log)
    record = parts.record if parts is not None else None
    if record is None and entry.has_audit:
        record = entry.audit(log)
    calls = recorded_calls(path, len(log.header.seats))
    view = game_view(entry.info.name, log, record, parts, calls, with_steps=False)
    return LoggedView(view=view, log=log, parts=parts)


def pack(logged: LoggedView) -> str:
    """The view as a page embeds it: its JSON, gzip-compressed, in base64. The steps are
    written into the compressed stream one at a time."""
    head = logged.view.model_dump_json(exclude={"steps"}).encode("utf-8")
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as packed:
        packed.write(head[:-1] + b',"steps":[')
        for index, step in enumerate(logged.steps()):
            packed.write((b"," if index else b"") + step.model_dump_json().encode("utf-8"))
        packed.write(b"]}")
    return base64.b64encode(buffer.getvalue()).decode("ascii")
