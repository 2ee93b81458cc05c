"""Interrogation scripts: generated from a seed, accepted by a prover, lies and covers as stated."""

from __future__ import annotations

import pytest

from formalize.interrogation.acceptance import check_scripts, plan
from formalize.interrogation.script import Scripts
from formalize.interrogation.script_generate import ScriptConfig, draw_scripts, generate_scripts
from formalize.world.facts import Seen, holds_in
from provers.sat_prover import SatProver


@pytest.fixture(scope="module")
def thirty() -> list[Scripts]:
    prover = SatProver()
    return [generate_scripts(seed, prover) for seed in range(30)]


def test_thirty_generated_scripts_pass_the_acceptance_checks(thirty: list[Scripts]) -> None:
    prover = SatProver()
    assert all(check_scripts(s, prover) == [] for s in thirty)
    victims = {len(s.world.crimes) for s in thirty}
    assert victims == {1, 2}
    assert any(len(c.killers) == 2 for s in thirty for c in s.world.crimes)


def test_the_same_seed_gives_the_same_scripts() -> None:
    prover = SatProver()
    a, b = generate_scripts(7, prover), generate_scripts(7, prover)
    assert a.scripts == b.scripts and a.covers == b.covers and a.intro == b.intro


def test_true_scripts_hold_and_only_cover_stories_lie(thirty: list[Scripts]) -> None:
    for scripts in thirty:
        world = scripts.world
        assert all(holds_in(f, world) for facts in scripts.scripts.values() for f in facts)
        assert set(scripts.covers) == scripts.murderers
        for murderer in scripts.murderers:
            lies = scripts.lies(murderer)
            assert lies, "a cover story that tells no lie covers nothing"
            crimes = [c for c in world.crimes if murderer in c.killers]
            story = scripts.covers[murderer]
            assert not any(
                isinstance(f, Seen)
                and f.present
                and f.person == murderer
                and (f.place, f.slot) == (c.place, c.slot)
                for f in story
                for c in crimes
            )


def test_secrets_are_own_and_objectives_carry_10_5_2(thirty: list[Scripts]) -> None:
    scripts = thirty[0]
    for person in scripts.players:
        assert all(getattr(f, "person", None) == person for f in scripts.secrets[person])
        assert {o.points for o in scripts.objectives[person]} <= {10, 5, 2}
        assert any(o.points == 10 for o in scripts.objectives[person])


def test_a_broken_draw_is_named_by_the_checks() -> None:
    prover = SatProver()
    for seed in range(40):
        scripts = draw_scripts(seed, ScriptConfig())
        if scripts is not None and check_scripts(scripts, prover):
            break
    else:
        pytest.fail("every draw passed, so no check can be seen failing")
    assert plan(scripts)
    failures = check_scripts(scripts, prover)
    assert all(isinstance(f, str) and f for f in failures)
