"""Generated detective cases keep the generator's contract, and the ideal player reaches the best
achievable score on them."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formalize.world import background_theory
from formalize.world.clauses import fill
from games.detective import (
    Case,
    CaseKnobs,
    ProverPlayer,
    best_achievable,
    case_knowledge,
    dump_case,
    generate_case,
    parse_case,
    score_case,
    verify_case,
)
from games.detective.check import check_case
from games.detective.verify import answer_formula, slot_formula
from games.detective.writer import Card, Line, TemplateWriter, plain_clauses, tidy
from provers import SatProver, SatSession, Z3Prover
from reasoning.formula import conj
from reasoning.prover import Axiom
from reasoning.syntax import parse_formula
from reasoning.verdict import Verdict

N_CASES = 50


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    """Fifty generated cases; ``generate_case`` has verified each with the SAT prover."""
    return [generate_case(seed, SatProver(), SatSession) for seed in range(N_CASES)]


def _check_with_session(case: Case) -> None:
    knobs = case.knobs or CaseKnobs()
    ids = [loc.id for loc in case.locations]
    everyone = set(range(len(ids)))
    assert 2 <= len(case.questions) <= 5
    assert len(case.locations) == knobs.locations
    assert sum(loc.red_herring for loc in case.locations) >= knobs.red_herrings
    assert len(case.introduction.split()) >= 400
    with case_knowledge(case, SatSession) as kb:
        assert kb.consistent(everyone)
        for q in case.questions:
            goal = answer_formula(q)
            assert kb.entails(everyone, goal)
            for slot in q.slots:
                for choice in slot.choices:
                    if choice.value != slot.answer:
                        assert not kb.consistent(everyone, slot_formula(slot, choice.value))
            assert not kb.entails(set(), goal)
            assert not any(kb.entails({i}, goal) for i in everyone)
            assert q.unlock_sets and all(len(u) >= 2 for u in q.unlock_sets)
            for unlock in q.unlock_sets:
                chosen = {ids.index(lid) for lid in unlock}
                assert kb.entails(chosen, goal)
                assert not any(kb.entails(chosen - {i}, goal) for i in chosen)
            assert (q.inference_steps or 0) >= knobs.inference_steps
        herrings = {i for i, loc in enumerate(case.locations) if loc.red_herring}
        for q in case.questions:
            assert not any(set(map(ids.index, u)) & herrings for u in q.unlock_sets)


@pytest.mark.slow
def test_fifty_generated_cases_pass_the_checks(cases: list[Case]) -> None:
    assert len({c.introduction for c in cases}) == N_CASES
    for case in cases:
        _check_with_session(case)
        assert parse_case(dump_case(case)) == case


@pytest.mark.slow
def test_the_prover_player_reaches_the_best_achievable_score(cases: list[Case]) -> None:
    for case in cases:
        best = best_achievable(case)
        assert best.score.final == 3
        with ProverPlayer(case, SatSession) as player:
            read: list[str] = []
            stages = [player.answer(read)]
            while len(read) < len(case.locations):
                read.append(player.choose(read))
                stages.append(player.answer(read))
        assert sorted(read) == sorted(loc.id for loc in case.locations)
        assert score_case(case, stages) == best.score, case.seed


def test_verify_case_names_what_a_broken_case_breaks() -> None:
    knobs = CaseKnobs(locations=8, red_herrings=1, distractors=4)
    case = generate_case(4, SatProver(), SatSession, knobs)
    prover = SatProver()
    assert verify_case(case, prover) == []
    q = case.questions[0]
    blank = [loc.model_copy(update={"facts": []}) for loc in case.locations]
    problems = verify_case(case.model_copy(update={"locations": blank}), prover)
    assert f"{q.id}: all locations do not settle the answer uniquely" in problems
    assert any(p.startswith(f"{q.id}: unlock set") for p in problems)
    told = case.intro_facts + [f for loc in case.locations for f in loc.facts]
    problems = verify_case(case.model_copy(update={"intro_facts": told}), prover)
    assert problems == [
        f"{x.id}: the introduction alone may settle the answer" for x in case.questions
    ]
    herring = next(loc.id for loc in case.locations if loc.red_herring)
    wrong = [q.model_copy(update={"unlock_sets": [[herring]]}), *case.questions[1:]]
    problems = verify_case(case.model_copy(update={"questions": wrong}), prover)
    assert problems == [
        f"{q.id}: an answer must need at least two locations",
        f"{q.id}: unlock set {[herring]} does not unlock the answer",
    ]


def test_the_same_seed_gives_the_same_case() -> None:
    knobs = CaseKnobs(questions=4, locations=12, red_herrings=2)
    one = generate_case(5, SatProver(), SatSession, knobs)
    assert one == generate_case(5, SatProver(), SatSession, knobs)
    assert [q.id for q in one.questions] == ["who_how", "why_when", "how_when", "whole"]
    assert len(one.locations) == 12


class PlainWriter(TemplateWriter):
    """A writer of bare cards: each fact in one plain sentence, nothing else."""

    def card(self, card: Card) -> list[Line]:
        told = [
            Line(tidy(fill(plain_clauses(f)[0], f, self.setting)) + ".", (f,)) for f in card.facts
        ]
        return told or [Line("There is nothing of use here.")]


def test_the_prose_is_written_on_top_of_facts_fixed_by_the_seed() -> None:
    """Another length of prose, or another writer, leaves every fact, location and answer of
    the case as it was; the other writer's case passes the check too."""
    knobs = CaseKnobs(questions=2, locations=8, red_herrings=1, distractors=4)
    one = generate_case(3, SatProver(), SatSession, knobs)
    shorter = generate_case(
        3, SatProver(), SatSession, knobs.model_copy(update={"words_per_card": 60})
    )
    plain = generate_case(3, SatProver(), SatSession, knobs, writer=PlainWriter)
    for other in (shorter, plain):
        assert other.intro_facts == one.intro_facts
        assert [(x.id, x.facts, x.red_herring) for x in other.locations] == [
            (x.id, x.facts, x.red_herring) for x in one.locations
        ]
        assert [q.slots for q in other.questions] == [q.slots for q in one.questions]
        assert [x.text for x in other.locations] != [x.text for x in one.locations]
    assert check_case(plain, SatProver(), SatSession)[1] == []


@settings(
    max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(
    seed=st.integers(min_value=0, max_value=10**6),
    questions=st.integers(2, 5),
    long_chains=st.booleans(),
)
def test_reference_answers_follow_from_all_cards_and_not_from_the_introduction(
    seed: int, questions: int, long_chains: bool
) -> None:
    knobs = CaseKnobs(questions=questions, long_chains=long_chains)
    case = generate_case(seed, SatProver(), SatSession, knobs)
    assert case.setting is not None
    theory = background_theory(case.setting)
    intro = [Axiom(f"intro_{i}", parse_formula(f)) for i, f in enumerate(case.intro_facts)]
    cards = [
        Axiom(f"{loc.id}_{i}", parse_formula(f))
        for loc in case.locations
        for i, f in enumerate(loc.facts)
    ]
    z3 = Z3Prover()
    for q in case.questions:
        goal = conj(slot_formula(slot, slot.answer) for slot in q.slots)
        assert z3.prove([*theory, *intro, *cards], goal).verdict is Verdict.VALID
        assert z3.prove([*theory, *intro], goal).verdict is Verdict.INVALID
