"""Generated cases read as stories and stay faithful to their facts: every sentence read back by
the template parser states exactly the facts the case file maps to it, each true of the hidden
world, and narration states none; no sentence repeats, no narration frame comes back more than
twice, cards reach their length, and no stumble pattern is found (each of which is found in a
sample made to have it)."""

from __future__ import annotations

import re

import pytest

from formalize.world import facts as F
from formalize.world import vocabulary
from formalize.world.clauses import (
    CLAUSES,
    FIRST_PERSON,
    fill,
    first_person_templates,
    parse_clause,
)
from formalize.world.facts import Fact, Seen, fact_formula, holds_in
from formalize.world.setting import Relation
from formalize.world.stations import fitted_role
from formalize.world.world import World
from games.detective import Case, dump_case, parse_case
from games.detective.generator import generate_case_and_world, is_negative
from games.detective.narrative import parse_sentence, sentences
from games.detective.prose_people import OFFICIAL_LINES, ROLE_LINES
from games.detective.prose_rooms import ROOMS
from games.detective.stumbles import (
    PATTERNS,
    narration_templates,
    nested_evidence,
    self_quoted,
    stumbles,
)
from games.detective.text_stats import text_stats
from games.detective.voices import OUTSIDERS
from provers import SatProver, SatSession
from reasoning.syntax import format_formula

N_CASES = 30


@pytest.fixture(scope="module")
def stories() -> list[tuple[Case, World]]:
    """Generated cases with the worlds they were drawn from."""
    return [generate_case_and_world(seed, SatProver(), SatSession) for seed in range(N_CASES)]


def _formulas(facts: list[Fact], case: Case) -> list[str]:
    assert case.setting is not None
    return [format_formula(fact_formula(f, case.setting)) for f in facts]


def _check_faithful(case: Case, world: World) -> None:
    setting = world.setting
    for loc in case.locations:
        assert [s.text for s in loc.sentences] == sentences(loc.text)
        for sentence in loc.sentences:
            parsed = parse_sentence(sentence.text, setting)
            assert _formulas(parsed, case) == sentence.facts, sentence.text
            assert all(holds_in(f, world) for f in parsed), sentence.text
    mapped = {s.text: s.facts for s in case.intro_sentences}
    for text in sentences(case.introduction):
        parsed = parse_sentence(text, setting)
        assert _formulas(parsed, case) == mapped.get(text, []), text
        assert all(holds_in(f, world) for f in parsed), text


@pytest.mark.slow
def test_every_sentence_states_exactly_its_true_facts(stories: list[tuple[Case, World]]) -> None:
    for case, world in stories:
        _check_faithful(case, world)
        assert parse_case(dump_case(case)) == case


@pytest.mark.slow
def test_cases_read_as_stories(stories: list[tuple[Case, World]]) -> None:
    negatives, facts, parts = 0, 0, []
    for case, world in stories:
        stats = text_stats(case)
        assert stats.repeated_sentences == 0
        assert stats.max_frame_uses <= 2
        assert stats.stumbles == {p: 0 for p in PATTERNS}, stumbles(case)
        assert stats.location_words >= 120
        assert min(stats.locations_needed) >= 2
        crime = world.crimes[0]
        body = Seen(crime.victim, crime.place, len(world.setting.slots) - 1)
        assert case.intro_facts[0] == _formulas([body], case)[0]
        assert sentences(case.introduction)[0] == case.intro_sentences[0].text
        assert "a door leads to" in case.house_plan and "a door leads" not in case.introduction
        scene = next(loc for loc in case.locations if loc.title == f"The {body_room(world)}")
        told = [f for loc in case.locations for f in loc.facts]
        assert not any(map(physical, told)) or any(map(physical, scene.facts))
        assert "scene" not in {s.name for q in case.questions for s in q.slots}
        negatives += round(stats.negative_fact_share * 1000)
        facts += 1000
        parts += [len(q.slots) for q in case.questions]
    assert negatives / facts < 0.25
    assert sum(n >= 2 for n in parts) > len(parts) / 2
    assert len({q.text for case, _ in stories for q in case.questions}) > 6


def physical(formula: str) -> bool:
    """Whether the fact (formula text) is one the body shows: how or when, or not with what."""
    return any(k in formula for k in ("c1_method_", "c1_weapon_", "c1_time_"))


def body_room(world: World) -> str:
    """The name of the room where the victim's body lies."""
    return world.setting.place(world.crimes[0].place).name


def test_every_clause_template_parses_back_to_its_fact() -> None:
    """Each template of each kind, filled from a world, parses to exactly its fact."""
    _, world = generate_case_and_world(3, SatProver(), SatSession)
    s = world.setting
    crime = world.crimes[0]
    people = sorted(world.positions)
    samples: list[Fact] = [
        F.Seen(people[0], world.positions[people[0]][1], 1),
        F.Seen(people[0], s.places[0].id, 2, False),
        F.Met(people[0], people[1], 0, True),
        F.Met(people[0], people[1], 0, False),
        F.Held(people[1], s.weapons[0].id, 2),
        F.Held(people[1], s.weapons[0].id, 2, False),
        F.HasMotive(people[0], s.motives[0].id),
        F.HasMotive(people[0], s.motives[1].id, False),
        F.MotiveHolders(s.motives[0].id, tuple(people[:2])),
        F.TimeAmong(1, (0, 2, 3)),
        F.SceneAmong(1, tuple(sorted(p.id for p in s.places[:3]))),
        F.MethodWas(1, crime.method),
        F.WeaponNot(1, s.weapons[0].id),
        F.MotiveAmong(1, tuple(sorted(m.id for m in s.motives[:3]))),
    ]
    if s.keys:
        samples.append(F.KeyHolders(s.keys[0].id, tuple(people[:2])))
    seen_kinds = set()
    for fact in samples:
        for kind, templates in CLAUSES.items():
            for template in templates:
                try:
                    text = fill(template, fact, s)
                except KeyError:
                    continue
                if kind == "body" or list(parse_clause(text, s)) != [fact]:
                    continue
                seen_kinds.add(kind)
    assert seen_kinds == set(CLAUSES) - {"body"}
    spoken = set()
    for fact in samples:
        for speaker in people:
            for template in first_person_templates(fact, speaker):
                text = fill(template, fact, s, short=True)
                assert list(parse_clause(text, s, speaker)) == [fact], text
                assert list(parse_clause(text, s)) == [], text
                spoken.add(template)
    assert spoken == {t for group in FIRST_PERSON.values() for _, t in group}


def test_a_sentence_changed_to_an_untrue_fact_is_caught() -> None:
    """The checker can fail: moving a sighting to another hour is parsed as a fact the world
    does not have."""
    case, world = generate_case_and_world(5, SatProver(), SatSession)
    sentence = next(
        s for loc in case.locations for s in loc.sentences for f in s.facts if "at_" in f
    )
    parsed = parse_sentence(sentence.text, world.setting)
    assert len(parsed) == 1 and isinstance(parsed[0], Seen) and holds_in(parsed[0], world)
    fact = parsed[0]
    other = next(lab for t, lab in enumerate(world.setting.slots) if t != fact.slot)
    changed = sentence.text.replace(world.setting.slots[fact.slot], other)
    wrong = parse_sentence(changed, world.setting)
    assert len(wrong) == 1 and not holds_in(wrong[0], world)
    assert (
        parse_sentence("The library feels colder than the rest of the house.", world.setting) == []
    )


def test_negative_facts_are_recognised() -> None:
    assert is_negative(F.WeaponNot(1, "x")) and is_negative(F.Held("a", "b", 0, False))
    assert not is_negative(F.HasMotive("a", "m")) and not is_negative(Seen("a", "b", 0))


def test_each_stumble_pattern_is_found_where_it_occurs() -> None:
    """The stumbles the old prose had are each found, in a case made to have them; a generated
    case has none."""
    case, world = generate_case_and_world(5, SatProver(), SatSession)
    s = world.setting
    gardener, victim = s.suspects[0], s.person(s.crimes[0].victim)
    first = gardener.name.split()[0]
    place = s.places[0].name
    bad = s.model_copy(
        update={
            "people": [
                p.model_copy(update={"role": "the gardener"}) if p == gardener else p
                for p in s.people
            ],
            "relations": [Relation(a=gardener.id, b=victim.id, kind="employer")],
        }
    )
    told = [
        f"{gardener.name} says that {first} was in the {place} at {s.slots[0]}.",
        f"The household diary records that the wounds show that {victim.name} was shot.",
    ]
    loc = case.locations[0]
    loose = f"You notice that the {s.weapons[0].name} is missing."
    broken = case.model_copy(
        update={
            "setting": bad,
            "solution": case.solution + " " + " ".join(told),
            "locations": [
                loc.model_copy(update={"text": f"{loc.text} {loose}"}),
                *case.locations[1:],
            ],
        }
    )
    found = {x.pattern for x in stumbles(broken)}
    assert found == set(PATTERNS)
    assert stumbles(case) == []
    assert self_quoted(f"\u201cI was in the {place},\u201d says {first}.", s) is False
    assert nested_evidence(f"A note records that {victim.name} was shot.") is False


def test_the_prose_pools_cover_the_word_pools_and_name_nothing_of_the_evening() -> None:
    """Every room, role and outsider has its own narration, and no narration template names an
    hour, a weapon, a motive, or a room but its own (what a loose sentence would give away)."""
    assert set(ROOMS) == set(vocabulary.PLACES)
    roles = {fitted_role(r, n) for r in vocabulary.ROLES for n in ("Ada Orme", "Basil Orme")}
    assert roles == set(ROLE_LINES)
    assert set(OUTSIDERS) == set(OFFICIAL_LINES)
    evening = [
        *vocabulary.HOURS,
        "o'clock",
        *(w for w, _ in vocabulary.WEAPONS),
        *(m for _, m in vocabulary.MOTIVES),
    ]
    own = {t: name for name, room in ROOMS.items() for t in room.sights}
    for template in narration_templates():
        named = [w for w in (*evening, *vocabulary.PLACES) if re.search(rf"\b{w}\b", template)]
        assert named in ([], [own.get(template)]), (template, named)
