"""Controlled-English rendering of Neo-Davidsonian logical forms, on fixed inputs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from formalize.davidsonian import render_english
from formalize.davidsonian.render import article, gerund, is_adjective, is_adverb, words
from games.undercover import Lexicon
from reasoning.formula import Formula
from reasoning.strategies import formulas
from reasoning.syntax import parse_formula

FIXED = [
    (
        "exists e1 y. Infuse(e1) & Patient(e1, item) & Bergamot(y) & Instrument(e1, y)",
        "There is an event e1 of infusing whose patient is the item and whose instrument is "
        "some bergamot.",
    ),
    (
        "forall x. EarlGreyTea(x) -> Tea(x)",
        "For every x, if x is an earl grey tea, then x is a tea.",
    ),
    (
        "forall x e y. CeylonTea(x) & Infuse(e) & Patient(e, x) & Instrument(e, y) -> ~Bergamot(y)",
        "For every x, event e, and y, if x is a ceylon tea, and e is an event of infusing whose "
        "patient is x and whose instrument is y, then y is not a bergamot.",
    ),
    (
        "∀x y e. Animal x ∧ Tree y ∧ ¬LiveOn e ∧ Agent e x ∧ Patient e y ⟶ (∃z. Wolf z ∧ z = x)",
        "For every x, y, and event e, if x is an animal, y is a tree, e is not an event of living "
        "on, and e is an event whose agent is x and whose patient is y, then there is some wolf z "
        "such that z is the same as x.",
    ),
    (
        "exists e y. Eat(e) & Agent(e, item) & Snake(y) & Patient(e, y) & Mainly(e)",
        "There is an event e of mainly eating whose agent is the item and whose patient is some "
        "snake.",
    ),
    (
        "exists e y. Have(e) & Agent(e, item) & Petal(y) & Pink(y) & Theme(e, y)",
        "There is an event e of having whose agent is the item and whose theme is some pink petal.",
    ),
    ("Tea(item) & Waxy(item)", "The item is a tea and the item is waxy."),
    ("~Flavoured(item)", "The item is not flavoured."),
    (
        "forall e. Touch(e) -> ~Patient(e, item)",
        "For every event e, if e is an event of touching, then the patient of e is not the item.",
    ),
    (
        "exists x y. Tea(x) & Cup(y) & In(x, y)",
        "There is some tea x and some cup y such that in holds between x and y.",
    ),
    (
        "exists x. Tea(x) | Cup(x)",
        "There is something x such that either x is a tea or x is a cup.",
    ),
    ("P <-> ~Q", "P holds if and only if Q does not hold."),
    ("alice != bob", "Alice is not the same as bob."),
    (
        "exactly 1 of {Tea(item), Cup(item)}",
        "Exactly 1 of the following hold: the item is a tea; the item is a cup.",
    ),
    (
        "exists e. Stop(e) & Agent(e, item) & ~Often(e)",
        "There is an event e of stopping whose agent is the item such that e does not happen "
        "often.",
    ),
    (
        "exists e y. Apply(e) & Goal(e, y)",
        "There is an event e of applying whose goal is something.",
    ),
    ("~(exists e:event. Run(e))", "It is not the case that there is an event e of running."),
    ("~(exists e. Run(e))", "It is not the case that there is some run e."),
    ("P(x:event)", "X is an event of ping."),
]


@pytest.mark.parametrize(("text", "english"), FIXED)
def test_fixed_renderings(text: str, english: str) -> None:
    assert render_english(parse_formula(text)) == english


def test_word_helpers() -> None:
    assert words("EarlGreyTea") == ["earl", "grey", "tea"]
    assert words("USABorder2") == ["USA", "border", "2"]
    verbs = ("Infuse", "LiveOn", "See", "Die", "Run", "Spit", "Open", "Grow")
    assert [gerund(v) for v in verbs] == [
        "infusing", "living on", "seeing", "dying", "running", "spitting", "opening", "growing",
    ]  # fmt: skip
    assert [article(w) for w in ("apple", "tea", "hour", "university", "orange")] == [
        "an", "a", "an", "a", "an",
    ]  # fmt: skip
    assert is_adjective("Waxy") and is_adjective("Venomous") and is_adjective("LampshadeShaped")
    assert not is_adjective("Petal") and not is_adjective("Seed") and not is_adjective("Rodent")
    assert is_adverb("Mainly") and is_adverb("Often") and not is_adverb("Apply")


def test_every_lexicon_formula_reads_about_the_item() -> None:
    lex = Lexicon.load()
    for word in lex.words:
        for fact in lex.facts(word):
            english = render_english(fact.formula)
            assert "the item" in english.lower() and english.endswith("."), fact.text
            assert english == render_english(fact.formula)


@settings(max_examples=80, deadline=None)
@given(f=formulas(max_leaves=8))
def test_any_formula_renders_one_sentence(f: Formula) -> None:
    english = render_english(f)
    assert english.endswith(".")
    assert english == render_english(f)
