"""Reasoning traces: what an agent observed and what it claimed, step by step, as JSONL.

One JSON object a line. A ``step`` line adds observations (formulas the agent learnt) and states
claims (its deductions at that point); a ``truth`` line, anywhere, gives formulas describing the
hidden state. Each claim is audited against everything observed up to and including its step::

    {"kind": "truth", "formulas": ["alice_knife", "~bob_knife", "~envelope_knife"]}
    {"kind": "step", "observe": ["exactly 1 of {alice_knife, bob_knife, envelope_knife}"]}
    {"kind": "step", "observe": ["alice_knife"], "claims": ["~bob_knife"]}
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from reasoning.syntax import FormulaSyntaxError, parse_formula
from reasoning.verifier import ClaimCheck, Verifier


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
    """The checks of one step's claims."""

    step: int
    note: str = ""
    checks: list[ClaimCheck]


def _check_formulas(source: str, line: int, field: str, texts: Sequence[str]) -> None:
    for i, text in enumerate(texts):
        try:
            parse_formula(text)
        except FormulaSyntaxError as err:
            raise TraceError(source, line, f"{field}[{i}]: {err}") from None


def parse_trace(text: str, source: str = "<trace>") -> ReasoningTrace:
    """Parse and validate a JSONL trace; every formula is parsed so errors carry their line."""
    steps: list[StepLine] = []
    truth: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            item = _LINE.validate_python(json.loads(raw))
        except json.JSONDecodeError as err:
            raise TraceError(source, number, f"not JSON: {err.msg} at column {err.colno}") from None
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise TraceError(source, number, f"{where}: {first['msg']}") from None
        if isinstance(item, TruthLine):
            _check_formulas(source, number, "formulas", item.formulas)
            truth.extend(item.formulas)
        else:
            _check_formulas(source, number, "observe", item.observe)
            _check_formulas(source, number, "claims", item.claims)
            steps.append(item)
    return ReasoningTrace(steps=steps, truth=truth)


def load_trace(path: Path) -> ReasoningTrace:
    """Read and parse a trace file."""
    return parse_trace(path.read_text(encoding="utf-8"), source=str(path))


def audit_trace(
    verifier: Verifier,
    trace: ReasoningTrace,
    progress: Callable[[int, int], None] | None = None,
) -> list[StepAudit]:
    """Audit each step's claims against the observations up to that step.

    Observations are true of the game, so the hidden state a claim is judged against is the
    trace's truth lines together with every observation of the trace.
    """
    truth = [*trace.truth, *(f for step in trace.steps for f in step.observe)]
    knowledge: list[str] = []
    audits: list[StepAudit] = []
    for index, step in enumerate(trace.steps, start=1):
        knowledge.extend(step.observe)
        checks: list[ClaimCheck] = []
        if step.claims:
            report = verifier.audit(knowledge, step.claims, truth if trace.truth else None)
            checks = report.checks
        audits.append(StepAudit(step=index, note=step.note, checks=checks))
        if progress:
            progress(index, len(trace.steps))
    return audits
