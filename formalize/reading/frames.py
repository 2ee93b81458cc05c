"""The clauses of an answer and how each takes the options it names, read by a small grammar
(``frames.lark``) over the offline reader's word categories and the case's phrases.

The grammar is the reader's closed world: a mention is taken as asserted only where its clause
parses and the parse puts it where an answer stands ("Hugo Marsh", "it was Hugo Marsh", "Hugo
Marsh shot her", "she was shot by Hugo Marsh", "with the revolver", "at eight"); a clause the
grammar cannot read ("Hugo Marsh was framed by the police", "the police think Hugo Marsh") is
not understood, and the reader then says ``unsure``. Known words that deny or doubt ("X is
innocent", "X can be ruled out", "X has an alibi", "X is a red herring") reject the option;
hedges and alternatives offer it among others. The parser is Earley, so every reading of an
ambiguous clause is seen: a mention the readings take differently is ``unclear``.

Clauses break at punctuation, at contrasting words ("but", "however"), before a relative clause
("who killed her", read by the grammar as any clause) and where a reason opens ("because"): a
reason is read like any clause, but one the grammar cannot read leaves the rest of its sentence
as it is unless it names an option or holds a word that denies or doubts (``offline``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence, Set
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files
from typing import Any, Literal

from lark import Lark, Token, Tree
from lark.exceptions import LarkError
from lark.lexer import Lexer

from formalize.reading import words as w

View = Literal["asserted", "hedged", "rejected", "unclear", "patient", "ignored"]
"""How a clause takes a mention: asserted; offered among others (``hedged``); denied
(``rejected``); placed where the reader cannot tell (``unclear``); the victim of a killing
(``patient``); or beside the point (``ignored``: the witness in "Felix saw Hugo shoot her")."""

Symbol = tuple[str, int | None]
"""One symbol of a clause: a grammar terminal and, for a phrase of the case, its mention's
index."""

MENTION_KINDS = frozenset(
    {"PERSON", "VICTIM", "WEAPON", "METHOD", "MOTIVE", "TIME", "PLACE", "LETTER", "OPTION", "NUM"}
)
"""The terminals that stand for phrases of the case rather than words."""

MAX_SYMBOLS = 40
"""The longest clause the grammar reads; a longer one is not understood."""

MAX_READINGS = 64
"""The most readings of one clause the reader compares; a clause with more is not understood."""

_MODIFIERS: dict[str, View] = {
    "neg": "rejected",
    "neither": "rejected",
    "deny": "rejected",
    "excluded": "rejected",
    "hedge": "hedged",
    "may": "hedged",
    "alt": "hedged",
}
_POSITIONS: dict[str, View] = {
    "patient": "patient",
    "bystander": "ignored",
    "bounded": "unclear",
    "rather": "rejected",
}
_TYPED: dict[str, frozenset[str]] = {
    "agent": frozenset({"PERSON", "VICTIM"}),
    "who_was": frozenset({"PERSON"}),
    "killer_is": frozenset({"PERSON"}),
    "seen": frozenset({"PERSON"}),
    "bystander": frozenset({"PERSON", "VICTIM"}),
    "patient": frozenset({"PERSON"}),
    "anyone_but": frozenset({"PERSON"}),
    "with_pp": frozenset({"WEAPON", "METHOD", "PERSON"}),
    "from_pp": frozenset({"WEAPON", "MOTIVE"}),
    "of_pp": frozenset({"WEAPON"}),
    "at_pp": frozenset({"TIME"}),
    "bounded": frozenset({"TIME"}),
    "between_pp": frozenset({"TIME"}),
    "by_pp": frozenset({"PERSON"}),
    "motive_pp": frozenset({"MOTIVE"}),
    "in_pp": frozenset({"MOTIVE"}),
    "kill_verb": frozenset({"METHOD"}),
    "used": frozenset({"WEAPON"}),
    "usage": frozenset({"WEAPON"}),
    "motive": frozenset({"MOTIVE", "VICTIM"}),
    "to_pp": frozenset({"VICTIM"}),
    "place_pp": frozenset({"PLACE"}),
    "body_pp": frozenset(),
}
_PRIORITY: tuple[View, ...] = ("ignored", "patient", "unclear", "rejected", "hedged")


@dataclass(frozen=True)
class Clause:
    """Tokens ``first`` to ``last`` (exclusive) of an answer; ``reason`` when it gives a reason
    for what its sentence says ("because ..."; the opening word is not part of it)."""

    first: int
    last: int
    reason: bool = False


def split(words: Sequence[str], covered: Set[int]) -> list[Clause]:
    """The clauses of an answer's words: they break at punctuation, at a contrast ("but",
    "however"), before a relative clause ("who ...", "when ...", which the grammar reads as a
    clause of its own) and where a reason opens; a token in ``covered`` (part of a phrase of the
    case) never breaks one."""
    out: list[Clause] = []
    first, reason = 0, False

    def close(end: int, start: int, opens: bool) -> None:
        nonlocal first, reason
        if end > first:
            out.append(Clause(first, end, reason))
        first, reason = start, opens

    for i, word in enumerate(words):
        if i in covered:
            continue
        after = words[i + 1] if i + 1 < len(words) else ""
        if word in w.CLAUSE_BREAKS:
            close(i, i + 1, False)
        elif _opens(word, words[i - 1] if i else ""):
            close(i, i, False)
        elif _reason(word, after, i == first):
            close(i, i + 1, True)
    close(len(words), len(words), False)
    return out


def _opens(word: str, before: str) -> bool:
    """Whether ``word`` (after ``before``) begins a clause it belongs to: a contrast ("but",
    unless it means "except": "anyone but X") or a relative clause."""
    if word == "but":
        return before not in w.EVERYONE
    return w.CATEGORIES.get(word) == "REL"


def _reason(word: str, after: str, starts: bool) -> bool:
    """Whether ``word`` (followed by ``after``) opens a reason; ``starts``: it begins its
    clause."""
    if word == "as":
        return starts and after != "well"
    return word in w.REASONS and after != "of"


class _Symbols(Lexer):
    """Hands the parser a clause's symbols as they are."""

    def __init__(self, conf: Any) -> None:
        """No configuration: the symbols are the tokens."""

    def lex(self, data: Any) -> Iterator[Token]:  # type: ignore[override]
        """One token per symbol, its value the symbol's place in the clause."""
        for i, (kind, mention) in enumerate(data):
            yield Token(kind, str(mention), start_pos=i)


@cache
def _parser() -> Lark:
    grammar = files("formalize.reading").joinpath("frames.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="earley", lexer=_Symbols, ambiguity="explicit")


@cache
def terminals() -> frozenset[str]:
    """The terminals the grammar's rules use."""
    return frozenset(s.name for r in _parser().rules for s in r.expansion if s.is_term)


class _TooAmbiguous(Exception):
    pass


Reading = dict[int, View] | None
"""One reading of a clause: each mention's view, or None when it puts a mention where its kind
cannot stand."""


def _merge(a: Reading, b: Reading) -> Reading:
    return None if a is None or b is None else {**a, **b}


def _view(effects: frozenset[View]) -> View:
    return next((v for v in _PRIORITY if v in effects), "asserted")


def _readings(
    node: Tree[Token] | Token, effects: frozenset[View], kinds: frozenset[str] | None
) -> list[Reading]:
    """Every reading of a parse (forest) node, given the effects and kinds its place imposes."""
    if isinstance(node, Token):
        if node.type not in MENTION_KINDS or node.type == "NUM":
            return [{}]
        if kinds is not None and node.type not in kinds:
            return [None]
        return [{int(node.value): _view(effects)}]
    if node.data == "_ambig":
        out = [r for child in node.children for r in _readings(child, effects, kinds)]
        if len(out) > MAX_READINGS:
            raise _TooAmbiguous
        return out
    if node.data in _POSITIONS:
        effects = effects | {_POSITIONS[str(node.data)]}
    kinds = _TYPED.get(str(node.data), kinds)
    marks = [_MODIFIERS.get(str(c.data)) if isinstance(c, Tree) else None for c in node.children]
    result: list[Reading] = [{}]
    for i, child in enumerate(node.children):
        beside = frozenset(m for j, m in enumerate(marks) if m is not None and j != i)
        result = [_merge(a, b) for a in result for b in _readings(child, effects | beside, kinds)]
        if len(result) > MAX_READINGS:
            raise _TooAmbiguous
    return result


def read_clause(symbols: Sequence[Symbol]) -> dict[int, View] | None:
    """How a clause takes each mention in it, or None when the grammar cannot read it (a word
    it does not know, a shape it does not have, or readings too many to compare)."""
    views = _read_kinds(tuple(kind for kind, _ in symbols))
    if views is None:
        return None
    return {
        mention: view
        for (kind, mention), view in zip(symbols, views, strict=True)
        if mention is not None and view is not None
    }


@lru_cache(maxsize=4096)
def _read_kinds(kinds: tuple[str, ...]) -> tuple[View | None, ...] | None:
    """``read_clause`` over the terminals alone (a mention is known by its place): per symbol
    its view (None for a word), or None when the grammar cannot read the clause."""
    if not kinds or len(kinds) > MAX_SYMBOLS or not terminals().issuperset(kinds):
        return None
    symbols = [(kind, i) for i, kind in enumerate(kinds)]
    try:
        tree = _parser().parse(symbols)
        readings = [r for r in _readings(tree, frozenset(), None) if r is not None]
    except (LarkError, _TooAmbiguous):
        return None
    if not readings:
        return None
    out: list[View | None] = []
    for i, kind in enumerate(kinds):
        views = {r[i] for r in readings} if kind in MENTION_KINDS and kind != "NUM" else set()
        out.append(None if not views else views.pop() if len(views) == 1 else "unclear")
    return tuple(out)
