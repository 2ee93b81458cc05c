"""Reading a story's sentences back into facts: every clause the generator writes reads back to
exactly its fact, paraphrases a writer may use are read, and what the reader cannot place
(hedges, pronouns, other people's words, names it does not know) is ``unsure``, never a guess."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formalize.reading.statements import StatementReader
from formalize.world.clauses import clause_templates, fill, first_person_templates
from formalize.world.facts import fact_formula
from formalize.world.generate import generate_world
from formalize.world.setting import Setting
from games.detective.generator import WORLD, _pool
from provers import SatProver
from reasoning.formula import Formula
from reasoning.prover import Axiom
from reasoning.syntax import format_formula, parse_formula
from reasoning.verdict import Verdict


@pytest.fixture(scope="module")
def setting() -> Setting:
    """The world of seed 0: Maud Marsh, the victim; Nigel Orme, Basil Pryce, Irene Ellery,
    Rosalind Hale, Percy Fenwick; the study, the kitchen, the letter opener, ..."""
    return generate_world(0, WORLD).setting


def _same(a: Formula, b: Formula) -> bool:
    prover = SatProver()
    return (
        prover.prove([Axiom("a", a)], b).verdict is Verdict.VALID
        and prover.prove([Axiom("b", b)], a).verdict is Verdict.VALID
    )


def test_every_clause_the_generator_writes_reads_back_to_exactly_its_fact() -> None:
    world = generate_world(1, WORLD)
    setting = world.setting
    reader = StatementReader(setting)
    checked = 0
    for fact in _pool(world, random.Random(1)):
        truth = fact_formula(fact, setting)
        said: list[tuple[str, str | None]] = [
            (fill(t, fact, setting, short), None)
            for t in clause_templates(fact)
            for short in (False, True)
        ]
        said += [
            (fill(t, fact, setting, True), p.id)
            for p in setting.people
            for t in first_person_templates(fact, p.id)
        ]
        for text, speaker in said:
            got = reader.read(text[:1].upper() + text[1:] + ".", speaker)
            assert got.outcome == "stated", (text, got.note)
            assert got.formula is not None and _same(got.formula, truth), text
            checked += 1
    assert checked > 500


CASES: list[tuple[str, str | None, str, str | None]] = [
    ("At eight o'clock, Nigel Orme was in the study.", None, "stated", "at_nigel_study_2"),
    ("Nigel was in the study at 8 pm.", None, "stated", "at_nigel_study_2"),
    ("I was in the study at eight.", "nigel", "stated", "at_nigel_study_2"),
    (
        "\u201cI was in the study at eight o'clock,\u201d says Nigel.",
        "nigel",
        "stated",
        "at_nigel_study_2",
    ),
    ("Nigel says that Basil was in the study at eight.", "nigel", "stated", "at_basil_study_2"),
    ("The family solicitor was in the kitchen at six.", None, "stated", "at_nigel_kitchen_0"),
    (
        "Nigel and Basil were in the study at nine o'clock.",
        None,
        "stated",
        "at_nigel_study_3 & at_basil_study_3",
    ),
    ("Nigel kept company with Basil at eight.", None, "stated", None),
    (
        "Nigel did not have the letter opener at eight.",
        None,
        "stated",
        "~holds_nigel_letteropener_2",
    ),
    ("Only Nigel and Basil had a key to the dining room.", None, "stated", None),
    ("Nigel had a key to the dining room.", None, "stated", "key_nigel_diningroomkey"),
    ("Nigel had a motive: a place in the will.", None, "stated", "motive_nigel_inheritance"),
    ("The police surgeon says that Maud was stabbed.", None, "stated", "c1_method_stabbing"),
    (
        "Maud died at eight, nine or ten o'clock.",
        None,
        "stated",
        "c1_time_2 | c1_time_3 | c1_time_4",
    ),
    ("Maud was killed in the study at eight.", None, "stated", "c1_time_2 & c1_scene_study"),
    (
        "Whatever killed Maud, it was not the letter opener.",
        None,
        "stated",
        "~c1_weapon_letteropener",
    ),
    (
        "Nigel was in the study at eight, and Basil was in the kitchen at nine.",
        None,
        "stated",
        "at_nigel_study_2 & at_basil_kitchen_3",
    ),
    ("The study is cold and smells of old leather.", None, "narration", None),
    ("Nigel sits by the fire, twisting his cap.", "nigel", "narration", None),
    ("Maud Marsh lies on her back.", None, "narration", None),
    ("Nigel was perhaps in the study at eight o'clock.", None, "unsure", None),
    ("Nigel was in the study at around eight.", None, "unsure", None),
    ("He was in the study at eight o'clock.", None, "unsure", None),
    ("I was in the study at eight o'clock.", None, "unsure", None),
    ("\u201cI was in the study at eight o'clock,\u201d says Basil.", "nigel", "unsure", None),
    ("Basil says that Nigel was in the study at eight.", "nigel", "unsure", None),
    ("Nigel saw Basil in the study at eight.", None, "unsure", None),
    ("Nigel was alone in the study at eight.", None, "unsure", None),
    ("Hugo Quill was in the study at eight.", None, "unsure", None),
    ("Nigel's cousin kept company with Basil at eight.", None, "unsure", None),
    ("Nigel killed Maud.", None, "unsure", None),
    ("Nigel is innocent.", None, "unsure", None),
    ("Nigel sits in the kitchen, twisting his cap.", "nigel", "unsure", None),
    ("At eight the house was quiet.", None, "unsure", None),
    ("Nigel does not say that Basil was in the study at eight.", "nigel", "unsure", None),
    ("Nigel or Basil was in the study at eight.", None, "unsure", None),
    ("Nigel had the letter opener at eight, and he used it on Maud.", None, "unsure", None),
    ("He was alone.", None, "unsure", None),
    ("No one came in.", None, "unsure", None),
    ("The study was empty at that hour.", None, "unsure", None),
    ("No, I was in the study at eight.", "nigel", "unsure", None),
    ("Nigel is lying when he says that Basil was in the study at eight.", "nigel", "unsure", None),
    ("A forged letter states that Basil was in the study at eight.", None, "unsure", None),
    ("Nobody says that Basil was in the study at eight.", None, "unsure", None),
    (
        "A crumpled note in the study says that Basil had a key to the dining room.",
        None,
        "stated",
        "key_basil_diningroomkey",
    ),
    ("At eight o'clock Nigel was in the study, reading.", None, "stated", "at_nigel_study_2"),
    ("Nigel had the letter opener or the service revolver at eight.", None, "unsure", None),
]
"""Sentences about the world of seed 0, who speaks them, and how they must read."""


def test_every_outcome_occurs_among_the_labelled_sentences() -> None:
    assert {outcome for _, _, outcome, _ in CASES} == {"stated", "narration", "unsure"}


@pytest.mark.parametrize(("sentence", "speaker", "outcome", "formula"), CASES)
def test_a_sentence_reads_as_labelled(
    setting: Setting, sentence: str, speaker: str | None, outcome: str, formula: str | None
) -> None:
    got = StatementReader(setting).read(sentence, speaker)
    assert got.outcome == outcome, got.note
    if outcome == "unsure":
        assert got.note
    if formula is not None:
        assert got.formula is not None
        assert _same(got.formula, parse_formula(formula)), format_formula(got.formula)


def test_a_closed_list_names_everyone_else_as_without_it(setting: Setting) -> None:
    got = StatementReader(setting).read("Only Nigel and Basil had a key to the dining room.")
    assert got.formula is not None
    text = format_formula(got.formula)
    assert "~key_irene_diningroomkey" in text and "key_basil_diningroomkey" in text


def test_bad_input_is_read_or_unsure_never_an_error(setting: Setting) -> None:
    reader = StatementReader(setting)
    for text in ("", "\x00\x07 \u200b", '{"text": 1}', "Нигель был в кабинете.", "x" * 10_000):
        assert reader.read(text).outcome in ("narration", "unsure")


@given(data=st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_hedge_anywhere_in_a_fact_clause_makes_it_unsure(
    setting: Setting, data: st.DataObject
) -> None:
    """A clause the reader reads as stating its fact no longer states anything once a word of
    doubt stands anywhere in it: "Nigel was in the study, perhaps, at eight" is a guess."""
    facts = _pool(generate_world(0, WORLD), random.Random(0))
    fact = data.draw(st.sampled_from(facts))
    template = data.draw(st.sampled_from(clause_templates(fact)))
    words = fill(template, fact, setting).split()
    at = data.draw(st.integers(0, len(words)))
    hedge = data.draw(st.sampled_from(["perhaps", "maybe", "probably", "possibly"]))
    text = " ".join([*words[:at], hedge, *words[at:]])
    got = StatementReader(setting).read(text[:1].upper() + text[1:] + ".")
    assert got.outcome == "unsure", (text, got.formula)
