"""Roles fit names and relations fit stations in every generated world; the check that says so
finds each kind of misfit in a setting made to have it."""

from __future__ import annotations

from formalize.world.generate import generate_world
from formalize.world.setting import Relation
from formalize.world.stations import (
    FEMININE,
    MASCULINE,
    RELATIONS_TO_GENTRY,
    STATIONS,
    fitted_relation,
    fitted_role,
    station_problems,
)
from formalize.world.vocabulary import (
    FIRST_NAMES,
    RELATION_WORDS,
    RELATIONS,
    ROLE_WORDS,
    ROLES,
    VICTIM_ROLES,
)


def test_every_name_and_role_of_the_pools_is_known() -> None:
    """Each pool name has a sex, each role in either form a station, and every role and
    relation a story can use has its entry among the words answers may use for it."""
    assert set(FIRST_NAMES) == FEMININE | MASCULINE and not FEMININE & MASCULINE
    for role in (*ROLES, *VICTIM_ROLES):
        for name in ("Ada Orme", "Basil Orme"):
            assert fitted_role(role, name) in STATIONS
    assert set(STATIONS) == set(ROLE_WORDS)
    kinds = {k for allowed in RELATIONS_TO_GENTRY.values() for k in allowed}
    assert kinds | {"former fiancee"} <= set(RELATION_WORDS)


def test_generated_worlds_have_no_misfits() -> None:
    kinds = set()
    for seed in range(60):
        setting = generate_world(seed).setting
        assert station_problems(setting) == [], seed
        kinds |= {r.kind for r in setting.relations}
    assert len(kinds) >= 6


def test_a_blind_draw_is_fitted_without_drawing_again() -> None:
    assert fitted_relation("employer", 0, "the gardener", "Basil Orme") == "servant"
    assert fitted_relation("cousin", 1, "a visiting cousin", "Ada Orme") == "cousin"
    assert fitted_relation("former fiance", 6, "an old school friend", "Ada Orme") == (
        "former fiancee"
    )
    for index, drawn in enumerate(RELATIONS):
        for station, allowed in RELATIONS_TO_GENTRY.items():
            role = next(r for r, s in STATIONS.items() if s == station)
            kind = fitted_relation(drawn, index, role, "Basil Orme")
            assert kind in allowed


def test_each_misfit_is_named() -> None:
    setting = generate_world(4).setting
    victim = setting.person(setting.crimes[0].victim)
    staff, other = setting.suspects[0], setting.suspects[1]
    woman = "Ada"
    people = [
        p.model_copy(update={"role": "the gardener"})
        if p == staff
        else p.model_copy(update={"role": "a wealthy widow", "name": f"{woman} Orme"})
        if p == victim
        else p.model_copy(update={"role": "the cook"})
        if p == other
        else p
        for p in setting.people
    ]
    bad = setting.model_copy(
        update={
            "people": people,
            "relations": [
                Relation(a=staff.id, b=victim.id, kind="employer"),
                Relation(a=staff.id, b=other.id, kind="servant"),
            ],
        }
    )
    assert station_problems(bad) == [
        f"{staff.name}, the gardener, is {woman} Orme's employer",
        f"{staff.name} is {other.name}'s servant, but {other.name} is the cook",
    ]
    named = bad.model_copy(
        update={
            "people": [
                p.model_copy(update={"name": "Basil Orme"}) if p.role == "a wealthy widow" else p
                for p in people
            ],
            "relations": [],
        }
    )
    assert station_problems(named) == ["Basil Orme is called 'a wealthy widow'"]
