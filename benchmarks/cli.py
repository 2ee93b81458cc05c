"""The ``gumshoe`` console script: each layer's commands composed into one app."""

from __future__ import annotations

import typer

from benchmarks.bench_cli import bench_app
from benchmarks.clue_cli import bench_clue, bench_clue_perf
from benchmarks.demo import run_demo
from benchmarks.hanabi_bench import bench_hanabi
from benchmarks.hanabi_engine_bench import main as bench_hanabi_engine
from benchmarks.trace_bench import bench_trace
from games.clue.cli import audit_clue, play_clue
from games.detective.cli import detective_app
from games.hanabi.cli import audit_hanabi, hanabi_app, play_hanabi
from games.undercover.cli import play_undercover
from provers.cli import prove
from provers.trace_cli import audit_trace

app = typer.Typer(
    help="gumshoe: verify deductions in deduction games with theorem provers.",
    no_args_is_help=True,
    add_completion=False,
)
app.command("prove")(prove)

audit_app = typer.Typer(
    help="Audit stated deductions against what was known.", no_args_is_help=True
)
audit_app.command("trace")(audit_trace)
audit_app.command("clue")(audit_clue)
audit_app.command("hanabi")(audit_hanabi)
app.add_typer(audit_app, name="audit")
play_app = typer.Typer(help="Play a game and print what happens.", no_args_is_help=True)
play_app.command("clue")(play_clue)
play_app.command("undercover")(play_undercover)
play_app.command("hanabi")(play_hanabi)
app.add_typer(play_app, name="play")
bench_app.command("clue")(bench_clue)
bench_app.command("clue-perf")(bench_clue_perf)
bench_app.command("trace")(bench_trace)
bench_app.command("hanabi")(bench_hanabi)
bench_app.command("hanabi-engine")(bench_hanabi_engine)
app.add_typer(bench_app, name="bench")
app.add_typer(detective_app, name="detective")
app.add_typer(hanabi_app, name="hanabi")


@app.command("demo")
def demo() -> None:
    """Run the offline demo: provers on the tea example, a SAT-backed deduction audit, a Clue
    game, an Undercover-V game with prover-backed agents and a symbolic Hanabi game."""
    run_demo()
