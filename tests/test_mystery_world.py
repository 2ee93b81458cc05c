"""The mystery world model: generated worlds satisfy their theory, facts mean what they say."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from formalize.world import (
    HasMotive,
    Held,
    KeyHolders,
    Met,
    MethodWas,
    MotiveAmong,
    MotiveHolders,
    SceneAmong,
    Seen,
    TimeAmong,
    WeaponNot,
    World,
    WorldConfig,
    atoms,
    background_theory,
    fact_formula,
    generate_world,
    holds_in,
    render_fact,
)
from formalize.world.facts import Fact
from provers import SatSession


def _session(world: World) -> SatSession:
    session = SatSession()
    for axiom in background_theory(world.setting):
        session.add(axiom.formula)
    return session


@pytest.mark.parametrize(
    "config",
    [WorldConfig(), WorldConfig(killers=(2, 1, 1)), WorldConfig(killers=(1, 1, 1, 2), slots=6)],
    ids=["one-crime", "three-crimes", "four-victims"],
)
def test_generated_worlds_satisfy_their_theory(config: WorldConfig) -> None:
    for seed in range(5):
        world = generate_world(seed, config)
        assert len(world.crimes) == len(config.killers)
        for crime, spec in zip(world.crimes, world.setting.crimes, strict=True):
            assert len(crime.killers) == spec.killers
            assert crime.victim not in crime.killers
        with _session(world) as session:
            assert session.satisfiable(world.literals())


def test_the_same_seed_gives_the_same_world() -> None:
    assert generate_world(11) == generate_world(11)
    assert generate_world(11).positions != generate_world(12).positions


def test_theory_puts_the_killer_at_the_scene_at_the_time() -> None:
    world = generate_world(3)
    crime = world.crimes[0]
    killer = crime.killers[0]
    elsewhere = next(p.id for p in world.setting.places if p.id != crime.place)
    facts = [atoms.culprit(1, killer), atoms.scene(1, crime.place), atoms.time(1, crime.slot)]
    with _session(world) as session:
        assert session.satisfiable([*facts, atoms.at(killer, crime.place, crime.slot)])
        assert not session.satisfiable([*facts, atoms.at(killer, elsewhere, crime.slot)])
        assert not session.satisfiable([*facts, atoms.culprit(1, crime.victim)])


def _facts(world: World, rng: random.Random) -> list[Fact]:
    s = world.setting
    person = s.suspects[0].id
    place = world.positions[person][1]
    other = next(p.id for p in s.places if p.id != place)
    crime = world.crimes[0]
    weapon = s.weapons[0].id
    key = s.keys[0].id
    motive = s.motives[0].id
    holders = tuple(sorted(world.key_holders[key]))
    having = tuple(sorted(p for p, ms in world.motives_of.items() if motive in ms))
    return [
        Seen(person, place, 1),
        Seen(person, other, 1),
        Seen(person, other, 1, False),
        Met(person, s.suspects[1].id, 1),
        Met(person, s.suspects[1].id, 1, False),
        Held(person, weapon, 0),
        Held(person, weapon, 0, False),
        KeyHolders(key, holders),
        KeyHolders(key, (s.suspects[-1].id,)),
        HasMotive(person, motive),
        HasMotive(person, motive, False),
        MotiveHolders(motive, having),
        TimeAmong(1, (crime.slot,)),
        TimeAmong(1, tuple(t for t in range(len(s.slots)) if t != crime.slot)),
        SceneAmong(1, (crime.place, other)),
        MethodWas(1, crime.method),
        MethodWas(1, next(m.id for m in s.methods if m.id != crime.method)),
        WeaponNot(1, crime.weapon),
        WeaponNot(1, next(w.id for w in s.weapons if w.id != crime.weapon)),
        MotiveAmong(1, (crime.motive,)),
        MotiveAmong(1, tuple(m.id for m in s.motives if m.id != crime.motive)),
    ]


def test_a_fact_formula_holds_in_the_world_exactly_when_the_fact_does() -> None:
    world = generate_world(5)
    rng = random.Random(0)
    facts = _facts(world, rng)
    assert {holds_in(f, world) for f in facts} == {True, False}
    with SatSession() as check:
        for lit in world.literals():
            check.add(lit)
        for fact in facts:
            formula = fact_formula(fact, world.setting)
            assert check.entails(formula) is holds_in(fact, world), fact
            sentence = render_fact(fact, world.setting, rng)
            assert sentence[0].isupper() and sentence.endswith(".")


def test_a_setting_with_a_dangling_reference_is_rejected() -> None:
    setting = generate_world(1).setting
    data = setting.model_dump()
    data["passages"].append(("hall", "nowhere"))
    with pytest.raises(ValidationError, match="passages"):
        type(setting).model_validate(data)
    data = setting.model_dump()
    data["crimes"][0]["victim"] = "nobody"
    with pytest.raises(ValidationError, match="unknown victim"):
        type(setting).model_validate(data)


def test_world_config_rejects_impossible_shapes() -> None:
    with pytest.raises(ValueError, match="killers"):
        WorldConfig(killers=(3,))
    with pytest.raises(ValueError, match="places"):
        WorldConfig(places=99)
