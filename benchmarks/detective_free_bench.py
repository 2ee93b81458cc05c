"""Seed 001's experiment with free-text answers: ``bench detective-free`` plays a case (a user's
file or a generated one) several times, the model answering all questions in words at every
stage, each answer graded by the autograder (and exactly where the question has a logic form
and the reading of the answer is decisive; ``--reader`` picks the reader); it reports per run P,
F and O, the mean overall score with a bootstrap interval over runs and questions, the
correlation of the runs' visiting orders, and optionally each question's induction / deduction /
abduction ratings. ``bench detective-agreement`` grades a user's study (answers and human
grades) in each autograder mode and exactly (``exact``: no endpoint needed with the offline
reader) and prints seed 001's Table 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from benchmarks.report import figure, format_table, measure, write_json
from formalize.reading.reader import ReaderKind
from games.core.cli import EndpointOptions, fail, with_options
from games.core.errors import GAME_ERRORS
from games.core.llm_player import seat_client
from games.detective.analysis import (
    bootstrap_ci,
    cross_correlation,
    pairwise_correlation,
    rate_ida,
)
from games.detective.autograder import MODES, AutoGrader
from games.detective.case import Case, CaseError, load_case
from games.detective.entry import game_case
from games.detective.events import DetectiveConfig
from games.detective.freetext import grade_play, play_free_text
from games.detective.generator import GenerationError
from games.detective.human_grades import (
    StudyError,
    agreement_table,
    load_answers,
    load_human_grades,
    load_orders,
)
from games.detective.reading import make_reader, read_answer, reading_grade

Reader = Annotated[
    ReaderKind,
    typer.Option(
        help="Who reads answers in words for the exact grade: offline (no endpoint), llm (the "
        "endpoint, under the early-stop vote), or combined (the LLM where offline is unsure)."
    ),
]


def _case(case_file: Path | None, seed: int) -> Case:
    if case_file is not None:
        return load_case(case_file)
    return game_case(DetectiveConfig(), seed)


EXACT = "exact"
"""The grader that grades from the reading of the answer, with no model."""


def _modes(text: str) -> tuple[list[int], bool]:
    """The autograder modes and whether the exact grade is asked for, from ``1,2,exact``."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    exact = EXACT in parts
    try:
        modes = [int(m) for m in parts if m != EXACT]
    except ValueError:
        raise ValueError(f"--modes: comma-separated modes 1-5 or exact, got {text!r}") from None
    if not parts or any(m not in MODES for m in modes):
        raise ValueError(f"--modes: modes are 1-5 or exact, got {text!r}")
    return modes, exact


@with_options(EndpointOptions)
def bench_detective_free(
    shared: EndpointOptions,
    case_file: Annotated[
        Path | None,
        typer.Option("--case", help="A case file; else the case generated from --seed."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the generated case.")] = 0,
    runs: Annotated[int, typer.Option(min=1, help="Repeat runs of the case.")] = 3,
    mode: Annotated[int, typer.Option(help="Autograder mode (1-5).")] = 5,
    ida: Annotated[bool, typer.Option("--ida", help="Also rate each question's IDA.")] = False,
    orders: Annotated[
        Path | None,
        typer.Option(help="Other solvers' visiting orders (JSON lines: solver, order) to compare."),
    ] = None,
    out: Annotated[Path, typer.Option(help="Folder for detective_free.json.")] = Path("runs/bench"),
    reader: Reader = "offline",
) -> None:
    """Play a case with free-text answers ``--runs`` times and grade it as seed 001 does."""
    try:
        _modes(str(mode))
        case = _case(case_file, seed)
        others = load_orders(orders, case) if orders is not None else []
        client = seat_client(shared.llm(), 0)
        words = make_reader(case.setting, reader, client)
    except (CaseError, GenerationError, StudyError, ValueError) as err:
        fail(err)
    rows: list[dict[str, Any]] = []
    per_question: list[list[float]] = []
    orders_played: list[list[str]] = []
    try:
        with measure() as timing:
            for run in range(runs):
                play = play_free_text(case, client, seed=run)
                graded = grade_play(case, play, AutoGrader(client, mode, seed=run), words)
                orders_played.append(play.order)
                per_question.append([q.overall for q in graded.auto_score.questions])
                exact = graded.exact_score
                rows.append(
                    {
                        "run": run,
                        "P": graded.auto_score.progressive,
                        "F": graded.auto_score.final,
                        "O": graded.auto_score.overall,
                        "exact_O": None if exact is None else exact.overall,
                        "unjudged": graded.unjudged,
                        "reader_calls": graded.reader_calls,
                        "fallbacks": play.fallbacks,
                    }
                )
            ratings = (
                {"full": rate_ida(client, case), "intro": rate_ida(client, case, intro_only=True)}
                if ida
                else {}
            )
    except GAME_ERRORS as err:
        fail(err, 1)
    ci = bootstrap_ci(per_question)
    corr, corr_sd = pairwise_correlation(orders_played)
    columns = ["run", "P", "F", "O", "exact_O", "unjudged", "reader_calls", "fallbacks"]
    typer.echo(format_table(rows, columns))
    typer.echo(
        f"overall score (autograder mode {mode}): mean {figure(ci.mean)}, 95% bootstrap CI "
        f"[{figure(ci.low)}, {figure(ci.high)}] over {runs} runs x {len(case.questions)} "
        "questions"
    )
    typer.echo(
        f"location-order correlation between runs: mean {figure(corr)} (sd {figure(corr_sd)})"
    )
    compared: dict[str, tuple[float, float]] = {}
    if others:
        compared["Other-Other"] = pairwise_correlation(others)
        compared["Model-Other"] = cross_correlation(orders_played, others)
    for name, (mean, sd) in compared.items():
        typer.echo(f"location-order correlation {name}: mean {figure(mean)} (sd {figure(sd)})")
    for kind, found in ratings.items():
        for r in found:
            if r is not None:
                typer.echo(
                    f"IDA ({kind}) {r.question}: I {r.induction} D {r.deduction} A {r.abduction}"
                )
    typer.echo(f"CPU {timing.cpu:.1f} s, wall {timing.wall:.1f} s")
    payload = {
        "benchmark": "detective-free",
        "case": case.title,
        "mode": mode,
        "reader": reader,
        "runs": rows,
        "overall": ci.model_dump(),
        "orders": orders_played,
        "order_correlation": {"mean": corr, "sd": corr_sd},
        "order_comparison": {k: {"mean": m, "sd": sd} for k, (m, sd) in compared.items()},
        "ida": {k: [r.model_dump() if r else None for r in v] for k, v in ratings.items()},
        "cpu_s": timing.cpu,
        "wall_s": timing.wall,
    }
    typer.echo(f"wrote {write_json(out / 'detective_free.json', payload)}")


@with_options(EndpointOptions)
def bench_detective_agreement(
    shared: EndpointOptions,
    case_file: Annotated[Path, typer.Option("--case", help="The case the answers are to.")],
    answers: Annotated[Path, typer.Option(help="The answers (JSON lines: id, question, answer).")],
    grades: Annotated[Path, typer.Option(help="Human grades (CSV: answer_id,grader,grade).")],
    modes: Annotated[
        str,
        typer.Option(
            help="Graders, comma-separated: autograder modes 1-5 and exact (from the reading of "
            "each answer; with the offline reader no endpoint is needed)."
        ),
    ] = "1,2,3,4,5,exact",
    out: Annotated[Path, typer.Option(help="Folder for detective_agreement.json.")] = Path(
        "runs/bench"
    ),
    reader: Reader = "offline",
) -> None:
    """Grade a study's answers in each autograder mode and exactly (where questions have a
    logic form and the reading is decisive; the rest counted unjudged) and print seed 001's
    Table 2 against the human grades."""
    try:
        chosen, exact = _modes(modes)
        case = load_case(case_file)
        study = load_answers(answers, case)
        humans = load_human_grades(grades, study)
        needs_llm = bool(chosen) or (exact and reader != "offline")
        client = seat_client(shared.llm(), 0) if needs_llm else None
        words = make_reader(case.setting, reader, client)
    except (CaseError, StudyError, ValueError) as err:
        fail(err)
    questions = {q.id: q for q in case.questions}
    machines: dict[str, dict[str, int]] = {}
    typed = [a for a in study if questions[a.question].slots]
    exact_grades: dict[str, int | None] = {}
    try:
        with measure() as timing:
            for m in chosen:
                assert client is not None
                grader = AutoGrader(client, m)
                machines[f"Mode {m}"] = {
                    a.id: grader.grade(case, questions[a.question], a.answer) for a in study
                }
            if exact:
                for a in typed:
                    q = questions[a.question]
                    exact_grades[a.id] = reading_grade(q, read_answer(words, case, q, a.answer))
    except GAME_ERRORS as err:
        fail(err, 1)
    if exact and typed:
        machines["Exact"] = {k: g for k, g in exact_grades.items() if g is not None}
    table = agreement_table(humans, machines)
    rows = [
        {"comparison": r.comparison, "% agree": r.percent_exact, "RMS": r.rms, "answers": r.answers}
        for r in table
    ]
    typer.echo(format_table(rows, ["comparison", "% agree", "RMS", "answers"]))
    unjudged = sum(g is None for g in exact_grades.values())
    if exact:
        typer.echo(
            f"exact ({words.name} reader): {len(exact_grades) - unjudged} of {len(typed)} "
            f"answers with slots judged, {unjudged} unjudged"
        )
    typer.echo(f"CPU {timing.cpu:.1f} s, wall {timing.wall:.1f} s")
    payload = {
        "benchmark": "detective-agreement",
        "case": case.title,
        "reader": reader if exact else None,
        "table": [r.model_dump() for r in table],
        "grades": machines,
        "unjudged": sorted(k for k, g in exact_grades.items() if g is None),
        "cpu_s": timing.cpu,
        "wall_s": timing.wall,
    }
    typer.echo(f"wrote {write_json(out / 'detective_agreement.json', payload)}")
