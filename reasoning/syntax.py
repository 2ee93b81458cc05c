"""The text syntax of formulas: ``parse_formula`` (lark, LALR) and its inverse ``format_formula``.

ASCII and Unicode spellings are both read (``forall x. P(x) & ~Q x -> R``, ``∀x. P x ∧ ¬Q x ⟶ R``);
the grammar is ``formula.lark``. Formulas nest at most ``MAX_NESTING`` deep, so that every walk
over them, here and in every backend, stays within Python's recursion limit. Names bound by an
enclosing quantifier are variables, other term names constants; ``x:sort`` (or ``x::sort``)
annotates a sort, and an unannotated bound name takes its binder's sort. ``?x`` is a variable and
``@c`` a constant whatever the binders around them say, which the printer uses for free variables
and captured constants, so that printing then parsing gives back every IR value exactly.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any, NoReturn, get_args

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from reasoning.formula import (
    And,
    Atom,
    Card,
    CardOp,
    Const,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Term,
    Truth,
    Var,
    depth,
)

MAX_NESTING = 100
"""The deepest a parsed formula may nest (``reasoning.formula.depth``); deeper text is a
FormulaSyntaxError. Printing, sort inference and every backend's encoder walk formulas
recursively, a few frames a level, so this keeps them all well inside the recursion limit."""


class FormulaSyntaxError(ValueError):
    """Text that is not a formula: where (1-based ``line``, ``column``), the offending ``text``
    (or "end of input") and an ``excerpt`` (the source line with a caret under the spot)."""

    def __init__(self, message: str, line: int, column: int, text: str, excerpt: str) -> None:
        super().__init__(f"line {line}, column {column}: {message}\n{excerpt}")
        self.message = message
        self.line = line
        self.column = column
        self.text = text
        self.excerpt = excerpt


END_OF_INPUT = "end of input"
"""What ``FormulaSyntaxError.text`` holds when the input ended too early."""


def excerpt(source: str, line: int, column: int) -> str:
    """The 1-based ``line`` of ``source`` and a caret line pointing at ``column``."""
    lines = source.split("\n")
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    pad = "".join(ch if ch == "\t" else " " for ch in text[: column - 1])
    return f"{text}\n{pad}^"


class _NameError(Exception):
    """A malformed quoted name, raised while building; carries the token for its position."""

    def __init__(self, message: str, token: Token) -> None:
        super().__init__(message)
        self.message = message
        self.token = token


_ESCAPE = re.compile(r"\\(u\{[0-9A-Fa-f]{1,6}\}|.)", re.DOTALL)
_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r"}


def _unescape(quoted: str) -> str:
    """The name a quoted form spells (quotes included in ``quoted``); ValueError on a bad escape."""

    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        if code in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[code]
        if code.startswith("u{"):
            value = int(code[2:-1], 16)
            if value <= 0x10FFFF and not 0xD800 <= value <= 0xDFFF:
                return chr(value)
        raise ValueError(f"bad escape '\\{code}' in quoted name")

    return _ESCAPE.sub(one, quoted[1:-1])


class _Builder(Transformer[Token, Formula]):
    """Builds IR values while the LALR parser reduces; tracks the binders in scope.

    A quantifier's binder list is reduced before its body is read, so ``binders`` opens a scope
    that ``forall`` / ``exists`` closes; terms reduced in between see it.
    """

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
        self.scopes: list[dict[str, str | None]] = []

    def name(self, items: list[Token]) -> str:
        token = items[0]
        if token.type != "QUOTED":
            return str(token)
        try:
            return _unescape(token.value)
        except ValueError as err:
            raise _NameError(str(err), token) from None

    def binder(self, items: list[Any]) -> Var:
        return Var(items[0], items[1] if len(items) > 1 else None)

    def binders(self, items: list[Var]) -> tuple[Var, ...]:
        self.scopes.append({v.name: v.sort for v in items})
        return tuple(items)

    def forall(self, items: list[Any]) -> Formula:
        self.scopes.pop()
        return Forall(items[0], items[1])

    def exists(self, items: list[Any]) -> Formula:
        self.scopes.pop()
        return Exists(items[0], items[1])

    def term(self, items: list[Any]) -> Term:
        name: str = items[0]
        sort: str | None = items[1] if len(items) > 1 else None
        for scope in reversed(self.scopes):
            if name in scope:
                return Var(name, sort if sort is not None else scope[name])
        return Const(name, sort)

    def var_term(self, items: list[Any]) -> Term:
        return Var(items[0], items[1] if len(items) > 1 else None)

    def const_term(self, items: list[Any]) -> Term:
        return Const(items[0], items[1] if len(items) > 1 else None)

    def app(self, items: list[Any]) -> Formula:
        return Atom(items[0], tuple(t for t in items[1:] if t is not None))

    def eq(self, items: list[Term]) -> Formula:
        return Eq(items[0], items[1])

    def neq(self, items: list[Term]) -> Formula:
        return Not(Eq(items[0], items[1]))

    def true(self, items: list[Any]) -> Formula:
        return Truth(True)

    def false(self, items: list[Any]) -> Formula:
        return Truth(False)

    def not_(self, items: list[Formula]) -> Formula:
        return Not(items[0])

    def and_(self, items: list[Formula]) -> Formula:
        return And(tuple(items))

    def or_(self, items: list[Formula]) -> Formula:
        return Or(tuple(items))

    def imp(self, items: list[Formula]) -> Formula:
        out = items[-1]
        for left in reversed(items[:-1]):
            out = Implies(left, out)
        return out

    def iff(self, items: list[Formula]) -> Formula:
        out = items[-1]
        for left in reversed(items[:-1]):
            out = Iff(left, out)
        return out

    def card_op(self, items: list[Token]) -> str:
        return str(items[0])

    def card(self, items: list[Any]) -> Formula:
        op: CardOp = items[0]
        return Card(op, int(items[1]), tuple(p for p in items[2:] if p is not None))


def _parser_cache() -> str | bool:
    """Where lark keeps the analysed grammar between runs (a folder of the user's cache, so the
    parser is not rebuilt at every start), or False when there is no such folder."""
    try:
        root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "gumshoe"
        root.mkdir(mode=0o700, parents=True, exist_ok=True)
    except (OSError, RuntimeError):
        return False
    return str(root / "formula-parser.lark")


_GRAMMAR = files("reasoning").joinpath("formula.lark").read_text(encoding="utf-8")
_BUILDER = _Builder()
_PARSER = Lark(
    _GRAMMAR,
    parser="lalr",
    lexer="basic",
    transformer=_BUILDER,
    maybe_placeholders=True,
    cache=_parser_cache(),
)
_LOCK = threading.Lock()

NAME_PATTERN: str = _PARSER.get_terminal("NAME").pattern.to_regexp()
"""Regular expression of a plain name."""
QUOTED_PATTERN: str = _PARSER.get_terminal("QUOTED").pattern.to_regexp()
"""Regular expression of a quoted name (quotes included)."""
_NAME_RE = re.compile(NAME_PATTERN)
_QUOTED_RE = re.compile(QUOTED_PATTERN)
KEYWORDS: frozenset[str] = frozenset(
    t.pattern.value
    for t in _PARSER.terminals
    if isinstance(t.pattern, PatternStr) and _NAME_RE.fullmatch(t.pattern.value)
)
"""Words that cannot be plain names (they may still be quoted)."""

_FORMULA_START = "_NOT"
_TERMINAL_WORDS = {
    "NAME": "a name",
    "QUOTED": "a name",
    "INT": "a number",
    "$END": END_OF_INPUT,
    "_AND": "'&'",
    "_OR": "'|'",
    "_NOT": "'~'",
    "_IMP": "'->'",
    "_IFF": "'<->'",
    "_NEQ": "'!='",
}


def _describe_expected(expected: set[str]) -> str:
    """A short phrase for a set of acceptable terminals."""
    if _FORMULA_START in expected:
        return "a formula"
    words: list[str] = []
    for name in sorted(expected, key=lambda n: (n == "$END", n)):
        if name in _TERMINAL_WORDS:
            word = _TERMINAL_WORDS[name]
        else:
            pattern = _PARSER.get_terminal(name).pattern
            word = f"'{pattern.value}'" if isinstance(pattern, PatternStr) else name
        if word not in words:
            words.append(word)
    if len(words) > 1:
        return ", ".join(words[:-1]) + " or " + words[-1]
    return words[0] if words else "nothing"


def _end_position(text: str) -> tuple[int, int]:
    """Line and column just after the last non-blank character of ``text``."""
    body = text.rstrip()
    line = body.count("\n") + 1
    return line, len(body) - (body.rfind("\n") + 1) + 1


def _fail(text: str, message: str, line: int, column: int, found: str) -> NoReturn:
    raise FormulaSyntaxError(message, line, column, found, excerpt(text, line, column))


def _convert(text: str, err: UnexpectedInput) -> NoReturn:
    """Raise the FormulaSyntaxError for a lark error."""
    if isinstance(err, UnexpectedToken):
        token = err.token
        if token.type == "$END":
            if token.end_line is not None and token.end_column is not None:
                line, column = token.end_line, token.end_column
            else:
                line, column = _end_position(text)
            found = END_OF_INPUT
            what = END_OF_INPUT
        else:
            line, column = err.line, err.column
            found = str(token)
            what = f"'{found}'"
        _fail(
            text,
            f"unexpected {what}; expected {_describe_expected(set(err.expected))}",
            line,
            column,
            found,
        )
    if isinstance(err, UnexpectedCharacters):
        char = err.char
        message = "unterminated quoted name" if char == '"' else f"unexpected character {char!r}"
        _fail(text, message, err.line, err.column, char)
    line, column = _end_position(text)
    _fail(text, f"unexpected {END_OF_INPUT}", line, column, END_OF_INPUT)


_FAST_TOKEN = re.compile(r"\s*(?:(<->|->|[()&|~,{}])|([^\W\d][\w']*)|([0-9]+)|(\S))")
_FAST_DEPTH = 40
"""How deep the quick reader recurses before it leaves the text to the LALR parser."""


class _Bail(Exception):
    """The quick reader met something it does not read; the LALR parser decides."""


class _QuickReader:
    """Reads the common quantifier-free ASCII formulas without lark, to the same IR.

    It takes plain names, ``P(a, b)``, truth constants, ``~ & | -> <->``, parentheses and
    cardinality constraints; on anything else (quantifiers, sorts, equality, quoted names,
    Unicode, comments, errors) it gives up and the grammar reads the text.
    """

    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, str]] = []
        for m in _FAST_TOKEN.finditer(text):
            op, name, number, other = m.groups()
            if other is not None:
                raise _Bail
            if op is not None:
                self.tokens.append(("op", op))
            elif name is not None:
                self.tokens.append(("name", name))
            elif number is not None:
                self.tokens.append(("int", number))
        self.pos = 0
        self.depth = 0

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ("end", "")

    def take(self, kind: str, value: str | None = None) -> str:
        token = self.peek()
        if token[0] != kind or (value is not None and token[1] != value):
            raise _Bail
        self.pos += 1
        return token[1]

    def read(self) -> Formula:
        f = self.iff()
        if self.pos != len(self.tokens):
            raise _Bail
        return f

    def chain(self, op: str, part: Callable[[], Formula]) -> list[Formula]:
        items = [part()]
        while self.peek() == ("op", op):
            self.pos += 1
            items.append(part())
        return items

    def iff(self) -> Formula:
        items = self.chain("<->", self.imp)
        out = items[-1]
        for left in reversed(items[:-1]):
            out = Iff(left, out)
        return out

    def imp(self) -> Formula:
        items = self.chain("->", self.or_)
        out = items[-1]
        for left in reversed(items[:-1]):
            out = Implies(left, out)
        return out

    def or_(self) -> Formula:
        items = self.chain("|", self.and_)
        return items[0] if len(items) == 1 else Or(tuple(items))

    def and_(self) -> Formula:
        items = self.chain("&", self.unary)
        return items[0] if len(items) == 1 else And(tuple(items))

    def unary(self) -> Formula:
        self.depth += 1
        if self.depth > _FAST_DEPTH:
            raise _Bail
        if self.peek() == ("op", "~"):
            self.pos += 1
            f: Formula = Not(self.unary())
        else:
            f = self.atomic()
        self.depth -= 1
        return f

    def atomic(self) -> Formula:
        kind, value = self.peek()
        if (kind, value) == ("op", "("):
            self.pos += 1
            f = self.iff()
            self.take("op", ")")
            return f
        name = self.take("name")
        if name in ("true", "false"):
            return Truth(name == "true")
        if name in _CARD_OPS:
            return self.card(name)
        if name in KEYWORDS:
            raise _Bail
        if self.peek() != ("op", "("):
            if self.peek()[0] == "name":
                raise _Bail
            return Atom(name)
        self.pos += 1
        args: list[Term] = []
        if self.peek() != ("op", ")"):
            args.append(self.constant())
            while self.peek() == ("op", ","):
                self.pos += 1
                args.append(self.constant())
        self.take("op", ")")
        return Atom(name, tuple(args))

    def constant(self) -> Const:
        name = self.take("name")
        if name in KEYWORDS:
            raise _Bail
        return Const(name)

    def card(self, op: str) -> Formula:
        k = int(self.take("int"))
        self.take("name", "of")
        self.take("op", "{")
        parts: list[Formula] = []
        if self.peek() != ("op", "}"):
            parts.append(self.iff())
            while self.peek() == ("op", ","):
                self.pos += 1
                parts.append(self.iff())
        self.take("op", "}")
        return Card(_CARD_OP_OF[op], k, tuple(parts))


def quick_parse(text: str) -> Formula | None:
    """The formula ``text`` spells when the quick reader can read it, else None."""
    try:
        return _QuickReader(text).read()
    except _Bail:
        return None


def parse_formula(text: str) -> Formula:
    """Parse one formula; raises FormulaSyntaxError naming line, column and offending text, or
    saying that the formula nests deeper than ``MAX_NESTING``.

    Common quantifier-free ASCII text takes a quick path (``quick_parse``) to the same result.

    Examples:
        >>> rule = parse_formula("forall x. Tea(x) -> Hot(x)")
        >>> rule == parse_formula("∀x. Tea x ⟶ Hot x")
        True
        >>> format_formula(rule)
        'forall x. Tea(x) -> Hot(x)'
        >>> try:
        ...     parse_formula("Tea(x")
        ... except FormulaSyntaxError as err:
        ...     print(err.line, err.column, err.message)
        1 6 unexpected end of input; expected ',' or ')'
    """
    result = quick_parse(text)
    if result is None:
        result = _parse_lalr(text)
    if len(text) > MAX_NESTING and depth(result) > MAX_NESTING:
        _fail(text, f"formula nested deeper than {MAX_NESTING} levels", 1, 1, text[:1])
    return result


def _parse_lalr(text: str) -> Formula:
    with _LOCK:
        _BUILDER.scopes.clear()
        try:
            result: Formula = _PARSER.parse(text)  # type: ignore[assignment]
        except UnexpectedInput as err:
            _convert(text, err)
        except _NameError as err:
            token = err.token
            _fail(text, err.message, token.line or 1, token.column or 1, str(token))
    return result


def _quote(name: str) -> str:
    out = ['"']
    for ch in name:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif not ch.isprintable():
            out.append(f"\\u{{{ord(ch):x}}}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def parse_name(text: str) -> str:
    """The name ``text`` spells, plain or quoted (the inverse of ``format_name``); ValueError if
    ``text`` is neither."""
    if _NAME_RE.fullmatch(text):
        return text
    if _QUOTED_RE.fullmatch(text):
        return _unescape(text)
    raise ValueError(f"not a name: {text!r}")


def format_name(name: str) -> str:
    """``name`` as written in a formula: bare when it is a plain identifier, else quoted."""
    if _NAME_RE.fullmatch(name) and name not in KEYWORDS:
        return name
    return _quote(name)


_ASCII = {
    "forall": "forall ",
    "exists": "exists ",
    "not": "~",
    "and": " & ",
    "or": " | ",
    "imp": " -> ",
    "iff": " <-> ",
    "eq": " = ",
    "neq": " != ",
    "true": "true",
    "false": "false",
}
_UNICODE = {
    "forall": "∀",
    "exists": "∃",
    "not": "¬",
    "and": " ∧ ",
    "or": " ∨ ",  # noqa: RUF001
    "imp": " ⟶ ",
    "iff": " ⟷ ",
    "eq": " = ",
    "neq": " ≠ ",
    "true": "⊤",  # noqa: RUF001
    "false": "⊥",
}

_CARD_OPS: tuple[str, ...] = get_args(CardOp)
_CARD_OP_OF: dict[str, CardOp] = {op: op for op in get_args(CardOp)}

# Binding strength, loosest first; a quantifier is looser than all and may only end a chain.
_QUANT, _IFF, _IMP, _OR, _AND, _NOT, _ATOMIC = range(7)


def _level(f: Formula) -> int:
    match f:
        case Forall() | Exists():
            return _QUANT
        case Iff():
            return _IFF
        case Implies():
            return _IMP
        case Or():
            return _OR
        case And():
            return _AND
        case Not(Eq()):
            return _ATOMIC
        case Not():
            return _NOT
        case _:
            return _ATOMIC


class _Printer:
    """Prints with minimal parentheses, tracking the sorts of the binders in scope."""

    def __init__(self, unicode: bool) -> None:
        self.ops = _UNICODE if unicode else _ASCII

    def term(self, t: Term, scope: dict[str, str | None]) -> str:
        text = format_name(t.name)
        if isinstance(t, Var):
            if t.name in scope:
                bound = scope[t.name]
                if t.sort == bound:
                    return text
                if t.sort is None:
                    return "?" + text
            else:
                text = "?" + text
        elif t.name in scope:
            text = "@" + text
        return text if t.sort is None else f"{text}:{format_name(t.sort)}"

    def formula(self, f: Formula, scope: dict[str, str | None], need: int, open_ok: bool) -> str:
        level = _level(f)
        wrap = not open_ok if level == _QUANT else level < need
        if wrap:
            return "(" + self.body(f, scope, True) + ")"
        return self.body(f, scope, open_ok)

    def chain(
        self, parts: tuple[Formula, ...], scope: dict[str, str | None], need: int, open_ok: bool
    ) -> list[str]:
        last = len(parts) - 1
        return [self.formula(p, scope, need, open_ok and i == last) for i, p in enumerate(parts)]

    def body(self, f: Formula, scope: dict[str, str | None], open_ok: bool) -> str:
        ops = self.ops
        match f:
            case Atom(pred, args):
                if not args:
                    return format_name(pred)
                return f"{format_name(pred)}({', '.join(self.term(a, scope) for a in args)})"
            case Eq(left, right):
                return self.term(left, scope) + ops["eq"] + self.term(right, scope)
            case Not(Eq(left, right)):
                return self.term(left, scope) + ops["neq"] + self.term(right, scope)
            case Truth(value):
                return ops["true"] if value else ops["false"]
            case Not(body):
                return ops["not"] + self.formula(body, scope, _NOT, open_ok)
            case And(parts) | Or(parts):
                if len(parts) < 2:
                    name = type(f).__name__
                    raise ValueError(f"{name} needs two or more parts, got {len(parts)}")
                level = _level(f)
                op = ops["and"] if level == _AND else ops["or"]
                return op.join(self.chain(parts, scope, level + 1, open_ok))
            case Implies(left, right):
                return (
                    self.formula(left, scope, _OR, False)
                    + ops["imp"]
                    + self.formula(right, scope, _IMP, open_ok)
                )
            case Iff(left, right):
                return (
                    self.formula(left, scope, _IMP, False)
                    + ops["iff"]
                    + self.formula(right, scope, _IFF, open_ok)
                )
            case Forall(vs, body) | Exists(vs, body):
                if not vs:
                    raise ValueError("a quantifier needs at least one variable")
                inner = dict(scope)
                binders = []
                for v in vs:
                    inner[v.name] = v.sort
                    ann = "" if v.sort is None else ":" + format_name(v.sort)
                    binders.append(format_name(v.name) + ann)
                kw = ops["forall"] if isinstance(f, Forall) else ops["exists"]
                return f"{kw}{' '.join(binders)}. {self.formula(body, inner, _IFF, True)}"
            case Card(op, k, parts):
                if op not in _CARD_OPS:
                    raise ValueError(f"unknown cardinality operator {op!r}")
                if k < 0:
                    raise ValueError(f"cardinality bound must be non-negative, got {k}")
                inner_parts = ", ".join(self.formula(p, scope, _IFF, True) for p in parts)
                return f"{op} {k} of {{{inner_parts}}}"
        raise TypeError(f"not a formula: {f!r}")


def format_formula(f: Formula, unicode: bool = False) -> str:
    """``f`` as text that ``parse_formula`` reads back to exactly ``f`` (ASCII or Unicode)."""
    return _Printer(unicode).formula(f, {}, _IFF, True)
