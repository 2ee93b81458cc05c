"""The neuro-symbolic pipeline (seed 002, Appendix B) through the scripted chat server and Z3."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from games.undercover.agent import Observation, RoundVote, SpokenDescription
from games.undercover.events import Ballot
from games.undercover.pipeline import (
    MAX_SYNTAX_REFINEMENTS,
    NeuroSymbolicPipeline,
    PipelineSettings,
    Validity,
    select_backend,
    theory_text,
    with_goal_line,
    word_goal,
    word_predicate,
)
from provers.isabelle.prover import IsabelleProver
from provers.isabelle.server import IsabelleServer
from provers.z3_prover import Z3Prover
from reasoning.formula import Formula
from reasoning.llm import LLMSettings, OpenAIChatClient
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer
from reasoning.prover import Axiom
from reasoning.sorts import erase_sorts
from reasoning.strategies import SMALL_SIGNATURE, fol_formulas
from reasoning.syntax import format_formula, parse_formula
from reasoning.theory import parse_theory
from reasoning.verdict import ProofResult, Verdict
from tests.support.isabelle_server import FakeIsabelleServer

WORD = "Earl Grey Tea"
GUESS = "Ceylon Tea"

BERGAMOT = "It is flavoured with oil of bergamot."
ISLAND = "It is named after an island."
HOT_WATER = "It is brewed in hot water."
TO_EARL_GREY = "If something is flavoured with oil of bergamot, it is Earl Grey Tea."
TO_CEYLON = "Whatever is named after an island is Ceylon Tea."
APART = "Nothing is both Ceylon Tea and Earl Grey Tea."
TO_TEA = "Whatever is brewed in hot water is a tea."

BROKEN_HOT_WATER = "exists e y. Brew(e) & Patient(e, item) & HotWater(y) & Location(e y)"
FIXED_HOT_WATER = "exists e y. Brew(e) & Patient(e, item) & HotWater(y) & Location(e, y)"

FORMS: dict[str, list[str]] = {
    BERGAMOT: ["exists e y. Flavour(e) & Patient(e, item) & BergamotOil(y) & Instrument(e, y)"],
    ISLAND: ["exists e y. Name(e) & Patient(e, item) & Island(y) & Source(e, y)"],
    HOT_WATER: [BROKEN_HOT_WATER],
    TO_EARL_GREY: [
        "forall x e y. Flavour(e) & Patient(e, x) & BergamotOil(y) & Instrument(e, y) "
        "-> EarlGreyTea(x)"
    ],
    TO_CEYLON: ["forall x e y. Name(e) & Patient(e, x) & Island(y) & Source(e, y) -> CeylonTea(x)"],
    APART: ["forall x. CeylonTea(x) -> ~EarlGreyTea(x)"],
    TO_TEA: ["forall x e y. Brew(e) & Patient(e, x) & HotWater(y) & Location(e, y) -> Tea(x)"],
}
RULES: dict[str, list[str]] = {
    BERGAMOT: [TO_EARL_GREY],
    ISLAND: [TO_CEYLON, APART],
    HOT_WATER: [TO_TEA],
}


class Responder:
    """A callable chat script answering the pipeline's requests by task.

    Logical forms come from ``forms`` (sentence -> the reply for each repair round, the last one
    repeated), rules from ``rules`` (first fact -> rule sentences), syntax refinements,
    guess updates, first guesses, descriptions, votes and sketches from their queues (a queue
    with one reply left keeps answering with it).
    """

    def __init__(
        self,
        forms: Mapping[str, Sequence[str]] = FORMS,
        rules: Mapping[str, Sequence[str]] = RULES,
        **queues: Sequence[str],
    ) -> None:
        self.forms = forms
        self.rules = rules
        self.queues = {task: list(replies) for task, replies in queues.items()}
        self.asked: dict[str, list[ChatRequest]] = {}

    @staticmethod
    def state(request: ChatRequest) -> str:
        """The request's first user message after the earlier rounds' history (from round 3)."""
        users = [str(m["content"]) for m in request.messages if m["role"] == "user"]
        return next(u for u in users if not u.startswith("Earlier game history"))

    def task(self, request: ChatRequest) -> str:
        head = str(request.messages[0]["content"])
        first_user = self.state(request)
        if head.startswith("You turn English sentences"):
            return "formalize"
        if head.startswith("You write general rules"):
            return "rules"
        if head.startswith("You repair theories"):
            return "refine"
        if head.startswith("You write proof sketches"):
            return "sketch"
        for label, task in (("DECISION:", "update"), ("GUESS:", "guess")):
            if f"\n{label}" in first_user:
                return task
        return "vote" if "\nVOTE:" in first_user else "describe"

    def __call__(self, request: ChatRequest) -> str:
        task = self.task(request)
        self.asked.setdefault(task, []).append(request)
        if task == "formalize":
            sentence = (
                str(request.messages[1]["content"]).splitlines()[0].removeprefix("Sentence: ")
            )
            replies = self.forms[sentence]
            round_ = sum(1 for m in request.messages if m["role"] == "assistant")
            return f"FORMULA: {replies[min(round_, len(replies) - 1)]}"
        if task == "rules":
            first_fact = str(request.messages[1]["content"]).split("\n")[1].removeprefix("- ")
            return "RULES:\n" + "\n".join(f"- {r}" for r in self.rules[first_fact])
        queue = self.queues[task]
        return queue.pop(0) if len(queue) > 1 else queue[0]


@contextmanager
def scripted(responder: Responder) -> Iterator[tuple[ScriptedChatServer, OpenAIChatClient]]:
    """The scripted server answering through ``responder``, and a real client pointed at it."""
    with ScriptedChatServer(responder) as server:
        llm_settings = LLMSettings(base_url=server.base_url, model="scripted", max_retries=0)
        yield server, OpenAIChatClient(llm_settings, sleep=lambda _: None)
        assert server.errors == []


def observation(
    spoken: Sequence[tuple[int, int, str]],
    *,
    seat: int = 0,
    word: str = WORD,
    round: int = 1,
    living: Sequence[int] = (0, 1, 2, 3),
    votes: Sequence[RoundVote] = (),
) -> Observation:
    """Seat ``seat``'s view with the descriptions ``(round, seat, text)``."""
    players = 4
    return Observation(
        seat=seat,
        word=word,
        round=round,
        players=players,
        living=tuple(living),
        descriptions=tuple(SpokenDescription(round=r, seat=s, text=t) for r, s, t in spoken),
        votes=tuple(votes),
        eliminated=tuple(s for s in range(players) if s not in living),
        consecutive_ties=0,
    )


ROUND_ONE = [(1, 1, BERGAMOT), (1, 2, ISLAND), (1, 3, HOT_WATER)]


class ScriptedProver:
    """A backend answering from a list of verdicts (the last one repeated), counting its calls."""

    def __init__(self, verdicts: Sequence[Verdict], message: str = "") -> None:
        self.name = "scripted"
        self.verdicts = list(verdicts)
        self.message = message
        self.calls: list[tuple[tuple[Axiom, ...], Formula]] = []

    def prove(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> ProofResult:
        self.calls.append((tuple(axioms), goal))
        verdict = self.verdicts[min(len(self.calls), len(self.verdicts)) - 1]
        return ProofResult(verdict=verdict, prover=self.name, elapsed_s=0.0, message=self.message)


def test_the_record_labels_valid_invalid_and_syntax_error() -> None:
    refinements = [f"```\n{parse_theory_text_broken()}\n```"]
    responder = Responder(refine=refinements)
    with scripted(responder) as (_, client):
        pipeline = NeuroSymbolicPipeline(client, Z3Prover())
        record = pipeline.record(observation(ROUND_ONE), GUESS)
    assert record.labels() == {
        1: Validity.VALID,
        2: Validity.INVALID,
        3: Validity.SYNTAX_ERROR,
    }
    valid, invalid, broken = record.entries
    assert valid.verdict is Verdict.VALID and valid.ballots == (Verdict.VALID, Verdict.VALID)
    assert valid.facts == (BERGAMOT,) and valid.rules == (TO_EARL_GREY,)
    assert invalid.verdict is Verdict.INVALID and invalid.trace is not None
    assert invalid.trace.startswith("countermodel:") and "CeylonTea" in invalid.trace
    assert broken.refinements == MAX_SYNTAX_REFINEMENTS
    assert broken.unformalised == (HOT_WATER,)
    assert len(responder.asked["refine"]) == MAX_SYNTAX_REFINEMENTS
    # The parser's line and column go back to the LLM with the theory.
    request = responder.asked["refine"][0].last_user
    assert "theory:3:" in request and "Location(e y)" in request
    # Rules are written for my word and the guess; both predicates are known to the formalizer.
    rules_request = responder.asked["rules"][0].last_user
    assert '"Earl Grey Tea", "Ceylon Tea"' in rules_request
    assert "EarlGreyTea" in responder.asked["formalize"][0].last_user
    block = record.prompt_block()
    assert "player 1: valid" in block and "player 3: syntax error" in block
    assert f"fact: {ISLAND}" in block and f"rule: {APART}" in block


def parse_theory_text_broken() -> str:
    """Seat 3's theory as first built: its broken fact still fails to parse."""
    return theory_text(
        [("fact_1", HOT_WATER, BROKEN_HOT_WATER), ("rule_1", TO_TEA, FORMS[TO_TEA][0])],
        word_goal(WORD),
    )


def test_syntax_refinement_repairs_a_theory() -> None:
    fixed = theory_text(
        [("fact_1", HOT_WATER, FIXED_HOT_WATER), ("rule_1", TO_TEA, FORMS[TO_TEA][0])],
        word_goal(WORD),
    )
    responder = Responder(refine=[f"Here is the fix:\n```\n{fixed}```"])
    with scripted(responder) as (_, client):
        pipeline = NeuroSymbolicPipeline(client, Z3Prover())
        entry = pipeline.verify(3, [HOT_WATER], WORD, GUESS)
    assert entry.label is Validity.INVALID and entry.refinements == 1
    assert entry.verdict is Verdict.INVALID
    assert parse_theory(entry.theory).axioms[0].formula == parse_theory(fixed).axioms[0].formula


def test_algorithm_1_stops_after_five_refinements_of_backend_syntax_errors() -> None:
    prover = ScriptedProver([Verdict.SYNTAX_ERROR], message="line 14: Type unification failed")
    text = theory_text([("fact_1", BERGAMOT, FORMS[BERGAMOT][0])], word_goal(WORD))
    responder = Responder(refine=[f"```\n{text}```"])
    with scripted(responder) as (_, client):
        pipeline = NeuroSymbolicPipeline(client, prover, PipelineSettings(max_rules=0))
        entry = pipeline.verify(1, [BERGAMOT], WORD, None)
    assert entry.label is Validity.SYNTAX_ERROR and entry.refinements == 5
    assert len(responder.asked["refine"]) == 5
    assert all("Type unification failed" in r.last_user for r in responder.asked["refine"])
    # one check before each refinement and one after the last, then one more vote attempt
    assert len(prover.calls) == 5 + 1 + 1
    assert entry.ballots == (Verdict.SYNTAX_ERROR, Verdict.SYNTAX_ERROR)


def test_fewer_refinements_by_setting() -> None:
    prover = ScriptedProver([Verdict.SYNTAX_ERROR], message="bad")
    text = theory_text([("fact_1", BERGAMOT, FORMS[BERGAMOT][0])], word_goal(WORD))
    responder = Responder(refine=[f"```\n{text}```"])
    fewer = PipelineSettings(max_rules=0, max_refinements=2)
    with scripted(responder) as (_, client):
        entry = NeuroSymbolicPipeline(client, prover, fewer).verify(1, [BERGAMOT], WORD, None)
    assert entry.refinements == 2 and len(responder.asked["refine"]) == 2


def test_the_vote_settles_an_inconsistent_prover_by_majority() -> None:
    prover = ScriptedProver([Verdict.VALID, Verdict.UNKNOWN, Verdict.UNKNOWN])
    with scripted(Responder()) as (_, client):
        pipeline = NeuroSymbolicPipeline(client, prover, PipelineSettings(max_rules=0))
        entry = pipeline.verify(1, [BERGAMOT], WORD, None)
    assert entry.ballots == (Verdict.VALID, Verdict.UNKNOWN, Verdict.UNKNOWN)
    assert entry.verdict is Verdict.UNKNOWN and entry.label is Validity.INVALID


def test_settings_are_validated_by_field() -> None:
    with pytest.raises(ValidationError, match="max_refinements"):
        PipelineSettings(max_refinements=MAX_SYNTAX_REFINEMENTS + 1)
    with pytest.raises(ValidationError, match="backend"):
        PipelineSettings.model_validate({"backend": "prolog"})


def test_records_are_cached_across_phases() -> None:
    responder = Responder(refine=[f"```\n{parse_theory_text_broken()}\n```"])
    with scripted(responder) as (server, client):
        pipeline = NeuroSymbolicPipeline(client, Z3Prover())
        pipeline.record(observation(ROUND_ONE), GUESS)
        before = len(server.requests)
        again = pipeline.record(observation(ROUND_ONE, round=1), GUESS)
        assert len(server.requests) == before
    assert [e.seat for e in again.entries] == [1, 2, 3]


def test_failed_rules_are_counted_and_left_out() -> None:
    responder = Responder(rules={BERGAMOT: []})
    with scripted(responder) as (_, client):
        pipeline = NeuroSymbolicPipeline(client, Z3Prover())
        entry = pipeline.verify(1, [BERGAMOT], WORD, None)
    assert entry.rules == () and entry.label is Validity.INVALID
    assert len(responder.asked["rules"]) == 4
    assert pipeline.fallbacks.counts == {"rules": {"unparsed": 1}}


AFTER_VOTE = RoundVote(
    round=1,
    ballots=(
        Ballot(voter=0, target=2),
        Ballot(voter=1, target=2),
        Ballot(voter=2, target=1),
        Ballot(voter=3, target=2),
    ),
    eliminated=2,
)


def round_two(seat: int = 0, word: str = WORD) -> Observation:
    return observation(
        ROUND_ONE, seat=seat, word=word, round=2, living=(0, 1, 3), votes=[AFTER_VOTE]
    )


def test_guess_refinement_is_fed_by_a_countermodel() -> None:
    update = (
        "REASONING: the island points elsewhere.\nROLE: spy\nDECISION: update\nGUESS: Ceylon Tea"
    )
    responder = Responder(update=[update])
    with scripted(responder) as (_, client):
        pipeline = NeuroSymbolicPipeline(client, Z3Prover())
        refinement = pipeline.refine_guess(round_two(), "Green Tea", "spy")
    assert refinement is not None
    assert (refinement.seat, refinement.old_guess, refinement.new_guess) == (2, "Green Tea", GUESS)
    assert refinement.decision == "updated" and refinement.provable is False
    assert refinement.trace is not None and refinement.trace.startswith("countermodel:")
    prompt = responder.asked["update"][0].last_user
    assert "countermodel:" in prompt and "goal: GreenTea(item)" in prompt
    assert f"# {ISLAND}" in prompt and "goal: EarlGreyTea(item)" not in prompt
    assert "Player 2 was voted out" in prompt and '"Green Tea"' in prompt


def test_a_guess_the_theory_proves_is_kept_without_asking() -> None:
    responder = Responder()
    with scripted(responder) as (_, client):
        pipeline = NeuroSymbolicPipeline(client, Z3Prover())
        refinement = pipeline.refine_guess(round_two(), GUESS, "citizen")
    assert refinement is not None and refinement.decision == "kept"
    assert refinement.provable is True and refinement.new_guess == GUESS
    assert "update" not in responder.asked


def test_a_citizen_may_keep_the_guess() -> None:
    keep = "REASONING: they voted out a citizen.\nROLE: citizen\nDECISION: keep\nGUESS: Green Tea"
    responder = Responder(update=[keep])
    with scripted(responder) as (_, client):
        pipeline = NeuroSymbolicPipeline(client, Z3Prover())
        refinement = pipeline.refine_guess(round_two(), "Green Tea", "citizen")
    assert refinement is not None and refinement.decision == "kept"
    assert refinement.provable is False and refinement.new_guess == "Green Tea"


def test_refinement_is_skipped_unless_the_voted_out_entry_is_invalid() -> None:
    vote = AFTER_VOTE.model_copy(update={"eliminated": 1})
    obs = observation(ROUND_ONE, round=2, living=(0, 2, 3), votes=[vote])
    tie = AFTER_VOTE.model_copy(update={"eliminated": None})
    with scripted(Responder()) as (_, client):
        pipeline = NeuroSymbolicPipeline(client, Z3Prover())
        skipped = pipeline.refine_guess(obs, GUESS, "citizen")
        after_tie = pipeline.refine_guess(
            observation(ROUND_ONE, round=2, votes=[tie]), GUESS, "citizen"
        )
    assert skipped is not None and skipped.decision == "skipped" and "valid" in skipped.reason
    assert after_tie is None


def test_an_unusable_update_keeps_the_guess_and_is_counted() -> None:
    responder = Responder(update=["DECISION: update\nGUESS: Earl Grey Tea"])
    with scripted(responder) as (_, client):
        pipeline = NeuroSymbolicPipeline(client, Z3Prover())
        refinement = pipeline.refine_guess(round_two(), "Green Tea", "spy")
    assert refinement is not None and refinement.new_guess == "Green Tea"
    assert len(responder.asked["update"]) == 4
    assert pipeline.fallbacks.counts == {"guess": {"unparsed": 1}}


def test_with_isabelle_the_trace_is_the_first_failing_sketch_step() -> None:
    sketch = '```\nhave "p_Island c_item" <ATP>\nthen show ?thesis <ATP>\n```'
    update = "ROLE: spy\nDECISION: update\nGUESS: Ceylon Tea"
    responder = Responder(sketch=[sketch], update=[update])
    with FakeIsabelleServer() as fake, scripted(responder) as (_, client):
        server = IsabelleServer.connect(fake.host, fake.port, fake.password)
        try:
            prover = IsabelleProver(server=server, timeout=10.0)
            pipeline = NeuroSymbolicPipeline(client, prover)
            refinement = pipeline.refine_guess(round_two(), "Green Tea", "spy")
        finally:
            server.close()
    assert refinement is not None and refinement.decision == "updated"
    assert refinement.trace is not None
    assert 'first failing step (UNKNOWN): have "p_Island c_item"' in refinement.trace
    assert "p_GreenTea c_item" in responder.asked["sketch"][0].last_user
    assert "first failing step" in responder.asked["update"][0].last_user


def test_backend_selection() -> None:
    assert select_backend("auto").name == "z3"
    assert select_backend("z3").name == "z3"


@pytest.mark.parametrize(
    ("word", "predicate"),
    [
        ("Earl Grey Tea", "EarlGreyTea"),
        ("Impatiens hawkeri", "ImpatiensHawkeri"),
        ("lip-cream", "LipCream"),
        ("3D print", "W3DPrint"),
    ],
)
def test_word_predicate(word: str, predicate: str) -> None:
    assert word_predicate(word) == predicate
    assert word_goal(word) == parse_formula(f"{predicate}(item)")


def test_word_predicate_needs_letters() -> None:
    with pytest.raises(ValueError, match="no letters"):
        word_predicate(" -- ")


def test_theory_text_reads_back() -> None:
    text = theory_text(
        [
            ("fact_1", "It is a tea #1.", "Tea(item)"),
            ("rule_1", "Teas are drinks.", "forall x. Tea(x) -> Drink(x)"),
        ],
        word_goal(WORD),
        header="a header",
    )
    theory = parse_theory(text)
    assert [a.name for a in theory.axioms] == ["fact_1", "rule_1"]
    assert theory.goal == parse_theory("goal: EarlGreyTea(item)").goal


def test_with_goal_line_replaces_the_goal_only() -> None:
    text = "# a tea\naxiom fact_1: Tea(item)\ngoal: EarlGreyTea(\n    item)\n# after\n"
    replaced = with_goal_line(text, word_goal(GUESS))
    assert replaced == "# a tea\naxiom fact_1: Tea(item)\n# after\ngoal: CeylonTea(item)\n"


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(st.text(max_size=30), st.text("a #\n\r:goalxiom", max_size=20)),
            fol_formulas(SMALL_SIGNATURE, max_depth=2, with_sorts=False),
        ),
        min_size=1,
        max_size=3,
    )
)
def test_theory_text_keeps_every_axiom_whatever_the_sentence(
    items: list[tuple[str, Formula]],
) -> None:
    entries = [
        (f"fact_{i}", sentence, format_formula(formula))
        for i, (sentence, formula) in enumerate(items, start=1)
    ]
    theory = parse_theory(theory_text(entries, word_goal(WORD), header="property"))
    assert [erase_sorts(a.formula) for a in theory.axioms] == [f for _, f in items]
    assert theory.goal is not None and erase_sorts(theory.goal) == word_goal(WORD)
