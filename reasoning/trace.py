"""Reasoning traces: what an agent observed and what it claimed, step by step, as JSONL.

One JSON object a line. A ``step`` line adds observations (formulas the agent learnt) and states
claims (its deductions at that point); a ``truth`` line, anywhere, gives formulas describing the
hidden state. All formulas of a trace are sorted together when it is read, so a clash names its
line. Each claim is audited against everything observed up to and including its step, either
from scratch (``audit_trace``) or in one growing session (``audit_trace_incremental``)::

    {"kind": "truth", "formulas": ["alice_knife", "~bob_knife", "~envelope_knife"]}
    {"kind": "step", "observe": ["exactly 1 of {alice_knife, bob_knife, envelope_knife}"]}
    {"kind": "step", "observe": ["alice_knife"], "claims": ["~bob_knife"]}
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, closing
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from reasoning.claims import ClaimStatus, correctness_of
from reasoning.formula import BOTTOM, Formula, is_propositional
from reasoning.prover import Axiom, check_consistency
from reasoning.session import EntailmentSession, EntailmentSessionFactory, is_ground
from reasoning.sorts import SortError, infer_sorts
from reasoning.syntax import FormulaSyntaxError, format_formula, parse_formula
from reasoning.textfile import UserFileError, parse_user_json, read_user_text
from reasoning.verdict import ProofResult, Verdict
from reasoning.verifier import ClaimCheck, Verifier, classify, consistency_of


class TraceError(ValueError):
    """A bad trace line: names the source, the line number and what is wrong."""

    def __init__(self, source: str, line: int, message: str) -> None:
        super().__init__(f"{source}:{line}: {message}")
        self.source = source
        self.line = line


class TruthLine(BaseModel):
    """Formulas that hold in the hidden state."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["truth"]
    formulas: list[str]


class StepLine(BaseModel):
    """Observations made, and claims stated, at one step."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["step"]
    observe: list[str] = Field(default_factory=list)
    claims: list[str] = Field(default_factory=list)
    note: str = ""


TraceLine = Annotated[TruthLine | StepLine, Field(discriminator="kind")]
_LINE = TypeAdapter(TraceLine)


class ReasoningTrace(BaseModel):
    """A whole trace: the steps in order and the hidden truth, if given."""

    steps: list[StepLine]
    truth: list[str] = Field(default_factory=list)


class StepAudit(BaseModel):
    """The checks of one step's claims, and whether the knowledge they were judged against was
    consistent (None for a step without claims, or when the prover could not tell)."""

    step: int
    note: str = ""
    checks: list[ClaimCheck]
    knowledge_consistent: bool | None = None


class TraceAudit(BaseModel):
    """Every step's audit; whether all the observations, and the truth lines with them, are
    consistent (None when unsettled, or for ``truth_consistent`` when there are no truth lines).

    From an inconsistent base every claim is entailed, so such verdicts say nothing.
    ``engine`` names the session or prover that decided the claims.
    """

    steps: list[StepAudit]
    knowledge_consistent: bool | None
    truth_consistent: bool | None
    engine: str = ""


@dataclass(frozen=True, slots=True)
class SortedTrace:
    """A trace's formulas parsed and sorted together: per step its observations and claims."""

    observe: tuple[tuple[Formula, ...], ...]
    claims: tuple[tuple[Formula, ...], ...]
    truth: tuple[Formula, ...]
    notes: tuple[str, ...]

    def formulas(self) -> Iterator[Formula]:
        """Every formula of the trace: truth, then each step's observations and claims."""
        yield from self.truth
        for observe, claims in zip(self.observe, self.claims, strict=True):
            yield from observe
            yield from claims

    @property
    def propositional(self) -> bool:
        """True when no formula has a quantifier, equality or atom with arguments."""
        return all(is_propositional(f) for f in self.formulas())

    @property
    def ground(self) -> bool:
        """True when no formula has a quantifier or equality (see ``GroundAtoms``)."""
        return all(is_ground(f) for f in self.formulas())


@dataclass(frozen=True, slots=True)
class _Place:
    """Where a formula came from in the file: line, field and index in that field."""

    line: int
    field: str
    index: int


def _parse_formulas(
    source: str, line: int, field: str, texts: Sequence[str], places: list[_Place]
) -> list[Formula]:
    out: list[Formula] = []
    for i, text in enumerate(texts):
        try:
            out.append(parse_formula(text))
        except FormulaSyntaxError as err:
            where = f"{field}[{i}]: line {err.line}, column {err.column}"
            raise TraceError(source, line, f"{where}: {err.message}") from None
        places.append(_Place(line, field, i))
    return out


def _read_line(source: str, number: int, raw: str) -> TruthLine | StepLine:
    try:
        return _LINE.validate_python(parse_user_json(raw, source, number))
    except UserFileError as err:
        where = f" at column {err.column}" if err.column else ""
        raise TraceError(source, number, f"{err.reason}{where}") from None
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "line"
        raise TraceError(source, number, f"{where}: {first['msg']}") from None


def parse_sorted_trace(text: str, source: str = "<trace>") -> tuple[ReasoningTrace, SortedTrace]:
    """``parse_trace`` that also returns the formulas parsed and sorted, for the audits."""
    steps: list[StepLine] = []
    truth_text: list[str] = []
    places: list[_Place] = []
    formulas: list[Formula] = []
    step_parts: list[tuple[int, int, int]] = []
    truth_parts: list[tuple[int, int]] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip():
            continue
        item = _read_line(source, number, raw)
        if isinstance(item, TruthLine):
            truth_parts.append((len(formulas), len(item.formulas)))
            formulas += _parse_formulas(source, number, "formulas", item.formulas, places)
            truth_text.extend(item.formulas)
        else:
            step_parts.append((len(formulas), len(item.observe), len(item.claims)))
            formulas += _parse_formulas(source, number, "observe", item.observe, places)
            formulas += _parse_formulas(source, number, "claims", item.claims, places)
            steps.append(item)
    try:
        done, _ = infer_sorts(formulas)
    except SortError as err:
        place = places[err.index or 0]
        raise TraceError(
            source, place.line, f"{place.field}[{place.index}]: {err.detail}"
        ) from None
    sorted_trace = SortedTrace(
        observe=tuple(tuple(done[at : at + n]) for at, n, _ in step_parts),
        claims=tuple(tuple(done[at + n : at + n + m]) for at, n, m in step_parts),
        truth=tuple(f for at, n in truth_parts for f in done[at : at + n]),
        notes=tuple(step.note for step in steps),
    )
    return ReasoningTrace(steps=steps, truth=truth_text), sorted_trace


def parse_trace(text: str, source: str = "<trace>") -> ReasoningTrace:
    """Parse and validate a JSONL trace; every formula is parsed, and all of them sorted
    together, so that syntax errors and sort or arity clashes carry their line."""
    return parse_sorted_trace(text, source)[0]


def sort_trace(trace: ReasoningTrace) -> SortedTrace:
    """Parse and sort all of ``trace``'s formulas together (TraceError on a bad one)."""
    lines = [TruthLine(kind="truth", formulas=trace.truth).model_dump_json()]
    lines += [step.model_dump_json() for step in trace.steps]
    return parse_sorted_trace("\n".join(lines), "<trace>")[1]


def read_trace(path: Path) -> tuple[ReasoningTrace, SortedTrace]:
    """Read a trace file once: the trace and its formulas sorted (TraceError names the line)."""
    try:
        text = read_user_text(path)
    except UserFileError as err:
        if not err.line:
            raise
        raise TraceError(str(path), err.line, err.reason) from None
    return parse_sorted_trace(text, str(path))


def load_trace(path: Path) -> ReasoningTrace:
    """Read and parse a trace file (UTF-8, a byte-order mark allowed)."""
    return read_trace(path)[0]


def _as_sorted(trace: ReasoningTrace | SortedTrace) -> SortedTrace:
    return trace if isinstance(trace, SortedTrace) else sort_trace(trace)


def _axioms(prefix: str, formulas: Sequence[Formula]) -> list[Axiom]:
    return [Axiom(f"{prefix}{i}", f) for i, f in enumerate(formulas, start=1)]


def audit_trace(
    verifier: Verifier,
    trace: ReasoningTrace | SortedTrace,
    progress: Callable[[int, int], None] | None = None,
) -> TraceAudit:
    """Audit each step's claims against the observations up to that step, proving from scratch.

    Observations are true of the game, so the hidden state a claim is judged against is the
    trace's truth lines together with every observation of the trace. Each step costs proofs
    over all the knowledge so far; ``audit_trace_incremental`` keeps it in one session instead.
    """
    done = _as_sorted(trace)
    observed = [f for fs in done.observe for f in fs]
    truth = [*done.truth, *observed] if done.truth else None
    knowledge: list[Formula] = []
    audits: list[StepAudit] = []
    total = len(done.observe)
    for index, (observe, claims) in enumerate(zip(done.observe, done.claims, strict=True), 1):
        knowledge.extend(observe)
        audit = StepAudit(step=index, note=done.notes[index - 1], checks=[])
        if claims:
            report = verifier.audit(knowledge, claims, truth)
            audit = StepAudit(
                step=index,
                note=audit.note,
                checks=report.checks,
                knowledge_consistent=report.knowledge_consistent,
            )
        audits.append(audit)
        if progress:
            progress(index, total)
    prover, timeout = verifier.prover, verifier.timeout
    return TraceAudit(
        steps=audits,
        knowledge_consistent=consistency_of(
            check_consistency(prover, _axioms("k", observed), timeout)
        ),
        truth_consistent=None
        if truth is None
        else consistency_of(check_consistency(prover, _axioms("t", truth), timeout)),
        engine=prover.name,
    )


class _Knowledge:
    """One session's knowledge and what is known of its consistency (which, once lost, stays
    lost: adding formulas only removes models)."""

    def __init__(self, session: EntailmentSession, timeout: float | None) -> None:
        self.session = session
        self.timeout = timeout
        self.known: bool | None = True

    def add(self, formulas: Sequence[Formula]) -> None:
        for f in formulas:
            self.session.add(f)
        if formulas and self.known:
            self.known = None

    def consistent(self) -> bool | None:
        if self.known is None:
            self.known = consistency_of(self.session.prove(BOTTOM, self.timeout))
        return self.known

    def status(self, claim: Formula) -> tuple[ClaimStatus, ProofResult, ProofResult | None]:
        """The claim's status; a countermodel found on the way shows the knowledge consistent."""
        status, proof, refutation = classify(
            lambda goal: self.session.prove(goal, self.timeout), claim
        )
        if Verdict.INVALID in (proof.verdict, refutation and refutation.verdict):
            self.known = True
        return status, proof, refutation


def audit_trace_incremental(
    sessions: EntailmentSessionFactory,
    trace: ReasoningTrace | SortedTrace,
    timeout: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> TraceAudit:
    """``audit_trace`` with the knowledge, and the truth, each kept in one session from
    ``sessions`` as the steps arrive: cost grows with the trace, not with its square.

    Verdicts are those of ``audit_trace`` with a prover of the same power; the proofs carry the
    session's verdict, time and message, without countermodels or used axioms.
    """
    done = _as_sorted(trace)
    with ExitStack() as stack:
        knowledge = _Knowledge(stack.enter_context(closing(sessions())), timeout)
        truth: _Knowledge | None = None
        if done.truth:
            truth = _Knowledge(stack.enter_context(closing(sessions())), timeout)
            truth.add([*done.truth, *(f for fs in done.observe for f in fs)])
        audits: list[StepAudit] = []
        total = len(done.observe)
        for index, (observe, claims) in enumerate(zip(done.observe, done.claims, strict=True), 1):
            knowledge.add(observe)
            checks: list[ClaimCheck] = []
            for claim in claims:
                status, proof, refutation = knowledge.status(claim)
                correctness = None if truth is None else correctness_of(truth.status(claim)[0])
                checks.append(
                    ClaimCheck(
                        claim=format_formula(claim),
                        status=status,
                        correctness=correctness,
                        proof=proof,
                        refutation=refutation,
                    )
                )
            audits.append(
                StepAudit(
                    step=index,
                    note=done.notes[index - 1],
                    checks=checks,
                    knowledge_consistent=knowledge.consistent() if claims else None,
                )
            )
            if progress:
                progress(index, total)
        return TraceAudit(
            steps=audits,
            knowledge_consistent=knowledge.consistent(),
            truth_consistent=None if truth is None else truth.consistent(),
            engine=knowledge.session.name,
        )
