"""One oracle contract for every game: whatever answers for the Verifier in an audit (Clue's
knowledge grid, Hanabi's exact hand knowledge, the detective's case knowledge, the interrogation
game's character knowledge) classifies every kind of claim, positive and negative, exactly as
``Verifier(Z3Prover())`` does on the same knowledge formulas, and its truth is the hidden state's.

Each game's harness draws a reachable state (random legal play of random length) and random
claims of every kind its audit accepts, negated and double-negated, about things the seat can
and cannot see, with the strategies the game ships (``games.<game>.strategies``), which judge
each claim as the game's audit does. The knowledge formulas handed to z3 are written here,
apart from the game's own structures, wherever the structure is not itself a formula set
(Hanabi). Every suite asserts that ENTAILED, CONTRADICTED and UNDETERMINED all occur in its
sample, and that every claim kind occurs with both polarities, so a kind that is never
exercised fails the test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formalize.clue.setup import Fact as ClueFact
from formalize.hanabi.deck import COPIES, NUM_IDENTITIES, NUM_RANKS
from formalize.interrogation.testimony import as_heard
from formalize.world import atoms
from formalize.world.facts import Fact, fact_formula, holds_in
from formalize.world.theory import background_theory
from games.clue import strategies as clue_strategies
from games.clue.knowledge import PlayerView, clue_setup
from games.detective import strategies as detective_strategies
from games.detective.audit import audit_answers
from games.detective.verify import card_formulas, slot_formula, theory_formulas
from games.hanabi import strategies as hanabi_strategies
from games.hanabi.engine import HanabiGame
from games.hanabi.strategies import slot_atom
from games.mystery import strategies as mystery_strategies
from provers.model_eval import evaluate
from provers.sat_prover import SatProver
from provers.sat_session import SatSession
from provers.z3_prover import Z3Prover
from reasoning.claims import ClaimStatus, Correctness
from reasoning.formula import Atom, Card, Formula, Not, literal
from reasoning.oracle import claim_status
from reasoning.strategies import GameClaim
from reasoning.syntax import format_formula
from reasoning.verdict import Countermodel
from reasoning.verifier import Verifier

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


def holds_with(true_atoms: Iterable[str]) -> Callable[[Formula], bool]:
    """A formula's truth when exactly ``true_atoms`` hold (the provers' own model evaluator)."""
    model = Countermodel(true_atoms=sorted(true_atoms))
    return lambda formula: evaluate(formula, model)


def cases_of(
    draw: st.DrawFn,
    claims: st.SearchStrategy[GameClaim],
    knowledge: Sequence[Formula],
    hidden: Callable[[Formula], bool],
) -> list[Case_]:
    """Three to six claims a game's strategy draws, with the knowledge z3 is asked about."""
    return [
        Case_(c.kind, c.positive, c.status, c.truth, tuple(knowledge), c.formula, hidden)
        for c in draw(st.lists(claims, min_size=3, max_size=6))
    ]


# --- Clue: the knowledge grid, with a prover behind it for compound claims ---------------------


@st.composite
def clue_cases(draw: st.DrawFn) -> list[Case_]:
    state = draw(clue_strategies.states())
    game = state.game
    seat = draw(st.integers(0, len(game.hands) - 1))
    setup = clue_setup(game.config)
    with PlayerView(setup, SatSession, seat, game.hands[seat]) as view:
        for event in state.events():
            view.observe(event)
        formulas = tuple(view.knowledge.formulas)
    held = {(p, c.name) for p, hand in enumerate(game.hands) for c in hand}
    truth = {setup.fact_literal(ClueFact("holds", c, p))[0] for p, c in held}
    truth |= {setup.fact_literal(ClueFact("in_envelope", c))[0] for c in game.envelope.names()}
    return cases_of(draw, clue_strategies.claims(state, seat), formulas, holds_with(truth))


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
        out.append(Card("exactly", 1, tuple(slot_atom(j, x) for x in range(NUM_IDENTITIES))))
        colors, ranks = game.color_masks[seat][j], game.rank_masks[seat][j]
        for x in range(NUM_IDENTITIES):
            if not (colors >> (x // NUM_RANKS) & 1 and ranks >> (x % NUM_RANKS) & 1):
                out.append(Not(slot_atom(j, x)))
    for x in range(NUM_IDENTITIES):
        out.append(Card("atmost", COPIES[x] - seen[x], tuple(slot_atom(j, x) for j in slots)))
    return tuple(out)


@st.composite
def hanabi_cases(draw: st.DrawFn) -> list[Case_]:
    state = draw(hanabi_strategies.states())
    game = state.game
    seat = draw(st.integers(0, game.players - 1))
    hand = game.hands[seat]
    if not hand:
        return []
    return cases_of(
        draw,
        hanabi_strategies.claims(state, seat),
        hanabi_formulas(game, seat),
        holds_with(slot_atom(j, card).pred for j, card in enumerate(hand)),
    )


# --- Detective: the case knowledge after random reading ----------------------------------------


@st.composite
def detective_cases(draw: st.DrawFn) -> list[Case_]:
    state = draw(detective_strategies.states())
    case = state.case
    intro, cards = card_formulas(case)
    read = {i for i, loc in enumerate(case.locations) if loc.id in state.read}
    formulas = [*theory_formulas(case), *intro, *(f for i in sorted(read) for f in cards[i])]
    truth: list[Formula] = []
    for q in case.questions:
        for slot in q.slots:
            values = tuple(slot_formula(slot, c.value) for c in slot.choices)
            truth += [Card("exactly", 1, values), slot_formula(slot, slot.answer)]
    drawn = draw(st.lists(detective_strategies.claims(state), min_size=3, max_size=6))
    for claim in drawn:  # a plain answer goes through the audit itself too
        if claim.positive and not isinstance(claim.formula, Not):
            answers = cast(dict[str, dict[str, str | None]], claim.statement)
            [element] = audit_answers(case, state.read, answers, Verifier(SatProver()))
            assert element.check.status is claim.status
            assert (element.check.correctness is Correctness.TRUE) == claim.truth
    hidden = _detective_truth(truth)
    return [
        Case_(c.kind, c.positive, c.status, c.truth, tuple(formulas), c.formula, hidden)
        for c in drawn
    ]


def _detective_truth(truth: Sequence[Formula]) -> Callable[[Formula], bool]:
    """Truth of a claim in the solution, by z3 over the solution's formulas."""
    verifier = Verifier(Z3Prover())

    def holds(claim: Formula) -> bool:
        answer = verifier.entails(truth, claim)
        assert answer is not None
        return answer

    return holds


# --- Mystery: a character's knowledge after hearing testimony ----------------------------------


@st.composite
def mystery_cases(draw: st.DrawFn) -> list[Case_]:
    state = draw(mystery_strategies.states())
    scripts = state.scripts
    setting = scripts.world.setting
    seat = draw(st.integers(0, len(scripts.players) - 1))
    view = state.observation(seat)
    formulas = [a.formula for a in background_theory(setting)]
    formulas += [fact_formula(f, setting) for f in [*view.intro, *view.script]]
    formulas += [
        as_heard(setting, scripts.players[h.answerer], h.facts) for h in view.heard if h.facts
    ]
    out: list[Case_] = []
    for claim in draw(st.lists(mystery_strategies.claims(state, seat), min_size=3, max_size=6)):
        if claim.kind == "culprit":
            crime, person = cast(tuple[int, str], claim.statement)
            base: Formula = atoms.culprit(crime, person)
            real = person in scripts.world.crimes[crime - 1].killers
        else:
            fact = cast(Fact, claim.statement)
            base, real = fact_formula(fact, setting), holds_in(fact, scripts.world)
        hidden = partial(_through_negations, base=base, value=real)
        out.append(
            Case_(
                claim.kind,
                claim.positive,
                claim.status,
                claim.truth,
                tuple(formulas),
                claim.formula,
                hidden,
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
