"""The Undercover-V lexicon: for each word, its facts, its theory phi(w) and a reference definition.

Shipped as one JSON file per word pair (``data/lexicon/<pair id>.json``)::

    {"pair": "earl-grey-tea-ceylon-tea",
     "rules": [{"name": ..., "text": ..., "formula": ...}],      # general rules
     "shared": [{"text": "It is a kind of tea.", "formula": "Tea(item)"}],
     "words": [{"word": "Earl Grey Tea", "predicate": "EarlGreyTea", "definition": "...",
                "rules": [...], "distinctive": [{"text": ..., "formula": ...}]}, {...}],
     "synonyms": [["BergamotOil", "Bergamot"], ...]}             # optional, see lexicon_synonyms

Facts are Neo-Davidsonian formulas about the constant ``item`` (the thing on the card), each with
a controlled-English sentence. A shared fact is true of both words of the pair; a distinctive fact
is true of its word and contradicts the other word's theory.

What the lexicon knows of a pair (``LexiconEntry.knowledge``) is the same for both its words: the
general rules, both words' own rules, and each word's facts said of everything of that word
(``forall x. EarlGreyTea(x) -> Tea(x)`` from the fact ``Tea(item)``). The card theory phi(w) of
a word is that knowledge and the card axiom ``Predicate(item)``, so it entails every fact of its
word and rules out the other word. All formulas of a pair are sorted together, so facts, theories
and descriptions sorted with ``signature`` agree; descriptions are first read into the pair's
vocabulary through its synonyms (``canonical``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from formalize.davidsonian.render import ITEM
from games.core.runlog import field_errors
from games.undercover.lexicon_synonyms import (
    SynonymError,
    SynonymGroup,
    SynonymTable,
    check_groups,
    general_groups,
    group_canonical,
)
from games.undercover.words import WordPair, builtin_pairs
from reasoning.formula import (
    ENTITY,
    Atom,
    Const,
    Eq,
    Exists,
    Forall,
    Formula,
    Implies,
    Term,
    Var,
    constants,
    rebuild,
    walk,
    with_children,
)
from reasoning.prover import Axiom
from reasoning.sorts import Signature, SortError, infer_sorts
from reasoning.syntax import FormulaSyntaxError, format_formula, parse_formula
from reasoning.textfile import UserFileError, parse_user_json, read_user_text

CARD_AXIOM = "card"
LEXICON_DIR = "lexicon"


class LexiconError(ValueError):
    """A lexicon file is unreadable or invalid; the message names the file and the field."""


class UnknownWord(LookupError):
    """No lexicon entry exists for the word (or pair) asked for."""


class FactKind(StrEnum):
    """Whether a fact holds of both words of its pair, or only of its own word."""

    SHARED = "shared"
    DISTINCTIVE = "distinctive"


@dataclass(frozen=True, slots=True)
class Rule:
    """A named general statement of a word's theory, with its English sentence."""

    name: str
    text: str
    formula_text: str
    formula: Formula

    def axiom(self) -> Axiom:
        """The rule as a prover axiom."""
        return Axiom(self.name, self.formula)


@dataclass(frozen=True, slots=True)
class Fact:
    """A statement about ``item`` with its English sentence, marked shared or distinctive."""

    name: str
    kind: FactKind
    text: str
    formula_text: str
    formula: Formula

    def axiom(self) -> Axiom:
        """The fact as a prover axiom."""
        return Axiom(self.name, self.formula)


@dataclass(frozen=True, slots=True)
class LexiconEntry:
    """Everything the lexicon knows about one word: its own rules (with the pair's general
    ones), its facts, and what the lexicon knows of the whole pair (``knowledge``)."""

    word: str
    pair: WordPair
    predicate: str
    definition: str
    rules: tuple[Rule, ...]
    facts: tuple[Fact, ...]
    card_formula: Formula
    knowledge: tuple[Rule, ...]

    @property
    def card(self) -> Axiom:
        """The card axiom ``Predicate(item)``: the thing on the card is this word."""
        return Axiom(CARD_AXIOM, self.card_formula)

    def theory(self) -> tuple[Axiom, ...]:
        """phi(w): the pair's knowledge and the card axiom."""
        return (*(rule.axiom() for rule in self.knowledge), self.card)

    def facts_of(self, kind: FactKind) -> tuple[Fact, ...]:
        """The facts of one kind."""
        return tuple(f for f in self.facts if f.kind is kind)


class _StatementModel(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str = Field(min_length=1)
    formula: str = Field(min_length=1)


class _RuleModel(_StatementModel):
    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")


class _WordModel(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    word: str = Field(min_length=1)
    predicate: str = Field(pattern=r"^[A-Z][A-Za-z0-9]*$")
    definition: str = Field(min_length=1)
    rules: tuple[_RuleModel, ...] = ()
    distinctive: tuple[_StatementModel, ...]


class _PairModel(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    pair: str
    rules: tuple[_RuleModel, ...] = ()
    shared: tuple[_StatementModel, ...]
    words: tuple[_WordModel, _WordModel]
    synonyms: tuple[tuple[str, ...], ...] = ()


def _key(word: str) -> str:
    return " ".join(word.split()).casefold()


class _PairReader:
    """Builds the two entries of one lexicon file, with errors naming the file and field."""

    def __init__(
        self, source: str, pairs: Mapping[str, WordPair], general: Sequence[SynonymGroup]
    ) -> None:
        self.source = source
        self.pairs = pairs
        self.general = general

    def fail(self, field: str, message: str) -> LexiconError:
        return LexiconError(f"{self.source}: field '{field}': {message}")

    def parse(self, field: str, text: str) -> Formula:
        try:
            return parse_formula(text)
        except FormulaSyntaxError as err:
            detail = str(err).splitlines()[0]
            raise self.fail(field, f"formula syntax error, {detail}") from None

    def read(self, text: str) -> tuple[tuple[LexiconEntry, LexiconEntry], Signature, SynonymTable]:
        """The pair's two entries, its sorted vocabulary and its synonyms."""
        try:
            model = _PairModel.model_validate(parse_user_json(text, self.source))
        except UserFileError as err:
            raise LexiconError(str(err)) from None
        except ValidationError as err:
            raise LexiconError(f"{self.source}: {field_errors(err)}") from None
        pair = self.pairs.get(model.pair)
        if pair is None:
            raise self.fail("pair", f"unknown word pair {model.pair!r}")
        given = [w.word for w in model.words]
        if sorted(given) != sorted(pair.words):
            raise self.fail("words", f"lists {given}, but pair {pair.id!r} is {list(pair.words)}")
        fields: list[str] = []
        texts: list[str] = []
        for index, rule in enumerate(model.rules):
            fields.append(f"rules.{index}.formula")
            texts.append(rule.formula)
        for index, fact in enumerate(model.shared):
            fields.append(f"shared.{index}.formula")
            texts.append(fact.formula)
        for w_index, word in enumerate(model.words):
            for index, rule in enumerate(word.rules):
                fields.append(f"words.{w_index}.rules.{index}.formula")
                texts.append(rule.formula)
            for index, fact in enumerate(word.distinctive):
                fields.append(f"words.{w_index}.distinctive.{index}.formula")
                texts.append(fact.formula)
        parsed = [self.parse(f, t) for f, t in zip(fields, texts, strict=True)]
        for field, formula in zip(fields, parsed, strict=True):
            if (".distinctive." in field or field.startswith("shared.")) and ITEM not in {
                c.name for c in constants(formula)
            }:
                raise self.fail(field, f"a fact must be about the constant {ITEM!r}")
        cards = [Atom(w.predicate, (Const(ITEM),)) for w in model.words]
        try:
            sorted_all, signature = infer_sorts([*parsed, *cards])
        except SortError as err:
            where = "" if err.index is None else f"field '{_field_at(fields, err.index)}': "
            raise LexiconError(f"{self.source}: {where}{err.detail}") from None
        formulas = iter(zip(sorted_all[: len(texts)], texts, strict=True))
        common = tuple(self._rule(r, next(formulas)) for r in model.rules)
        shared = tuple(
            self._fact(f"shared_fact_{i + 1}", FactKind.SHARED, f, next(formulas))
            for i, f in enumerate(model.shared)
        )
        if model.words[0].predicate == model.words[1].predicate:
            raise self.fail("words.1.predicate", "both words use the same predicate")
        own_rules: list[tuple[Rule, ...]] = []
        own_facts: list[tuple[Fact, ...]] = []
        for word in model.words:
            own_rules.append(tuple(self._rule(r, next(formulas)) for r in word.rules))
            slug = word.predicate.lower()
            own_facts.append(
                tuple(
                    self._fact(f"{slug}_fact_{i + 1}", FactKind.DISTINCTIVE, f, next(formulas))
                    for i, f in enumerate(word.distinctive)
                )
            )
        knowledge = (*common, *own_rules[0], *own_rules[1])
        for word, facts in zip(model.words, own_facts, strict=True):
            knowledge += tuple(
                generalised(fact, word.word, word.predicate) for fact in (*shared, *facts)
            )
        names = [CARD_AXIOM, *(r.name for r in knowledge)]
        names += [f.name for f in (*shared, *own_facts[0], *own_facts[1])]
        clashes = sorted({n for n in names if names.count(n) > 1})
        if clashes:
            raise self.fail("rules", f"names {clashes} are used twice")
        entries = tuple(
            LexiconEntry(
                word=word.word,
                pair=pair,
                predicate=word.predicate,
                definition=word.definition,
                rules=(*common, *own_rules[w_index]),
                facts=(*shared, *own_facts[w_index]),
                card_formula=sorted_all[len(texts) + w_index],
                knowledge=knowledge,
            )
            for w_index, word in enumerate(model.words)
        )
        return (entries[0], entries[1]), signature, self._synonyms(model, signature)

    def _synonyms(self, model: _PairModel, signature: Signature) -> SynonymTable:
        try:
            check_groups(model.synonyms, self.source, "synonyms")
        except SynonymError as err:
            raise LexiconError(str(err)) from None
        for index, group in enumerate(model.synonyms):
            if group_canonical(group, signature) is None:
                raise self.fail(
                    f"synonyms.{index}", "a group must name exactly one predicate of the pair"
                )
        return SynonymTable(signature, (*model.synonyms, *self.general))

    @staticmethod
    def _rule(model: _RuleModel, sorted_formula: tuple[Formula, str]) -> Rule:
        formula, text = sorted_formula
        return Rule(model.name, model.text, text, formula)

    @staticmethod
    def _fact(
        name: str, kind: FactKind, model: _StatementModel, sorted_formula: tuple[Formula, str]
    ) -> Fact:
        formula, text = sorted_formula
        return Fact(name, kind, model.text, text, formula)


def generalised(fact: Fact, word: str, predicate: str) -> Rule:
    """The fact said of everything of ``word``: ``forall x. Predicate(x) -> fact[item := x]``."""
    taken = {v.name for g in walk(fact.formula) for v in _bound(g)}
    name = next(n for n in ("x", *(f"x{i}" for i in range(1, len(taken) + 2))) if n not in taken)
    var = Var(name, ENTITY)

    def about(t: Term) -> Term:
        return var if isinstance(t, Const) and t.name == ITEM else t

    def node(_: int, g: Formula, parts: tuple[Formula, ...]) -> Formula:
        match g:
            case Atom(pred, args):
                return Atom(pred, tuple(map(about, args)))
            case Eq(left, right):
                return Eq(about(left), about(right))
        return with_children(g, parts)

    body = rebuild(fact.formula, node)
    formula = Forall((var,), Implies(Atom(predicate, (var,)), body))
    own = fact.kind is FactKind.DISTINCTIVE
    rule_name = f"every_{fact.name}" if own else f"every_{predicate.lower()}_{fact.name}"
    return Rule(rule_name, f"Of every {word}: {fact.text}", format_formula(formula), formula)


def _bound(g: Formula) -> tuple[Var, ...]:
    return g.vars if isinstance(g, Forall | Exists) else ()


def _field_at(fields: Sequence[str], index: int) -> str:
    """The field of the formula ``index``; past the parsed formulas come the two card axioms."""
    return fields[index] if index < len(fields) else f"words.{index - len(fields)}.predicate"


class Lexicon:
    """Lexicon entries by word, for the pairs that have a lexicon file."""

    def __init__(
        self,
        entries: Iterable[LexiconEntry],
        signatures: Mapping[str, Signature],
        synonyms: Mapping[str, SynonymTable],
    ) -> None:
        """Index ``entries`` by word; ``signatures`` and ``synonyms`` map each pair id to its
        sorted vocabulary and its synonym table."""
        self._entries: dict[str, LexiconEntry] = {}
        for entry in entries:
            key = _key(entry.word)
            if key in self._entries:
                raise LexiconError(f"word {entry.word!r} has two lexicon entries")
            self._entries[key] = entry
        self._signatures = dict(signatures)
        self._synonyms = dict(synonyms)

    @classmethod
    def load(
        cls, directory: str | Path | None = None, pairs: Iterable[WordPair] | None = None
    ) -> Lexicon:
        """Read every ``*.json`` lexicon file of ``directory`` (default: the shipped lexicon).

        ``pairs`` are the word pairs the files may describe (default: the shipped pairs).
        """
        catalogue = {p.id: p for p in (builtin_pairs() if pairs is None else pairs)}
        folder: Traversable | Path
        if directory is None:
            folder = resources.files(__package__).joinpath("data").joinpath(LEXICON_DIR)
        else:
            folder = Path(directory)
            if not folder.is_dir():
                raise LexiconError(f"{folder}: not a directory")
        files = sorted(
            (f for f in folder.iterdir() if f.name.endswith(".json")), key=lambda f: f.name
        )
        entries: list[LexiconEntry] = []
        signatures: dict[str, Signature] = {}
        synonyms: dict[str, SynonymTable] = {}
        try:
            general = general_groups()
        except SynonymError as err:
            raise LexiconError(str(err)) from None
        for file in files:
            source = str(file) if directory is not None else f"{LEXICON_DIR}/{file.name}"
            try:
                text = read_user_text(file) if isinstance(file, Path) else file.read_text("utf-8")
            except UserFileError as err:
                raise LexiconError(str(err)) from None
            pair_entries, signature, table = _PairReader(source, catalogue, general).read(text)
            pair_id = pair_entries[0].pair.id
            if pair_id in signatures:
                raise LexiconError(f"{source}: pair {pair_id!r} already has a lexicon file")
            signatures[pair_id] = signature
            synonyms[pair_id] = table
            entries.extend(pair_entries)
        return cls(entries, signatures, synonyms)

    @property
    def words(self) -> tuple[str, ...]:
        """Every word with an entry, pair by pair."""
        return tuple(entry.word for entry in self._entries.values())

    @property
    def pairs(self) -> tuple[WordPair, ...]:
        """Every pair with a lexicon."""
        seen: dict[str, WordPair] = {}
        for entry in self._entries.values():
            seen.setdefault(entry.pair.id, entry.pair)
        return tuple(seen.values())

    def has(self, word: str) -> bool:
        """Whether ``word`` (compared ignoring case and spacing) has an entry."""
        return _key(word) in self._entries

    def entry(self, word: str) -> LexiconEntry:
        """The entry of ``word`` (compared ignoring case and spacing); UnknownWord if none."""
        try:
            return self._entries[_key(word)]
        except KeyError:
            raise UnknownWord(f"no lexicon entry for word {word!r}") from None

    def theory(self, word: str) -> tuple[Axiom, ...]:
        """phi(word): the word's rules and card axiom, sorted, ready for a prover."""
        return self.entry(word).theory()

    def facts(self, word: str) -> tuple[Fact, ...]:
        """Every fact true of ``word``: the pair's shared facts, then its distinctive ones."""
        return self.entry(word).facts

    def shared_facts(self, pair: str | WordPair) -> tuple[Fact, ...]:
        """The facts true of both words of ``pair`` (a pair or its id)."""
        pair_id = pair.id if isinstance(pair, WordPair) else pair
        for entry in self._entries.values():
            if entry.pair.id == pair_id:
                return entry.facts_of(FactKind.SHARED)
        raise UnknownWord(f"no lexicon for word pair {pair_id!r}")

    def distinctive_facts(self, word: str) -> tuple[Fact, ...]:
        """The facts true of ``word`` that contradict the other word's theory."""
        return self.entry(word).facts_of(FactKind.DISTINCTIVE)

    def definition(self, word: str) -> str:
        """The reference definition sentence of ``word`` (for the Attributional Score)."""
        return self.entry(word).definition

    def signature(self, word: str) -> Signature:
        """The sorted vocabulary of ``word``'s pair: its predicates and constants with sorts."""
        return self._signatures[self.entry(word).pair.id]

    def synonyms(self, word: str) -> SynonymTable:
        """The synonym table of ``word``'s pair: predicate names read into its vocabulary."""
        return self._synonyms[self.entry(word).pair.id]

    def canonical(self, word: str, formula: Formula) -> Formula:
        """``formula`` read into the vocabulary of ``word``'s pair through its synonyms."""
        return self.synonyms(word).canonical(formula)

    def consistency_axioms(
        self, word: str, formulas: Sequence[Formula], prefix: str = "description"
    ) -> tuple[Axiom, ...]:
        """phi(word) plus ``formulas`` (read through the pair's synonyms and sorted against its
        vocabulary) as axioms.

        Consistency of the result is the test T(s, Delta): the formulas do not contradict the card.
        The formulas become axioms ``<prefix>_1``, ``<prefix>_2``, ...; SortError if a formula
        uses a symbol of the vocabulary with another sort or arity.
        """
        table = self.synonyms(word)
        canonical = [table.canonical(f) for f in formulas]
        sorted_formulas, _ = infer_sorts(canonical, self.signature(word))
        extra = tuple(
            Axiom(f"{prefix}_{i + 1}", formula) for i, formula in enumerate(sorted_formulas)
        )
        return (*self.theory(word), *extra)
