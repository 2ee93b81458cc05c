"""One game's view for the page: the game's log read, audited and drawn, with its recorded calls.

``view_log`` builds the ``GameView`` of a log (``games.core.view``); ``pack`` compresses it the way
a page embeds it (gzip, then base64), so a run's page can carry thousands of games unopened.
"""

from __future__ import annotations

import base64
import gzip
from pathlib import Path
from typing import Any

from games.core.log import GameLog
from games.core.registry import GameEntry, game_names, get_game
from games.core.runlog import LogError
from games.core.view import Call, GameView, Message, ViewParts, game_view
from reasoning.llm.recording import RecordedCall, load_recording, recording_file
from reasoning.textfile import UserFileError, parse_user_json, read_user_text


def detect_game(path: Path) -> GameEntry[Any]:
    """The registered game whose log ``path`` is: the header's ``game``, else the first game
    whose reader accepts it; ValueError naming the file otherwise."""
    first = read_user_text(path).split("\n", 1)[0]
    try:
        header = parse_user_json(first, path)
    except UserFileError:
        header = None
    if isinstance(header, dict) and header.get("game") in game_names():
        return get_game(str(header["game"]))
    for name in game_names():
        entry = get_game(name)
        try:
            entry.read_log(path)
        except (ValueError, LogError):
            continue
        return entry
    raise ValueError(f"{path}: not a game log of any registered game ({', '.join(game_names())})")


def recording_paths(log_path: Path, seats: int) -> list[tuple[int, Path]]:
    """Each seat's recorded LLM calls beside a log, as (seat, file): ``llm/<log stem>.seat<k>
    .jsonl[.gz]`` in the log's folder, else in its run's (the folder above)."""
    for folder in (log_path.parent / "llm", log_path.parent.parent / "llm"):
        if not folder.is_dir():
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
        for recorded in load_recording(path):
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


def view_log(path: Path) -> GameView:
    """The view of one game log: steps, the game's panels, its audit and recorded calls. The
    audit comes from the game's viewer when it computed it on the way, else from its auditor."""
    entry = detect_game(path)
    log: GameLog[Any] = entry.read_log(path)
    parts: ViewParts | None = entry.view(log)
    record = parts.record if parts is not None else None
    if record is None and entry.auditor is not None:
        record = entry.audit(log)
    calls = recorded_calls(path, len(log.header.seats))
    return game_view(entry.info.name, log, record, parts, calls)


def pack(view: GameView) -> str:
    """``view`` as a page embeds it: its JSON, gzip-compressed, in base64."""
    raw = view.model_dump_json(exclude_none=False).encode("utf-8")
    return base64.b64encode(gzip.compress(raw, mtime=0)).decode("ascii")
