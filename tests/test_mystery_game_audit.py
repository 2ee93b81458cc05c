"""The exact audit: stated suspects graded entailed / guess / wrong / missed, lies found."""

from __future__ import annotations

from itertools import pairwise

from games.core.play import play_game
from games.mystery.audit import audit_game
from games.mystery.engine import MysteryState
from games.mystery.entry import ENTRY
from games.mystery.events import Asked
from reasoning.claims import ClaimStatus, Correctness


def played(seed: int) -> MysteryState:
    state = play_game(ENTRY, ("prover",) * 5, seed).state
    assert isinstance(state, MysteryState)
    return state


def test_stated_suspects_are_graded_against_what_the_asker_knew() -> None:
    state = played(1)
    scripts = state.scripts
    events = list(state.events())
    last = max(
        k
        for k, e in enumerate(events)
        if isinstance(e, Asked) and e.stated and scripts.players[e.seat] not in scripts.murderers
    )
    ask = events[last]
    assert isinstance(ask, Asked)
    me = scripts.players[ask.seat]
    crime = scripts.world.crimes[0]
    others = [p for p in scripts.players if p not in (me, crime.victim)]
    honest = audit_game(scripts, events, state.config.rounds)
    assert set(honest.pruning) <= {"entailed"}
    killer = crime.killers[0]
    innocents = [p for p in others if p not in crime.killers]
    stated = ((innocents[0],), *ask.stated[1:])
    events[last] = ask.model_copy(update={"stated": stated})
    graded = audit_game(scripts, events, state.config.rounds)
    assert graded.pruning["wrong"] == len(crime.killers) and killer not in stated[0]
    assert graded.by_victim[crime.victim]["wrong"] == len(crime.killers)
    assert sum(sum(c.values()) for c in graded.by_victim.values()) == sum(graded.pruning.values())
    dropped_before = len(others) - len(ask.stated[0])
    dropped_now = graded.pruning["guess"] + graded.pruning["entailed"] - honest.pruning["entailed"]
    assert dropped_now == len(innocents) - 1 - dropped_before
    kept = tuple(others)
    events[last] = ask.model_copy(update={"stated": (kept, *ask.stated[1:])})
    assert audit_game(scripts, events, state.config.rounds).pruning["missed"] == dropped_before
    assert dropped_before > 0


def test_every_false_fact_said_is_a_murderers_lie_and_the_entropy_never_rises() -> None:
    state = played(4)
    audit = audit_game(state.scripts, state.events(), state.config.rounds)
    assert audit.lies and all(f.speaker in state.scripts.murderers for f in audit.lies)
    assert all(
        f.status is ClaimStatus.ENTAILED
        for f in audit.facts
        if f.correctness is Correctness.TRUE and f.speaker not in state.scripts.murderers
    )
    for history in audit.entropy.values():
        assert all(a >= b for a, b in pairwise(history))
    assert len(audit.gains) == state.config.rounds
