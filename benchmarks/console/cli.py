"""The ``gumshoe`` console script: each layer's commands composed into one app.

Every command is named here with its summary and the module that holds it; the module is
imported only when that command runs, so the CLI starts at once.
"""

from __future__ import annotations

import typer

from benchmarks.console.command_group import Generated, Group, Lazy, RootGroup


def audit_rows() -> dict[str, Lazy | Group]:
    """The ``audit`` commands: trace audits, and one per registered game (the one audit command,
    which finds the game by its own name), read from the registry when ``audit`` is opened."""
    from games.core.registry import game_names

    rows: dict[str, Lazy | Group] = {
        "trace": Lazy("Audit a reasoning trace's claims.", "provers.trace_cli:audit_trace")
    }
    for name in game_names():
        rows[name] = Lazy(
            f"Audit every claim stated in a game log of {name}.", "games.core.audit_cli:audit_game"
        )
    return rows


def play_rows() -> dict[str, Lazy | Group]:
    """The ``play`` commands, one per registered game (the one play command of
    ``games.core.play_cli``, made from the game's entry), read from the registry when ``play`` is
    opened."""
    from games.core.registry import game_names

    return {
        name: Lazy(f"Play one {name} game.", "games.core.play_cli:play_command", argument=name)
        for name in game_names()
    }


BENCHES: dict[str, Lazy | Group] = {
    "provers": Lazy(
        "Prover backends on 5-80 axiom problems.",
        "benchmarks.provers_bench:bench_provers",
    ),
    "clue": Lazy(
        "Clue games between agent types (resumable run).",
        "benchmarks.clue_bench:bench_clue",
        resumable=True,
    ),
    "clue-perf": Lazy("Clue knowledge-grid update time.", "benchmarks.clue_perf:bench_clue_perf"),
    "trace": Lazy("Trace audit cost by trace length.", "benchmarks.trace_bench:bench_trace"),
    "freetext": Lazy(
        "Readers of answers in words on a labelled set, per kind of answer.",
        "benchmarks.freetext_bench:bench_freetext",
    ),
    "undercover": Lazy(
        "Undercover-V contests (resumable run).",
        "benchmarks.undercover_bench:bench_undercover",
        resumable=True,
    ),
    "undercover-similarity": Lazy(
        "Word-pair similarity table.",
        "benchmarks.undercover_bench:bench_undercover_similarity",
    ),
    "descriptions": Lazy(
        "Readers of Undercover-V descriptions on a labelled set, per kind.",
        "benchmarks.descriptions_bench:bench_descriptions",
    ),
    "detective": Lazy(
        "Detective cases played by each agent (resumable run).",
        "benchmarks.detective_bench:bench_detective",
        resumable=True,
    ),
    "detective-text": Lazy(
        "How generated detective cases read (words, fact sentences, repetition).",
        "benchmarks.detective_text_bench:bench_detective_text",
    ),
    "detective-free": Lazy(
        "A case answered in free text, autograded, over repeat runs.",
        "benchmarks.detective_free_bench:bench_detective_free",
    ),
    "detective-agreement": Lazy(
        "Autograder modes against human grades (seed 001's Table 2).",
        "benchmarks.detective_free_bench:bench_detective_agreement",
    ),
    "mystery": Lazy(
        "Murder-mystery games played by each agent (resumable run).",
        "benchmarks.mystery_bench:bench_mystery",
        resumable=True,
    ),
    "wellplay": Lazy(
        "An LLM answers a user's WellPlay questions, graded by the key.",
        "benchmarks.mystery_bench:bench_wellplay",
    ),
    "hanabi": Lazy(
        "Hanabi games per player count (resumable run).",
        "benchmarks.hanabi_bench:bench_hanabi",
        resumable=True,
    ),
    "hanabi-table": Lazy(
        "Hanabi runs merged into one table per seats and player count.",
        "benchmarks.hanabi_table:bench_hanabi_table",
    ),
    "viewer": Lazy(
        "Viewer page sizes, generation cost and first paint.",
        "benchmarks.viewer_bench:bench_viewer",
    ),
    "log-memory": Lazy(
        "Peak memory, CPU and wall time of audit and view on 10-200 MB logs.",
        "benchmarks.log_memory_bench:bench_log_memory",
    ),
    "hanabi-engine": Lazy(
        "Hanabi engine speed next to the reference engines.",
        "benchmarks.hanabi_engine_bench:main",
    ),
    "startup": Lazy(
        "CPU of starting gumshoe and importing the core, next to a bare python.",
        "benchmarks.startup_bench:bench_startup",
    ),
    "llm-concurrency": Lazy(
        "LLM-bound Clue games with 1 and K in flight.",
        "benchmarks.llm_concurrency:bench_llm_concurrency",
    ),
}
"""The benchmarks with commands of their own (the games' among them)."""


def bench_rows() -> dict[str, Lazy | Group]:
    """The ``bench`` commands: ``BENCHES``, and for every registered game without one of its own
    the generic ``bench <game>``, read from the registry when ``bench`` is opened."""
    from games.core.registry import game_names

    generic = {
        name: Lazy(
            f"Seeded {name} games summed up per agent (resumable run).",
            "benchmarks.game_bench:game_bench_command",
            resumable=True,
            argument=name,
        )
        for name in game_names()
        if name not in BENCHES
    }
    return {**BENCHES, **generic}


COMMANDS: dict[str, Lazy | Group] = {
    "prove": Lazy("Prove a theory file's goal, or check its consistency.", "provers.cli:prove"),
    "audit": Group(
        "Audit stated deductions against what was known.",
        Generated(audit_rows),
    ),
    "play": Group("Play a game and print what happens.", Generated(play_rows)),
    "bench": Group("Benchmarks: print a table and write JSON.", Generated(bench_rows)),
    "view": Lazy(
        "One self-contained HTML page of a game log or a run.", "benchmarks.viewer.cli:view"
    ),
    "export": Group(
        "Write a game or run in another tool's format.",
        {
            "hanablive": Lazy(
                "A Hanabi log as a hanab.live replay, knowledge in the notes.",
                "games.hanabi.cli:export_hanablive_command",
            ),
            "dataset": Lazy(
                "Runs as dataset tables (claims, LLM decisions, games) with a card.",
                "benchmarks.dataset.cli:export_dataset",
            ),
            "inspect": Lazy(
                "A run as an inspect_ai eval log: games as samples, the audit as scores.",
                "benchmarks.inspect_eval.cli:export_inspect_command",
            ),
        },
    ),
    "detective": Lazy("Detective cases: generate and check.", "games.detective.cli:detective_app"),
    "mystery": Lazy("Interrogation scripts: generate and check.", "games.mystery.cli:mystery_app"),
    "hanabi": Lazy("Hanabi datasets: annotate logged decisions.", "games.hanabi.cli:hanabi_app"),
    "demo": Lazy(
        "Run the offline demo: provers, an audit, Clue, Undercover-V, detective, mystery, Hanabi.",
        "benchmarks.console.demo:run_demo",
    ),
}
"""Every command: its summary and where it lives."""


class GumshoeGroup(RootGroup):
    """The ``gumshoe`` command group."""

    entries = COMMANDS


app = typer.Typer(
    cls=GumshoeGroup,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)


@app.callback()
def gumshoe() -> None:
    """gumshoe: verify deductions in deduction games with theorem provers."""
