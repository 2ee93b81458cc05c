"""Clue knowledge: the grid equals brute force over deals; entailed facts are true; cross-checks."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formalize.clue import ClueKnowledge, ClueSetup, Fact, InconsistentKnowledge
from formalize.clue.rules import structure
from games.clue import (
    AccusationEvent,
    Accuse,
    ClueAction,
    ClueConfig,
    ClueEvent,
    ClueGame,
    ClueObservation,
    DeductionEvent,
    NoRefutationEvent,
    PassEvent,
    Phase,
    RefuteEvent,
    SuggestionEvent,
    random_agent,
)
from games.clue.knowledge import PlayerView, clue_setup
from provers.registry import get_prover
from provers.sat_session import SatSession
from reasoning.claims import ClaimStatus
from reasoning.formula import Atom, Iff, Not
from reasoning.verifier import Verifier
from tests.support.played import play_clue

SMALL = ClueConfig(
    players=3,
    suspects=("Scarlet", "Plum"),
    weapons=("Rope", "Knife"),
    rooms=("Hall", "Study", "Lounge"),
    max_rounds=4,
)
FAST = settings(max_examples=40, deadline=None)

Deal = tuple[tuple[frozenset[str], ...], frozenset[str]]


class RashAgent:
    """Random play, and now and then a random accusation (to exercise failed accusations)."""

    def __init__(self, seed: int) -> None:
        self._inner = random_agent(seed)
        self._rng = random.Random(seed)
        self.name = "rash"

    def act(self, obs: ClueObservation) -> ClueAction:
        if obs.phase is Phase.TURN and self._rng.random() < 0.15:
            return Accuse(
                suspect=self._rng.choice(obs.suspects),
                weapon=self._rng.choice(obs.weapons),
                room=self._rng.choice(obs.rooms),
            )
        return self._inner.choose(obs, obs.legal_actions())


def all_deals(config: ClueConfig, sizes: tuple[int, ...]) -> Iterator[Deal]:
    """Every deal of the deck: an envelope triple and hands of the given sizes."""
    deck = config.deck
    for envelope in itertools.product(config.suspects, config.weapons, config.rooms):
        rest = [c.name for c in deck.cards if c.name not in envelope]
        yield from _hands(rest, sizes, (), frozenset(envelope))


def _hands(
    rest: list[str],
    sizes: tuple[int, ...],
    done: tuple[frozenset[str], ...],
    envelope: frozenset[str],
) -> Iterator[Deal]:
    if not sizes:
        yield done, envelope
        return
    for hand in itertools.combinations(rest, sizes[0]):
        left = [c for c in rest if c not in hand]
        yield from _hands(left, sizes[1:], (*done, frozenset(hand)), envelope)


def consistent(
    deal: Deal, seat: int | None, hand: frozenset[str] | None, seen: list[ClueEvent]
) -> bool:
    """Whether ``deal`` fits everything ``seat`` (None: an onlooker) saw, ``hand`` being its
    own: an oracle written apart from the rules."""
    hands, envelope = deal
    if seat is not None and hands[seat] != hand:
        return False
    pending: tuple[int, set[str]] = (-1, set())
    for event in seen:
        if isinstance(event, SuggestionEvent):
            pending = (event.seat, {event.suspect, event.weapon, event.room})
        elif isinstance(event, PassEvent):
            if hands[event.seat] & pending[1]:
                return False
        elif isinstance(event, RefuteEvent):
            if event.suggester_seat == seat and event.card is not None:
                if event.card.name not in hands[event.refuter_seat]:
                    return False
            elif not hands[event.refuter_seat] & pending[1]:
                return False
        elif isinstance(event, NoRefutationEvent):
            others = [h for p, h in enumerate(hands) if p != event.seat]
            if any(h & pending[1] for h in others):
                return False
        elif isinstance(event, AccusationEvent):
            named = {event.suspect, event.weapon, event.room}
            if event.correct != (named == envelope):
                return False
            right = event.accuracy if event.seat == seat else None
            if right is not None and len(named & envelope) != right:
                return False
    return True


def brute_grid(setup: ClueSetup, deals: list[Deal]) -> dict[str, bool]:
    """The cells every consistent deal agrees on."""
    fixed: dict[str, bool] = {}
    for card, place, name in setup.cells():
        values = {
            (card in envelope) if place == setup.envelope else (card in hands[place])
            for hands, envelope in deals
        }
        if len(values) == 1:
            fixed[name] = values.pop()
    return fixed


def play_small(seed: int, rash: bool) -> ClueGame:
    game = ClueGame(SMALL, seed)
    agents = [RashAgent(seed + s) if rash else random_agent(seed + s) for s in range(3)]
    play_clue(game, agents)
    return game


@FAST
@given(seed=st.integers(0, 10_000), rash=st.booleans(), seat=st.integers(0, 2))
def test_grid_equals_brute_force_over_deals(seed: int, rash: bool, seat: int) -> None:
    game = play_small(seed, rash)
    setup = clue_setup(SMALL)
    deals = list(all_deals(SMALL, setup.hand_sizes))
    hand = frozenset(c.name for c in game.hands[seat])
    truth = (
        tuple(frozenset(c.name for c in h) for h in game.hands),
        frozenset(game.envelope.names()),
    )
    seen: list[ClueEvent] = []
    with PlayerView(setup, SatSession, seat, game.hands[seat]) as view:
        for event in game.observation(seat).history:
            view.observe(event)
            seen.append(event)
            grid = view.knowledge.grid()
            fitting = [d for d in deals if consistent(d, seat, hand, seen)]
            assert truth in fitting
            assert dict(grid.fixed) == brute_grid(setup, fitting)
            for fact in grid.facts():
                place = setup.place_of(fact)
                where = truth[1] if place == setup.envelope else truth[0][place]
                held = fact.card in where
                assert held == fact.positive, fact
            envelopes = {envelope for _, envelope in fitting}
            for triple in itertools.product(SMALL.suspects, SMALL.weapons, SMALL.rooms):
                facts = [Fact("in_envelope", card) for card in triple]
                assert view.knowledge.possible(facts) == (frozenset(triple) in envelopes)


def public(event: ClueEvent) -> ClueEvent:
    """``event`` as an onlooker sees it: no shown card, no accusation accuracy."""
    if isinstance(event, RefuteEvent):
        return event.model_copy(update={"card": None})
    if isinstance(event, AccusationEvent):
        return event.model_copy(update={"accuracy": None})
    return event


@FAST
@given(seed=st.integers(0, 10_000))
def test_onlooker_grid_equals_brute_force(seed: int) -> None:
    game = play_small(seed, rash=True)
    setup = clue_setup(SMALL)
    deals = list(all_deals(SMALL, setup.hand_sizes))
    seen = [public(e) for e in game.events if not isinstance(e, DeductionEvent)]
    with PlayerView(setup, SatSession, None) as view:
        view.catch_up(seen)
        fitting = [d for d in deals if consistent(d, None, None, seen)]
        assert dict(view.knowledge.grid().fixed) == brute_grid(setup, fitting)


def test_grid_agrees_with_the_verifier_on_the_sat_prover() -> None:
    game = play_small(5, rash=False)
    setup = clue_setup(SMALL)
    with PlayerView(setup, SatSession, 1, game.hands[1]) as view:
        view.catch_up(game.observation(1).history)
        knowledge = view.knowledge
        grid = knowledge.grid()
        verifier = Verifier(get_prover("sat"))
        report = verifier.audit(
            list(knowledge.formulas), [Atom(name) for name in setup.atom_names()]
        )
    assert report.knowledge_consistent is True
    for (_, _, name), check in zip(setup.cells(), report.checks, strict=True):
        value = grid.fixed.get(name)
        expected = (
            ClaimStatus.UNDETERMINED
            if value is None
            else ClaimStatus.ENTAILED
            if value
            else ClaimStatus.CONTRADICTED
        )
        assert check.status is expected, name


def test_status_of_each_deduction_kind() -> None:
    setup = clue_setup(SMALL)
    with ClueKnowledge(setup, SatSession, 0, ["Plum", "Knife"]) as knowledge:
        knowledge.shown(1, "Hall")
        assert knowledge.status(Fact("holds", "Hall", 1)) is ClaimStatus.ENTAILED
        assert knowledge.status(Fact("not_holds", "Hall", 1)) is ClaimStatus.CONTRADICTED
        assert knowledge.status(Fact("in_envelope", "Scarlet")) is ClaimStatus.ENTAILED
        assert knowledge.status(Fact("not_in_envelope", "Rope")) is ClaimStatus.CONTRADICTED
        assert knowledge.status(Fact("holds", "Study", 2)) is ClaimStatus.UNDETERMINED
        assert knowledge.grid().solution() is None
        knowledge.passed(2, ["Scarlet", "Rope", "Study"])
        assert knowledge.grid().solution() == ("Scarlet", "Rope", "Study")


def test_redundant_observation_adds_nothing() -> None:
    setup = clue_setup(SMALL)
    with ClueKnowledge(setup, SatSession, 0, ["Plum", "Knife"]) as knowledge:
        assert knowledge.shown(1, "Hall") is True
        knowledge.grid()
        assert knowledge.shown(1, "Hall") is False
        assert knowledge.refuted(1, ["Scarlet", "Rope", "Hall"]) is False
        assert knowledge.passed(2, ["Hall"]) is False


def test_contradictory_observations_are_reported() -> None:
    setup = clue_setup(SMALL)
    with ClueKnowledge(setup, SatSession, 0, ["Plum", "Knife"]) as knowledge:
        knowledge.shown(1, "Hall")
        with pytest.raises(InconsistentKnowledge, match="player 0"):
            knowledge.passed(1, ["Scarlet", "Rope", "Hall"])
    with ClueKnowledge(setup, SatSession, 1, ["Hall"]) as knowledge:
        knowledge.accused(["Scarlet", "Rope", "Lounge"], correct=True)
        knowledge.refuted(2, ["Plum", "Knife", "Hall"])
        knowledge.passed(0, ["Study"])
        with pytest.raises(InconsistentKnowledge, match="no deal fits"):
            knowledge.grid()


INTERNAL_ATOM = re.compile(r"_p\d|_env\b|~")


def test_contradictions_name_cards_players_and_the_envelope_in_words() -> None:
    setup = clue_setup(SMALL)
    with ClueKnowledge(setup, SatSession, 0, ["Plum", "Knife"]) as knowledge:
        knowledge.shown(1, "Hall")
        with pytest.raises(InconsistentKnowledge) as raised:
            knowledge.passed(1, ["Scarlet", "Rope", "Hall"])
    message = str(raised.value)
    assert "player 1 does not hold Hall" in message
    assert "player 1 holds Hall" in message
    assert not INTERNAL_ATOM.search(message), message
    with (
        ClueKnowledge(setup, SatSession, 0, ["Plum", "Knife"]) as knowledge,
        pytest.raises(InconsistentKnowledge) as raised,
    ):
        knowledge.accused(["Plum", "Rope", "Hall"], correct=True)
    message = str(raised.value)
    assert "Plum is in the envelope" in message
    assert "(Plum is not in the envelope)" in message
    assert not INTERNAL_ATOM.search(message), message
    with ClueKnowledge(setup, SatSession, None) as onlooker:
        onlooker.accused(["Scarlet", "Rope", "Hall"], correct=True)
        with pytest.raises(InconsistentKnowledge) as raised:
            onlooker.accused(["Scarlet", "Rope", "Hall"], correct=False)
    message = str(raised.value)
    assert message.startswith("an onlooker: ")
    assert "Scarlet is not in the envelope or Rope is not in the envelope" in message
    assert not INTERNAL_ATOM.search(message), message


def test_setup_errors_name_the_problem() -> None:
    with pytest.raises(ValueError, match="add up to"):
        ClueSetup((("suspect", ("a", "b")), ("weapon", ("c",))), (1, 1))
    with pytest.raises(ValueError, match="appears twice"):
        ClueSetup((("suspect", ("a", "b")), ("weapon", ("a", "c"))), (1, 1))
    setup = clue_setup(SMALL)
    with pytest.raises(ValueError, match="unknown card 'Wrench'"):
        setup.atom("Wrench", 0)
    with pytest.raises(ValueError, match="player 5"):
        setup.check_fact(Fact("holds", "Rope", 5))
    with pytest.raises(ValueError, match="player: required"):
        Fact("holds", "Rope")


def test_atom_names_are_readable_and_unique() -> None:
    setup = clue_setup(ClueConfig())
    names = setup.atom_names()
    assert len(set(names)) == len(names) == 21 * 7
    assert setup.atom("Mrs. White", 2) == "mrs_white_p2"
    assert setup.atom("Rope", setup.envelope) == "rope_env"
    odd = ClueSetup((("s", ("A b", "a-b", "9")), ("w", ("x",))), (1, 1))
    assert len(set(odd.atom_names())) == len(odd.atom_names())


def test_constraint_set_is_propositional_ir() -> None:
    setup = clue_setup(SMALL)
    formulas = structure(setup)
    assert len(formulas) == len(setup.cards) + setup.n_players + 3
    with ClueKnowledge(setup, SatSession, 0, ["Plum", "Knife"]) as knowledge:
        knowledge.passed(1, ["Scarlet"])
        assert Not(Atom(setup.atom("Scarlet", 1))) in knowledge.formulas


@pytest.mark.parametrize("seed", [0, 1])
def test_full_game_grid_equals_two_solves_per_cell(seed: int) -> None:
    game = ClueGame(ClueConfig(), seed)
    play_clue(game, [RashAgent(seed * 10 + s) for s in range(6)])
    setup = clue_setup(game.config)
    seat = seed % 6
    with PlayerView(setup, SatSession, seat, game.hands[seat]) as view, SatSession() as naive:
        added = 0
        for event in game.observation(seat).history:
            if not view.observe(event):
                continue
            formulas = view.knowledge.formulas
            for formula in formulas[added:]:
                naive.add(formula)
            added = len(formulas)
            expected = {}
            for name in setup.atom_names():
                can_true = naive.satisfiable([Atom(name)])
                can_false = naive.satisfiable([Not(Atom(name))])
                if can_true != can_false:
                    expected[name] = can_true
            assert dict(view.knowledge.grid().fixed) == expected


def test_hand_given_later_and_only_once() -> None:
    setup = clue_setup(SMALL)
    with ClueKnowledge(setup, SatSession, 2) as knowledge:
        assert knowledge.hand is None
        assert knowledge.set_hand(["Lounge"]) is True
        assert knowledge.set_hand(["Lounge"]) is False
        with pytest.raises(ValueError, match="given twice"):
            knowledge.set_hand(["Hall"])
        assert knowledge.status(Fact("not_holds", "Hall", 2)) is ClaimStatus.ENTAILED
    with ClueKnowledge(setup, SatSession, None) as onlooker, pytest.raises(ValueError):
        onlooker.set_hand(["Hall"])


def test_add_takes_formulas_over_the_game_atoms_only() -> None:
    setup = clue_setup(SMALL)
    with ClueKnowledge(setup, SatSession, 0, ["Plum", "Knife"]) as knowledge:
        hall, study = (Atom(setup.atom(c, 1)) for c in ("Hall", "Study"))
        assert knowledge.add(Iff(hall, Not(study))) is True
        assert knowledge.status(Fact("holds", "Lounge", 1)) is ClaimStatus.CONTRADICTED
        with pytest.raises(ValueError, match="'weather'"):
            knowledge.add(Atom("weather"))
