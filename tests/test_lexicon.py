"""The Undercover-V lexicon: shape of the shipped data, and its logic checked with Z3.

The properties behind the game: a citizen's consistency test never flags descriptions true of its
own card, a spy who plainly states a distinctive fact of its own word can be caught, and each card
theory decides its pair: it rules out the other word, entails every fact of its own word and
refutes the other word's distinctive facts, also when a formaliser names the predicates its own
way (the pair's synonyms).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.undercover import Lexicon, LexiconError, UnknownWord, WordPair, builtin_pairs
from games.undercover.lexicon import FactKind
from games.undercover.lexicon_synonyms import Synonym, general_groups
from provers.z3_prover import Z3Prover
from reasoning.formula import ENTITY, EVENT, Atom, Const, Formula, Not, atoms
from reasoning.prover import Axiom, check_consistency
from reasoning.sorts import infer_sorts
from reasoning.syntax import parse_formula
from reasoning.verdict import Verdict
from reasoning.verifier import ClaimStatus, Verifier

PROVER = Z3Prover(timeout=20.0, countermodels=False)


@cache
def lexicon() -> Lexicon:
    return Lexicon.load()


WORDS = [w for pair in builtin_pairs() for w in pair.words]


def consistent(axioms: tuple[Axiom, ...]) -> bool:
    verdict = check_consistency(PROVER, axioms).verdict
    assert verdict.decisive, f"undecided consistency check: {verdict}"
    return verdict is Verdict.INVALID


def test_every_shipped_pair_has_a_lexicon() -> None:
    lex = lexicon()
    assert {p.id for p in lex.pairs} == {p.id for p in builtin_pairs()}
    assert sorted(lex.words) == sorted(WORDS)


@pytest.mark.parametrize("word", WORDS)
def test_entry_shape(word: str) -> None:
    lex = lexicon()
    entry = lex.entry(word)
    facts = lex.facts(word)
    assert 6 <= len(facts) <= 10
    assert len(lex.distinctive_facts(word)) >= 2
    assert len(lex.shared_facts(entry.pair)) >= 2
    assert facts == lex.shared_facts(entry.pair) + lex.distinctive_facts(word)
    assert all(f.kind is FactKind.DISTINCTIVE for f in lex.distinctive_facts(word))
    assert entry.predicate.isidentifier() and entry.predicate[0].isupper()
    assert lex.definition(word).endswith(".") and len(lex.definition(word)) > 30
    theory = lex.theory(word)
    assert theory[-1] == Axiom("card", Atom(entry.predicate, (Const("item", ENTITY),)))
    assert len({a.name for a in theory}) == len(theory)
    for fact in facts:
        assert fact.text.endswith(".") and "item" in fact.formula_text
        again = lex.consistency_axioms(word, [parse_formula(fact.formula_text)])[-1]
        assert again.formula == fact.formula


@pytest.mark.parametrize("word", WORDS)
def test_theory_and_all_own_facts_are_consistent(word: str) -> None:
    lex = lexicon()
    theory = lex.theory(word)
    assert consistent(theory)
    assert consistent(theory + tuple(f.axiom() for f in lex.facts(word)))
    for fact in lex.facts(word):
        assert consistent((*theory, fact.axiom())), fact.text


@pytest.mark.parametrize("word", WORDS)
def test_shared_facts_are_consistent_with_the_other_word(word: str) -> None:
    lex = lexicon()
    other_theory = lex.theory(lex.entry(word).pair.other(lex.entry(word).word))
    for fact in lex.shared_facts(lex.entry(word).pair):
        assert consistent((*other_theory, fact.axiom())), fact.text


def entailed(axioms: tuple[Axiom, ...], goal: Formula) -> bool:
    verdict = PROVER.prove(axioms, goal).verdict
    assert verdict.decisive, f"undecided entailment: {verdict}"
    return verdict is Verdict.VALID


def test_card_theories_decide_every_fact_of_their_pair() -> None:
    """Each word's theory rules out the other word, entails every fact of its own word (shared
    and distinctive) and refutes every distinctive fact of the other word; a line per word says
    how many of the pair's facts it decides."""
    lex = lexicon()
    failures: list[str] = []
    for word in WORDS:
        entry = lex.entry(word)
        other = lex.entry(entry.pair.other(entry.word))
        theory = lex.theory(word)
        item = Const("item", ENTITY)
        rules_out = entailed(theory, Not(Atom(other.predicate, (item,))))
        own = [entailed(theory, f.formula) for f in entry.facts]
        refuted = [entailed(theory, Not(f.formula)) for f in other.facts_of(FactKind.DISTINCTIVE)]
        facts = len(own) + len(refuted)
        print(
            f"{word}: rules out {other.word}: {rules_out}; entails {sum(own)} of {len(own)} "
            f"own facts, refutes {sum(refuted)} of {len(refuted)} of the other's distinctive "
            f"facts; decides {sum(own) + sum(refuted)} of {facts}"
        )
        if not (rules_out and all(own) and all(refuted)):
            failures.append(word)
    assert failures == []


NATURAL = Path(__file__).parent / "fixtures" / "undercover" / "natural_readings.jsonl"


def test_natural_formalisations_meet_the_card_theories() -> None:
    """Readings of descriptions as a formaliser writes them (its own names: Contain for Have,
    Theme for Patient, plurals, US spelling, negative adjectives), each labelled true or false of
    the card: none is judged wrongly, and every reading whose predicates the pair's vocabulary
    or synonyms know is decided (the rest use shapes the lexicon does not speak of)."""
    lex = lexicon()
    verifier = Verifier(PROVER)
    rows = [json.loads(line) for line in NATURAL.read_text(encoding="utf-8").splitlines()]
    decided = bare_decided = 0
    for row in rows:
        word, formula = row["word"], parse_formula(row["formula"])
        *theory, said = lex.consistency_axioms(word, [formula])
        knowledge = [a.formula for a in theory]
        status = verifier.check(knowledge, said.formula).status
        (bare,), _ = infer_sorts([formula], lex.signature(word))
        bare_status = verifier.check(knowledge, bare).status
        right = ClaimStatus.ENTAILED if row["true"] else ClaimStatus.CONTRADICTED
        assert status in (right, ClaimStatus.UNDETERMINED), row["text"]
        assert bare_status in (right, ClaimStatus.UNDETERMINED), row["text"]
        table = lex.synonyms(word)
        known = all(
            a.pred in lex.signature(word).predicates or table.lookup(a.pred, len(a.args))
            for a in atoms(formula)
        )
        assert (status is right) == known, row["text"]
        decided += status is right
        bare_decided += bare_status is right
    print(f"{len(rows)} readings: {decided} decided through synonyms, {bare_decided} without")
    assert len(rows) >= 50 and len({r["word"] for r in rows}) == len(WORDS)
    assert bare_decided < decided


def test_synonym_table_reads_names_into_the_pair_vocabulary() -> None:
    lex = lexicon()
    oranges = lex.synonyms("Navel Orange")
    assert oranges.lookup("Contain", 1) == Synonym("Contain", "Have")
    assert oranges.lookup("Theme", 2) == Synonym("Theme", "Patient")
    assert oranges.lookup("Seeds", 1) == Synonym("Seeds", "Seed")
    assert oranges.lookup("SEED", 1) == Synonym("SEED", "Seed")
    assert oranges.lookup("Contain", 2) is None, "a synonym keeps the arity"
    assert oranges.lookup("Have", 1) is None and oranges.lookup("Tasty", 1) is None
    tea = lex.synonyms("Earl Grey Tea")
    assert tea.lookup("Unflavoured") == Synonym("Unflavoured", "Flavoured", negated=True)
    assert tea.lookup("Flavored") == Synonym("Flavored", "Flavoured")
    assert Synonym("Bergamot", "BergamotOil") in tea.entries
    assert tea.lookup("Arise") is None, "a general group applies where the pair uses a member"
    said = parse_formula("Tea(item) & Unflavored(item) & ~Flavor(e)")
    assert lex.canonical("Ceylon Tea", said) == parse_formula(
        "Tea(item) & ~Flavoured(item) & ~Flavour(e)"
    )
    assert lex.synonyms("Impatiens hawkeri").lookup("Leaves") == Synonym("Leaves", "Leaf")
    assert lex.synonyms("Sweet Orange").lookup("Originate") == Synonym("Originate", "Arise")


def test_shipped_pairs_use_one_name_of_each_general_group() -> None:
    lex = lexicon()
    for pair in lex.pairs:
        vocabulary = lex.signature(pair.words[0]).predicates
        for group in general_groups():
            used = [m for m in group if m.removeprefix("~") in vocabulary]
            assert len(used) <= 1, f"{pair.id} uses {used} of one synonym group"


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_citizen_test_never_flags_descriptions_true_of_its_card(data: st.DataObject) -> None:
    lex = lexicon()
    word = data.draw(st.sampled_from(WORDS))
    facts = lex.facts(word)
    chosen = data.draw(st.lists(st.sampled_from(facts), min_size=1, max_size=4, unique=True))
    assert consistent((*lex.theory(word), *(f.axiom() for f in chosen)))


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_a_plain_spy_description_is_caught(data: st.DataObject) -> None:
    lex = lexicon()
    spy_word = data.draw(st.sampled_from(WORDS))
    citizen_word = lex.entry(spy_word).pair.other(lex.entry(spy_word).word)
    telling = data.draw(st.sampled_from(lex.distinctive_facts(spy_word)))
    others = data.draw(st.lists(st.sampled_from(lex.facts(spy_word)), max_size=2, unique=True))
    said = [telling, *(f for f in others if f != telling)]
    assert not consistent((*lex.theory(citizen_word), *(f.axiom() for f in said)))
    assert consistent((*lex.theory(spy_word), *(f.axiom() for f in said)))


def test_lookup_ignores_case_and_spacing() -> None:
    lex = lexicon()
    assert lex.entry("  earl   grey TEA ").word == "Earl Grey Tea"
    assert lex.has("naja") and not lex.has("cobra")
    with pytest.raises(UnknownWord, match="'Cobra'"):
        lex.entry("Cobra")
    with pytest.raises(UnknownWord, match="'no-such-pair'"):
        lex.shared_facts("no-such-pair")
    pair = lex.entry("Naja").pair
    assert lex.shared_facts(pair.id) == lex.shared_facts(pair)


def test_signature_sorts_events_and_entities() -> None:
    sig = lexicon().signature("Ceylon Tea")
    assert sig.predicates["Patient"] == (EVENT, ENTITY)
    assert sig.predicates["Flavour"] == (EVENT,)
    assert sig.predicates["EarlGreyTea"] == (ENTITY,)
    assert sig.constants["item"] == ENTITY


def test_consistency_axioms_is_the_card_test() -> None:
    lex = lexicon()
    bergamot = parse_formula(
        "exists e y. Flavour(e) & Patient(e, item) & BergamotOil(y) & Instrument(e, y)"
    )
    against_ceylon = lex.consistency_axioms("Ceylon Tea", [bergamot])
    assert against_ceylon[-1].name == "description_1"
    assert not consistent(against_ceylon)
    assert consistent(lex.consistency_axioms("Earl Grey Tea", [bergamot]))
    vague = parse_formula("exists e y. Drink(e) & Patient(e, item) & Cup(y) & Location(e, y)")
    assert consistent(lex.consistency_axioms("Ceylon Tea", [vague]))


PAIR = WordPair(id="fruit", words=("Blueberry", "Strawberry"))


def fruit_lexicon() -> dict[str, Any]:
    return {
        "pair": "fruit",
        "rules": [
            {
                "name": "blue_not_red",
                "text": "Blue is not red.",
                "formula": "forall x. Blue(x) -> ~Red(x)",
            }
        ],
        "shared": [{"text": "It is a berry.", "formula": "Berry(item)"}],
        "words": [
            {
                "word": "Blueberry",
                "predicate": "Blueberry",
                "definition": "A small round blue berry.",
                "rules": [
                    {
                        "name": "blueberry_blue",
                        "text": "Blueberries are blue.",
                        "formula": "forall x. Blueberry(x) -> Blue(x)",
                    }
                ],
                "distinctive": [{"text": "It is blue.", "formula": "Blue(item)"}],
            },
            {
                "word": "Strawberry",
                "predicate": "Strawberry",
                "definition": "A red berry with seeds on the outside.",
                "rules": [
                    {
                        "name": "strawberry_red",
                        "text": "Strawberries are red.",
                        "formula": "forall x. Strawberry(x) -> Red(x)",
                    }
                ],
                "distinctive": [{"text": "It is red.", "formula": "Red(item)"}],
            },
        ],
    }


def write_lexicon(folder: Path, data: dict[str, Any]) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "fruit.json").write_text(json.dumps(data, indent=2))
    return folder


def test_a_user_lexicon_for_an_extra_pair(tmp_path: Path) -> None:
    lex = Lexicon.load(write_lexicon(tmp_path / "lex", fruit_lexicon()), pairs=[PAIR])
    assert lex.words == ("Blueberry", "Strawberry")
    assert not consistent(
        (*lex.theory("Strawberry"), lex.distinctive_facts("Blueberry")[0].axiom())
    )
    assert consistent((*lex.theory("Blueberry"), *(f.axiom() for f in lex.facts("Blueberry"))))


def broken(data: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """``data`` with the item at a dotted ``path`` replaced (or deleted when value is ...)."""
    copy = json.loads(json.dumps(data))
    *parents, last = path.split(".")
    node = copy
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    if value is ...:
        del node[int(last) if last.isdigit() else last]
    else:
        node[int(last) if last.isdigit() else last] = value
    return dict(copy)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("pair", "apples", "field 'pair': unknown word pair 'apples'"),
        ("words.1.word", "Raspberry", "field 'words': lists"),
        ("words.0.definition", ..., "field 'words.0.definition': Field required"),
        ("words.0.predicate", "blue berry", "field 'words.0.predicate'"),
        (
            "shared.0.formula",
            "Berry(item",
            "field 'shared.0.formula': formula syntax error, line 1",
        ),
        ("words.1.distinctive.0.formula", "Red(x) & ", "field 'words.1.distinctive.0.formula'"),
        ("shared.0.formula", "exists x. Berry(x)", "a fact must be about the constant 'item'"),
        (
            "words.1.distinctive.0.formula",
            "Red(item, item)",
            "field 'words.1.distinctive.0.formula': arity clash on 'Red'",
        ),
        ("words.0.rules.0.name", "blue_not_red", "names ['blue_not_red'] are used twice"),
        ("words.0.rules.0.name", "card", "names ['card'] are used twice"),
        ("words.1.predicate", "Blueberry", "both words use the same predicate"),
        ("synonyms", [["Blue", "Azure"], ["Cyan"]], "field 'synonyms.1': a group needs two"),
        ("synonyms", [["Blue", "azure"]], "'azure' is not a predicate name"),
        ("synonyms", [["Blue", "Azure"], ["Red", "~Azure"]], "'Azure' is already in group 0"),
        ("synonyms", [["Azure", "Cyan"]], "field 'synonyms.0': a group must name exactly one"),
        ("synonyms", [["Blue", "Red"]], "field 'synonyms.0': a group must name exactly one"),
    ],
)
def test_bad_lexicon_files_name_the_field(
    tmp_path: Path, path: str, value: Any, message: str
) -> None:
    folder = write_lexicon(tmp_path / "lex", broken(fruit_lexicon(), path, value))
    with pytest.raises(LexiconError, match=re.escape(message)) as err:
        Lexicon.load(folder, pairs=[PAIR])
    assert "fruit.json" in str(err.value)


def test_unreadable_lexicon_sources(tmp_path: Path) -> None:
    with pytest.raises(LexiconError, match="not a directory"):
        Lexicon.load(tmp_path / "missing")
    folder = tmp_path / "lex"
    folder.mkdir()
    (folder / "fruit.json").write_text('{"pair": \n}')
    with pytest.raises(LexiconError, match=r"fruit.json:2:1: not valid JSON"):
        Lexicon.load(folder, pairs=[PAIR])
