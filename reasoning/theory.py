"""Theory files: named axioms and an optional goal, one statement per line, sorted together.

```
# a comment
axiom fact_1: exists x e. Tea(x) & Infuse(e) & Agent(e, x)
axiom rule_1: forall x. Tea(x)
    -> Drink(x)
goal: exists x. Drink(x)
```

A statement continues on the following lines that start with whitespace; blank lines and ``#``
comments may appear anywhere. Axiom names are unique; there is at most one goal.
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from reasoning.formula import Formula
from reasoning.prover import Axiom
from reasoning.sorts import Signature, SortError, erase_sorts, infer_sorts
from reasoning.syntax import (
    NAME_PATTERN,
    QUOTED_PATTERN,
    FormulaSyntaxError,
    excerpt,
    format_formula,
    format_name,
    parse_formula,
    parse_name,
)
from reasoning.textfile import UserFileError, read_user_text


class TheoryError(ValueError):
    """A malformed theory: ``source``, 1-based ``line`` and ``column`` in the file, ``message``.

    ``str()`` is one line, ``SOURCE:LINE:COLUMN: message``; ``excerpt`` shows the spot.
    """

    def __init__(self, message: str, source: str, line: int, column: int, excerpt: str) -> None:
        super().__init__(f"{source}:{line}:{column}: {message}")
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        self.excerpt = excerpt


class TheoryTimeout(Exception):
    """Reading a theory ran past its deadline after ``read`` of its ``total`` statements (all of
    them read: while its sorts were still to be checked)."""

    def __init__(self, read: int, total: int) -> None:
        done = f"{read} of {total} statements read" if read < total else "sorts not checked"
        super().__init__(done)
        self.read = read
        self.total = total


@dataclass(frozen=True)
class Theory:
    """Named axioms and an optional goal, all sorted together; ``signature`` covers them all."""

    axioms: tuple[Axiom, ...]
    goal: Formula | None
    signature: Signature

    @classmethod
    def build(
        cls,
        axioms: Sequence[Axiom],
        goal: Formula | None = None,
        signature: Signature | None = None,
    ) -> Theory:
        """Sort ``axioms`` and ``goal`` together (raises SortError) and make the theory.

        Axiom names must be unique (ValueError otherwise).
        """
        counts = Counter(a.name for a in axioms)
        duplicates = sorted(n for n, count in counts.items() if count > 1)
        if duplicates:
            raise ValueError(f"duplicate axiom names: {', '.join(map(repr, duplicates))}")
        formulas = [a.formula for a in axioms] + ([goal] if goal is not None else [])
        sorted_formulas, sig = infer_sorts(formulas, signature)
        new_axioms = tuple(
            Axiom(a.name, f) for a, f in zip(axioms, sorted_formulas[: len(axioms)], strict=True)
        )
        new_goal = sorted_formulas[-1] if goal is not None else None
        return cls(new_axioms, new_goal, sig)


def with_goal(theory: Theory, goal: Formula | None) -> Theory:
    """A copy of ``theory`` with ``goal`` instead of its goal, sorted against the axioms."""
    return Theory.build(theory.axioms, goal)


_AXIOM_HEAD = re.compile(r"axiom(?![\w'])[ \t]*")
_NAME = re.compile(f"{NAME_PATTERN}|{QUOTED_PATTERN}")
_COLON = re.compile(r"[ \t]*:")
_GOAL_HEAD = re.compile(r"goal[ \t]*:")
_COMMENT = re.compile(r"#[^\n]*")


@dataclass(frozen=True, slots=True)
class _Statement:
    """One statement: its axiom name (None for the goal) and where its formula text starts."""

    name: str | None
    line: int
    name_column: int
    formula_column: int
    text: str


class _Reader:
    """Splits a theory text into statements and turns every problem into a TheoryError."""

    def __init__(self, text: str, source: str) -> None:
        self.lines = text.split("\n")
        self.source = source

    def error(self, message: str, line: int, column: int) -> TheoryError:
        return TheoryError(
            message, self.source, line, column, excerpt("\n".join(self.lines), line, column)
        )

    def groups(self) -> list[tuple[int, int]]:
        """(first, last) 1-based line numbers of each statement, comments and blanks trimmed."""
        out: list[tuple[int, int]] = []
        for number, line in enumerate(self.lines, start=1):
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            if line[0].isspace():
                if not out:
                    column = len(line) - len(line.lstrip()) + 1
                    raise self.error("indented line before the first statement", number, column)
                out[-1] = (out[-1][0], number)
            else:
                out.append((number, number))
        return out

    def statement(self, first: int, last: int) -> _Statement:
        line = self.lines[first - 1]
        head = _GOAL_HEAD.match(line)
        name: str | None = None
        name_column = 1
        if head is None:
            axiom = _AXIOM_HEAD.match(line)
            if axiom is None:
                raise self.error("expected 'axiom NAME:' or 'goal:'", first, 1)
            name_match = _NAME.match(line, axiom.end())
            name_column = axiom.end() + 1
            if name_match is None:
                raise self.error("expected an axiom name after 'axiom'", first, name_column)
            try:
                name = parse_name(name_match.group())
            except ValueError as err:
                raise self.error(str(err), first, name_column) from None
            head = _COLON.match(line, name_match.end())
            if head is None:
                raise self.error("expected ':' after the axiom name", first, name_match.end() + 1)
        blanked = " " * head.end() + line[head.end() :]
        text = "\n".join([blanked, *self.lines[first:last]])
        return _Statement(name, first, name_column, head.end() + 1, text)

    def formula(self, stmt: _Statement) -> Formula:
        if not _COMMENT.sub("", stmt.text).strip():
            what = "'goal:'" if stmt.name is None else f"axiom {stmt.name!r}"
            raise self.error(f"missing formula after {what}", stmt.line, stmt.formula_column)
        try:
            return parse_formula(stmt.text)
        except FormulaSyntaxError as err:
            raise self.error(err.message, stmt.line + err.line - 1, err.column) from None

    def formula_start(self, stmt: _Statement) -> tuple[int, int]:
        """File line and column of the first character of ``stmt``'s formula."""
        for offset, line in enumerate(_COMMENT.sub("", stmt.text).split("\n")):
            stripped = line.lstrip()
            if stripped:
                return stmt.line + offset, len(line) - len(stripped) + 1
        return stmt.line, 1


def parse_theory(text: str, source: str = "<string>", deadline: float | None = None) -> Theory:
    """Read a theory text; raises TheoryError at the file position of the first problem, and
    TheoryTimeout when ``time.monotonic()`` passes ``deadline`` before the reading is done."""
    reader = _Reader(text, source)
    axioms: list[Axiom] = []
    where: list[_Statement] = []
    goal: Formula | None = None
    goal_stmt: _Statement | None = None
    seen: dict[str, int] = {}
    groups = reader.groups()
    for read, (first, last) in enumerate(groups):
        if deadline is not None and time.monotonic() > deadline:
            raise TheoryTimeout(read, len(groups))
        stmt = reader.statement(first, last)
        if stmt.name is None:
            if goal_stmt is not None:
                raise reader.error(f"second goal (the goal is on line {goal_stmt.line})", first, 1)
            goal, goal_stmt = reader.formula(stmt), stmt
            continue
        if stmt.name in seen:
            raise reader.error(
                f"duplicate axiom name {stmt.name!r} (first on line {seen[stmt.name]})",
                first,
                stmt.name_column,
            )
        seen[stmt.name] = first
        axioms.append(Axiom(stmt.name, reader.formula(stmt)))
        where.append(stmt)
    if goal_stmt is not None:
        where.append(goal_stmt)
    if deadline is not None and time.monotonic() > deadline:
        raise TheoryTimeout(len(groups), len(groups))
    try:
        return Theory.build(axioms, goal)
    except SortError as err:
        stmt_at = where[err.index] if err.index is not None else where[0]
        line, column = reader.formula_start(stmt_at)
        what = "the goal" if stmt_at.name is None else f"axiom {stmt_at.name!r}"
        raise reader.error(f"{err.detail} in {what}", line, column) from None


def load_theory(path: str | os.PathLike[str], deadline: float | None = None) -> Theory:
    """Read the theory file at ``path`` (UTF-8, a byte-order mark allowed); errors name the file
    (TheoryError, or UserFileError when it is not a readable regular file); TheoryTimeout past
    ``deadline``."""
    try:
        text = read_user_text(path)
    except UserFileError as err:
        if not err.line:
            raise
        raise TheoryError(err.reason, str(path), err.line, err.column, "") from None
    return parse_theory(text, source=str(path), deadline=deadline)


def format_theory(theory: Theory) -> str:
    """The text of ``theory``, one statement a line, which ``parse_theory`` reads back to it.

    Sort annotations are written only when inference alone would not restore the sorts.
    """
    formulas = [a.formula for a in theory.axioms]
    if theory.goal is not None:
        formulas.append(theory.goal)
    erased = [erase_sorts(f) for f in formulas]
    try:
        restored = infer_sorts(erased)
    except SortError:
        restored = None
    shown = erased if restored == (tuple(formulas), theory.signature) else formulas
    lines = [
        f"axiom {format_name(a.name)}: {format_formula(f)}"
        for a, f in zip(theory.axioms, shown, strict=False)
    ]
    if theory.goal is not None:
        lines.append(f"goal: {format_formula(shown[-1])}")
    return "\n".join(lines) + "\n" if lines else ""
