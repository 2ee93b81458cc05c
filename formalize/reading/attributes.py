"""What a statement about one thing can assert: the attributes of a vocabulary, each a canonical
core (``formalize.davidsonian.literals``) about the thing, with the words that say it.

A statement's reading is a set of attribute literals (each attribute asserted to hold or not to
hold) or ``unsure``. As a ``ReadingTask`` every attribute is a slot with two options, ``yes``
(its words) and ``no`` (its denial): a reading asserts ``yes`` or ``no``, offers it without
asserting it (``several``: a hedge), says nothing of it (``none``) or is ``unsure``. Only
asserted options are claims, and only a reading decided in every slot is a reading at all.

A vocabulary is built from statements whose formulas are known (a lexicon's facts with their
sentences): each statement's literals give the attributes, and its sentence becomes a phrase
the offline reader knows. The controlled English of every attribute and of its denial
(``formalize.davidsonian.render``) are phrases too, so a formula rendered to words reads back,
and so is "it is <name>" for an attribute that is one predicate of the thing ("it is a tea").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from formalize.davidsonian.literals import Claim, about_only, literals_of
from formalize.davidsonian.render import ITEM, article, is_adjective, render_english
from formalize.davidsonian.render import words as name_words
from formalize.reading.attribute_text import stems
from formalize.reading.reading import Reading
from formalize.reading.task import Option, ReadingTask, SlotSpec
from formalize.reading.text import fold
from reasoning.formula import Atom, Const, Formula, Not, atoms

YES = "yes"
NO = "no"
ATTRIBUTE_KIND = "attribute"

StatementOutcome = Literal["claims", "nothing", "unsure"]
"""What a statement's reading comes to: literals about the thing, nothing about it (a question,
a sentence about something else, only hedges), or no reading."""

QUESTION = "What does the sentence assert about 'it', the thing being described?"
CONTEXT = (
    "In a word game each player describes the word on their own card in one sentence, calling "
    "it 'it'. Each part below is one thing the sentence may assert about 'it': answer the "
    "option the sentence asserts, 'several' for a part it only offers as possible (maybe, "
    "perhaps, I think), and 'none' for a part it does not mention. A question, or a sentence "
    "about something else (such as the other word), asserts nothing about 'it'."
)


@dataclass(frozen=True, slots=True)
class Attribute:
    """One attribute: its slot ``name``, its canonical ``core`` (about the thing), and the
    words asserting it (``yes``) and denying it (``no``)."""

    name: str
    core: Formula
    yes: str
    no: str


@dataclass(frozen=True, slots=True)
class Phrase:
    """Words the offline reader knows: ``text`` asserts each of ``claims`` (an attribute name
    and whether it holds)."""

    text: str
    claims: tuple[tuple[str, bool], ...]


class UnknownLiteral(ValueError):
    """A literal whose core is no attribute of the vocabulary."""


class AttributeVocabulary:
    """The attributes a statement about ``subject`` may assert, and the phrases that say them.

    ``statements`` are (sentence, formula) pairs: their literals give the attributes (in order),
    their sentences the phrases. ``predicates`` are the vocabulary's predicate names and
    ``synonyms`` (name, canonical name, negated) the other names a formaliser may use for them;
    ``names`` are what else a statement may be about (the words of a pair: "Ceylon tea is named
    after an island" is about Ceylon tea, not about the thing)."""

    def __init__(
        self,
        statements: Sequence[tuple[str, Formula]],
        *,
        predicates: Iterable[str],
        synonyms: Iterable[tuple[str, str, bool]] = (),
        names: Iterable[str] = (),
        subject: str = ITEM,
    ) -> None:
        self.subject = subject
        self.predicates = frozenset(predicates)
        self.synonyms = tuple(synonyms)
        self.names = tuple(names)
        literal_sets: list[tuple[str, tuple[Claim, ...]]] = []
        for text, formula in statements:
            claims = literals_of(formula)
            if claims is None or not claims:
                raise ValueError(f"{text!r}: its formula is not a conjunction of literals")
            literal_sets.append((text, claims))
        cores: list[Formula] = list(
            dict.fromkeys(c.core for _, claims in literal_sets for c in claims)
        )
        for core in cores:
            if not _about(core, subject):
                raise ValueError(f"{core}: an attribute must be about {subject!r} only")
        taken: set[str] = set()
        attributes = []
        for core in cores:
            yes, no = _texts(core, literal_sets, subject)
            attributes.append(Attribute(_slot_name(yes, taken), core, yes, no))
        self.attributes: tuple[Attribute, ...] = tuple(attributes)
        self._by_core = {a.core: a for a in self.attributes}
        self._by_name = {a.name: a for a in self.attributes}
        phrases = [
            Phrase(variant, tuple((self._by_core[c.core].name, c.holds) for c in claims))
            for (text, formula), (_, claims) in zip(statements, literal_sets, strict=True)
            for variant in (text, *_shortened(text, formula))
        ]
        for a in self.attributes:
            phrases.append(Phrase(render_english(a.core), ((a.name, True),)))
            phrases.append(Phrase(render_english(Not(a.core)), ((a.name, False),)))
            if isinstance(a.core, Atom) and len(a.core.args) == 1:
                phrases.append(Phrase(f"it is {_predicate(a.core.pred)}", ((a.name, True),)))
        self.phrases: tuple[Phrase, ...] = tuple(phrases)

    def attribute(self, name: str) -> Attribute:
        """The attribute of slot ``name``."""
        return self._by_name[name]

    def task(self) -> ReadingTask:
        """The reading task of a statement: a slot per attribute, options ``yes`` and ``no``."""
        return ReadingTask(
            question=QUESTION,
            context=CONTEXT,
            slots=[
                SlotSpec(
                    name=a.name,
                    kind=ATTRIBUTE_KIND,
                    options=[Option(value=YES, text=a.yes), Option(value=NO, text=a.no)],
                )
                for a in self.attributes
            ],
        )

    def claims(self, reading: Reading) -> tuple[Claim, ...] | None:
        """The literals a reading asserts, in the vocabulary's order; None when it is not
        decided in every slot."""
        if not reading.decided:
            return None
        asserted = {s.slot: s.option == YES for s in reading.slots if s.outcome == "asserted"}
        return tuple(Claim(a.core, asserted[a.name]) for a in self.attributes if a.name in asserted)

    def ordered(self, claims: Iterable[Claim]) -> tuple[Claim, ...]:
        """``claims`` in the vocabulary's order; UnknownLiteral when a core is no attribute."""
        given = list(claims)
        for c in given:
            if c.core not in self._by_core:
                raise UnknownLiteral(f"{c.core}: not an attribute of the vocabulary")
        rank = {a.core: i for i, a in enumerate(self.attributes)}
        return tuple(sorted(given, key=lambda c: (rank[c.core], not c.holds)))

    def slot_of(self, claim: Claim) -> str | None:
        """The slot name of a literal's attribute, or None when it is none."""
        found = self._by_core.get(claim.core)
        return None if found is None else found.name


def outcome_of(claims: Sequence[Claim] | None) -> StatementOutcome:
    """``unsure`` without a reading, ``nothing`` for none, else ``claims``."""
    if claims is None:
        return "unsure"
    return "claims" if claims else "nothing"


def _about(core: Formula, subject: str) -> bool:
    return about_only([Claim(core, True)], subject)


def _predicate(pred: str) -> str:
    phrase = " ".join(name_words(pred))
    return phrase if is_adjective(pred) else f"{article(phrase)} {phrase}"


_LEADS = re.compile(r"\s(?:at|in|on|as|when|where|for|to)\s", re.IGNORECASE)


def _shortened(text: str, formula: Formula) -> tuple[str, ...]:
    """``text`` without a last phrase ("at one end", "where it grows") none of whose words
    names a predicate of ``formula``: the words say nothing the formula holds."""
    clean = text.strip().rstrip(".")
    named = {s for atom in atoms(formula) for s in stems(atom.pred)}
    out = []
    for lead in _LEADS.finditer(clean):
        tail = clean[lead.start() :]
        if "," not in tail and not set(stems(tail.strip().lower())) & named:
            out.append(clean[: lead.start()] + ".")
    return tuple(out)


def _sentence(text: str) -> str:
    """A statement's sentence as an option's words: no final full stop, first letter small."""
    clean = " ".join(text.split()).rstrip(".")
    return clean[:1].lower() + clean[1:]


_DENIED = (
    (re.compile(r"\bcannot\b"), "can"),
    (re.compile(r"\b(is|are|was|were|can|does|do|did) not\b"), r"\1"),
)


def _texts(
    core: Formula, statements: Sequence[tuple[str, tuple[Claim, ...]]], subject: str
) -> tuple[str, str]:
    """The words asserting and denying ``core``: a statement saying just that, else a phrase
    made from it."""
    yes = next((t for t, c in statements if c == (Claim(core, True),)), None)
    no = next((t for t, c in statements if c == (Claim(core, False),)), None)
    if yes is None and isinstance(core, Atom) and core.args == (Const(subject),):
        yes = f"it is {_predicate(core.pred)}"
    if yes is None and no is not None:
        affirmed = _sentence(no)
        for pattern, replacement in _DENIED:
            affirmed = pattern.sub(replacement, affirmed, count=1)
        yes = affirmed if affirmed != _sentence(no) else None
    if yes is None:
        yes = render_english(core)
    yes = _sentence(yes)
    return yes, _sentence(no) if no is not None else f"it is not true that {yes}"


def _slot_name(text: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "_", fold(text)).strip("_")[:48].strip("_") or "attribute"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name
