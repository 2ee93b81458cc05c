"""``gumshoe bench detective-text``: how generated detective cases read.

Per case: words (introduction and locations), mean words per location, the share of location
sentences that carry a fact, repeated sentences (introduction, locations and solution), the
share of negative facts, and the fewest locations each question's answer needs; then the means
over the cases, with the CPU and wall time of generating them. Generation checks every case with
the prover (``verify_case``) as it always does, so a case that is reported held the contract.
"""

from __future__ import annotations

from pathlib import Path
from statistics import fmean
from typing import Annotated, Any

import typer

from benchmarks.report import format_table, measure, write_json
from games.detective.generator import GenerationError, generate_case
from games.detective.text_stats import TextStats, text_stats
from provers.registry import get_prover
from provers.sat_session import SatSession

COLUMNS = [
    "seed",
    "words",
    "words_per_location",
    "fact_sentence_share",
    "repeated_sentences",
    "negative_fact_share",
    "locations_needed",
]


def _row(stats: TextStats) -> dict[str, Any]:
    return {
        "seed": stats.seed,
        "words": stats.words,
        "words_per_location": stats.location_words,
        "fact_sentence_share": stats.fact_sentence_share,
        "repeated_sentences": stats.repeated_sentences,
        "negative_fact_share": stats.negative_fact_share,
        "locations_needed": " ".join(map(str, stats.locations_needed)),
    }


def run(cases: int, first_seed: int) -> dict[str, Any]:
    """Generate ``cases`` cases from ``first_seed`` on and measure their text."""
    stats: list[TextStats] = []
    with measure() as timing:
        for seed in range(first_seed, first_seed + cases):
            stats.append(text_stats(generate_case(seed, get_prover("sat"), SatSession)))
    needed = [n for s in stats for n in s.locations_needed]
    mean = {
        "words": fmean(s.words for s in stats),
        "words_per_location": fmean(s.location_words for s in stats),
        "fact_sentence_share": fmean(s.fact_sentence_share for s in stats),
        "min_fact_sentence_share": min(s.fact_sentence_share for s in stats),
        "repeated_sentences": sum(s.repeated_sentences for s in stats),
        "negative_fact_share": fmean(s.negative_fact_share for s in stats),
        "locations_needed": fmean(needed),
    }
    return {
        "benchmark": "detective-text",
        "cases": [s.model_dump() for s in stats],
        "mean": mean,
        "generate_cpu_s": timing.cpu,
        "generate_wall_s": timing.wall,
    }


def bench_detective_text(
    cases: Annotated[int, typer.Option(min=1, help="Cases to generate and measure.")] = 50,
    first_seed: Annotated[int, typer.Option(help="Seed of the first case.")] = 0,
    out: Annotated[Path, typer.Option(help="Folder for detective_text.json.")] = Path("runs/bench"),
) -> None:
    """Generate cases and print, per case and on average, how their text reads."""
    try:
        result = run(cases, first_seed)
    except GenerationError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    rows = [_row(TextStats.model_validate(c)) for c in result["cases"]]
    typer.echo(format_table(rows, COLUMNS))
    mean = result["mean"]
    typer.echo(
        f"mean over {cases} cases: {mean['words']:.0f} words "
        f"({mean['words_per_location']:.0f} per location), fact-carrying location sentences "
        f"{100 * mean['fact_sentence_share']:.1f}% (lowest "
        f"{100 * mean['min_fact_sentence_share']:.1f}%), repeated sentences "
        f"{mean['repeated_sentences']}, negative facts {100 * mean['negative_fact_share']:.1f}%, "
        f"locations needed per question {mean['locations_needed']:.2f}"
    )
    typer.echo(
        f"generation (prover-checked): CPU {result['generate_cpu_s']:.1f} s, "
        f"wall {result['generate_wall_s']:.1f} s"
    )
    typer.echo(f"wrote {write_json(out / 'detective_text.json', result)}")
