"""The offline attribute reader: deterministic, no model, and precise: a statement it cannot read
whole is ``unsure`` in every slot, never read in part.

A statement is cut into sentences, a sentence into clauses at commas and joining words ("and",
"but", "which"...), and every clause must be, word for word after normalisation
(``attribute_text``), a phrase of the vocabulary: one of its statements' sentences, an
attribute's controlled English, or "it is <name>". A clause may deny its phrase ("not",
"never", "no", "does not", "it is not the case that"), hedge it ("maybe", "I think": offered,
not asserted), or leave out its subject ("and has no seeds") or its subject and verb ("waxy and
solid") after a clause that has them. A question says nothing about the thing; so does a
sentence whose subject is one of the vocabulary's other names ("Ceylon tea is named after an
island"), and a contrast set off by a comma ("Unlike Ceylon tea, ...") is left aside. Anything
else: two denials in a clause, a denial that might or might not reach a left-out verb ("not
waxy and solid"), a denied pair of attributes, words read two ways, an attribute asserted both
ways, or words of no phrase, makes the reader unsure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from formalize.davidsonian.render import is_adjective
from formalize.reading import attribute_words as aw
from formalize.reading.attribute_text import Normaliser, Piece, stems
from formalize.reading.attributes import NO, YES, AttributeVocabulary
from formalize.reading.reading import Evidence, Reading, SlotReading
from formalize.reading.task import ReadingTask
from formalize.reading.text import MAX_CHARS

Claims = tuple[tuple[str, bool], ...]
"""Attribute names and whether each holds."""

MAX_READINGS = 32
"""How many ways of cutting one sentence into clauses the reader follows before it gives up."""


@dataclass(frozen=True, slots=True)
class _Clause:
    """One clause read: its claims (after its denial), whether hedged, its pieces' span, the
    subject and verb a following clause may leave out, whether it is denied, whether it is
    about another thing, and why it cannot be read (None when it can)."""

    claims: Claims
    hedged: bool
    start: int
    end: int
    head: tuple[str, ...]
    negated: bool
    other: bool
    problem: str | None = None


@dataclass
class Understanding:
    """A statement as the offline reader takes it: per attribute whether it holds (``asserted``)
    or is only offered (``hedged``), the words behind each, notes on what asserts nothing, and
    why it is unsure (``unsure``: None when read)."""

    asserted: dict[str, bool] = field(default_factory=dict)
    hedged: set[str] = field(default_factory=set)
    evidence: dict[str, list[Evidence]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    unsure: str | None = None


class AttributeReader:
    """The offline reader of statements over one ``AttributeVocabulary`` (see the module
    docstring). ``ambiguous`` lists the vocabulary's phrases that read two ways (never used)."""

    name = "offline"

    def __init__(self, vocabulary: AttributeVocabulary) -> None:
        self.vocabulary = vocabulary
        self.normaliser = Normaliser(vocabulary.predicates, vocabulary.synonyms)
        table: dict[tuple[str, ...], set[Claims]] = {}
        for phrase in vocabulary.phrases:
            key, claims = self._pattern(phrase.text, phrase.claims)
            if key:
                table.setdefault(key, set()).add(claims)
        self.ambiguous = tuple(sorted(k for k, v in table.items() if len(v) > 1))
        self._table = {k: next(iter(v)) for k, v in table.items() if len(v) == 1}
        self._names = _name_forms(vocabulary.names)
        self._cache: dict[str, Understanding] = {}

    def _pattern(self, text: str, claims: Claims) -> tuple[tuple[str, ...], Claims]:
        pieces = [p for p in self.normaliser.pieces(text) if p.kind != "end"]
        if any(p.kind in ("question", "comma") for p in pieces):
            return (), ()
        denials = sum(p.kind == "not" for p in pieces)
        if denials > 1 or (denials and len(claims) > 1):
            return (), ()
        key = tuple(_key_word(p) for p in pieces if p.kind in ("word", "hedge"))
        return key, tuple((name, holds != bool(denials)) for name, holds in claims)

    def read(self, task: ReadingTask, text: str) -> Reading:
        """The reading of ``text`` in the slots of ``task`` (the vocabulary's task, or part of
        it)."""
        understood = self.understand(text)
        slots = []
        for spec in task.slots:
            if understood.unsure is not None:
                slots.append(SlotReading(slot=spec.name, outcome="unsure", note=understood.unsure))
            elif spec.name in understood.asserted:
                option = YES if understood.asserted[spec.name] else NO
                slots.append(
                    SlotReading(
                        slot=spec.name,
                        outcome="asserted",
                        option=option,
                        evidence=understood.evidence.get(spec.name, []),
                    )
                )
            elif spec.name in understood.hedged:
                slots.append(
                    SlotReading(
                        slot=spec.name,
                        outcome="several",
                        evidence=understood.evidence.get(spec.name, []),
                    )
                )
            else:
                slots.append(SlotReading(slot=spec.name, outcome="none"))
        return Reading(reader=self.name, slots=slots)

    def understand(self, text: str) -> Understanding:
        """How the reader takes ``text`` (cached by text)."""
        if text not in self._cache:
            self._cache[text] = self._understand(text)
        return self._cache[text]

    def _understand(self, text: str) -> Understanding:
        out = Understanding()
        if len(text) > MAX_CHARS:
            out.unsure = f"the statement is longer than {MAX_CHARS} characters"
            return out
        sentences = _sentences(self.normaliser.pieces(text))
        if not sentences:
            out.unsure = "the statement has no words"
            return out
        for pieces, question in sentences:
            words = _words(text, pieces)
            if question and any(p.kind == "comma" for p in pieces):
                out.unsure = f"a question after a clause (a tag question?): {words!r}"
                return out
            if question:
                out.notes.append(f"a question: {words!r}")
                continue
            clauses, pieces, problem = self._sentence(pieces)
            if problem is not None:
                out.unsure = f"{problem}: {words!r}"
                return out
            for clause in clauses:
                span = Evidence(
                    start=pieces[clause.start].start,
                    end=pieces[clause.end - 1].end,
                    words=text[pieces[clause.start].start : pieces[clause.end - 1].end],
                    options=[],
                    stance="hedged" if clause.hedged else "asserted",
                )
                if clause.other:
                    out.notes.append(f"about something else: {span.words!r}")
                    continue
                for name, holds in clause.claims:
                    option = YES if holds else NO
                    evidence = span.model_copy(update={"options": [option]})
                    out.evidence.setdefault(name, []).append(evidence)
                    if clause.hedged:
                        out.hedged.add(name)
                    elif out.asserted.get(name, holds) != holds:
                        out.unsure = f"it asserts and denies one attribute: {words!r}"
                        return out
                    else:
                        out.asserted[name] = holds
        both = out.hedged & set(out.asserted)
        if both:
            out.unsure = "it both asserts and only offers one attribute"
        return out

    def _sentence(self, given: list[Piece]) -> tuple[list[_Clause], list[Piece], str | None]:
        """The clauses of one sentence and the pieces they index (contrasts left out, a leading
        name read as "it"), or the reason it cannot be read."""
        kept = _without_contrasts(given)
        if kept is None:
            return [], given, "a contrast without its clause, or with the thing itself"
        pieces, other = self._named_subject(kept)
        if not pieces:
            return [], pieces, "no clause"
        readings = self._segment(pieces, other)
        if not readings:
            return [], pieces, "words the reader cannot place"
        problems = [c.problem for r in readings for c in r if c.problem is not None]
        if problems:
            return [], pieces, problems[0]
        results = {tuple(sorted((c.claims, c.hedged, c.other) for c in r)) for r in readings}
        if len(results) > 1:
            return [], pieces, "words that read two ways"
        return readings[0], pieces, None

    def _named_subject(self, pieces: list[Piece]) -> tuple[list[Piece], bool]:
        """The sentence with a leading name of another thing read as "it", and whether it had
        one."""
        words = [p.word if p.kind == "word" else "" for p in pieces]
        for form in self._names:
            if tuple(words[: len(form)]) == form:
                first, last = pieces[0], pieces[len(form) - 1]
                it = Piece(
                    "it",
                    " ".join(p.raw for p in pieces[: len(form)]),
                    "word",
                    first.start,
                    last.end,
                )
                return [it, *pieces[len(form) :]], True
        return pieces, False

    def _segment(self, pieces: list[Piece], other: bool) -> list[list[_Clause]]:
        """Every way of cutting ``pieces`` into clauses the table knows (at most
        ``MAX_READINGS``)."""
        found: list[list[_Clause]] = []

        def walk(i: int, prev: _Clause | None, done: list[_Clause]) -> None:
            if len(found) >= MAX_READINGS:
                return
            if i == len(pieces):
                found.append(done)
                return
            starts: list[tuple[int, str]] = []
            if prev is None:
                starts.append((i, ""))
            else:
                j, join = i, ""
                if pieces[j].kind == "comma":
                    j += 1
                    starts.append((j, ","))
                if j < len(pieces) and pieces[j].kind == "word" and pieces[j].word in aw.JOINS:
                    join = pieces[j].word
                    starts.append((j + 1, join))
            for start, join in starts:
                for end in range(start + 1, len(pieces) + 1):
                    if pieces[end - 1].kind == "comma":
                        break
                    clause = self._clause(pieces, start, end, prev, join, other)
                    if clause is not None:
                        walk(end, clause, [*done, clause])

        walk(0, None, [])
        return found

    def _clause(
        self,
        pieces: Sequence[Piece],
        start: int,
        end: int,
        prev: _Clause | None,
        join: str,
        other: bool,
    ) -> _Clause | None:
        span = pieces[start:end]
        words = tuple(p.word for p in span if p.kind == "word")
        if not words:
            return None
        denials = sum(p.kind == "not" for p in span)
        hedges = any(p.kind == "hedge" for p in span)
        with_hedges = tuple(_key_word(p) for p in span if p.kind in ("word", "hedge"))
        tries: list[tuple[tuple[str, ...], str, bool]] = []
        for said, hedged in (
            ((with_hedges, False), (words, hedges)) if hedges else ((words, False),)
        ):
            tries.append((said, "none", hedged))
            if said[0] != "it":
                tries.append((("it", *said), "subject", hedged))
                if prev is not None and len(prev.head) == 2:
                    tries.append(((*prev.head, *said), "verb", hedged))
        for key, left_out, hedged in tries:
            claims = self._table.get(key)
            if claims is None:
                continue
            problem = None
            if prev is None:
                about_other = other
            elif left_out == "none":
                about_other = False
                if other:
                    problem = "'it' after a sentence about something else"
            else:
                about_other = prev.other
            if denials > 1:
                problem = "two denials in one clause"
            elif denials and len(claims) > 1:
                problem = "a denial of several attributes at once"
            elif (
                left_out == "verb"
                and prev is not None
                and prev.negated
                and not denials
                and join != "but"
            ):
                problem = "a denial that may reach a left-out verb"
            flipped = tuple((name, holds != bool(denials)) for name, holds in claims)
            head = key[:2] if key[0] == "it" else ()
            return _Clause(flipped, hedged, start, end, head, bool(denials), about_other, problem)
        return None


def _key_word(piece: Piece) -> str:
    """A piece as a key word: a word's stem, or a hedge's own words (a phrase of the vocabulary
    may hold one: "its leaves are often variegated")."""
    return piece.word if piece.kind == "word" else piece.raw


def _sentences(pieces: list[Piece]) -> list[tuple[list[Piece], bool]]:
    """The sentences of a statement, each with whether it is a question."""
    out: list[tuple[list[Piece], bool]] = []
    current: list[Piece] = []
    for p in pieces:
        if p.kind in ("end", "question"):
            if current:
                out.append((current, p.kind == "question"))
            current = []
        else:
            current.append(p)
    if current:
        out.append((current, False))
    return out


def _raw(pieces: Sequence[Piece]) -> tuple[str, ...]:
    return tuple(w for p in pieces for w in p.raw.split())


def _without_contrasts(pieces: list[Piece]) -> list[Piece] | None:
    """The sentence with a contrast set off by commas left out ("Unlike X, ...", "..., unlike
    X"); None when a leading contrast has no comma to end it, or a contrast names the thing
    itself ("like it")."""
    if _contrast_at(pieces, 0):
        comma = next((i for i, p in enumerate(pieces) if p.kind == "comma"), None)
        if comma is None or _names_it(pieces[:comma]):
            return None
        pieces = pieces[comma + 1 :]
    for i, p in enumerate(pieces):
        if p.kind == "comma" and _contrast_at(pieces, i + 1):
            after = next(
                (j for j in range(i + 1, len(pieces)) if pieces[j].kind == "comma"), len(pieces)
            )
            if _names_it(pieces[i:after]):
                return None
            return _without_contrasts([*pieces[:i], *pieces[after:]])
    return pieces


def _names_it(pieces: Sequence[Piece]) -> bool:
    return any(p.kind == "word" and p.word in ("it", "its") for p in pieces)


def _contrast_at(pieces: Sequence[Piece], i: int) -> bool:
    raw = _raw(pieces[i : i + 4])
    return any(raw[: len(c)] == c for c in aw.CONTRASTS)


def _words(text: str, pieces: Sequence[Piece]) -> str:
    return text[pieces[0].start : pieces[-1].end] if pieces else ""


def _name_forms(names: Sequence[str]) -> list[tuple[str, ...]]:
    """The stems of each name, and of its distinctive part when the names share their last or
    first word ("ceylon" of "Ceylon Tea" beside "Earl Grey Tea"), longest first; a part that is
    one adjective ("sweet" of "Sweet Orange") is left out."""
    split = [n.lower().split() for n in names]
    forms = {stems(n.lower()) for n in names}
    parts: list[list[str]] = []
    if len(split) > 1 and all(len(w) > 1 for w in split):
        if len({w[-1] for w in split}) == 1:
            parts = [w[:-1] for w in split]
        elif len({w[0] for w in split}) == 1:
            parts = [w[1:] for w in split]
    for part in parts:
        if len(part) == 1 and is_adjective(part[0].capitalize()):
            continue
        forms.add(stems(" ".join(part)))
    return sorted((f for f in forms if f), key=len, reverse=True)
