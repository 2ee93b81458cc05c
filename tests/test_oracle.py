"""The Clue knowledge grid as an entailment oracle agrees with the Verifier over the same
knowledge, and every audit uses the one sound / lucky / wrong judgement."""

from __future__ import annotations

from formalize.clue.oracle import GridOracle
from formalize.clue.setup import ClueSetup, Fact
from games.clue import ClueConfig, ClueGame, random_agent
from games.clue.knowledge import PlayerView, clue_setup
from provers.sat_session import SatSession
from provers.z3_prover import Z3Prover
from reasoning.claims import ClaimStatus, Correctness, judge
from reasoning.formula import And, Atom, Not
from reasoning.oracle import claim_status
from reasoning.verifier import Verifier
from tests.support.played import play_clue

SMALL = ClueConfig(
    players=3,
    suspects=("Plum", "Green"),
    weapons=("Rope", "Knife"),
    rooms=("Hall", "Study", "Lounge"),
)


def test_the_grid_oracle_classifies_every_cell_as_the_verifier_does() -> None:
    game = ClueGame(SMALL, 5)
    play_clue(game, [random_agent(s) for s in range(3)])
    setup = clue_setup(SMALL)
    view = PlayerView(setup, SatSession, 0, game.hands[0])
    for event in game.events[:12]:
        view.observe(event)
    knowledge = view.knowledge
    grid = knowledge.grid()
    oracle = GridOracle(grid)
    verifier = Verifier(Z3Prover())
    facts = grid.facts()[:6] + [f for f in setup_facts(setup) if f not in grid.facts()][:4]
    statuses = set()
    for fact in facts:
        claim = setup.fact_formula(fact)
        status = claim_status(oracle, claim)
        assert status is grid.status(fact)
        assert verifier.check(list(knowledge.formulas), claim).status is status
        statuses.add(status)
    assert ClaimStatus.ENTAILED in statuses and ClaimStatus.UNDETERMINED in statuses
    name = setup.atom_names()[0]
    assert oracle.entails(And((Atom(name), Atom(name)))) is None
    assert oracle.entails(Atom("no_such_cell")) is None
    assert claim_status(oracle, Not(Atom("no_such_cell"))) is ClaimStatus.UNKNOWN
    view.close()


def setup_facts(setup: ClueSetup) -> list[Fact]:
    return [Fact("holds", card, 1) for card in ("Plum", "Green", "Rope", "Knife", "Hall")]


def test_one_judgement() -> None:
    assert judge(ClaimStatus.ENTAILED, Correctness.TRUE) == "sound"
    assert judge(ClaimStatus.UNDETERMINED, Correctness.TRUE) == "lucky"
    assert judge(ClaimStatus.ENTAILED, Correctness.FALSE) == "wrong"
    assert judge(ClaimStatus.CONTRADICTED, None) == "unjudged"
