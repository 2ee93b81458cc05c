"""Undercover-V descriptions read through ``formalize.reading``, whichever agent wrote them.

A pair's vocabulary (``pair_vocabulary``) holds an attribute for every literal of its lexicon's
facts and for each word of the pair ("it is Ceylon Tea"); the facts' sentences, their synonyms
(``Contain`` reads as ``Have``) and the pair's words are what the offline reader knows. A
description is read offline first; with an LLM reader, the descriptions the offline reader is
unsure of go to it, under the early-stop vote (``CombinedReader``). The literals a reading
asserts are the description's meaning only once the reading passes its check (rendered to words
and read back, ``formalize.reading.attribute_check``); a speaker's own formula (the neuro-
symbolic seat's, or a prover agent's statement) is checked the same way against the reading of
its sentence, and recorded as accepted or refused. A reading that fails is unsure, never a
violation.
"""

from __future__ import annotations

from dataclasses import dataclass

from formalize.davidsonian.literals import Claim, conjunction
from formalize.reading.attribute_check import check_formula
from formalize.reading.attribute_reader import AttributeReader
from formalize.reading.attributes import AttributeVocabulary, outcome_of
from formalize.reading.llm_reader import LLMReader
from formalize.reading.reader import Reader, ReaderKind, reader_of_kind
from formalize.reading.reading import FormulaCheck, Reading
from games.core.llm_player import recorded_index
from games.undercover.agent import Description
from games.undercover.events import DescriptionReading, ReadClaim
from games.undercover.lexicon import Lexicon
from reasoning.formula import Formula
from reasoning.llm import ChatClient
from reasoning.sorts import SortError, infer_sorts
from reasoning.syntax import FormulaSyntaxError, format_formula, parse_formula


def pair_vocabulary(lexicon: Lexicon, word: str) -> AttributeVocabulary:
    """The attributes a description of a word of ``word``'s pair may assert, with the words of
    the pair's lexicon (its facts' sentences, its synonyms, its two words)."""
    pair = lexicon.entry(word).pair
    statements: dict[str, Formula] = {}
    for w in pair.words:
        for fact in lexicon.facts(w):
            statements.setdefault(fact.text, fact.formula)
    for w in pair.words:
        statements.setdefault(f"It is {w}.", lexicon.entry(w).card_formula)
    table = lexicon.synonyms(word)
    return AttributeVocabulary(
        list(statements.items()),
        predicates=table.vocabulary.predicates,
        synonyms=[(s.name, s.canonical, s.negated) for s in table.entries],
        names=pair.words,
    )


@dataclass(frozen=True, slots=True)
class ReadDescription:
    """A description read: the record to log, and its accepted meaning as a formula (None
    unless the reading asserts something of the card); ``syntax_error`` says the speaker's own
    formula did not parse or clashed with the card's vocabulary."""

    record: DescriptionReading
    formula: Formula | None

    @classmethod
    def logged(cls, record: DescriptionReading) -> ReadDescription:
        """A reading as a log recorded it (its meaning parsed back from the formula text)."""
        return cls(record, parse_formula(record.formula) if record.formula is not None else None)

    @property
    def syntax_error(self) -> bool:
        """Whether the speaker's own formula did not parse or fit the card's vocabulary."""
        seat = self.record.seat_formula
        return seat is not None and seat.failed == "syntax"


class DescriptionReader:
    """Reads the descriptions of the pairs of ``lexicon`` with the reader ``kind`` names: the
    offline reader (the default), ``llm`` (an LLM reader: ``formalize.reading.LLMReader``)
    alone, or offline with ``llm`` where it is unsure (``combined``). Readings are kept by
    pair, text and formula."""

    def __init__(
        self, lexicon: Lexicon, kind: ReaderKind = "offline", llm: Reader | None = None
    ) -> None:
        if kind != "offline" and llm is None:
            raise ValueError(f"--reader {kind}: the LLM reader needs an endpoint (--base-url)")
        self.lexicon = lexicon
        self.kind = kind
        self.llm = llm
        self._readers: dict[str, AttributeReader] = {}
        self._read: dict[tuple[str, str, str | None], ReadDescription] = {}

    def offline(self, word: str) -> AttributeReader:
        """The offline reader of ``word``'s pair (built once per pair)."""
        pair = self.lexicon.entry(word).pair.id
        if pair not in self._readers:
            self._readers[pair] = AttributeReader(pair_vocabulary(self.lexicon, word))
        return self._readers[pair]

    def read(self, word: str, description: Description) -> ReadDescription:
        """``description`` (given by the holder of ``word``) read and checked."""
        given = description.logged_formula()
        key = (self.lexicon.entry(word).pair.id, description.text, given)
        if key not in self._read:
            self._read[key] = self._read_now(word, description.text, given, description.formula)
        return self._read[key]

    def _read_now(
        self, word: str, text: str, given: str | None, formula: Formula | None
    ) -> ReadDescription:
        offline = self.offline(word)
        vocabulary = offline.vocabulary
        reader = reader_of_kind(offline, self.kind, self.llm)
        reading = reader.read(vocabulary.task(), text)
        claims = vocabulary.claims(reading)
        canonical = self.lexicon.synonyms(word).canonical
        check = None
        note = _note(offline, reading, text)
        if claims:
            check = check_formula(offline, conjunction(claims), claims, canonical=canonical)
            if not check.accepted:
                note = f"the reading failed its check: {check.reason}"
                claims = None
        seat = self._seat_formula(word, given, formula, claims)
        meaning = conjunction(vocabulary.ordered(claims)) if claims else None
        record = DescriptionReading(
            reader=reading.reader,
            outcome=outcome_of(claims),
            formula=format_formula(meaning) if meaning is not None else None,
            claims=tuple(_claim_words(vocabulary, reading, c) for c in claims or ()),
            calls=reading.calls,
            vote=reading.vote,
            note=note,
            check=check,
            seat_formula=seat,
        )
        return ReadDescription(record, meaning)

    def _seat_formula(
        self,
        word: str,
        given: str | None,
        formula: Formula | None,
        claims: tuple[Claim, ...] | None,
    ) -> FormulaCheck | None:
        """The check of the speaker's own formula (None when it gave none; its rendering left
        out when accepted, for it is the reading's)."""
        if given is None:
            return None
        refused = FormulaCheck(accepted=False, failed="syntax")
        if formula is None:
            try:
                formula = parse_formula(given)
            except FormulaSyntaxError as err:
                return refused.model_copy(update={"reason": str(err).splitlines()[0]})
        canonical = self.lexicon.synonyms(word).canonical
        try:
            infer_sorts([canonical(formula)], self.lexicon.signature(word))
        except SortError as err:
            return refused.model_copy(update={"reason": str(err)})
        found = check_formula(self.offline(word), formula, claims, canonical=canonical)
        return found.model_copy(update={"rendering": None}) if found.accepted else found


def description_reader(
    lexicon: Lexicon,
    kind: ReaderKind = "offline",
    client: ChatClient | None = None,
    *,
    max_attempts: int | None = None,
    seed: int = 0,
) -> DescriptionReader:
    """The description reader ``kind`` over ``lexicon``; the LLM kinds ask ``client`` under the
    early-stop vote (at most ``max_attempts`` attempts), its calls' recorded indices kept."""
    llm = None
    if client is not None and kind != "offline":
        options = {} if max_attempts is None else {"max_attempts": max_attempts}
        llm = LLMReader(client, seed=seed, recorded=recorded_index, **options)
    return DescriptionReader(lexicon, kind, llm)


def _note(offline: AttributeReader, reading: Reading, text: str) -> str:
    """Why a reading reads as it does: the unsure slot's note, or what the offline reader found
    asserting nothing (a question, a sentence about the other word)."""
    unsure = next((s.note for s in reading.slots if not s.decided), None)
    if unsure is not None:
        return unsure
    understood = offline.understand(text)
    return "; ".join(understood.notes) if understood.unsure is None else ""


def _claim_words(vocabulary: AttributeVocabulary, reading: Reading, claim: Claim) -> ReadClaim:
    """A literal with the attribute's words and the description's words that assert it."""
    name = vocabulary.slot_of(claim)
    attribute = vocabulary.attribute(name) if name is not None else None
    slot = next((s for s in reading.slots if s.slot == name), None)
    evidence = slot.evidence[0] if slot is not None and slot.evidence else None
    return ReadClaim(
        attribute=attribute.yes if attribute is not None else format_formula(claim.core),
        holds=claim.holds,
        words=evidence.words if evidence is not None else "",
        start=evidence.start if evidence is not None else None,
        end=evidence.end if evidence is not None else None,
    )
