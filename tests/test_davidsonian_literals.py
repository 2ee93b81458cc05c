"""Formulas about the described thing as literals: equivalent writings give one canonical core,
and what is no conjunction of literals is refused."""

from __future__ import annotations

import pytest

from formalize.davidsonian.literals import (
    Claim,
    about_only,
    conjunction,
    literals_of,
)
from reasoning.formula import TOP
from reasoning.syntax import format_formula, parse_formula


def claims(text: str) -> tuple[Claim, ...]:
    found = literals_of(parse_formula(text))
    assert found is not None, text
    return found


def test_equivalent_writings_of_one_literal_share_a_core() -> None:
    writings = [
        "exists e y. Have(e) & Agent(e, item) & Seed(y) & Patient(e, y)",
        "exists y e. Seed(y) & Patient(e, y) & Agent(e, item) & Have(e)",
        "exists e. exists y. Have(e) & (Agent(e, item) & Patient(e, y)) & Seed(y)",
        "exists x z. Have(x) & Agent(x, item) & Patient(x, z) & Seed(z) & Seed(z)",
    ]
    cores = {claims(w) for w in writings}
    assert len(cores) == 1
    (only,) = cores.pop()
    assert only.holds
    assert format_formula(only.core) == (
        "exists e1 y1. Agent(e1, item) & Have(e1) & Patient(e1, y1) & Seed(y1)"
    )


def test_a_denying_universal_is_the_negated_existential() -> None:
    denied = claims("forall e y. Have(e) & Agent(e, item) & Patient(e, y) -> ~Seed(y)")
    negated = claims("~(exists e y. Have(e) & Agent(e, item) & Seed(y) & Patient(e, y))")
    asserted = claims("exists e y. Have(e) & Agent(e, item) & Seed(y) & Patient(e, y)")
    assert denied == negated
    assert [c.holds for c in denied] == [False] and denied[0].core == asserted[0].core
    touched = claims("forall e. Touch(e) -> ~Patient(e, item)")
    assert touched == (Claim(claims("exists e. Touch(e) & Patient(e, item)")[0].core, False),)
    assert claims("~~Tea(item)") == claims("Tea(item)")


def test_a_conjunction_splits_into_its_literals_and_parts_that_share_no_variable() -> None:
    split = claims("Citrus(item) & Fruit(item) & ~Flavoured(item)")
    assert [(format_formula(c.core), c.holds) for c in split] == [
        ("Citrus(item)", True),
        ("Flavoured(item)", False),
        ("Fruit(item)", True),
    ]
    merged = claims(
        "exists e y e2 z. Tea(item) & Brew(e) & Patient(e, item) & HotWater(y) & Location(e, y)"
        " & Name(e2) & Patient(e2, item) & Island(z) & Source(e2, z)"
    )
    assert len(merged) == 3 and all(c.holds for c in merged)
    assert conjunction(()) == TOP and claims("true") == ()


@pytest.mark.parametrize(
    "text",
    [
        "Tea(item) | Flavoured(item)",
        "forall e y. Have(e) & Agent(e, item) & Patient(e, y) -> Seed(y)",
        "~(Citrus(item) & Fruit(item))",
        "exists e. Have(e) & Agent(e, item) & ~Seed(y)",
        "Tea(item) -> Flavoured(item)",
    ],
)
def test_what_is_no_conjunction_of_literals_is_refused(text: str) -> None:
    assert literals_of(parse_formula(text)) is None


def test_a_literal_is_about_the_thing_only_when_it_names_it_alone() -> None:
    assert about_only(claims("Tea(item) & exists e. Touch(e) & Patient(e, item)"), "item")
    assert not about_only(claims("Island(ceylon)"), "item")
    assert not about_only(claims("exists y. Island(y)"), "item")
    assert not about_only(
        claims("exists e. Name(e) & Patient(e, item) & Source(e, ceylon)"), "item"
    )
