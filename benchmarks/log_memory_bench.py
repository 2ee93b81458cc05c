"""`gumshoe bench log-memory`: peak memory, CPU and wall time of `audit` and `view` on long logs.

A log is read line by line and, past ``games.core.log.CACHED_EVENTS`` events, its events are
read again from the file when needed rather than held, so `gumshoe audit` and `gumshoe view`
should take memory for the state of the game, not for the size of its log. This benchmark
writes Clue logs of the sizes asked (10, 100 and 200 MB by default) into a temporary folder
(deleted afterwards), runs each command on each in a fresh process, and reports the process's
peak resident memory with its CPU and wall seconds. The goal: under 500 MB for a 200 MB log.

A log is one six-seat game dealt from a seed, played to its round limit: every turn a seat
suggests three cards and the next seats pass or show a card as the deal says; one seat states
deductions during the first rounds (so the audit judges claims), none after (so the audit's own
output does not grow with the log). Rounds hold as many turns as the size asks.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Annotated, Any

import typer
from pydantic import BaseModel

from benchmarks.report import format_table, write_json
from games.clue.engine import ClueGame
from games.clue.entry import ENTRY
from games.clue.events import (
    ClueConfig,
    Deduction,
    DeductionEvent,
    GameEnd,
    GameStart,
    NoRefutationEvent,
    PassEvent,
    RefuteEvent,
    SuggestionEvent,
    TurnStart,
)
from games.core.cli import fail, prepare_out
from games.core.log import LogEnd, SeatInfo
from reasoning.outfile import atomic_file

MEMORY_GOAL_MB = 500.0
"""The peak resident memory `audit` and `view` should stay under on a 200 MB log."""
MAX_ROUNDS = 1000
"""The round limit of the generated games (Clue's largest)."""
STATED_TURNS = 60
"""Turns (from the first) in which seat 0 states deductions."""
COLUMNS = ["log MB", "events", "command", "peak RSS MB", "cpu s", "wall s", "goal"]


def _turn_events(
    game: ClueGame, rng: random.Random, seq: int, round_: int, turn: int
) -> list[BaseModel]:
    """One turn: its start, the seat's stated deductions (early turns of seat 0), a suggestion
    and the answers the deal gives."""
    config = game.config
    seat = turn % config.players
    hands = [{card.name for card in hand} for hand in game.deal.hands]
    events: list[BaseModel] = [TurnStart(seq=seq, round=round_, turn=turn, seat=seat)]
    if seat == 0 and turn < STATED_TURNS:
        mine = [Deduction(kind="holds", card=card, player=0) for card in game.deal.hands[0]]
        events.append(
            DeductionEvent(seq=seq, round=round_, turn=turn, seat=0, deductions=tuple(mine))
        )
    suspect, weapon, room = (
        rng.choice(cards) for cards in (config.suspects, config.weapons, config.rooms)
    )
    events.append(
        SuggestionEvent(
            seq=seq, round=round_, turn=turn, seat=seat, suspect=suspect, weapon=weapon, room=room
        )
    )
    named = {suspect, weapon, room}
    for step in range(1, config.players):
        other = (seat + step) % config.players
        held = sorted(named & hands[other])
        if held:
            shown = next(card for card in game.deal.hands[other] if card.name == held[0])
            events.append(
                RefuteEvent(
                    seq=seq,
                    round=round_,
                    turn=turn,
                    refuter_seat=other,
                    suggester_seat=seat,
                    card=shown,
                )
            )
            break
        events.append(PassEvent(seq=seq, round=round_, turn=turn, seat=other, suggester_seat=seat))
    else:
        events.append(NoRefutationEvent(seq=seq, round=round_, turn=turn, seat=seat))
    return [event.model_copy(update={"seq": seq + i}) for i, event in enumerate(events)]


def write_clue_log(path: Path, megabytes: float, seed: int = 0) -> int:
    """Write a Clue log of about ``megabytes`` MB to ``path`` (see the module docstring);
    return how many game events it holds (its header and end line aside)."""
    config = ClueConfig(players=6, max_rounds=MAX_ROUNDS)
    game = ClueGame(config, seed)
    rng = random.Random(seed)
    target = int(megabytes * 1_000_000)
    per_turn = 470  # bytes a turn's events take, roughly: sets the turns a round holds
    turns_per_round = max(1, target // per_turn // MAX_ROUNDS + 1)
    seats = [SeatInfo(name=f"P{i}", agent="prover" if i == 0 else "random") for i in range(6)]
    header = ENTRY.header(config, seed, seats)
    start = GameStart(seq=0, round=0, turn=0, hand_sizes=config.hand_sizes(), deal=game.deal)
    written, events, seq, turn = 0, 0, 1, 0
    with atomic_file(path) as out:
        written += _write(out, header, start)
        events += 1
        while written < target and turn // turns_per_round < MAX_ROUNDS:
            batch = _turn_events(game, rng, seq, 1 + turn // turns_per_round, turn)
            written += _write(out, *batch)
            events += len(batch)
            seq += len(batch)
            turn += 1
        rounds = 1 + (turn - 1) // turns_per_round
        end = GameEnd(
            seq=seq,
            round=rounds,
            turn=turn - 1,
            winner=None,
            accuracy=(None,) * config.players,
            rounds=rounds,
            turns=turn,
            reason="round_limit",
        )
        finished = LogEnd(
            status="finished",
            returns=(0.0,) * config.players,
            ranks=tuple(range(1, config.players + 1)),
            reason="round_limit",
        )
        _write(out, end, finished)
    return events + 1


def _write(out: IO[str], *records: BaseModel) -> int:
    text = "".join(record.model_dump_json() + "\n" for record in records)
    out.write(text)
    return len(text.encode("utf-8"))


def measure_command(args: list[str]) -> dict[str, float | int]:
    """Run ``gumshoe ARGS`` in a fresh process: its exit status, peak resident memory (MB),
    CPU seconds (user and system) and wall seconds."""
    command = [sys.executable, "-c", "from benchmarks.console.cli import app; app()", *args]
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.stderr is not None:
        process.stderr.close()
    return {
        "status": process.returncode,
        "peak_rss_mb": usage.ru_maxrss / 1024,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "wall_s": wall,
    }


def run(sizes: list[float], folder: Path, progress: Any = None) -> list[dict[str, Any]]:
    """Measure `audit clue` and `view` on a generated log of each size (MB) in ``folder``."""
    rows: list[dict[str, Any]] = []
    for size in sizes:
        log = folder / f"clue-{size:g}mb.jsonl"
        events = write_clue_log(log, size)
        actual = log.stat().st_size / 1_000_000
        commands = {
            "audit": ["audit", "clue", str(log), "--json"],
            "view": ["view", str(log), "-o", str(folder / "page.html")],
        }
        for name, args in commands.items():
            if progress is not None:
                progress(f"{name} on a {actual:.0f} MB log ({events} events)")
            measured = measure_command(args)
            if measured["status"] != 0:
                raise RuntimeError(f"gumshoe {' '.join(args)} exited {measured['status']}")
            peak = float(measured["peak_rss_mb"])
            rows.append(
                {
                    "log MB": round(actual, 1),
                    "events": events,
                    "command": name,
                    "peak RSS MB": round(peak, 1),
                    "cpu s": round(float(measured["cpu_s"]), 2),
                    "wall s": round(float(measured["wall_s"]), 2),
                    "goal": "ok" if peak < MEMORY_GOAL_MB else "over",
                }
            )
        log.unlink()
    return rows


def bench_log_memory(
    out: Annotated[Path, typer.Option(help="Folder for the JSON results.")] = Path("bench-results"),
    sizes: Annotated[str, typer.Option(help="Log sizes in MB, comma-separated.")] = "10,100,200",
) -> None:
    """Peak resident memory, CPU and wall seconds of `audit clue` and `view` on generated Clue
    logs of each size (goal: under 500 MB for a 200 MB log)."""
    try:
        wanted = [float(part) for part in sizes.split(",") if part.strip()]
        if not wanted or any(not 0 < size <= 250 for size in wanted):
            raise ValueError(f"--sizes: sizes in MB from above 0 to 250, got {sizes!r}")
        prepare_out(out)
    except ValueError as err:
        fail(err)
    with tempfile.TemporaryDirectory(prefix="gumshoe-logs-") as folder:
        rows = run(wanted, Path(folder), lambda m: typer.echo(m, err=True))
    typer.echo(format_table(rows, COLUMNS))
    path = write_json(out / "log_memory.json", {"goal_mb": MEMORY_GOAL_MB, "rows": rows})
    typer.echo(f"\nwrote {path}")
