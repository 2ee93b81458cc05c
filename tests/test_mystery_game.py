"""The interrogation game: its rules, the prover agents' play, and their pruning's soundness."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.runner import MemoryLog
from formalize.interrogation.questions import Related, Where
from formalize.interrogation.testimony import as_heard
from formalize.world import atoms
from formalize.world.facts import fact_formula, holds_in
from formalize.world.theory import background_theory
from games.core import SeatInfo, get_game
from games.core.loop import play
from games.core.play import play_game
from games.core.protocol import IllegalAction
from games.core.random_agent import RandomAgent
from games.mystery.agents import ProverAgent
from games.mystery.engine import Ask, MysteryState, Reply, Vote
from games.mystery.entry import ENTRY
from games.mystery.events import Answered, GameEnd, Voted
from provers.sat_prover import SatProver
from reasoning.formula import Not
from reasoning.prover import Axiom
from reasoning.verdict import Verdict


def new_game(seed: int, players: int = 5) -> MysteryState:
    seats = [SeatInfo(name=f"P{i}", agent="prover") for i in range(players)]
    return ENTRY.new_state(ENTRY.default_config(players), seed, seats)


def play_with(state: MysteryState, agents: list[Any]) -> None:
    seats = [SeatInfo(name=f"P{i}", agent=a.name) for i, a in enumerate(agents)]
    header = ENTRY.header(ENTRY.default_config(len(agents)), state.seed, seats)
    play(state, agents, header, max_decisions=ENTRY.info.max_decisions)


def test_prover_agents_win_every_game_on_five_seeds() -> None:
    entry = get_game("mystery")
    for seed in range(5):
        result = play_game(entry, ["prover"] * 5, seed, log=MemoryLog()).result
        assert result.reason == "civilians named every killer", seed


def test_civilians_never_lie_and_murderers_may() -> None:
    state = new_game(3)
    scripts = state.scripts
    for seat, person in enumerate(scripts.players):
        for slot in range(len(scripts.world.setting.slots)):
            for reply in state.replies(seat, Where(person, slot)):
                true = all(holds_in(f, scripts.world) for f in reply.facts)
                assert true or person in scripts.murderers
    murderer = next(iter(scripts.murderers))
    seat = scripts.players.index(murderer)
    crime = next(c for c in scripts.world.crimes if murderer in c.killers)
    lies = [
        r
        for r in state.replies(seat, Where(murderer, crime.slot))
        if not all(holds_in(f, scripts.world) for f in r.facts)
    ]
    assert lies


def test_a_split_vote_accuses_nobody_and_the_killers_escape() -> None:
    state = new_game(1)
    while state._phase != "vote":
        seat = state.current_players()[0]
        state.apply({seat: state.legal_actions(seat)[0]})
    n = len(state.scripts.players)
    for _ in state.scripts.world.crimes:
        state.apply({s: Vote((s + 1) % n) for s in range(n)})
    votes = [e for e in state.events() if isinstance(e, Voted)]
    assert all(v.accused is None for v in votes)
    end = state.events()[-1]
    assert isinstance(end, GameEnd) and end.winner == "murderers"
    assert state.result().reason == "every killer escaped"


def test_illegal_actions_are_refused_with_nothing_changed() -> None:
    state = new_game(2)
    before = len(state.events())
    with pytest.raises(IllegalAction):
        state.apply({0: Reply(())})
    with pytest.raises(IllegalAction):
        state.apply({1: state.legal_actions(0)[0]})
    assert len(state.events()) == before


def test_a_relation_question_gets_the_public_answer() -> None:
    state = new_game(4)
    for seat in range(len(state.scripts.players)):
        state.apply({seat: state.legal_actions(seat)[0]})
    setting = state.scripts.world.setting
    rel = setting.relations[0]
    state.apply({0: Ask(1, Related(rel.a, rel.b))})
    state.apply({1: Reply(())})
    answer = state.events()[-1]
    assert isinstance(answer, Answered) and answer.relation and rel.kind in answer.relation


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), random_seats=st.sets(st.integers(0, 4), max_size=2))
def test_prover_suspects_keep_the_killers_and_drop_only_on_entailed_grounds(
    seed: int, random_seats: set[int]
) -> None:
    state = new_game(seed)
    agents: list[Any] = [
        RandomAgent(seed + s) if s in random_seats else ProverAgent(s) for s in range(5)
    ]
    play_with(state, agents)
    scripts = state.scripts
    setting = scripts.world.setting
    prover = SatProver()
    theory = background_theory(setting)
    heard = [e for e in state.events() if isinstance(e, Answered)]
    for seat, agent in enumerate(agents):
        person = scripts.players[seat]
        if not isinstance(agent, ProverAgent) or person in scripts.murderers:
            continue
        known = [fact_formula(f, setting) for f in (*scripts.intro, *scripts.scripts[person])]
        previous = None
        for snap in agent.history:
            for index, (crime, suspects) in enumerate(
                zip(scripts.world.crimes, snap.suspects, strict=True), start=1
            ):
                assert set(crime.killers) - {person} <= set(suspects)
                if previous is None:
                    continue
                assert set(suspects) <= set(previous[index - 1])
                said = [
                    as_heard(setting, scripts.players[e.seat], state._heard[k].facts)
                    for k, e in enumerate(heard[: snap.heard])
                ]
                axioms = [*theory, *(Axiom(f"k{i}", f) for i, f in enumerate(known + said))]
                for dropped in set(previous[index - 1]) - set(suspects):
                    goal = Not(atoms.culprit(index, dropped))
                    assert prover.prove(axioms, goal).verdict is Verdict.VALID
            previous = snap.suspects
