"""``gumshoe detective ...``: generate a case file, check one against its contract (a case file
``gumshoe play detective --case`` plays must pass the check)."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

import typer
from pydantic import ValidationError, model_validator

from games.core.cli import EndpointOptions, describe_error, option_flag, with_options
from games.core.runlog import field_errors
from games.detective.case import Case, CaseError, CaseKnobs, dump_case, load_case
from games.detective.check import (
    DEFAULT_TIME_LIMIT,
    CheckLimitError,
    check_case,
    logic_problems,
)
from games.detective.generator import GenerationError, generate_case
from games.detective.llm_writer import DEFAULT_ATTEMPTS, LLMWriters
from games.detective.planner import best_achievable
from games.detective.writer import TemplateWriter
from provers.registry import PROVER_NAMES, get_prover
from provers.sat_session import SatSession
from reasoning import deadline
from reasoning.llm import ChatClient, LLMEndpointError, ReplayError, make_client, recording_file
from reasoning.outfile import write_atomic
from reasoning.prover import Prover, ProverUnavailable

detective_app = typer.Typer(
    help="Detective cases: generate prover-checked cases and check case files.",
    no_args_is_help=True,
    add_completion=False,
)

DEFAULT_CHECK_PROVER = "sat"
"""The backend that checks cases unless another is named (the theory is propositional)."""


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def _prover(name: str) -> Prover:
    try:
        return get_prover(name)
    except (ValueError, ProverUnavailable) as err:
        raise _fail(f"--prover: {err}") from None


WriterKind = Literal["template", "llm"]
"""Who writes a generated case's location texts: the templates, or a model checked by the
prover (``games.detective.llm_writer``)."""


class TimeLimitReached(RuntimeError):
    """A command ran out of the time its ``--time-limit`` allows."""


class WriterOptions(EndpointOptions):
    """The options of ``detective generate`` that say who writes the location texts: ``--writer``
    and, for ``--writer llm``, the endpoint (``EndpointOptions``) and one file of calls beside
    the case, recorded into (``<out>.llm.jsonl``) or replayed from; the templates refuse every
    one of them. ``out`` (the case file) is the command's own ``--out``."""

    DECLARATIONS: ClassVar[dict[str, Any]] = {
        "writer": Annotated[
            str,
            typer.Option(
                metavar="KIND",
                help="Who writes the location texts: template, or llm (a model writes each from "
                "its facts; a text is kept only when the prover shows it states exactly them).",
            ),
        ],
        **EndpointOptions.DECLARATIONS,
        "record": Annotated[
            bool,
            typer.Option(
                "--record", help="With --writer llm: record the calls in <out>.llm.jsonl."
            ),
        ],
        "replay": Annotated[
            Path | None,
            typer.Option(
                metavar="FILE",
                help="With --writer llm: answer the calls from this recording, not an endpoint.",
            ),
        ],
    }

    out: Path
    writer: WriterKind = "template"
    record: bool = False
    replay: Path | None = None

    @model_validator(mode="after")
    def _only_a_model_is_asked(self) -> WriterOptions:
        given = [
            option_flag(WriterOptions, name)
            for name in ("model", "base_url", "reasoning_effort", "record", "replay")
            if getattr(self, name) not in (None, False)
        ]
        if self.writer == "template" and given:
            raise ValueError(f"{given[0]}: only --writer llm asks a model")
        if self.record and self.replay is not None:
            raise ValueError("--record and --replay cannot be used together")
        return self

    @property
    def recordings(self) -> tuple[Path | None, Path | None]:
        """The file the calls are recorded in (``<out>.llm.jsonl`` with ``--record``) and the
        one they are replayed from (``--replay``)."""
        return (self.out.with_suffix(".llm.jsonl") if self.record else None), self.replay


def _writer_client(options: WriterOptions) -> ChatClient | None:
    """The chat client of ``--writer llm`` (None for the templates), its recording file emptied;
    ValueError in one line naming the option that is wrong."""
    if options.writer == "template":
        return None
    settings = options.llm()
    if options.replay is None and not settings.configured:
        raise ValueError(
            "--writer llm: no endpoint (give --base-url or set GUMSHOE_LLM_BASE_URL, or "
            "--replay a recording)"
        )
    if options.replay is not None and recording_file(options.replay) is None:
        raise ValueError(f"--replay {options.replay}: no such recording")
    if settings.record_path is not None:
        settings.record_path.unlink(missing_ok=True)
    return make_client(settings)


@detective_app.command("generate")
@with_options(WriterOptions)
def generate(
    shared: WriterOptions,
    seed: Annotated[int, typer.Option(help="Seed of the case; the same seed gives the same case.")],
    out: Annotated[Path, typer.Option(help="Where to write the case file (JSON).")],
    prover: Annotated[
        str,
        typer.Option(
            help=f"Backend that checks the case (and a model's texts): {', '.join(PROVER_NAMES)}."
        ),
    ] = DEFAULT_CHECK_PROVER,
    locations: Annotated[int, typer.Option(help="Number of locations.")] = 15,
    questions: Annotated[int, typer.Option(help="Number of questions (2-5).")] = 3,
    inference_steps: Annotated[
        int, typer.Option(help="Least number of clue facts each answer must need.")
    ] = 2,
    distractors: Annotated[int, typer.Option(help="True but useless facts added.")] = 12,
    red_herrings: Annotated[int, typer.Option(help="Least number of useless locations.")] = 3,
    words_per_card: Annotated[int, typer.Option(help="Target words per location text.")] = 160,
    intro_clues: Annotated[int, typer.Option(help="Clue facts the introduction states.")] = 2,
    long_chains: Annotated[
        bool,
        typer.Option(
            "--long-chains/--short-chains",
            help="Answers from chains of indirect clues (harder) or from direct clues (easier).",
        ),
    ] = True,
    attempts: Annotated[
        int,
        typer.Option(
            min=1, help="With --writer llm: replies asked per location before the template's."
        ),
    ] = DEFAULT_ATTEMPTS,
    time_limit: Annotated[
        float | None,
        typer.Option(min=0.1, help="Seconds the whole command may take before it gives up."),
    ] = None,
) -> None:
    """Generate a case whose answers a prover checks, and write it as a case file."""
    try:
        knobs = CaseKnobs(
            locations=locations,
            questions=questions,
            inference_steps=inference_steps,
            distractors=distractors,
            red_herrings=red_herrings,
            words_per_card=words_per_card,
            intro_clues=intro_clues,
            long_chains=long_chains,
        )
    except ValidationError as err:
        raise _fail(field_errors(err).replace("field '", "option '--").replace("_", "-")) from None
    checker = _prover(prover)
    try:
        client = _writer_client(shared)
    except ValueError as err:
        raise _fail(str(err)) from None
    writers = None if client is None else LLMWriters(client, checker, attempts)
    limit: AbstractContextManager[None] = (
        nullcontext()
        if time_limit is None
        else deadline.time_limit(
            time_limit,
            lambda: TimeLimitReached(f"gave up after {time_limit:g} s (--time-limit allows more)"),
        )
    )
    try:
        with limit:
            case = generate_case(seed, checker, SatSession, knobs, writer=writers or TemplateWriter)
    except (GenerationError, TimeLimitReached, ReplayError, ValueError) as err:
        raise _fail(str(err)) from None
    except LLMEndpointError as err:
        raise _fail(describe_error(err)) from None
    try:
        write_atomic(out, dump_case(case))
    except OSError as err:
        raise _fail(f"{out}: cannot write: {err.strerror or err}") from None
    best = best_achievable(case)
    typer.echo(
        f"{out}: {case.title}, {len(case.questions)} questions, {len(case.locations)} locations "
        f"({sum(loc.red_herring for loc in case.locations)} red herrings); best overall score "
        f"{best.score.overall:.2f}"
    )
    written = case.provenance
    if written is not None:
        typer.echo(
            f"  {written.model} wrote {written.kept} of {len(written.cards)} location texts "
            f"({written.reasked} re-asked, {written.fallen_back} kept the template's text; "
            f"{written.calls} calls, {written.unusable} unusable replies)"
        )
        for card in written.cards:
            why = f": {card.problems[0]}" if card.problems else ""
            replies = "reply" if card.attempts == 1 else "replies"
            typer.echo(f"    {card.location}: {card.written_by}, {card.attempts} {replies}{why}")
    recording = shared.recordings[0]
    if recording is not None:
        typer.echo(f"  calls recorded in {recording}")


def checked_case(
    case_file: Path, prover: str, time_limit: float = DEFAULT_TIME_LIMIT, verbose: bool = False
) -> Case:
    """The case in ``case_file`` with its unlock sets, once it passes every check; otherwise
    exit 2 with one line naming the file and the first failing place. ``time_limit`` bounds
    the whole call, reading the file and building the case's theory included."""

    def computing() -> None:
        if verbose:
            typer.echo(f"{case_file}: computing the missing unlock sets")

    def late() -> CheckLimitError:
        return CheckLimitError(
            f"gave up after {time_limit:g} s while reading the case (--time-limit allows more)"
        )

    try:
        with deadline.time_limit(time_limit, late):
            case = load_case(case_file)
            problems = logic_problems(case)
            if not case.checkable and not problems:
                return case
            if not problems:
                checker = _prover(prover)
                case, problems = check_case(case, checker, SatSession, time_limit, computing)
    except CaseError as err:
        raise _fail(str(err)) from None
    except (CheckLimitError, ValueError) as err:
        raise _fail(f"{case_file}: {err}") from None
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise _fail(f"{case_file}: {problems[0]}{more}")
    return case


@detective_app.command("check")
def check(
    case_file: Annotated[Path, typer.Argument(help="A case file (JSON).")],
    prover: Annotated[
        str, typer.Option(help=f"Backend that checks the case: {', '.join(PROVER_NAMES)}.")
    ] = DEFAULT_CHECK_PROVER,
    time_limit: Annotated[
        float, typer.Option(min=0.1, help="Seconds the check may take before it gives up.")
    ] = DEFAULT_TIME_LIMIT,
) -> None:
    """Check a case file against everything the generator promises (exit 2 and the first
    failing place when it breaks it) and print its best achievable score."""
    case = checked_case(case_file, prover, time_limit, verbose=True)
    if not case.checkable:
        typer.echo(
            f"{case_file}: no logic (setting and formulas); it can only be graded by a model"
        )
        return
    best = best_achievable(case)
    typer.echo(f"{case_file}: passes; best order {', '.join(best.order)}")
    for q in best.score.questions:
        typer.echo(f"  {q.question}: P {q.progressive:.2f}  F {q.final}  O {q.overall:.2f}")
    typer.echo(
        f"  case: P {best.score.progressive:.2f}  F {best.score.final:.2f}  "
        f"O {best.score.overall:.2f}"
    )
