"""Objectives scored at the end of an interrogation game from its facts: a civilian's ballot, the
vote on a murderer, the weapon its knowledge entails, a relation made public."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from typer.testing import CliRunner

from benchmarks.console.cli import app
from formalize.world import atoms
from games.core.play import play_game
from games.mystery.audit import audit_game
from games.mystery.engine import MysteryState
from games.mystery.entry import ENTRY
from games.mystery.events import Answered, Asked, Ballot, QuestionRecord, Voted
from games.mystery.exchanges import exchanges
from games.mystery.knowledge import Knowledge
from games.mystery.objectives import points_met, score_objectives
from provers.sat_session import SatSession


@cache
def played(seed: int) -> MysteryState:
    """The prover agents' game of ``seed`` (kept: tests only read it)."""
    state = play_game(ENTRY, ("prover",) * 5, seed).state
    assert isinstance(state, MysteryState)
    return state


def test_votes_decide_the_find_and_escape_objectives() -> None:
    state = played(3)
    scripts, events = state.scripts, list(state.events())
    scores = score_objectives(scripts, events, exchanges(events))
    crime = scripts.world.crimes[0]
    vote = next(e for e in events if isinstance(e, Voted) and e.crime == 1)
    for seat, person in enumerate(scripts.players):
        (find,) = [s for s in scores[seat] if s.objective.kind == "objective"]
        ballot = next(b.target for b in vote.ballots if b.voter == seat)
        if person in scripts.murderers:
            assert find.met == (vote.accused != seat)
        else:
            assert find.met == (scripts.players[ballot] in crime.killers)
    civilian = next(k for k, p in enumerate(scripts.players) if p not in scripts.murderers)
    innocent = next(
        k
        for k, p in enumerate(scripts.players)
        if p not in crime.killers and k != civilian and p != crime.victim
    )
    killer = scripts.players.index(crime.killers[0])
    ballots = tuple(
        Ballot(voter=b.voter, target=innocent if b.voter == civilian else b.target)
        for b in vote.ballots
    )
    flipped = [
        e.model_copy(update={"ballots": ballots, "accused": killer}) if e is vote else e
        for e in events
    ]
    again = score_objectives(scripts, flipped, exchanges(flipped))
    assert next(s for s in again[civilian] if s.objective.kind == "objective").met is False
    escaped = [s for s in again[killer] if s.objective.kind == "objective"]
    assert escaped and all(s.met is False for s in escaped)


def test_the_weapon_objective_is_what_the_seat_can_entail() -> None:
    seen: set[bool] = set()
    for seed in (4,):
        state = played(seed)
        scripts, events = state.scripts, list(state.events())
        said = exchanges(events)
        scores = score_objectives(scripts, events, said)
        for seat, person in enumerate(scripts.players):
            for score in scores[seat]:
                if score.objective.kind != "reasoning" or score.objective.crime is None:
                    continue
                index = score.objective.crime
                weapon = scripts.world.crimes[index - 1].weapon
                known = [*scripts.intro, *scripts.scripts[person]]
                setting = scripts.world.setting
                with Knowledge(setting, scripts.players, person, known, SatSession) as know:
                    for e in said:
                        know.hear(scripts.players[e.answerer], e.facts)
                    assert score.met == know.entails(atoms.weapon(index, weapon))
                seen.add(bool(score.met))
    assert seen == {True, False}, "both outcomes should occur in the sample"


def test_a_relation_made_public_meets_the_relation_objective() -> None:
    state = played(3)
    scripts, events = state.scripts, list(state.events())
    seat, goal = next(
        (k, o)
        for k, p in enumerate(scripts.players)
        for o in scripts.objectives[p]
        if o.kind == "relation" and o.about is not None
    )
    assert goal.about is not None
    before = score_objectives(scripts, events, exchanges(events))
    assert next(s for s in before[seat] if s.objective == goal).met is False
    asker = 1 if seat == 0 else 0
    first_vote = next(k for k, e in enumerate(events) if isinstance(e, Voted))
    extra = [
        Asked(
            round=3,
            seat=asker,
            answerer=seat,
            question=QuestionRecord(kind="related", a=scripts.players[seat], b=goal.about),
            text="How are they related?",
        ),
        Answered(round=3, seat=seat, facts=(), declined=False, lie=False, relation="cousin"),
    ]
    told = [*events[:first_vote], *extra, *events[first_vote:]]
    after = score_objectives(scripts, told, exchanges(told))
    assert next(s for s in after[seat] if s.objective == goal).met is True


def test_the_audit_record_and_the_view_carry_the_objectives() -> None:
    state = played(3)
    audit = audit_game(state.scripts, state.events(), state.config.rounds)
    assert set(audit.objectives) == set(range(len(state.scripts.players)))
    view = state.observation(0)
    assert view.objectives == state.scripts.objectives[state.scripts.players[0]]
    met, possible = points_met(audit.objectives[0])
    assert 0 <= met <= possible and possible > 0


def test_the_audit_command_reports_objective_points(tmp_path: Path) -> None:
    out = tmp_path
    runner = CliRunner()
    assert runner.invoke(app, ["play", "mystery", "--seed", "3", "--out", str(out)]).exit_code == 0
    (log,) = out.glob("*.jsonl")
    record = json.loads(runner.invoke(app, ["audit", "mystery", str(log), "--json"]).output)
    state = played(3)
    audit = audit_game(state.scripts, state.events(), state.config.rounds)
    names = [f"P{k}" for k in range(5)]
    figures = record["figures"]
    assert figures["objective_points"] == {
        names[k]: list(points_met(s)) for k, s in audit.objectives.items()
    }
    assert all("met" in o for goals in figures["objectives"].values() for o in goals)
