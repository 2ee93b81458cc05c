"""Lint for Neo-Davidsonian logical forms: symbols, sorts, roles and quantifier shape.

Codes: ``undeclared-symbol`` (a predicate or constant outside the given vocabulary),
``sort-clash`` (sort inference failed: a symbol forced to two sorts, or two arities),
``role-on-non-event`` (a thematic role such as Agent or Patient whose first argument is a constant
or a term of a sort other than event), ``vacuous-antecedent`` (an existential directly on the left
of an implication: ``(exists x. P(x)) -> Q`` reads better as ``forall x. P(x) -> Q``) and
``unused-variable`` (a quantified variable its body never mentions). Every message names its symbol.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from reasoning.formula import (
    EVENT,
    Const,
    Exists,
    Forall,
    Formula,
    Implies,
    Var,
    atoms,
    constants,
    free_vars,
    walk,
)
from reasoning.sorts import ROLE_PREDICATES, Signature, SortError, infer_sorts


class LintCode(StrEnum):
    """What a lint message is about."""

    UNDECLARED_SYMBOL = "undeclared-symbol"
    SORT_CLASH = "sort-clash"
    ROLE_ON_NON_EVENT = "role-on-non-event"
    VACUOUS_ANTECEDENT = "vacuous-antecedent"
    UNUSED_VARIABLE = "unused-variable"


class Severity(StrEnum):
    """Errors make a formula wrong or unusable; warnings mark a likely mistake in meaning."""

    ERROR = "error"
    WARNING = "warning"


SEVERITY: dict[LintCode, Severity] = {
    LintCode.UNDECLARED_SYMBOL: Severity.ERROR,
    LintCode.SORT_CLASH: Severity.ERROR,
    LintCode.ROLE_ON_NON_EVENT: Severity.ERROR,
    LintCode.VACUOUS_ANTECEDENT: Severity.WARNING,
    LintCode.UNUSED_VARIABLE: Severity.WARNING,
}


class LintMessage(BaseModel):
    """One finding: its code, the symbol it is about, a readable message and its severity.

    ``index`` is the 0-based position of the formula in the linted list (None when the finding
    concerns the list as a whole).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    code: LintCode
    symbol: str
    message: str
    severity: Severity
    index: int | None = None


def _message(code: LintCode, symbol: str, message: str, index: int | None) -> LintMessage:
    return LintMessage(
        code=code, symbol=symbol, message=message, severity=SEVERITY[code], index=index
    )


def lint(formulas: Sequence[Formula], vocabulary: Signature | None = None) -> list[LintMessage]:
    """Every finding on ``formulas``, formula by formula; an empty list means clean.

    With ``vocabulary``, symbols outside it are reported and its sorts are used for inference.
    """
    messages: list[LintMessage] = []
    sorted_formulas = _sorted(formulas, vocabulary, messages)
    reported: set[str] = set()
    for index, (f, sorted_f) in enumerate(zip(formulas, sorted_formulas, strict=True)):
        if vocabulary is not None:
            messages.extend(_undeclared(f, vocabulary, index, reported))
        messages.extend(_roles(sorted_f, vocabulary, index))
        messages.extend(_vacuous(f, index))
        messages.extend(_unused(f, index))
    return messages


def _sorted(
    formulas: Sequence[Formula], vocabulary: Signature | None, messages: list[LintMessage]
) -> list[Formula]:
    """The formulas sorted together; on a clash, each sorted alone where it can be, with the
    clashes reported (a formula that cannot be sorted at all is kept unsorted)."""
    try:
        return list(infer_sorts(formulas, vocabulary)[0])
    except SortError as joint:
        out: list[Formula] = []
        alone = False
        for index, f in enumerate(formulas):
            try:
                out.append(infer_sorts([f], vocabulary)[0][0])
            except SortError as err:
                alone = True
                messages.append(_message(LintCode.SORT_CLASH, err.symbol, err.detail, index))
                out.append(f)
        if not alone:
            messages.append(
                _message(
                    LintCode.SORT_CLASH,
                    joint.symbol,
                    f"{joint.detail} (across the formulas)",
                    joint.index,
                )
            )
        return out


def _undeclared(
    f: Formula, vocabulary: Signature, index: int, reported: set[str]
) -> Iterator[LintMessage]:
    for atom in atoms(f):
        key = f"predicate {atom.pred}"
        if atom.pred not in vocabulary.predicates and key not in reported:
            reported.add(key)
            yield _message(
                LintCode.UNDECLARED_SYMBOL,
                atom.pred,
                f"predicate {atom.pred!r} is not in the vocabulary",
                index,
            )
    for const in sorted(constants(f), key=lambda c: c.name):
        key = f"constant {const.name}"
        if const.name not in vocabulary.constants and key not in reported:
            reported.add(key)
            yield _message(
                LintCode.UNDECLARED_SYMBOL,
                const.name,
                f"constant {const.name!r} is not in the vocabulary",
                index,
            )


def _roles(f: Formula, vocabulary: Signature | None, index: int) -> Iterator[LintMessage]:
    roles = [a for a in atoms(f) if a.pred in ROLE_PREDICATES and a.args]
    participants = {a.args[1].name for a in roles if len(a.args) > 1 and isinstance(a.args[1], Var)}
    for atom in roles:
        first = atom.args[0]
        if isinstance(first, Const):
            declared = None if vocabulary is None else vocabulary.constants.get(first.name)
            if declared == EVENT:
                continue
            yield _message(
                LintCode.ROLE_ON_NON_EVENT,
                atom.pred,
                f"role {atom.pred!r} relates an event to a participant, but its first argument "
                f"is the constant {first.name!r}; introduce an event variable "
                f"(exists e. ... & {atom.pred}(e, ...))",
                index,
            )
        elif first.sort is not None and first.sort != EVENT:
            yield _message(
                LintCode.ROLE_ON_NON_EVENT,
                atom.pred,
                f"role {atom.pred!r} needs an event first, but variable {first.name!r} "
                f"has sort {first.sort}",
                index,
            )
        elif first.sort is None and first.name in participants:
            yield _message(
                LintCode.ROLE_ON_NON_EVENT,
                atom.pred,
                f"role {atom.pred!r} needs an event first, but variable {first.name!r} is also "
                "a participant of a role",
                index,
            )


def _vacuous(f: Formula, index: int) -> Iterator[LintMessage]:
    for g in walk(f):
        if isinstance(g, Implies) and isinstance(g.left, Exists):
            names = " ".join(v.name for v in g.left.vars)
            yield _message(
                LintCode.VACUOUS_ANTECEDENT,
                names,
                f"'exists {names}' directly left of '->' quantifies over the whole rule; "
                f"write 'forall {names}. ... -> ...' instead",
                index,
            )


def _unused(f: Formula, index: int) -> Iterator[LintMessage]:
    for g in walk(f):
        if isinstance(g, Forall | Exists):
            used = {v.name for v in free_vars(g.body)}
            for v in g.vars:
                if v.name not in used:
                    yield _message(
                        LintCode.UNUSED_VARIABLE,
                        v.name,
                        f"variable {v.name!r} is quantified but never used in the body",
                        index,
                    )
