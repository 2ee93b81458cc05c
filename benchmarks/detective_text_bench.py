"""``gumshoe bench detective-text``: how generated detective cases read.

Per case: words (introduction, house plan and locations), mean words per location, the share of
location sentences that carry a fact, repeated sentences (introduction, locations and solution),
the most times one narration frame is used, the stumbles found (``games.detective.stumbles``:
self-quotation, nested evidence verbs, a role or relation against a station, narration that
names the evening), the share of questions with several parts, the share of negative facts,
and the fewest locations each question's answer needs. Over the cases: the same means and
totals, the grades 0-3 an ideal reader earns stage by stage along a best visiting order (so
every grade is seen to occur), and how much narration recurs between the cases of each block
of ten, with the CPU and wall time of generating and of measuring. Generation checks every
case with the prover (``verify_case``) as it always does, so a case that is reported held the
contract.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from statistics import fmean
from typing import Annotated, Any

import typer

from benchmarks.report import format_table, measure, write_json
from games.detective.case import Case
from games.detective.generator import GenerationError, generate_case
from games.detective.planner import best_achievable
from games.detective.stumbles import PATTERNS, shared_narration
from games.detective.text_stats import TextStats, text_stats
from provers.registry import get_prover
from provers.sat_session import SatSession

COLUMNS = [
    "seed",
    "words",
    "words_per_location",
    "fact_sentence_share",
    "repeated_sentences",
    "max_frame_uses",
    "stumbles",
    "multi_part_share",
    "negative_fact_share",
    "locations_needed",
]

BLOCK = 10
"""How many consecutive cases narration recurrence is measured over."""


def _row(stats: TextStats) -> dict[str, Any]:
    return {
        "seed": stats.seed,
        "words": stats.words,
        "words_per_location": stats.location_words,
        "fact_sentence_share": stats.fact_sentence_share,
        "repeated_sentences": stats.repeated_sentences,
        "max_frame_uses": stats.max_frame_uses,
        "stumbles": sum(stats.stumbles.values()),
        "multi_part_share": stats.multi_part_share,
        "negative_fact_share": stats.negative_fact_share,
        "locations_needed": " ".join(map(str, stats.locations_needed)),
    }


def ideal_grades(case: Case) -> Counter[int]:
    """The grades an ideal reader earns, per question and stage, along a best visiting order."""
    score = best_achievable(case).score
    return Counter(g for q in score.questions for g in q.instantaneous)


def run(cases: int, first_seed: int) -> dict[str, Any]:
    """Generate ``cases`` cases from ``first_seed`` on and measure their text."""
    generated: list[Case] = []
    with measure() as making:
        for seed in range(first_seed, first_seed + cases):
            generated.append(generate_case(seed, get_prover("sat"), SatSession))
    with measure() as measuring:
        stats = [text_stats(case) for case in generated]
        grades: Counter[int] = Counter()
        for case in generated:
            grades += ideal_grades(case)
        blocks = [generated[i : i + BLOCK] for i in range(0, len(generated), BLOCK)]
        shared = [shared_narration(block) for block in blocks if len(block) > 1]
    needed = [n for s in stats for n in s.locations_needed]
    questions = [q for case in generated for q in case.questions]
    mean = {
        "words": fmean(s.words for s in stats),
        "words_per_location": fmean(s.location_words for s in stats),
        "min_words_per_location": min(s.location_words for s in stats),
        "fact_sentence_share": fmean(s.fact_sentence_share for s in stats),
        "repeated_sentences": sum(s.repeated_sentences for s in stats),
        "max_frame_uses": max(s.max_frame_uses for s in stats),
        "stumbles": {p: sum(s.stumbles[p] for s in stats) for p in PATTERNS},
        "multi_part_share": fmean(len(q.slots) >= 2 for q in questions),
        "ideal_grades": {str(g): grades[g] for g in range(4)},
        "shared_narration": fmean(shared) if shared else 0.0,
        "negative_fact_share": fmean(s.negative_fact_share for s in stats),
        "locations_needed": fmean(needed),
    }
    return {
        "benchmark": "detective-text",
        "cases": [s.model_dump() for s in stats],
        "mean": mean,
        "generate_cpu_s": making.cpu,
        "generate_wall_s": making.wall,
        "measure_cpu_s": measuring.cpu,
        "measure_wall_s": measuring.wall,
    }


def summary_rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The run's figures as rows of measure and value (the table the detective page shows)."""
    mean = result["mean"]
    grades = mean["ideal_grades"]
    rows: list[tuple[str, Any]] = [
        ("cases", len(result["cases"])),
        ("mean words per location", f"{mean['words_per_location']:.1f}"),
        ("lowest case mean words per location", f"{mean['min_words_per_location']:.1f}"),
        ("mean words per case", f"{mean['words']:.0f}"),
        ("sentences repeated within a case", mean["repeated_sentences"]),
        ("most uses of one narration frame in a case", mean["max_frame_uses"]),
        *((f"stumbles: {p.replace('_', ' ')}", n) for p, n in mean["stumbles"].items()),
        ("questions with several parts", f"{100 * mean['multi_part_share']:.1f}%"),
        ("ideal reader's grades 0 / 1 / 2 / 3", " / ".join(str(grades[str(g)]) for g in range(4))),
        (
            f"narration sentences recurring within {BLOCK} cases",
            f"{100 * mean['shared_narration']:.1f}%",
        ),
        ("location sentences carrying a fact", f"{100 * mean['fact_sentence_share']:.1f}%"),
        ("negative facts", f"{100 * mean['negative_fact_share']:.1f}%"),
        ("locations needed per question", f"{mean['locations_needed']:.2f}"),
    ]
    return [{"measure": m, "value": str(v)} for m, v in rows]


def bench_detective_text(
    cases: Annotated[int, typer.Option(min=1, help="Cases to generate and measure.")] = 50,
    first_seed: Annotated[int, typer.Option(help="Seed of the first case.")] = 0,
    out: Annotated[Path, typer.Option(help="Folder for detective_text.json.")] = Path("runs/bench"),
) -> None:
    """Generate cases and print, per case and over them, how their text reads."""
    try:
        result = run(cases, first_seed)
    except GenerationError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    rows = [_row(TextStats.model_validate(c)) for c in result["cases"]]
    typer.echo(format_table(rows, COLUMNS))
    typer.echo("")
    typer.echo(format_table(summary_rows(result), ["measure", "value"]))
    typer.echo(
        f"generation (prover-checked): CPU {result['generate_cpu_s']:.1f} s, "
        f"wall {result['generate_wall_s']:.1f} s; measuring: CPU "
        f"{result['measure_cpu_s']:.1f} s, wall {result['measure_wall_s']:.1f} s"
    )
    typer.echo(f"wrote {write_json(out / 'detective_text.json', result)}")
