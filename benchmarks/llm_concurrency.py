"""How much ``--concurrency`` buys for LLM-bound games: the same Clue games against the scripted
chat server, which answers every request after a fixed delay, played with 1 and with K games in
flight. Reports the play's wall and CPU time per setting and checks that the outcomes agree (the
games, errors and per-agent results; timings and LLM latencies differ by design)."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer

from benchmarks import clue_bench
from benchmarks.report import format_table, write_json
from benchmarks.runner import RunOptions
from games.clue.agents import ClueAgentSettings
from games.core.cli import fail, prepare_out
from reasoning.llm import LLMSettings
from reasoning.llm.scripted_server import ChatRequest, Delay, ScriptedChatServer, Step

AGENTS = ("llm", "random", "random")
_SHOW = re.compile(r"exactly one: (.+)")


def _answer_after(delay_s: float) -> Any:
    """A script answering each Clue phase well after ``delay_s`` seconds."""

    def answer(request: ChatRequest) -> Step:
        prompt = request.messages[1]["content"]
        if prompt.startswith("DEDUCTION PHASE"):
            text = "ANALYSIS: Nothing certain yet.\nDEDUCTIONS: NONE"
        elif prompt.startswith("ACTION PHASE"):
            text = (
                "SUMMARY: Looking.\nREASONING: Untested cards.\n"
                "SUGGESTION: Mrs. White, Knife, Study\nACCUSATION: NONE"
            )
        elif prompt.startswith("FINAL ACCUSATION"):
            text = "SUMMARY: Time is up.\nREASONING: A guess.\nACCUSATION: Mrs. White, Knife, Study"
        else:
            found = _SHOW.search(prompt)
            card = found.group(1).split(", ")[-1] if found else "Knife"
            text = f"REASONING: Either will do.\nSHOW: {card}"
        return Delay(delay_s, text)

    return answer


def run(games: int = 16, delay_s: float = 0.2, concurrency: int = 8) -> dict[str, Any]:
    """Play ``games`` 3-seat Clue games (one LLM seat, 2 rounds) at concurrency 1 and
    ``concurrency``; the runner's wall and CPU seconds for each (the audit and plot after it
    are not part of it), the speed-up, and whether the outcomes agree."""
    config = clue_bench.ClueBenchConfig(agents=AGENTS, max_rounds=2, llm_model="scripted")
    rows = []
    summaries = []
    with ScriptedChatServer(_answer_after(delay_s)) as server, tempfile.TemporaryDirectory() as tmp:
        settings = ClueAgentSettings(llm=LLMSettings(base_url=server.base_url, model="scripted"))
        for k in (1, concurrency):
            summary = clue_bench.run(
                config,
                games,
                Path(tmp) / f"k{k}",
                settings,
                RunOptions(concurrency=k, quiet=True),
            )
            rows.append(
                {
                    "concurrency": k,
                    "games": summary.games,
                    "errored": len(summary.errored),
                    "play_wall_s": summary.play_wall_s,
                    "play_cpu_s": summary.play_cpu_s,
                }
            )
            summaries.append(
                summary.model_dump(
                    include={"config", "games", "errored", "per_agent", "ideal_known_per_round"}
                )
            )
        requests = len(server.requests)
    for row in rows:
        row["x_faster_wall"] = rows[0]["play_wall_s"] / row["play_wall_s"]
    return {
        "delay_s": delay_s,
        "requests": requests,
        "rows": rows,
        "outcomes_equal": summaries[0] == summaries[1],
    }


def bench_llm_concurrency(
    games: Annotated[int, typer.Option(min=1, max=1000, help="Clue games per setting.")] = 16,
    delay: Annotated[
        float, typer.Option(min=0.0, max=10.0, help="Seconds the scripted server waits per reply.")
    ] = 0.2,
    concurrency: Annotated[int, typer.Option(min=2, max=256, help="Games in flight.")] = 8,
    out: Annotated[Path, typer.Option(help="Folder for the JSON results.")] = Path("bench-results"),
) -> None:
    """LLM-bound Clue games against the scripted chat server (a fixed delay per reply) with 1 and
    with K games in flight: wall and CPU time, speed-up, and whether the summaries agree."""

    try:
        prepare_out(out)
    except ValueError as err:
        fail(err)
    result = run(games=games, delay_s=delay, concurrency=concurrency)
    typer.echo(
        f"{games} Clue games, one LLM seat, {result['requests'] // 2} chat calls per setting, "
        f"{delay:.3f} s per reply"
    )
    typer.echo(
        format_table(
            result["rows"],
            ["concurrency", "games", "errored", "play_wall_s", "play_cpu_s", "x_faster_wall"],
        )
    )
    typer.echo(f"outcomes equal: {result['outcomes_equal']}")
    path = write_json(out / "json", result)
    typer.echo(f"wrote {path}")
