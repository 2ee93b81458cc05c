"""LLM autoformalisation: an English sentence to a Neo-Davidsonian logical form, with repair rounds.

The model answers with a logical form in the project's formula syntax. The text is parsed, sorted
against the signature known so far, checked for unbound names and linted; when a prover is given,
it is also handed the formula so the backend's own syntax check runs. Every problem found goes back
to the model (the parser's line and column with the offending spot, the lint code and symbol, the
prover's message) and it is asked for a corrected form, up to ``max_repairs`` times. The result
keeps every attempt and, when no attempt was usable, the last error.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from formalize.davidsonian.lint import LintCode, LintMessage, Severity, lint
from formalize.davidsonian.render import ITEM
from reasoning.formula import TOP, Formula, constants
from reasoning.llm import ChatClient, ChatMessage, MalformedAnswer, labelled_fields
from reasoning.llm import assistant as assistant_message
from reasoning.llm import system as system_message
from reasoning.llm import user as user_message
from reasoning.prover import Axiom, Prover
from reasoning.sorts import Signature, SortError, infer_sorts
from reasoning.syntax import FormulaSyntaxError, parse_formula
from reasoning.verdict import Verdict

DEFAULT_MAX_REPAIRS = 3
"""Repair requests after the first answer (so at most four calls per sentence)."""
FORMULA_LABEL = "FORMULA"
PROVER_AXIOM = "logical_form"

_FENCE = re.compile(r"```[A-Za-z]*[ \t]*\n?(.*?)```", re.DOTALL)
_LABEL = re.compile(rf"^[\s*#>_`-]*{FORMULA_LABEL}[\s*_`]*:", re.IGNORECASE | re.MULTILINE)

SYSTEM_PROMPT = """\
You turn English sentences into first-order logical forms written in Neo-Davidsonian event \
semantics.

How to write a logical form:
- A verb becomes a one-place predicate of an event variable: Grow(e), Name(e).
- Participants are tied to the event by role relations Role(event, participant): Agent, Patient, \
Theme, Experiencer, Instrument, Location, Source, Goal, Recipient, Time, Manner, Cause, \
Purpose, Attribute, Result, Topic.
- Nouns and adjectives become one-place predicates of entities: Tea(x), Bitter(x).
- Predicate names are CamelCase and start with a capital letter.
- The thing being described ("it", the word on the card) is the constant item. Every other \
name must be a variable bound by forall or exists.
- Connectives: & (and), | (or), ~ (not), -> (implies), <-> (if and only if), = (equality). \
Quantifiers: forall x y. ...  and  exists e x. ...
- A general rule ("if ..., then ...", "whatever ...") is a forall over an implication; never \
put an exists directly on the left of ->.

Examples:
Sentence: A gardener prunes it in winter.
FORMULA: exists e x y. Prune(e) & Gardener(x) & Agent(e, x) & Patient(e, item) & Winter(y) \
& Time(e, y)
Sentence: If a tea is grown on an island, it is an island tea.
FORMULA: forall x e y. Tea(x) & Grow(e) & Patient(e, x) & Island(y) & Location(e, y) -> \
IslandTea(x)

Answer with a line starting with FORMULA: followed by the logical form on that line. You may \
think first on a line starting with REASONING:."""


class ProblemKind(StrEnum):
    """What kind of check a candidate logical form failed."""

    NO_FORMULA = "no-formula"
    SYNTAX = "syntax"
    SORT = "sort"
    UNBOUND = "unbound-name"
    LINT = "lint"
    PROVER = "prover"


class FormalizationProblem(BaseModel):
    """One reason a candidate was rejected, as sent back to the model.

    ``line`` and ``column`` locate a syntax error; ``symbol`` names the symbol a sort, name or
    lint problem is about; ``code`` is the lint code.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: ProblemKind
    message: str
    line: int | None = None
    column: int | None = None
    symbol: str | None = None
    code: str | None = None


class FormalizationAttempt(BaseModel):
    """One answer of the model: the raw reply, the logical form read from it, its problems."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reply: str
    formula_text: str | None
    problems: tuple[FormalizationProblem, ...] = ()

    @property
    def accepted(self) -> bool:
        """True when nothing was wrong with this answer."""
        return not self.problems


@dataclass(frozen=True, slots=True)
class CheckedForm:
    """A candidate after the checks: the sorted formula (None when unusable), the signature it
    extends, the problems that call for a repair and the lint warnings."""

    formula: Formula | None
    signature: Signature
    problems: tuple[FormalizationProblem, ...]
    warnings: tuple[LintMessage, ...]


@dataclass(frozen=True, slots=True)
class Formalization:
    """The outcome for one sentence.

    ``formula`` is the sorted logical form (None when every attempt failed) and ``formula_text``
    the text it was read from; ``signature`` is the given one extended with the formula's symbols;
    ``warnings`` are the lint warnings left on the accepted form; ``error`` is the last problem
    when no attempt was usable.
    """

    sentence: str
    formula: Formula | None
    formula_text: str | None
    signature: Signature
    attempts: tuple[FormalizationAttempt, ...]
    warnings: tuple[LintMessage, ...] = ()

    @property
    def ok(self) -> bool:
        """True when a logical form was obtained."""
        return self.formula is not None

    @property
    def repairs(self) -> int:
        """Repair requests made after the first answer."""
        return max(0, len(self.attempts) - 1)

    @property
    def error(self) -> str | None:
        """The problems of the last attempt when none was usable, else None."""
        if self.ok or not self.attempts:
            return None
        return problem_text(self.attempts[-1].problems)

    @property
    def last_text(self) -> str | None:
        """The logical form text of the last attempt that had one (usable or not)."""
        for attempt in reversed(self.attempts):
            if attempt.formula_text is not None:
                return attempt.formula_text
        return None


def extract_formula(reply: str) -> str:
    """The logical form text of a reply: the ``FORMULA:`` field, else a fenced block, else a
    one-line reply; raises MalformedAnswer when there is none."""
    try:
        text = labelled_fields(reply, ["REASONING", FORMULA_LABEL], required=[FORMULA_LABEL])[
            FORMULA_LABEL
        ]
    except MalformedAnswer:
        if _LABEL.search(reply):
            raise
        fenced = _FENCE.search(reply)
        lines = [line for line in reply.strip().splitlines() if line.strip()]
        if fenced is not None and fenced.group(1).strip():
            text = fenced.group(1)
        elif len(lines) == 1:
            text = lines[0]
        else:
            raise MalformedAnswer(
                f"no line starting with {FORMULA_LABEL}: holding a logical form"
            ) from None
    fenced = _FENCE.search(text)
    if fenced is not None:
        text = fenced.group(1)
    text = " ".join(text.strip().strip("`").split())
    if not text:
        raise MalformedAnswer(f"the {FORMULA_LABEL}: line is empty")
    return text


def check_logical_form(
    text: str,
    *,
    signature: Signature | None = None,
    vocabulary: Signature | None = None,
    allowed_constants: Collection[str] | None = None,
    prover: Prover | None = None,
    timeout: float | None = None,
) -> CheckedForm:
    """Parse, sort, name-check and lint ``text``; with ``prover``, let the backend check it too.

    ``signature`` fixes the sorts known so far (the formula must agree with it); ``vocabulary``
    closes the set of symbols (lint reports the others); ``allowed_constants`` lists the names that
    may stay unbound (None allows any). Lint errors are problems; lint warnings are returned apart.
    """
    known = signature if signature is not None else Signature()
    try:
        parsed = parse_formula(text)
    except FormulaSyntaxError as err:
        problem = FormalizationProblem(
            kind=ProblemKind.SYNTAX,
            message=f"syntax error at line {err.line}, column {err.column}: {err.message}\n"
            f"{err.excerpt}",
            line=err.line,
            column=err.column,
            symbol=err.text,
        )
        return CheckedForm(None, known, (problem,), ())
    problems: list[FormalizationProblem] = []
    try:
        (formula,), extended = infer_sorts([parsed], known)
    except SortError as err:
        problems.append(
            FormalizationProblem(
                kind=ProblemKind.SORT,
                message=f"sort error: {err.detail}",
                symbol=err.symbol,
            )
        )
        formula, extended = parsed, known
    if allowed_constants is not None:
        allowed = set(allowed_constants) | set(known.constants)
        for const in sorted(constants(parsed), key=lambda c: c.name):
            if const.name not in allowed:
                problems.append(
                    FormalizationProblem(
                        kind=ProblemKind.UNBOUND,
                        message=f"the name {const.name!r} is not bound by any quantifier; bind "
                        f"it with forall or exists, or write {ITEM} if it is the described thing",
                        symbol=const.name,
                    )
                )
    findings = lint([formula], vocabulary)
    warnings = tuple(m for m in findings if m.severity is Severity.WARNING)
    problems += [
        lint_problem(m)
        for m in findings
        if m.severity is Severity.ERROR
        and not (
            m.code is LintCode.SORT_CLASH and any(p.kind is ProblemKind.SORT for p in problems)
        )
    ]
    if problems:
        return CheckedForm(None, known, tuple(problems), warnings)
    if prover is not None:
        result = prover.prove((Axiom(PROVER_AXIOM, formula),), TOP, timeout)
        if result.verdict is Verdict.SYNTAX_ERROR:
            problem = FormalizationProblem(
                kind=ProblemKind.PROVER,
                message=f"the prover {result.prover} rejected it: {result.message}",
            )
            return CheckedForm(None, known, (problem,), warnings)
    return CheckedForm(formula, extended, (), warnings)


def lint_problem(message: LintMessage) -> FormalizationProblem:
    """A lint finding as a problem sent back to the model, naming its code and symbol."""
    return FormalizationProblem(
        kind=ProblemKind.LINT,
        message=f"[{message.code.value}] {message.message}",
        symbol=message.symbol,
        code=message.code.value,
    )


def problem_text(problems: Sequence[FormalizationProblem]) -> str:
    """The problems as the lines sent back to the model."""
    return "\n".join(f"- {p.message}" for p in problems)


def vocabulary_hint(signature: Signature) -> str:
    """A line listing the predicates in use with their argument sorts, so the model reuses them."""
    if not signature.predicates:
        return ""
    shown = ", ".join(
        f"{name}({', '.join(sorts)})" for name, sorts in sorted(signature.predicates.items())
    )
    return f"Predicates already in use (reuse them where they fit): {shown}"


def repair_request(problems: Sequence[FormalizationProblem], warnings_only: bool) -> str:
    """The follow-up message asking for a corrected logical form."""
    head = (
        "Your logical form can be improved:"
        if warnings_only
        else "Your logical form cannot be used yet:"
    )
    return (
        f"{head}\n{problem_text(problems)}\n"
        f"Write the corrected logical form for the same sentence, again on one line starting "
        f"with {FORMULA_LABEL}:."
    )


class Autoformalizer:
    """Asks ``client`` for logical forms and repairs them (seed 002, eq. 15 with repair rounds).

    ``prover``, when given, checks each candidate with the backend (its SYNTAX_ERROR message is
    sent back); ``repair_warnings`` also asks for repairs of lint warnings, but a form with only
    warnings left when the repairs run out is still accepted.
    """

    def __init__(
        self,
        client: ChatClient,
        *,
        prover: Prover | None = None,
        max_repairs: int = DEFAULT_MAX_REPAIRS,
        repair_warnings: bool = True,
        timeout: float | None = None,
        seed: int | None = None,
    ) -> None:
        if max_repairs < 0:
            raise ValueError(f"max_repairs must be >= 0, got {max_repairs}")
        self.client = client
        self.prover = prover
        self.max_repairs = max_repairs
        self.repair_warnings = repair_warnings
        self.timeout = timeout
        self.seed = seed

    def formalize(
        self,
        sentence: str,
        *,
        signature: Signature | None = None,
        vocabulary: Signature | None = None,
        allowed_constants: Collection[str] | None = (ITEM,),
        hints: Sequence[str] = (),
    ) -> Formalization:
        """The logical form of ``sentence``, repaired up to ``max_repairs`` times.

        ``signature`` holds the symbols known so far (listed to the model and enforced);
        ``hints`` are extra lines for the model, such as which predicate names a word.
        LLMEndpointError from the client propagates.
        """
        known = signature if signature is not None else Signature()
        conversation = [
            system_message(SYSTEM_PROMPT),
            user_message(self._request(sentence, known, hints)),
        ]
        attempts: list[FormalizationAttempt] = []
        for round_ in range(self.max_repairs + 1):
            reply = self.client.complete(conversation, seed=self.seed).content
            last_round = round_ == self.max_repairs
            try:
                text = extract_formula(reply)
            except MalformedAnswer as err:
                problem = FormalizationProblem(kind=ProblemKind.NO_FORMULA, message=str(err))
                attempts.append(
                    FormalizationAttempt(reply=reply, formula_text=None, problems=(problem,))
                )
                if not last_round:
                    conversation += self._follow_up(reply, (problem,), warnings_only=False)
                continue
            checked = check_logical_form(
                text,
                signature=known,
                vocabulary=vocabulary,
                allowed_constants=allowed_constants,
                prover=self.prover,
                timeout=self.timeout,
            )
            warning_problems = self._warning_problems(checked) if not last_round else ()
            problems = checked.problems or warning_problems
            attempts.append(FormalizationAttempt(reply=reply, formula_text=text, problems=problems))
            if not problems:
                return Formalization(
                    sentence,
                    checked.formula,
                    text,
                    checked.signature,
                    tuple(attempts),
                    checked.warnings,
                )
            if not last_round:
                conversation += self._follow_up(reply, problems, warnings_only=not checked.problems)
        return Formalization(sentence, None, None, known, tuple(attempts))

    def _warning_problems(self, checked: CheckedForm) -> tuple[FormalizationProblem, ...]:
        if not self.repair_warnings or checked.problems:
            return ()
        return tuple(lint_problem(m) for m in checked.warnings)

    @staticmethod
    def _request(sentence: str, signature: Signature, hints: Sequence[str]) -> str:
        lines = [f"Sentence: {' '.join(sentence.split())}"]
        hint = vocabulary_hint(signature)
        if hint:
            lines.append(hint)
        lines += [h for h in hints if h.strip()]
        return "\n".join(lines)

    @staticmethod
    def _follow_up(
        reply: str, problems: Sequence[FormalizationProblem], *, warnings_only: bool
    ) -> list[ChatMessage]:
        return [assistant_message(reply), user_message(repair_request(problems, warnings_only))]


def autoformalize(
    sentence: str,
    client: ChatClient,
    *,
    prover: Prover | None = None,
    max_repairs: int = DEFAULT_MAX_REPAIRS,
    signature: Signature | None = None,
    vocabulary: Signature | None = None,
    hints: Sequence[str] = (),
    seed: int | None = None,
) -> Formalization:
    """One sentence through an ``Autoformalizer`` built from the arguments."""
    formalizer = Autoformalizer(client, prover=prover, max_repairs=max_repairs, seed=seed)
    return formalizer.formalize(sentence, signature=signature, vocabulary=vocabulary, hints=hints)
