"""The prover-backed Clue agent: sound deductions, accusations exactly when solved, its choices;
and the agent registry."""

from __future__ import annotations

import math

import pytest

from games.clue import (
    AccusationEvent,
    Card,
    ClueConfig,
    ClueEvent,
    ClueObservation,
    DeductionEvent,
    GameStart,
    NoRefutationEvent,
    PassEvent,
    Phase,
    RefuteEvent,
    Show,
    SuggestionEvent,
    TurnStart,
)
from games.clue.agents import (
    AGENTS,
    make_agent,
)
from games.clue.audit import audit_game
from games.clue.entry import ENTRY as CLUE
from games.clue.knowledge import PlayerView, clue_setup
from games.clue.prover_agent import Hypotheses, ProverAgent
from games.core.agents import agent_fallbacks, seat_seed
from games.core.log import GameLog
from games.core.play import play_game
from provers.sat_session import SatSession

GAMES = 20
SEATS = ("prover", "prover", "random", "prover", "prover", "prover")


@pytest.fixture(scope="module")
def played() -> list[GameLog[ClueEvent]]:
    return [play_game(CLUE, SEATS, seed).log() for seed in range(GAMES)]


def test_prover_agents_make_no_incorrect_deduction_nor_wrong_accusation(
    played: list[GameLog[ClueEvent]],
) -> None:
    provers = [seat for seat, name in enumerate(SEATS) if name == "prover"]
    stated = 0
    for log in played:
        events = log.events
        audit = audit_game(log)
        for seat in provers:
            player = audit.players[seat]
            assert player.incorrect == 0 and player.wrong == 0 and player.lucky == 0
            assert player.contradicted == 0 and player.undetermined == 0
            assert player.recall in (None, 1.0)
            stated += player.statements
        for event in events:
            if isinstance(event, AccusationEvent) and event.seat in provers:
                assert event.correct
    assert stated > GAMES * 20


def test_prover_accuses_exactly_when_the_envelope_is_entailed(
    played: list[GameLog[ClueEvent]],
) -> None:
    accusations = 0
    for log in played[:6]:
        events = log.events
        start = events[0]
        assert isinstance(start, GameStart) and start.deal is not None
        setup = clue_setup(ClueConfig.model_validate(log.header.config))
        hands = start.deal.hands
        views = {
            s: PlayerView(setup, SatSession, s, hands[s])
            for s, n in enumerate(SEATS)
            if n == "prover"
        }
        for event in events[1:]:
            seat = getattr(event, "seat", None)
            if isinstance(event, SuggestionEvent | AccusationEvent) and seat in views:
                solution = views[seat].knowledge.grid().solution()
                if isinstance(event, AccusationEvent):
                    accusations += 1
                    assert solution == (event.suspect, event.weapon, event.room)
                else:
                    assert solution is None
            for view in views.values():
                view.observe(event)
        for view in views.values():
            view.close()
    assert accusations > 0


def test_seeded_games_repeat_exactly() -> None:
    first = list(play_game(CLUE, SEATS, 11).state.events())
    again = list(play_game(CLUE, SEATS, 11).state.events())
    assert first == again


def test_information_of_suggestions() -> None:
    two = Hypotheses([("a", "x"), ("b", "x")])
    assert two.information(("a", "x"), frozenset()) == pytest.approx(math.log(2))
    assert two.information(("c", "x"), frozenset()) == pytest.approx(0.0)
    assert two.information(("a", "x"), frozenset({"a"})) == pytest.approx(0.0)
    three = Hypotheses([("a", "x"), ("b", "x"), ("c", "x")])
    assert three.information(("a", "x"), frozenset()) == pytest.approx(
        math.log(3) - 2 / 3 * math.log(2)
    )
    four = Hypotheses([("a", "x"), ("a", "y"), ("b", "x"), ("b", "y")])
    both = four.information(("a", "x"), frozenset())
    assert both == pytest.approx(brute_information(four.envelopes, ("a", "x"), frozenset()))
    assert both > four.information(("a", "z"), frozenset({"z"})) > 0


def brute_information(
    envelopes: list[tuple[str, ...]], suggestion: tuple[str, ...], hand: frozenset[str]
) -> float:
    """I(envelope; shown card) by enumerating the joint distribution."""
    joint: dict[tuple[tuple[str, ...], str | None], float] = {}
    for envelope in envelopes:
        shown = [c for c in suggestion if c not in envelope and c not in hand]
        for card in shown or [None]:
            joint[(envelope, card)] = 1 / len(envelopes) / max(1, len(shown))
    p_card: dict[str | None, float] = {}
    for (_, card), p in joint.items():
        p_card[card] = p_card.get(card, 0.0) + p
    return sum(
        p * math.log(p / (1 / len(envelopes) * p_card[card])) for (_, card), p in joint.items()
    )


NINE = ClueConfig(
    players=3, suspects=("S1", "S2", "S3"), weapons=("W1", "W2", "W3"), rooms=("R1", "R2", "R3")
)


def card(name: str) -> Card:
    return NINE.deck.card(name)


def refute_observation(history: list[ClueEvent], triple: tuple[str, str, str]) -> ClueObservation:
    """Seat 1 (holding S1 and W1) must refute seat 0's suggestion of ``triple``."""
    seq = len(history) + 1
    pending = SuggestionEvent(
        seq=seq, round=3, turn=7, seat=0, suspect=triple[0], weapon=triple[1], room=triple[2]
    )
    hand = (card("S1"), card("W1"))
    return ClueObservation(
        player=1,
        n_players=3,
        phase=Phase.REFUTE,
        current_player=1,
        round=3,
        turn=7,
        max_rounds=30,
        suspects=NINE.suspects,
        weapons=NINE.weapons,
        rooms=NINE.rooms,
        hand=hand,
        hand_sizes=(2, 2, 2),
        eliminated=(False, False, False),
        history=(*history, pending),
        shown=(),
        pending=pending,
        matching=tuple(c for c in hand if c.name in triple),
    )


def numbered(events: list[ClueEvent]) -> list[ClueEvent]:
    return [e.model_copy(update={"seq": i + 1}) for i, e in enumerate(events)]


def test_refuter_shows_the_card_it_showed_that_player_before() -> None:
    history = numbered(
        [
            SuggestionEvent(seq=0, round=1, turn=1, seat=0, suspect="S1", weapon="W2", room="R2"),
            RefuteEvent(seq=0, round=1, turn=1, refuter_seat=1, suggester_seat=0, card=card("S1")),
        ]
    )
    shown = ProverAgent(1).act(refute_observation(history, ("S1", "W1", "R3")))
    assert shown == Show(card=card("S1"))
    fresh = ProverAgent(1).act(refute_observation([], ("S1", "W1", "R3")))
    assert isinstance(fresh, Show) and fresh.card in (card("S1"), card("W1"))


def test_refuter_shows_a_card_the_public_record_already_gives_it() -> None:
    history = numbered(
        [
            SuggestionEvent(seq=0, round=1, turn=3, seat=2, suspect="S2", weapon="W2", room="R1"),
            PassEvent(seq=0, round=1, turn=3, seat=0, suggester_seat=2),
            PassEvent(seq=0, round=1, turn=3, seat=1, suggester_seat=2),
            NoRefutationEvent(seq=0, round=1, turn=3, seat=2),
            SuggestionEvent(seq=0, round=2, turn=6, seat=2, suspect="S2", weapon="W1", room="R1"),
            PassEvent(seq=0, round=2, turn=6, seat=0, suggester_seat=2),
            RefuteEvent(seq=0, round=2, turn=6, refuter_seat=1, suggester_seat=2, card=card("W1")),
        ]
    )
    for seed in range(5):
        shown = ProverAgent(seed).act(refute_observation(history, ("S1", "W1", "R3")))
        assert shown == Show(card=card("W1"))


def test_registry_names_and_errors() -> None:
    assert {"random", "prover"} <= set(AGENTS.names)
    agent = make_agent("prover", 2, 5)
    assert agent.name == "prover" and agent_fallbacks(agent).total == 0
    with pytest.raises(ValueError, match="unknown agent 'oracle'; choose one of: random, prover"):
        make_agent("oracle", 0, 0)
    assert (
        AGENTS.parse("prover*2, random,prover x3")
        == ("prover",) * 2 + ("random",) + ("prover",) * 3
    )
    with pytest.raises(ValueError, match="unknown agent 'wizard'"):
        AGENTS.parse("prover,wizard")
    with pytest.raises(ValueError, match="empty entry"):
        AGENTS.parse("prover,,random")
    assert seat_seed("clue", 3, 1) != seat_seed("clue", 3, 2)


def test_turns_carry_deductions_and_refutations_stay_private(
    played: list[GameLog[ClueEvent]],
) -> None:
    events = played[0].events
    deduction_events = [e for e in events if isinstance(e, DeductionEvent)]
    assert deduction_events and all(e.deductions for e in deduction_events)
    turns = [e for e in events if isinstance(e, TurnStart)]
    refutes = [e for e in events if isinstance(e, RefuteEvent)]
    assert turns and all(isinstance(r.card, Card) for r in refutes)
