"""Offline prover-backed Undercover-V play: the checker, role inference, descriptions, votes,
the tie rule, the agent registry, and reproducible games."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formalize.davidsonian.literals import literals_of
from games.core.agents import AgentSpecError
from games.undercover import (
    CheckOutcome,
    Description,
    Lexicon,
    Observation,
    Side,
    UndercoverConfig,
    UndercoverGame,
    WordPair,
    builtin_pairs,
    replay,
)
from games.undercover.agent import SpokenDescription
from games.undercover.agents import (
    AGENTS,
    OFFLINE_AGENTS,
    UndercoverAgentSettings,
    make_agent,
    seat_agents,
)
from games.undercover.checker import ConsistencyTest, ProverChecker
from games.undercover.events import DescriptionEvent
from games.undercover.prover_agent import (
    Assessment,
    Judgement,
    ProverAgent,
    Statement,
    StatementBook,
    StatementLibrary,
    infer_role,
    join_sentences,
    tie_order,
)
from provers.eprover import EProver, eprover_available
from provers.z3_prover import Z3Prover
from reasoning.formula import Formula
from reasoning.prover import Axiom, ProverUnavailable
from reasoning.syntax import parse_formula
from reasoning.verdict import ProofResult, Verdict
from reasoning.vote import VoteProver
from tests.support.played import play_undercover, undercover_header

TEA = next(p for p in builtin_pairs() if p.id == "earl-grey-tea-ceylon-tea")
EARL, CEYLON = "Earl Grey Tea", "Ceylon Tea"


@cache
def lexicon() -> Lexicon:
    return Lexicon.load()


@cache
def shared_test() -> ConsistencyTest:
    return ConsistencyTest(lexicon(), Z3Prover(timeout=20.0))


@cache
def library() -> StatementLibrary:
    return StatementLibrary(lexicon())


def fact_text(word: str, kind: str, index: int = 0) -> str:
    entry = lexicon().entry(word)
    facts = [f for f in entry.facts if f.kind.value == kind]
    return facts[index].text


def observe(
    seat: int,
    word: str,
    said: Sequence[tuple[int, str]],
    *,
    round: int = 1,
    players: int = 6,
    eliminated: Sequence[int] = (),
) -> Observation:
    """An observation of round ``round`` in which ``said`` lists (seat, sentence) in order."""
    return Observation(
        seat=seat,
        word=word,
        round=round,
        players=players,
        living=tuple(s for s in range(players) if s not in eliminated),
        descriptions=tuple(SpokenDescription(round=round, seat=s, text=t) for s, t in said),
        votes=(),
        eliminated=tuple(eliminated),
        consecutive_ties=0,
    )


def statement_of(word: str, text: str) -> Statement:
    """The statement of ``word``'s book whose sentence is ``text``."""
    return next(s for s in library().book(word).statements(word) if s.text == text)


def judged(assessment: Assessment, seat: int) -> Judgement:
    found = assessment.judgement(seat)
    assert found is not None, f"no judgement of seat {seat}"
    return found


def agent(seat: int = 0, seed: int = 0, plain: bool = False, guess: bool = False) -> ProverAgent:
    return ProverAgent(
        shared_test(), seed=seed, seat=seat, library=library(), plain=plain, guess=guess
    )


class FixedProver:
    """Answers every call with one verdict and counts the calls."""

    def __init__(self, verdict: Verdict) -> None:
        self.name = f"fixed-{verdict.value.lower()}"
        self.verdict = verdict
        self.calls = 0

    def prove(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> ProofResult:
        self.calls += 1
        return ProofResult(verdict=self.verdict, prover=self.name, elapsed_s=0.0, message="x")


class MissingProver:
    name = "missing"

    def prove(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> ProofResult:
        raise ProverUnavailable("missing is not installed")


# --- the checker: T(s, Delta) -------------------------------------------------------------------


def test_checker_flags_a_contradicting_description_and_passes_a_true_one() -> None:
    checker = ProverChecker(shared_test())
    bergamot = lexicon().distinctive_facts(EARL)[0]
    said = Description(bergamot.text, formula=bergamot.formula)
    assert checker.check(EARL, said).outcome is CheckOutcome.CONSISTENT
    assert checker.check(CEYLON, said).outcome is CheckOutcome.CONTRADICTS_CARD
    contradiction = checker.records[-1].result
    assert contradiction.status is CheckOutcome.CONTRADICTS_CARD
    assert contradiction.proof is not None and contradiction.proof.verdict is Verdict.VALID
    assert "ceylon_no_bergamot" in contradiction.detail
    typed = Description("It has no added flavouring.", formula_text="~Flavoured(item)")
    assert checker.check(EARL, typed).outcome is CheckOutcome.CONTRADICTS_CARD
    check = checker.check(CEYLON, typed)
    assert check.outcome is CheckOutcome.CONSISTENT
    assert check.reading is not None and check.reading.formula == "~Flavoured(item)"
    assert check.reading.seat_formula is not None and check.reading.seat_formula.accepted
    assert len(checker.records) == 4


@pytest.mark.parametrize("backend", ["eprover", "vote"])
def test_checker_with_other_backends(backend: str) -> None:
    if backend == "eprover" and not eprover_available():
        pytest.skip("E prover not installed (eprover not on PATH)")
    prover = EProver() if backend == "eprover" else VoteProver([Z3Prover()])
    checker = ProverChecker(ConsistencyTest(lexicon(), prover))
    bergamot = lexicon().distinctive_facts(EARL)[0]
    said = Description(bergamot.text, formula=bergamot.formula)
    assert checker.check(CEYLON, said).outcome is CheckOutcome.CONTRADICTS_CARD
    assert checker.check(EARL, said).outcome is CheckOutcome.CONSISTENT
    assert all(r.result.proof is not None for r in checker.records)
    assert {r.result.proof.prover for r in checker.records if r.result.proof} == {prover.name}


def test_checker_without_a_reading_or_with_an_unusable_formula() -> None:
    checker = ProverChecker(shared_test())
    unread, syntax = CheckOutcome.UNREAD, CheckOutcome.SYNTAX_ERROR
    cases = [
        (Description("It is nice."), unread, "words the reader cannot place"),
        (Description("Is it nice?"), CheckOutcome.NO_CLAIM, "a question"),
        (Description("Nice.", formula_text="Nice(item"), syntax, "line 1"),
        (Description("Odd.", formula_text="Tea(item, item)"), syntax, "'Tea'"),
    ]
    for description, outcome, detail in cases:
        assert checker.check(EARL, description).outcome is outcome
        result = checker.records[-1].result
        assert result.status is outcome and detail in result.detail, result.detail


def test_undecided_prover_answers_and_missing_theories_are_recorded_as_undecided() -> None:
    formula = parse_formula("Tea(item)")
    for verdict in (Verdict.UNKNOWN, Verdict.TIMEOUT):
        result = ConsistencyTest(lexicon(), FixedProver(verdict)).test(EARL, [formula])
        assert result.status is CheckOutcome.UNDECIDED
        assert verdict.value in result.detail
    syntax = ConsistencyTest(lexicon(), FixedProver(Verdict.SYNTAX_ERROR)).test(EARL, [formula])
    assert syntax.status is CheckOutcome.SYNTAX_ERROR
    missing = ConsistencyTest(lexicon(), MissingProver()).test(EARL, [formula])
    assert missing.status is CheckOutcome.UNDECIDED and "not installed" in missing.detail
    unknown = shared_test().test("Banana", [formula])
    assert unknown.status is CheckOutcome.UNDECIDED and "Banana" in unknown.detail


def test_results_are_cached_per_word_and_formula_set() -> None:
    prover = FixedProver(Verdict.INVALID)
    test = ConsistencyTest(lexicon(), prover)
    a, b = parse_formula("Tea(item)"), parse_formula("Flavoured(item)")
    assert test.test(EARL, [a, b]).status is CheckOutcome.CONSISTENT
    assert test.test(EARL, [b, a]).status is CheckOutcome.CONSISTENT
    assert test.test("earl grey tea", [a, b]).status is CheckOutcome.CONSISTENT
    assert prover.calls == 1
    test.test(CEYLON, [a, b])
    assert prover.calls == 2


# --- statements ---------------------------------------------------------------------------------


def test_join_sentences() -> None:
    assert join_sentences(["It is a tea."]) == "It is a tea."
    assert join_sentences(["It is a tea.", "Its leaves are black."]) == (
        "It is a tea, and its leaves are black."
    )
    assert join_sentences(["A x.", "B y.", "C z."]) == "A x, b y, and c z."
    with pytest.raises(ValueError, match="at least one"):
        join_sentences([])


def test_the_reader_reads_back_every_statement_agents_say() -> None:
    reader = library().reader
    for pair in lexicon().pairs:
        book = StatementBook(lexicon(), pair)
        for word in pair.words:
            statements = book.statements(word)
            facts = lexicon().facts(word)
            assert len(statements) == sum(len(list(combinations(facts, k))) for k in (1, 2, 3))
            for statement in statements:
                read = reader.read(word, Description(statement.text.upper()))
                assert read.formula is not None, (statement.text, read.record.note)
                assert literals_of(read.formula) == literals_of(statement.formula)
                own = reader.read(word, statement.description()).record.seat_formula
                assert own is not None and own.accepted, own
    coffee = reader.read(EARL, Description("It is a kind of coffee."))
    assert coffee.formula is None and coffee.record.outcome == "unsure"
    with pytest.raises(KeyError, match="not a word of pair"):
        StatementBook(lexicon(), TEA).statements("Ethics")


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_a_citizen_test_never_flags_a_statement_true_of_its_card(data: st.DataObject) -> None:
    pair = data.draw(st.sampled_from(lexicon().pairs))
    word = data.draw(st.sampled_from(pair.words))
    statements = library().book(word).statements(word)
    said = data.draw(st.lists(st.sampled_from(statements), min_size=1, max_size=3, unique=True))
    formulas = [s.formula for s in said]
    assert shared_test().test(word, formulas).status is CheckOutcome.CONSISTENT


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_a_distinctive_statement_contradicts_the_other_card(data: st.DataObject) -> None:
    pair = data.draw(st.sampled_from(lexicon().pairs))
    word = data.draw(st.sampled_from(pair.words))
    telling = [s for s in library().book(word).statements(word) if s.distinctive]
    statement: Statement = data.draw(st.sampled_from(telling))
    other = pair.other(word)
    assert shared_test().test(other, [statement.formula]).status is CheckOutcome.CONTRADICTS_CARD


# --- role inference -----------------------------------------------------------------------------


def test_role_without_evidence_is_citizen() -> None:
    assessment = agent().assess(observe(0, EARL, []))
    assert assessment.role is Side.CITIZENS and assessment.judgements == ()
    shared = fact_text(EARL, "shared")
    assessment = agent().assess(observe(1, EARL, [(0, shared)]))
    assert assessment.role is Side.CITIZENS
    (only,) = assessment.judgements
    assert only.card is CheckOutcome.CONSISTENT and only.other is CheckOutcome.NOT_FORMALISED
    (guessed,) = agent(guess=True).assess(observe(1, EARL, [(0, shared)])).judgements
    assert guessed.card is CheckOutcome.CONSISTENT and guessed.other is CheckOutcome.CONSISTENT
    assert not guessed.holds_my_word and not guessed.holds_other_word


def test_majority_rule_on_a_single_contradiction() -> None:
    said = [(0, fact_text(CEYLON, "distinctive"))]
    assessment = agent(seat=1).assess(observe(1, EARL, said))
    assert assessment.role is Side.SPY and "majority" in assessment.reason
    assert judged(assessment, 0).holds_other_word
    said.append((1, fact_text(EARL, "shared")))
    assessment = agent(seat=2).assess(observe(2, EARL, said))
    assert assessment.role is Side.CITIZENS
    assert "1 contradict my card, 1 agree" in assessment.reason


def test_two_contradictions_prove_spy_even_against_a_majority() -> None:
    said = [
        (0, fact_text(CEYLON, "distinctive", 0)),
        (1, fact_text(EARL, "shared", 0)),
        (2, fact_text(CEYLON, "distinctive", 1)),
        (3, fact_text(EARL, "shared", 1)),
        (4, fact_text(EARL, "shared", 2)),
    ]
    assessment = agent(seat=5).assess(observe(5, EARL, said))
    assert assessment.role is Side.SPY
    assert "0, 2" in assessment.reason


def test_with_the_guess_another_holder_of_my_word_proves_citizen() -> None:
    said = [(0, fact_text(CEYLON, "distinctive", 0))]
    said.append((1, fact_text(EARL, "distinctive", 1)))
    assessment = agent(seat=2, guess=True).assess(observe(2, EARL, said))
    assert assessment.role is Side.CITIZENS and "holds my word" in assessment.reason
    assert judged(assessment, 1).holds_my_word
    assert judged(assessment, 0).holds_other_word
    without = agent(seat=2).assess(observe(2, EARL, said))
    assert without.role is Side.CITIZENS and "no majority" in without.reason
    assert not judged(without, 1).holds_my_word


def test_a_voted_out_citizen_contradicting_my_card_proves_spy() -> None:
    said = [(0, fact_text(CEYLON, "distinctive", 0)), (1, fact_text(EARL, "shared", 0))]
    obs = observe(2, EARL, said, eliminated=[0])
    assessment = agent(seat=2).assess(obs)
    assert assessment.role is Side.SPY and "voted-out" in assessment.reason


def test_infer_role_rules_in_order() -> None:
    inc, con = CheckOutcome.CONTRADICTS_CARD, CheckOutcome.CONSISTENT
    other = Judgement(0, 1, inc, con)
    mine = Judgement(1, 1, con, inc)
    vague = Judgement(2, 1, con, con)
    assert infer_role([other, Judgement(3, 1, inc, con), mine], [])[0] is Side.SPY
    assert infer_role([other, mine], [])[0] is Side.CITIZENS
    assert infer_role([other, mine], [0])[0] is Side.SPY
    assert infer_role([other], [])[0] is Side.SPY
    assert infer_role([other, vague], [])[0] is Side.CITIZENS
    assert infer_role([vague], [])[0] is Side.CITIZENS
    assert infer_role([], [])[0] is Side.CITIZENS


def test_unreadable_descriptions_give_no_evidence() -> None:
    obs = observe(1, EARL, [(0, "It reminds me of my grandmother.")])
    (judged,) = agent(seat=1).assess(obs).judgements
    assert judged.read == 0 and judged.card is CheckOutcome.NOT_FORMALISED


# --- describing ---------------------------------------------------------------------------------


def test_citizen_describes_with_an_unused_distinctive_fact() -> None:
    distinctive = {f.text for f in lexicon().distinctive_facts(EARL)}
    said = [(0, fact_text(EARL, "distinctive", 0))]
    description = agent(seat=1).describe(observe(1, EARL, said))
    assert description.text in distinctive and description.text != said[0][1]
    assert description.formula is not None
    assert shared_test().test(EARL, [description.formula]).status is CheckOutcome.CONSISTENT


def test_believed_spy_blends_in_with_shared_facts() -> None:
    said = [(0, fact_text(CEYLON, "distinctive", 0))]
    a = agent(seat=1)
    description = a.describe(observe(1, EARL, said))
    assert description.text in {f.text for f in lexicon().shared_facts(TEA)}
    assert a.decisions[-1].role is Side.SPY and a.decisions[-1].phase == "describe"


def test_blending_spy_moves_on_to_conjunctions_of_shared_facts() -> None:
    shared = [f.text for f in lexicon().shared_facts(TEA)]
    said = [(0, fact_text(CEYLON, "distinctive", 0)), *((i + 1, t) for i, t in enumerate(shared))]
    said.append((4, fact_text(CEYLON, "distinctive", 1)))
    obs = observe(5, EARL, said)
    description = agent(seat=5).describe(obs)
    statement = statement_of(EARL, description.text)
    assert statement.distinctive == 0 and len(statement.facts) == 2


def test_plain_agent_states_single_facts_of_its_word_whatever_it_believes() -> None:
    said = [(0, fact_text(CEYLON, "distinctive", 0)), (1, fact_text(CEYLON, "distinctive", 1))]
    texts = set()
    for seed in range(12):
        description = agent(seat=2, seed=seed, plain=True).describe(observe(2, EARL, said))
        assert len(statement_of(EARL, description.text).facts) == 1
        texts.add(description.text)
    assert any(t in {f.text for f in lexicon().distinctive_facts(EARL)} for t in texts)


def test_descriptions_never_repeat_and_fall_back_when_everything_is_said() -> None:
    statements = library().book(EARL).statements(EARL)
    said = [(i % 6, s.text) for i, s in enumerate(statements)]
    obs = observe(0, EARL, said[:-1])
    assert agent().describe(obs).text == said[-1][1]
    exhausted = agent(seat=3).describe(observe(3, EARL, said, round=7))
    assert exhausted.formula is None and "round 7" in exhausted.text


# --- voting and the tie rule --------------------------------------------------------------------


def test_citizen_votes_for_the_player_contradicting_its_card() -> None:
    said = [
        (0, fact_text(EARL, "distinctive", 0)),
        (1, fact_text(EARL, "shared", 0)),
        (2, fact_text(CEYLON, "shared", 1)),
        (3, fact_text(CEYLON, "distinctive", 0)),
        (4, fact_text(EARL, "distinctive", 1)),
        (5, fact_text(EARL, "distinctive", 2)),
    ]
    for seat in (0, 1, 2, 4, 5):
        assert agent(seat=seat).vote(observe(seat, EARL, said)) == 3


def test_tie_rule_is_a_seeded_permutation_shared_by_the_game() -> None:
    order = tie_order(5, 2, 6)
    assert sorted(order) == list(range(6))
    assert tie_order(5, 2, 6) == order
    assert {tie_order(5, r, 6) for r in range(1, 8)} != {order}
    said = [(s, fact_text(EARL, "shared", s % 3) + " " * s) for s in range(6)]
    obs_round = 2
    first = tie_order(11, obs_round, 6)
    for seat in range(6):
        vote = agent(seat=seat, seed=11).vote(observe(seat, EARL, said, round=obs_round))
        expected = first[0] if first[0] != seat else first[1]
        assert vote == expected


def test_with_the_guess_ties_prefer_unconfirmed_players() -> None:
    said = [
        (0, fact_text(EARL, "distinctive", 0)),
        (1, fact_text(EARL, "shared", 0)),
        (2, fact_text(EARL, "distinctive", 1)),
        (3, fact_text(EARL, "shared", 1)),
    ]
    for seed in range(6):
        vote = agent(seat=4, seed=seed, guess=True).vote(observe(4, EARL, said, players=5))
        assert vote == next(s for s in tie_order(seed, 1, 5) if s in (1, 3))
        blind_vote = agent(seat=4, seed=seed).vote(observe(4, EARL, said, players=5))
        assert blind_vote == next(s for s in tie_order(seed, 1, 5) if s != 4)


def test_believed_spy_votes_for_a_citizen_as_the_citizens_would() -> None:
    said = [
        (0, fact_text(CEYLON, "distinctive", 0)),
        (1, fact_text(CEYLON, "shared", 0)),
        (2, fact_text(CEYLON, "distinctive", 1)),
        (3, fact_text(EARL, "shared", 1)),
    ]
    for seed in range(6):
        spy = agent(seat=3, seed=seed, guess=True)
        vote = spy.vote(observe(3, EARL, said, players=4))
        assert spy.decisions[-1].role is Side.SPY
        assert vote == 1
        citizen = agent(seat=0, seed=seed, guess=True)
        assert citizen.vote(observe(0, CEYLON, said, players=4)) in (1, 3)
        blind = agent(seat=3, seed=seed)
        assert blind.vote(observe(3, EARL, said, players=4)) == next(
            s for s in tie_order(seed, 1, 4) if s != 3
        )


# --- registry -----------------------------------------------------------------------------------


def test_registry_names_and_errors() -> None:
    assert OFFLINE_AGENTS == ("prover", "prover-guess", "plain", "random")
    assert {"nli", "att-nli", "ns-att-nli"} <= set(AGENTS.names)
    assert AGENTS.parse("prover*3, plain,prover") == (
        "prover",
        "prover",
        "prover",
        "plain",
        "prover",
    )
    with pytest.raises(AgentSpecError, match="unknown agent 'wizard'"):
        AGENTS.parse("prover,wizard")
    with pytest.raises(AgentSpecError, match="empty entry"):
        AGENTS.parse("prover,,plain")
    with pytest.raises(AgentSpecError, match="name\\*count"):
        AGENTS.parse("prover*x")
    settings = UndercoverAgentSettings(lexicon=lexicon(), test=shared_test(), library=library())
    made = make_agent("plain", 2, 9, settings)
    assert isinstance(made, ProverAgent) and made.plain and made.name == "plain"
    guessing = make_agent("prover-guess", 1, 9, settings)
    assert isinstance(guessing, ProverAgent) and guessing.guess and not guessing.plain
    assert guessing.name == "prover-guess" and guessing.seed == 9 and guessing.seat == 1
    with pytest.raises(AgentSpecError, match="needs an LLM endpoint"):
        make_agent("nli", 0, 0, settings)


def test_seat_agents_puts_the_spy_agent_in_the_spy_seat() -> None:
    settings = UndercoverAgentSettings(lexicon=lexicon(), test=shared_test(), library=library())
    game = UndercoverGame(UndercoverConfig(players=6, tie_limit=3), TEA, 4)
    seated = seat_agents(["prover"] * 6, game, settings, spy_agent="plain")
    assert [a.name for a in seated].count("plain") == 1
    assert seated[game.spy_seat].name == "plain"
    with pytest.raises(AgentSpecError, match="5 given for 6 seats"):
        seat_agents(["prover"] * 5, game, settings)


# --- whole games --------------------------------------------------------------------------------


def play(pair: WordPair, seed: int, spy: str, citizens: str) -> tuple[UndercoverGame, list[str]]:
    settings = UndercoverAgentSettings(lexicon=lexicon(), test=shared_test(), library=library())
    game = UndercoverGame(UndercoverConfig(players=6, tie_limit=3), pair, seed)
    seated = seat_agents([citizens] * 6, game, settings, spy_agent=spy)
    play_undercover(game, seated, ProverChecker(settings.test))
    return game, [a.name for a in seated]


@pytest.mark.parametrize("seed", [0, 3, 8])
def test_offline_games_are_reproducible_by_seed(seed: int) -> None:
    first, names = play(TEA, seed, "prover", "plain")
    second, _ = play(TEA, seed, "prover", "plain")
    assert first.events == second.events
    again = replay(undercover_header(first, names), [first.start_event(), *first.events])
    assert again.result == first.result
    other, _ = play(TEA, seed + 1, "prover", "plain")
    assert other.events != first.events


def test_honest_agents_never_contradict_their_cards() -> None:
    for pair in builtin_pairs()[:4]:
        for seed in range(3):
            game, _ = play(pair, seed, "plain", "prover")
            outcomes = {e.outcome for e in game.events if isinstance(e, DescriptionEvent)}
            assert outcomes == {CheckOutcome.CONSISTENT}


def test_prover_citizens_catch_a_plain_spy() -> None:
    results = [
        play(pair, seed, "plain", "prover")[0].result
        for pair in builtin_pairs()[:5]
        for seed in range(4)
    ]
    assert all(r is not None for r in results)
    won = sum(1 for r in results if r is not None and r.winner is Side.CITIZENS)
    assert won > len(results) // 2
