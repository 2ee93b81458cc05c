"""One oracle contract for every game: whatever answers for the Verifier in an audit (Clue's
knowledge grid, Hanabi's exact hand knowledge, the detective's case knowledge, the interrogation
game's character knowledge) classifies every kind of claim, positive and negative, exactly as
``Verifier(Z3Prover())`` does on the same knowledge formulas, and its truth is the hidden state's.

Each game's harness draws a reachable state (random legal play of random length) and random
claims of every kind its audit accepts, negated and double-negated, about things the seat can
and cannot see. The knowledge formulas handed to z3 are written here, apart from the game's own
structures, wherever the structure is not itself a formula set (Hanabi). Every suite asserts
that ENTAILED, CONTRADICTED and UNDETERMINED all occur in its sample, and that every claim kind
occurs with both polarities, so a kind that is never exercised fails the test.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formalize.clue.oracle import GridOracle
from formalize.clue.setup import Fact as ClueFact
from formalize.hanabi.deck import COLORS, COPIES, NUM_IDENTITIES, NUM_RANKS
from formalize.interrogation.script import Scripts
from formalize.interrogation.script_generate import generate_scripts
from formalize.interrogation.testimony import as_heard
from formalize.world import atoms
from formalize.world.facts import fact_formula, holds_in
from formalize.world.theory import background_theory
from games.clue.knowledge import PlayerView, clue_setup
from games.core import SeatInfo, get_game
from games.detective.audit import audit_answers
from games.detective.case import Case
from games.detective.generator import generate_case
from games.detective.knowledge import CaseKnowledge
from games.detective.verify import card_formulas, slot_formula, theory_formulas
from games.hanabi.audit import judge_claim
from games.hanabi.engine import HanabiGame
from games.hanabi.events import SlotClaim
from games.mystery.knowledge import Knowledge
from provers.model_eval import evaluate
from provers.sat_prover import SatProver
from provers.sat_session import SatSession
from provers.z3_prover import Z3Prover
from reasoning.formula import And, Atom, Card, Formula, Not, Or, disj, literal
from reasoning.oracle import FallbackOracle, claim_status
from reasoning.syntax import format_formula
from reasoning.verdict import Countermodel
from reasoning.verifier import ClaimStatus, Correctness, Verifier

DECISIVE = {ClaimStatus.ENTAILED, ClaimStatus.CONTRADICTED, ClaimStatus.UNDETERMINED}


@dataclass(frozen=True, repr=False)
class Case_:
    """One claim as a game's audit classified it, with the formulas z3 is asked about."""

    kind: str
    positive: bool
    status: ClaimStatus
    truth: bool
    knowledge: tuple[Formula, ...]
    claim: Formula
    hidden: Callable[[Formula], bool]
    """The claim's truth in the hidden state, computed apart from the game's audit."""

    def __repr__(self) -> str:
        sign = "+" if self.positive else "-"
        return f"<{self.kind}{sign} {format_formula(self.claim)}: {self.status}>"


def _wrap(draw: st.DrawFn, claim: Formula) -> tuple[Formula, bool]:
    """``claim``, its negation, or either under a double negation; and its polarity."""
    positive = draw(st.booleans())
    out = claim if positive else Not(claim)
    for _ in range(draw(st.integers(0, 2))):
        out = Not(Not(out))
    return out, positive


def holds_with(true_atoms: Iterable[str]) -> Callable[[Formula], bool]:
    """A formula's truth when exactly ``true_atoms`` hold (the provers' own model evaluator)."""
    model = Countermodel(true_atoms=sorted(true_atoms))
    return lambda formula: evaluate(formula, model)


def random_play(state: Any, draw: st.DrawFn, most: int) -> None:
    """Play up to ``most`` random legal joint actions on a protocol ``state``."""
    rng = random.Random(draw(st.integers(0, 2**16)))
    for _ in range(draw(st.integers(0, most))):
        if state.is_terminal():
            return
        state.apply({s: rng.choice(list(state.legal_actions(s))) for s in state.current_players()})


# --- Clue: the knowledge grid, with a prover behind it for compound claims ---------------------


@st.composite
def clue_cases(draw: st.DrawFn) -> list[Case_]:
    entry = get_game("clue")
    config = entry.default_config(3)
    seats = [SeatInfo(name=f"P{i}", agent="random") for i in range(3)]
    state = entry.new_state(config, draw(st.integers(0, 10_000)), seats)
    random_play(state, draw, 40)
    game = state.game
    seat = draw(st.integers(0, 2))
    setup = clue_setup(config)
    view = PlayerView(setup, SatSession, seat, game.hands[seat])
    for event in state.events():
        view.observe(event)
    knowledge = view.knowledge
    grid = knowledge.grid()
    formulas = tuple(knowledge.formulas)
    oracle = FallbackOracle(GridOracle(grid), formulas, Verifier(SatProver()))
    cards = sorted({c.name for hand in game.hands for c in hand} | set(game.envelope.names()))
    held = {(p, c.name) for p, hand in enumerate(game.hands) for c in hand}
    truth: dict[str, bool] = {}
    for card in cards:
        name, _ = setup.fact_literal(ClueFact("in_envelope", card))
        truth[name] = card in game.envelope.names()
        for player in range(3):
            name, _ = setup.fact_literal(ClueFact("holds", card, player))
            truth[name] = (player, card) in held
    out: list[Case_] = []
    for _ in range(draw(st.integers(3, 6))):
        kind = draw(st.sampled_from(["holds", "in_envelope", "compound"]))
        positive = draw(st.booleans())
        if kind == "compound":
            facts = [
                ClueFact("holds", draw(st.sampled_from(cards)), draw(st.integers(0, 2)))
                for _ in range(2)
            ]
            parts = tuple(setup.fact_formula(f) for f in facts)
            values = [(f.player, f.card) in held for f in facts]
            conjunction = draw(st.booleans())
            base: Formula = And(parts) if conjunction else Or(parts)
            real = all(values) if conjunction else any(values)
            claim = base if positive else Not(base)
        else:
            card = draw(st.sampled_from(cards))
            player = draw(st.integers(0, 2)) if kind == "holds" else None
            name = kind if positive else f"not_{kind}"
            claim = setup.fact_formula(ClueFact(name, card, player))  # type: ignore[arg-type]
            real = (player, card) in held if kind == "holds" else card in game.envelope.names()
        for _ in range(draw(st.integers(0, 2))):
            claim = Not(Not(claim))
        before = oracle.fallbacks
        status = claim_status(oracle, claim)
        if kind != "compound":
            assert oracle.fallbacks == before, f"the grid could not answer {claim!r} itself"
        out.append(
            Case_(
                kind,
                positive,
                status,
                real == positive,
                formulas,
                claim,
                holds_with(name for name, value in truth.items() if value),
            )
        )
    view.close()
    return out


# --- Hanabi: the exact hand knowledge against a formula encoding written here -----------------


def hanabi_formulas(game: HanabiGame, seat: int) -> tuple[Formula, ...]:
    """The seat's knowledge of its own hand as constraints: one identity per slot, the hints'
    colours and ranks, and no more copies of an identity than are out of the seat's sight."""
    seen = [0] * NUM_IDENTITIES
    for other, hand in enumerate(game.hands):
        if other != seat:
            for card in hand:
                seen[card] += 1
    for card in game.discards:
        seen[card] += 1
    for color, height in enumerate(game.fireworks):
        for rank in range(height):
            seen[color * NUM_RANKS + rank] += 1
    slots = range(len(game.hands[seat]))
    out: list[Formula] = []
    for j in slots:
        out.append(Card("exactly", 1, tuple(_slot_atom(j, x) for x in range(NUM_IDENTITIES))))
        colors, ranks = game.color_masks[seat][j], game.rank_masks[seat][j]
        for x in range(NUM_IDENTITIES):
            if not (colors >> (x // NUM_RANKS) & 1 and ranks >> (x % NUM_RANKS) & 1):
                out.append(Not(_slot_atom(j, x)))
    for x in range(NUM_IDENTITIES):
        out.append(Card("atmost", COPIES[x] - seen[x], tuple(_slot_atom(j, x) for j in slots)))
    return tuple(out)


def _slot_atom(slot: int, identity: int) -> Atom:
    return Atom(f"slot{slot}_is_{identity}")


@st.composite
def hanabi_cases(draw: st.DrawFn) -> list[Case_]:
    entry = get_game("hanabi")
    players = draw(st.integers(2, 4))
    config = entry.default_config(players)
    seats = [SeatInfo(name=f"P{i}", agent="random") for i in range(players)]
    state = entry.new_state(config, draw(st.integers(0, 10_000)), seats)
    random_play(state, draw, 50)
    game = state.game
    seat = draw(st.integers(0, players - 1))
    if not game.hands[seat]:
        return []
    formulas = hanabi_formulas(game, seat)
    hand = game.hands[seat]
    out: list[Case_] = []
    for _ in range(draw(st.integers(3, 6))):
        slot = draw(st.integers(0, len(hand) - 1))
        kind = draw(st.sampled_from(["color", "rank", "card"]))
        positive = kind == "card" or draw(st.booleans())
        picked_colors = set(COLORS)
        picked_ranks = set("12345")
        if kind in ("color", "card"):
            picked_colors = draw(st.sets(st.sampled_from(COLORS), min_size=1, max_size=2))
        if kind in ("rank", "card"):
            picked_ranks = draw(st.sets(st.sampled_from("12345"), min_size=1, max_size=2))
        if not positive:  # "not one of these" is stated as the complement
            if kind == "color":
                picked_colors = set(COLORS) - picked_colors
            else:
                picked_ranks = set("12345") - picked_ranks
        colors = "".join(c for c in COLORS if c in picked_colors)
        ranks = "".join(r for r in "12345" if r in picked_ranks)
        claim_model = SlotClaim(seat=seat, slot=slot, colors=colors, ranks=ranks)
        judged = judge_claim(game, 0, seat, claim_model)
        assert judged.status is not None and judged.correctness is not None
        claim = disj(
            _slot_atom(slot, COLORS.index(c) * NUM_RANKS + int(r) - 1)
            for c in colors
            for r in ranks
        )
        card = hand[slot]
        truth = judged.correctness is Correctness.TRUE
        assert truth == (COLORS[card // NUM_RANKS] in colors and str(card % NUM_RANKS + 1) in ranks)
        out.append(
            Case_(
                kind,
                positive,
                judged.status,
                truth,
                formulas,
                claim,
                holds_with(_slot_atom(j, card).pred for j, card in enumerate(hand)),
            )
        )
    return out


# --- Detective: the case knowledge, read locations chosen at random ----------------------------


@cache
def detective_case(seed: int) -> Case:
    from games.detective import CaseKnobs

    knobs = CaseKnobs(locations=8, questions=2, red_herrings=1, distractors=4, words_per_card=40)
    return generate_case(seed, SatProver(), SatSession, knobs)


@st.composite
def detective_cases(draw: st.DrawFn) -> list[Case_]:
    case = detective_case(draw(st.integers(0, 2)))
    intro, cards = card_formulas(case)
    theory = theory_formulas(case)
    read = draw(st.sets(st.integers(0, len(cards) - 1)))
    formulas = tuple([*theory, *intro, *(f for i in sorted(read) for f in cards[i])])
    truth: list[Formula] = []
    for q in case.questions:
        for slot in q.slots:
            values = tuple(slot_formula(slot, c.value) for c in slot.choices)
            truth += [Card("exactly", 1, values), slot_formula(slot, slot.answer)]
    slots = [(q, slot) for q in case.questions for slot in q.slots]
    out: list[Case_] = []
    with CaseKnowledge(theory, intro, cards, SatSession) as know:
        for _ in range(draw(st.integers(3, 6))):
            question, slot = draw(st.sampled_from(slots))
            value = draw(st.sampled_from([c.value for c in slot.choices]))
            base = slot_formula(slot, value)
            claim, positive = _wrap(draw, base)

            class _Oracle:
                def entails(self, f: Formula) -> bool:
                    return know.entails(read, f)

            status = claim_status(_Oracle(), claim)
            is_answer = value == slot.answer
            if positive and claim == base:
                locations = {case.locations[i].id for i in read}
                [element] = audit_answers(
                    case, locations, {question.id: {slot.name: value}}, Verifier(SatProver())
                )
                assert element.check.status is status
                assert (element.check.correctness is Correctness.TRUE) == is_answer
            out.append(
                Case_(
                    "element",
                    positive,
                    status,
                    is_answer == positive,
                    formulas,
                    claim,
                    _detective_truth(truth),
                )
            )
    return out


def _detective_truth(truth: Sequence[Formula]) -> Callable[[Formula], bool]:
    """Truth of a claim in the solution, by z3 over the solution's formulas."""
    verifier = Verifier(Z3Prover())

    def holds(claim: Formula) -> bool:
        answer = verifier.entails(truth, claim)
        assert answer is not None
        return answer

    return holds


# --- Mystery: a character's knowledge after hearing testimony ----------------------------------


@cache
def mystery_scripts(seed: int) -> Scripts:
    return generate_scripts(seed, SatProver())


@st.composite
def mystery_cases(draw: st.DrawFn) -> list[Case_]:
    scripts = mystery_scripts(draw(st.integers(0, 1)))
    setting = scripts.world.setting
    me = draw(st.sampled_from(scripts.civilians))
    others = [p for p in scripts.players if p != me]
    heard = draw(st.lists(st.sampled_from(others), max_size=3))
    known = [*scripts.intro, *scripts.scripts[me]]
    formulas = [a.formula for a in background_theory(setting)]
    formulas += [fact_formula(f, setting) for f in known]
    statements = []
    for speaker in heard:
        facts = list(scripts.covers.get(speaker) or scripts.scripts[speaker])[:3]
        if facts:
            statements.append((speaker, facts))
            formulas.append(as_heard(setting, speaker, facts))
    pool = [f for p in scripts.players for f in scripts.scripts[p]]
    out: list[Case_] = []
    with Knowledge(setting, scripts.players, me, known, SatSession) as know:
        for speaker, facts in statements:
            know.hear(speaker, facts)
        for _ in range(draw(st.integers(3, 6))):
            kind = draw(st.sampled_from(["culprit", "fact"]))
            if kind == "culprit":
                crime = draw(st.integers(1, len(scripts.world.crimes)))
                person = draw(st.sampled_from(know.candidates(crime)))
                base: Formula = atoms.culprit(crime, person)
                real = person in scripts.world.crimes[crime - 1].killers
            else:
                fact = draw(st.sampled_from(pool))
                base = fact_formula(fact, setting)
                real = holds_in(fact, scripts.world)
            claim, positive = _wrap(draw, base)
            status = claim_status(know, claim)
            out.append(
                Case_(
                    kind,
                    positive,
                    status,
                    real == positive,
                    tuple(formulas),
                    claim,
                    lambda f, b=base, r=real: _through_negations(f, b, r),
                )
            )
    return out


def _through_negations(claim: Formula, base: Formula, value: bool) -> bool:
    """The truth of ``claim``, ``base`` under some negations, when ``base`` has ``value``."""
    while claim != base:
        assert isinstance(claim, Not)
        claim, value = claim.body, not value
    return value


HARNESSES: dict[str, Callable[[], st.SearchStrategy[list[Case_]]]] = {
    "clue": clue_cases,
    "hanabi": hanabi_cases,
    "detective": detective_cases,
    "mystery": mystery_cases,
}
WANTED: dict[str, set[tuple[str, bool]]] = {
    "clue": {(k, p) for k in ("holds", "in_envelope", "compound") for p in (True, False)},
    "hanabi": {("color", True), ("color", False), ("rank", True), ("rank", False), ("card", True)},
    "detective": {("element", True), ("element", False)},
    "mystery": {(k, p) for k in ("culprit", "fact") for p in (True, False)},
}
"""Every claim kind each game's audit accepts, with the polarities it can be stated in (a
Hanabi claim names a set of colours and ranks: "not red" is the other four colours, and a
negated card is no such set)."""
EXAMPLES = {"clue": 12, "hanabi": 25, "detective": 6, "mystery": 10}


def z3_status(case: Case_) -> ClaimStatus:
    return Verifier(Z3Prover()).check(list(case.knowledge), case.claim).status


def sample(game: str) -> Iterator[Case_]:
    """Every case hypothesis draws for ``game``, checked against z3 as it is drawn."""
    seen: list[Case_] = []

    @given(data=st.data())
    @settings(
        max_examples=EXAMPLES[game],
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    def run(data: st.DataObject) -> None:
        for case in data.draw(HARNESSES[game]()):
            assert case.status in DECISIVE, f"{game}: {case.kind} claim came out {case.status}"
            expected = z3_status(case)
            assert case.status is expected, (
                f"{game}: {case!r}: audit says {case.status}, z3 says {expected}"
            )
            assert case.truth == case.hidden(case.claim), f"{game}: truth of {case!r}"
            seen.append(case)

    run()
    yield from seen


@pytest.mark.parametrize("game", sorted(HARNESSES))
def test_the_games_oracle_agrees_with_z3_on_every_claim_kind(game: str) -> None:
    cases = list(sample(game))
    statuses = {c.status for c in cases}
    assert statuses == DECISIVE, f"{game}: only {sorted(statuses)} occurred"
    kinds = {(c.kind, c.positive) for c in cases}
    assert WANTED[game] <= kinds, f"{game}: never drew {sorted(WANTED[game] - kinds)}"
    negative = [c for c in cases if not c.positive]
    assert {c.status for c in negative} == DECISIVE, f"{game}: negative claims: {negative[:1]}"


def test_every_registered_game_with_an_oracle_has_a_harness() -> None:
    from games.core import game_names

    with_oracle = {"clue", "hanabi", "detective", "mystery"}
    assert with_oracle <= set(game_names())
    assert set(HARNESSES) == with_oracle


def test_double_negations_reach_no_oracle() -> None:
    asked: list[Formula] = []

    class Recorder:
        def entails(self, claim: Formula) -> bool | None:
            asked.append(claim)
            return None if literal(claim) is None else False

    claim_status(Recorder(), Not(Not(Not(Atom("a")))))
    assert asked == [Not(Atom("a")), Atom("a")]
