"""Controlled English for Neo-Davidsonian logical forms, for showing formulas to people.

An event variable with its kind and thematic roles reads as one phrase ("an event e1 of infusing
whose patient is the item and whose instrument is some bergamot"); an existential participant
used in a single role is folded into it ("some bergamot"). Everything else reads clause by
clause: ``forall`` as "for every", ``->`` as "if ..., then ...", and so on. The output depends only
on the formula. Predicate names are split at capitals (``EarlGreyTea`` -> "earl grey tea"); the
constant ``item`` reads "the item".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from reasoning.formula import (
    EVENT,
    And,
    Atom,
    Card,
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
    terms,
    walk,
)
from reasoning.sorts import ROLE_PREDICATES

ITEM = "item"
"""The constant naming the thing on a word card; it reads "the item"."""

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_VOWEL_BUT_A = ("uni", "use", "usu", "eu", "one", "once")
_SILENT_H = ("hour", "honest", "honour", "heir")
_ADJECTIVE_ENDINGS = ("ous", "ful", "less", "ical", "ial", "ual", "ntal", "rmal")
_LONG_ADJECTIVE_ENDINGS = ("ed", "ive", "able", "ible", "ish")
_PLAIN_ADJECTIVES = frozenset(
    (
        "pink", "red", "white", "black", "green", "blue", "yellow", "orange", "purple", "brown",
        "grey", "gray", "sweet", "sour", "bitter", "dry", "wet", "hot", "cold", "warm", "long",
        "short", "small", "large", "big", "solid", "soft", "hard", "real", "raw", "ripe", "dark",
        "light", "pale", "deep", "bright", "plain", "flat", "round", "thin", "thick", "old",
        "young", "new", "rare", "wild", "dense", "distinct", "abstract", "imaginary", "ordinary",
        "primary", "necessary", "ancient", "fragrant", "resistant", "different", "silent",
        "recent", "pleasant", "aromatic", "exotic", "toxic", "organic", "basic", "acidic",
        "smooth", "rough", "fresh",
    )
)  # fmt: skip
_NOT_ADJECTIVE_Y = ("ity", "ty", "ry", "phy", "gy", "ly", "sy", "ny", "ey", "ay", "oy", "uy")
_FREQUENCY_ADVERBS = frozenset(
    ("often", "always", "never", "seldom", "sometimes", "usually", "rarely")
)
_CARD_WORDS = {"exactly": "exactly", "atmost": "at most", "atleast": "at least"}


def words(name: str) -> list[str]:
    """``name`` split into lower-case words at capitals, digits and underscores."""
    found = _WORD.findall(name)
    return [w if len(w) > 1 and w.isupper() else w.lower() for w in found] or [name]


def article(phrase: str) -> str:
    """``a`` or ``an`` for ``phrase``, by its first letters."""
    lower = phrase.lower()
    if lower.startswith(_SILENT_H):
        return "an"
    if lower[:1] in "aeiou" and not lower.startswith(_VOWEL_BUT_A):
        return "an"
    return "a"


def is_adjective(pred: str) -> bool:
    """Whether a one-place predicate name reads as an adjective ("Waxy") rather than a noun.

    A heuristic on the last word: a list of common adjectives and typical adjective endings.
    """
    parts = words(pred)
    last = parts[-1]
    if last in _PLAIN_ADJECTIVES or last.endswith(_ADJECTIVE_ENDINGS):
        return True
    if len(last) > 5 and last.endswith(_LONG_ADJECTIVE_ENDINGS) and not last.endswith("eed"):
        return True
    return len(parts) == 1 and last.endswith("y") and not last.endswith(_NOT_ADJECTIVE_Y)


def is_adverb(pred: str) -> bool:
    """Whether a one-place event predicate reads as an adverb ("Mainly", "Often")."""
    parts = words(pred)
    if len(parts) != 1:
        return False
    word = parts[0]
    if word in _FREQUENCY_ADVERBS:
        return True
    return word.endswith("ly") and len(word) > 4 and word[-3] != "p"


def gerund(pred: str) -> str:
    """The -ing form of an event predicate: ``Infuse`` -> "infusing", ``LiveOn`` -> "living on"."""
    verb, *rest = words(pred)
    return " ".join([_ing(verb), *rest])


def _ing(verb: str) -> str:
    if verb.endswith("ing") or not verb.isalpha():
        return verb
    if verb == "be":
        return "being"
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith(("ee", "ye", "oe")):
        return verb + "ing"
    if verb.endswith("e") and len(verb) > 2:
        return verb[:-1] + "ing"
    if _doubles(verb):
        return verb + verb[-1] + "ing"
    return verb + "ing"


def _doubles(verb: str) -> bool:
    """Short verbs ending consonant-vowel-consonant double the last letter (run, stop, spit)."""
    vowels = "aeiou"

    def consonant(ch: str) -> bool:
        return ch not in vowels

    if len(verb) < 3 or verb[-1] in "wxy" or not consonant(verb[-1]) or verb[-2] not in vowels:
        return False
    if len(verb) == 3:
        return consonant(verb[0])
    return len(verb) == 4 and consonant(verb[0]) and consonant(verb[1])


def _join(items: Sequence[str], conj: str = "and") -> str:
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    if len(items) == 2 and not any(f" {conj} " in item for item in items):
        return f"{items[0]} {conj} {items[1]}"
    return ", ".join(items[:-1]) + f", {conj} " + items[-1]


def _some(preds: Sequence[str], name: str | None = None) -> str:
    """An indefinite description from one-place predicates: "some pink petal y", "something"."""
    adjectives = [" ".join(words(p)) for p in preds if is_adjective(p)]
    nouns = [" ".join(words(p)) for p in preds if not is_adjective(p)]
    label = f" {name}" if name else ""
    if not nouns:
        return "something" + label + (" that is " + _join(adjectives) if adjectives else "")
    extra = [f"{article(n)} {n}" for n in nouns[1:]]
    head = " ".join(["some", *adjectives, nouns[0]]) + label
    return head + (" that is also " + _join(extra) if extra else "")


def render_english(formula: Formula) -> str:
    """A controlled-English sentence for ``formula``: capitalised, ending with a full stop."""
    text = _Renderer(formula).clause(formula)
    return text[:1].upper() + text[1:] + "."


@dataclass
class _Event:
    """The atoms folded into one event phrase."""

    kinds: list[str] = field(default_factory=list)
    adverbs: list[str] = field(default_factory=list)
    roles: list[Atom] = field(default_factory=list)


class _Renderer:
    def __init__(self, root: Formula) -> None:
        self.events: set[str] = {
            t.name for t in terms(root) if isinstance(t, Var) and t.sort == EVENT
        }
        for g in walk(root):
            if isinstance(g, Forall | Exists):
                self.events.update(v.name for v in g.vars if v.sort == EVENT)
            elif isinstance(g, Atom) and _is_role(g) and isinstance(g.args[0], Var):
                self.events.add(g.args[0].name)

    def is_event(self, t: Term) -> bool:
        return t.sort == EVENT or (isinstance(t, Var) and t.name in self.events)

    def term(self, t: Term) -> str:
        if isinstance(t, Const) and t.name == ITEM:
            return "the item"
        return t.name

    def clause(self, f: Formula) -> str:
        match f:
            case Truth(value):
                return "it is true" if value else "it is false"
            case Atom():
                return self.atom(f)
            case Eq(left, right):
                return f"{self.term(left)} is the same as {self.term(right)}"
            case Not(body):
                return self.negation(body)
            case And(parts):
                return self.conjunction(_flatten(parts), ())
            case Or(parts):
                return "either " + _join([self.clause(p) for p in parts], "or")
            case Implies(left, right):
                return f"if {self.clause(left)}, then {self.clause(right)}"
            case Iff(left, right):
                return f"{self.clause(left)} if and only if {self.clause(right)}"
            case Forall(vs, body):
                names = [f"event {v.name}" if v.name in self.events else v.name for v in vs]
                return f"for every {_join(names)}, {self.clause(body)}"
            case Exists(vs, body):
                parts = _flatten(body.parts) if isinstance(body, And) else (body,)
                return self.conjunction(parts, vs)
            case Card(op, k, parts):
                listed = "; ".join(self.clause(p) for p in parts)
                return f"{_CARD_WORDS.get(op, op)} {k} of the following hold: {listed}"
        raise TypeError(f"not a formula: {f!r}")

    def atom(self, a: Atom) -> str:
        args = [self.term(t) for t in a.args]
        if not a.args:
            return f"{a.pred} holds"
        if len(a.args) == 1:
            if self.is_event(a.args[0]):
                if is_adverb(a.pred):
                    return f"{args[0]} happens {' '.join(words(a.pred))}"
                return f"{args[0]} is an event of {gerund(a.pred)}"
            return f"{args[0]} is {_predicate_phrase(a.pred)}"
        if _is_role(a):
            return f"the {' '.join(words(a.pred))} of {args[0]} is {args[1]}"
        name = " ".join(words(a.pred))
        if len(args) == 2:
            return f"{name} holds between {args[0]} and {args[1]}"
        return f"{name} holds of {_join(args)}"

    def negation(self, body: Formula) -> str:
        match body:
            case Atom(pred, ()):
                return f"{pred} does not hold"
            case Atom(pred, (arg,)) if self.is_event(arg) and is_adverb(pred):
                return f"{self.term(arg)} does not happen {' '.join(words(pred))}"
            case Atom(pred, (arg,)) if self.is_event(arg):
                return f"{self.term(arg)} is not an event of {gerund(pred)}"
            case Atom(pred, (arg,)):
                return f"{self.term(arg)} is not {_predicate_phrase(pred)}"
            case Atom() if _is_role(body):
                role = " ".join(words(body.pred))
                event, filler = (self.term(t) for t in body.args)
                return f"the {role} of {event} is not {filler}"
            case Eq(left, right):
                return f"{self.term(left)} is not the same as {self.term(right)}"
        return f"it is not the case that {self.clause(body)}"

    def conjunction(self, parts: Sequence[Formula], introduced: Sequence[Var]) -> str:
        """Conjuncts, folding each event's kind and roles into one phrase; with ``introduced``
        (the variables of an enclosing ``exists``), a "there is ..." sentence."""
        intro = {v.name for v in introduced}
        events: dict[str, _Event] = {}
        types: dict[str, list[str]] = {}
        for p in parts:
            if not isinstance(p, Atom) or not p.args or not isinstance(p.args[0], Var):
                continue
            name = p.args[0].name
            if name in self.events and len(p.args) == 1:
                ev = events.setdefault(name, _Event())
                (ev.adverbs if is_adverb(p.pred) else ev.kinds).append(p.pred)
            elif name in self.events and _is_role(p):
                events.setdefault(name, _Event()).roles.append(p)
            elif name in intro and len(p.args) == 1:
                types.setdefault(name, []).append(p.pred)
        inlined = self._inlinable(parts, events, types, intro)
        absorbed = {
            id(p)
            for p in parts
            if isinstance(p, Atom)
            and p.args
            and isinstance(p.args[0], Var)
            and (p.args[0].name in events or (p.args[0].name in types and len(p.args) == 1))
        }
        clauses: list[str] = []
        said: set[str] = set()
        for p in parts:
            if id(p) not in absorbed:
                clauses.append(self.clause(p))
                continue
            assert isinstance(p, Atom) and isinstance(p.args[0], Var)
            name = p.args[0].name
            if name in events and name not in intro and name not in said:
                said.add(name)
                phrase = self.event_phrase(None, events[name], types, inlined)
                clauses.append(f"{name} is {phrase}")
        if not introduced:
            return _join(clauses) or "it is true"
        described = []
        for v in introduced:
            if v.name in events:
                described.append(self.event_phrase(v.name, events[v.name], types, inlined))
            elif v.name in self.events:
                described.append(f"an event {v.name}")
            elif v.name not in inlined:
                described.append(_some(types.get(v.name, []), v.name))
        if not described:
            return _join(clauses) or "it is true"
        there = "there is " + _join(described)
        return there + (" such that " + _join(clauses) if clauses else "")

    def event_phrase(
        self, name: str | None, ev: _Event, types: dict[str, list[str]], inlined: set[str]
    ) -> str:
        """ "an event e of infusing whose patient is ..." (without the name when None)."""
        text = f"an event {name}" if name else "an event"
        if ev.kinds:
            how = "".join(f"{' '.join(words(a))} " for a in ev.adverbs)
            text += f" of {how}" + _join([gerund(k) for k in ev.kinds])
        elif ev.adverbs:
            text += " that happens " + _join([" ".join(words(a)) for a in ev.adverbs])
        whose = []
        for role in ev.roles:
            filler = role.args[1]
            if isinstance(filler, Var) and filler.name in inlined:
                shown = _some(types.get(filler.name, []))
            else:
                shown = self.term(filler)
            whose.append(f"whose {' '.join(words(role.pred))} is {shown}")
        return text + (" " + " and ".join(whose) if whose else "")

    def _inlinable(
        self,
        parts: Sequence[Formula],
        events: dict[str, _Event],
        types: dict[str, list[str]],
        intro: set[str],
    ) -> set[str]:
        """Introduced participants used once, as the filler of a folded role (besides types)."""
        fillers: dict[str, int] = {}
        for ev in events.values():
            for role in ev.roles:
                filler = role.args[1]
                if isinstance(filler, Var):
                    fillers[filler.name] = fillers.get(filler.name, 0) + 1
        uses: dict[str, int] = {}
        for p in parts:
            for t in terms(p):
                if isinstance(t, Var):
                    uses[t.name] = uses.get(t.name, 0) + 1
        return {
            name
            for name in intro
            if name not in self.events
            and fillers.get(name) == 1
            and uses.get(name, 0) == 1 + len(types.get(name, []))
        }


def _predicate_phrase(pred: str) -> str:
    phrase = " ".join(words(pred))
    return phrase if is_adjective(pred) else f"{article(phrase)} {phrase}"


def _is_role(a: Atom) -> bool:
    return a.pred in ROLE_PREDICATES and len(a.args) == 2


def _flatten(parts: Sequence[Formula]) -> tuple[Formula, ...]:
    out: list[Formula] = []
    for p in parts:
        out.extend(_flatten(p.parts) if isinstance(p, And) else (p,))
    return tuple(out)
