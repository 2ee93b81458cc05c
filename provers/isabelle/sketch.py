"""Proof sketches (seed 002, Fig. 8): Isar steps whose ``<ATP>`` gaps Sledgehammer fills.

A sketch is a list of steps such as ``have "..."``, ``then have "..."`` and ``then show ?thesis``,
each followed by a tactic or the tag ``<ATP>``. ``check_sketch`` walks the steps in order: a tag
(or ``sledgehammer``) becomes a Sledgehammer call on that step and the tactic it suggests is
replayed; a given tactic is checked as written. The first step that fails is returned with
Isabelle's message as feedback for whoever wrote the sketch; when all steps hold and the proof
closes with ``qed``, the completed proof is returned.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field, field_validator

from provers.identifiers import axiom_id
from provers.isabelle.prover import (
    IsabelleProver,
    describe_error,
    remaining,
    sledgehammer_command,
    sledgehammer_summary,
    suggested_tactics,
    unique_theory_name,
    used_axioms,
)
from provers.isabelle.server import IsabelleServerError, IsabelleTimeout, TheoryCheck
from provers.isabelle.theory_text import (
    ProofTextError,
    check_proof_text,
    isabelle_name,
    isabelle_symbols,
    proof_start_line,
    render_theory,
)
from provers.signature import MalformedProblem
from reasoning.formula import Formula
from reasoning.prover import Axiom
from reasoning.verdict import Verdict

ATP_TAG = "<ATP>"

_QUOTED = r'"(?:[^"\\]|\\<\^?[A-Za-z][A-Za-z0-9_\']*>)*"'
_FACTS = r"[A-Za-z][A-Za-z0-9_'.]*(?:\s+[A-Za-z][A-Za-z0-9_'.]*)*"
_PREFIX = rf"(?:(?:then|moreover|ultimately|also|finally|(?:from|with)\s+{_FACTS})\s+)?"
_BODY = rf"(?:{_QUOTED}(?:\s+and\s+{_QUOTED})*|\?thesis)"
_STATEMENT = re.compile(
    rf"{_PREFIX}(?:have|show|hence|thus)\s+(?:[A-Za-z][A-Za-z0-9_]*:\s*)?{_BODY}"
)
_SEARCH = re.compile(r"<ATP>|sledgehammer(?:\s*\[[A-Za-z0-9_ =,.]*\])?")
_TACTIC = re.compile(rf"{_SEARCH.pattern}|(?:using\s+\S.*\s+)?by\s+\S.*|\.\.?")
_SKIPPED = re.compile(r"(?:theorem|lemma)\b.*|shows\b.*|proof\s*-?|qed|oops")


class SketchSyntaxError(ValueError):
    """A sketch that cannot be read; ``line`` is the 1-based line in the sketch text."""

    def __init__(self, message: str, line: int) -> None:
        """Name the problem and its line."""
        super().__init__(f"line {line}: {message}")
        self.line = line


class SketchStep(BaseModel):
    """One Isar step: a ``have``/``show`` statement and its tactic (``<ATP>`` for a gap)."""

    model_config = ConfigDict(frozen=True)

    statement: str
    tactic: str = ATP_TAG

    @field_validator("statement")
    @classmethod
    def _check_statement(cls, value: str) -> str:
        text = " ".join(isabelle_symbols(value).split())
        if not _STATEMENT.fullmatch(text):
            raise ValueError(
                f"not a step statement: {text!r} (expected e.g. 'have \"...\"', "
                "'then have \"...\"' or 'then show ?thesis')"
            )
        return check_proof_text(text)

    @field_validator("tactic")
    @classmethod
    def _check_tactic(cls, value: str) -> str:
        text = " ".join(isabelle_symbols(value).split())
        if not _TACTIC.fullmatch(text):
            raise ValueError(
                f"not a tactic: {text!r} (expected {ATP_TAG}, 'sledgehammer' or 'by ...')"
            )
        return text if text == ATP_TAG else check_proof_text(text)

    @property
    def is_gap(self) -> bool:
        """True when the step's tactic is to be found by Sledgehammer."""
        return _SEARCH.fullmatch(self.tactic) is not None


class SketchResult(BaseModel):
    """The outcome of checking a sketch.

    ``verdict`` is VALID when every step holds and the proof closes; otherwise ``failed_step``
    (0-based; ``len(steps)`` for the closing ``qed``), ``failed_text`` and ``message`` say where
    and why it failed: SYNTAX_ERROR when Isabelle rejects the statement itself, TIMEOUT past the
    limit, UNKNOWN when no proof of the step was found. ``steps`` holds the steps checked so far
    with the tactics found; ``proof`` is their Isar text.
    """

    model_config = ConfigDict(frozen=True)

    verdict: Verdict
    steps: list[SketchStep]
    proof: str
    failed_step: int | None = None
    failed_text: str | None = None
    message: str = ""
    used_axioms: list[str] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the whole sketch was proved."""
        return self.verdict is Verdict.VALID


def parse_sketch(text: str) -> list[SketchStep]:
    """Read a sketch in the style of Fig. 8 into steps.

    Each step starts with its statement; its tactic (``<ATP>``, ``sledgehammer``, ``by ...``)
    follows on the same or the next line. ``theorem``/``lemma``, ``shows``, ``proof -``, ``qed``
    and blank lines are skipped (the goal comes from the problem). Raises ``SketchSyntaxError``.
    """
    steps: list[SketchStep] = []
    pending: tuple[str, int] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or _SKIPPED.fullmatch(line):
            continue
        if pending is not None:
            if not _TACTIC.fullmatch(line):
                raise SketchSyntaxError(f"step at line {pending[1]} has no tactic", number)
            steps.append(_step(pending[0], line, pending[1]))
            pending = None
            continue
        try:
            ascii_line = isabelle_symbols(line)
        except ProofTextError as exc:
            raise SketchSyntaxError(str(exc), number) from None
        statement = _STATEMENT.match(ascii_line)
        if statement is None:
            raise SketchSyntaxError(f"expected a have/show step, found {line!r}", number)
        rest = ascii_line[statement.end() :].strip()
        if rest:
            steps.append(_step(statement.group(0), rest, number))
        else:
            pending = (statement.group(0), number)
    if pending is not None:
        raise SketchSyntaxError("the last step has no tactic", pending[1])
    if not steps:
        raise SketchSyntaxError("the sketch has no steps", 1)
    return steps


def render_sketch(steps: Sequence[SketchStep], *, close: str = "qed") -> str:
    """The Isar proof ``proof - ... close``: each statement on a line, its tactic on the next."""
    lines = ["proof -"]
    for step in steps:
        lines += [f"  {step.statement}", f"    {step.tactic}"]
    return "\n".join([*lines, close])


def check_sketch(
    prover: IsabelleProver,
    axioms: Sequence[Axiom],
    goal: Formula,
    sketch: str | Sequence[SketchStep],
    timeout: float | None = None,
) -> SketchResult:
    """Check ``sketch`` as a proof of ``goal`` from ``axioms``, step by step.

    Statements are Isabelle text over the theory's identifiers (``p_Tea x``, ``c_alice``: see
    ``render_theory``); Unicode logic symbols are accepted. ``timeout`` (default: the
    prover's) is the wall-clock limit for each step's search and replay and for the closing
    check, once the server and session are up (``IsabelleProver.start``, whose ProverUnavailable
    it raises). Raises ``SketchSyntaxError`` for unreadable sketch text; server failures come
    back as UNKNOWN.
    """
    steps = parse_sketch(sketch) if isinstance(sketch, str) else list(sketch)
    checker = _SketchChecker(prover, axioms, goal, prover.timeout if timeout is None else timeout)
    try:
        prover.start()
        return checker.run(steps)
    except (MalformedProblem, ProofTextError) as exc:
        return checker.failure(Verdict.SYNTAX_ERROR, None, None, str(exc))
    except IsabelleServerError as exc:
        return checker.failure(Verdict.UNKNOWN, None, None, f"Isabelle server failure: {exc}")


def _step(statement: str, tactic: str, line: int) -> SketchStep:
    try:
        return SketchStep(statement=statement, tactic=tactic)
    except ValueError as exc:
        raise SketchSyntaxError(str(exc), line) from None


class _SketchChecker:
    """Checks one sketch, keeping the steps proved so far."""

    def __init__(
        self, prover: IsabelleProver, axioms: Sequence[Axiom], goal: Formula, limit: float
    ) -> None:
        self.prover = prover
        self.axioms = axioms
        self.goal = goal
        self.limit = limit
        self.done: list[SketchStep] = []
        self.identifiers = {isabelle_name(axiom_id(a.name)): a.name for a in axioms}

    def run(self, steps: Sequence[SketchStep]) -> SketchResult:
        for index, step in enumerate(steps):
            failure = self._prove_step(index, step)
            if failure is not None:
                return failure
        name = unique_theory_name("Sketch")
        theory = render_theory(self.axioms, self.goal, name, proof=render_sketch(self.done))
        try:
            check = self.prover.check_theory(theory, name, self.limit)
        except IsabelleTimeout as exc:
            return self.failure(Verdict.TIMEOUT, len(steps), "qed", str(exc))
        if check.ok and not check.errors:
            cited = used_axioms(" ".join(s.tactic for s in self.done), self.identifiers)
            return SketchResult(
                verdict=Verdict.VALID,
                steps=list(self.done),
                proof=render_sketch(self.done),
                message="every step proved",
                used_axioms=cited,
            )
        problem = describe_error(check, theory)
        if problem is None and check.interrupted:
            return self.failure(Verdict.TIMEOUT, len(steps), "qed", "Isabelle timed out")
        return self.failure(
            Verdict.UNKNOWN, len(steps), "qed", problem or "the proof does not close"
        )

    def failure(
        self, verdict: Verdict, index: int | None, text: str | None, message: str
    ) -> SketchResult:
        """A result for a sketch that failed at step ``index`` (None: before any step)."""
        return SketchResult(
            verdict=verdict,
            steps=list(self.done),
            proof=render_sketch(self.done, close="oops"),
            failed_step=index,
            failed_text=text,
            message=message,
        )

    def _prove_step(self, index: int, step: SketchStep) -> SketchResult | None:
        """Prove step ``index`` after the steps done; None when it holds, else the failure."""
        deadline = time.perf_counter() + self.limit
        outcome: SketchStep | tuple[Verdict, str]
        try:
            if step.is_gap:
                outcome = self._search(step, deadline)
            else:
                outcome = self._try(step, deadline) or step
        except IsabelleTimeout as exc:
            outcome = Verdict.TIMEOUT, str(exc)
        if isinstance(outcome, SketchStep):
            self.done.append(outcome)
            return None
        return self.failure(outcome[0], index, step.statement, outcome[1])

    def _search(self, step: SketchStep, deadline: float) -> SketchStep | tuple[Verdict, str]:
        """Fill the gap with Sledgehammer: the step with a replayed tactic, or why not."""
        search = step.model_copy(update={"tactic": sledgehammer_command(self.limit)})
        theory, check = self._check(search, deadline)
        problem = describe_error(check, theory)
        if problem is not None:
            return Verdict.SYNTAX_ERROR, problem
        if check.interrupted:
            return Verdict.TIMEOUT, "Isabelle timed out"
        tactics = suggested_tactics(check)
        if not tactics:
            return Verdict.UNKNOWN, f"no proof found: {sledgehammer_summary(check)}"
        failures = []
        for tactic in tactics[: self.prover.max_replays]:
            candidate = step.model_copy(update={"tactic": tactic})
            try:
                replay = self._try(candidate, deadline)
            except ProofTextError as exc:
                failures.append(f"{tactic}: refused ({exc})")
                continue
            if replay is None:
                return candidate
            failures.append(f"{tactic}: {replay[1]}")
        return Verdict.UNKNOWN, "suggested proofs did not replay: " + "; ".join(failures)

    def _check(self, step: SketchStep, deadline: float) -> tuple[str, TheoryCheck]:
        name = unique_theory_name("Sketch")
        proof = render_sketch([*self.done, step], close="oops")
        theory = render_theory(self.axioms, self.goal, name, proof=proof)
        return theory, self.prover.check_theory(theory, name, remaining(deadline))

    def _try(self, step: SketchStep, deadline: float) -> tuple[Verdict, str] | None:
        """Check ``step`` with its tactic after the steps done; None when it holds."""
        theory, check = self._check(step, deadline)
        if check.ok and not check.errors:
            return None
        problem = describe_error(check, theory)
        if problem is None:
            if check.interrupted:
                return Verdict.TIMEOUT, "Isabelle timed out"
            return Verdict.UNKNOWN, "not accepted"
        statement_line = proof_start_line(theory) + 1 + 2 * len(self.done)
        on_statement = check.problems[0].line == statement_line
        return (Verdict.SYNTAX_ERROR if on_statement else Verdict.UNKNOWN), problem
