"""Every Undercover-V description is read (``games.undercover.reading``): the card rule and the
audit on every decided reading, formulas checked against their sentences, the offline reader
never wrong on generated descriptions, and the LLM reader where the offline reader is unsure."""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from benchmarks.console.cli import app
from benchmarks.freetext_bench import read_by_rule
from formalize.davidsonian.literals import Claim, conjunction, literals_of
from formalize.reading.attribute_check import check_formula
from formalize.reading.llm_reader import LLMReader
from games.core.runlog import EventLog
from games.undercover import Description, Observation, UndercoverConfig, UndercoverGame
from games.undercover.audit import audit_record
from games.undercover.checker import ConsistencyTest, ProverChecker
from games.undercover.entry import ENTRY
from games.undercover.events import CheckOutcome, DescriptionEvent, ViolationEvent
from games.undercover.lexicon import Fact, Lexicon
from games.undercover.reading import DescriptionReader, pair_vocabulary
from games.undercover.words import pair_catalogue
from reasoning.llm import LLMSettings, make_client
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer
from reasoning.syntax import parse_formula
from reasoning.verifier import ClaimStatus
from tests.support.played import play_undercover
from tests.test_undercover_cli import _scripted

runner = CliRunner()
TEA = pair_catalogue()["earl-grey-tea-ceylon-tea"]
EARL, CEYLON = "Earl Grey Tea", "Ceylon Tea"
THE_STATEMENT = "It is a kind of tea, and it has no added flavouring."
"""What the nli spy holding Earl Grey said in a live game against SmolLM2: Ceylon tea's."""
ISLAND = "exists e y. Name(e) & Patient(e, item) & Island(y) & Source(e, y)"


@cache
def lexicon() -> Lexicon:
    return Lexicon.load()


@cache
def checker() -> ProverChecker:
    return ProverChecker(ConsistencyTest(lexicon()))


def check(word: str, text: str, formula: str | None = None) -> tuple[CheckOutcome, str | None]:
    found = checker().check(word, Description(text, formula_text=formula))
    assert found.reading is not None
    return found.outcome, found.reading.formula


def test_the_earl_grey_statement_contradicts_an_earl_grey_card() -> None:
    found = checker().check(EARL, Description(THE_STATEMENT))
    assert found.outcome is CheckOutcome.CONTRADICTS_CARD
    reading = found.reading
    assert reading is not None and reading.reader == "offline" and reading.calls == 0
    assert reading.outcome == "claims" and reading.formula == "Tea(item) & ~Flavoured(item)"
    assert [(c.attribute, c.holds, c.words) for c in reading.claims] == [
        ("it is a kind of tea", True, "It is a kind of tea"),
        ("it is a flavoured tea", False, "it has no added flavouring"),
    ]
    assert reading.check is not None and reading.check.accepted
    assert reading.check.rendering == "The item is a tea and the item is not flavoured."
    assert check(CEYLON, THE_STATEMENT)[0] is CheckOutcome.CONSISTENT


def test_a_question_asserts_nothing_and_a_sentence_about_the_other_word_neither() -> None:
    assert check(EARL, "It is named after an island?") == (CheckOutcome.NO_CLAIM, None)
    assert check(EARL, "Ceylon tea is named after an island.") == (CheckOutcome.NO_CLAIM, None)
    assert check(EARL, "It is named after an island.")[0] is CheckOutcome.CONTRADICTS_CARD
    assert check(EARL, "It smells of summer.") == (CheckOutcome.UNREAD, None)


def test_a_formalisers_reading_of_the_other_words_sentence_is_refused_not_a_violation() -> None:
    found = checker().check(
        EARL, Description("Ceylon tea is named after an island.", formula_text=ISLAND)
    )
    assert found.outcome is CheckOutcome.NO_CLAIM
    seat = found.reading.seat_formula if found.reading is not None else None
    assert seat is not None and not seat.accepted and seat.failed == "sentence"
    assert seat.rendering is not None and "island" in seat.rendering


@pytest.mark.parametrize(
    ("formula", "failed"),
    [
        ("exists x z. Name(x) & Theme(x, item) & Islands(z) & Source(x, z)", None),
        ("Island(ceylon)", "subject"),
        ("exists e. Say(e) & Topic(e, item)", "vocabulary"),
        ("Tea(item) | Flavoured(item)", "literals"),
        (
            "exists e y. Name(e) & Patient(e, item) & Island(y) & British(y) & Source(e, y)",
            "rendering",
        ),
        ("Tea(item)", "sentence"),
        ("Name(item", "syntax"),
        ("Tea(item, item)", "syntax"),
    ],
)
def test_a_speakers_formula_is_checked_step_by_step(formula: str, failed: str | None) -> None:
    found = checker().check(
        CEYLON, Description("It is named after an island.", formula_text=formula)
    )
    reading = found.reading
    assert reading is not None and reading.seat_formula is not None
    assert reading.seat_formula.failed == failed, reading.seat_formula
    assert reading.seat_formula.accepted == (failed is None)
    assert found.outcome is CheckOutcome.CONSISTENT  # the sentence's own reading, either way


def test_every_attribute_literal_of_every_pair_renders_and_reads_back() -> None:
    reader = DescriptionReader(lexicon())
    checked = 0
    for pair in lexicon().pairs:
        offline = reader.offline(pair.words[0])
        assert offline.ambiguous == ()
        for attribute in offline.vocabulary.attributes:
            for holds in (True, False):
                claim = Claim(attribute.core, holds)
                found = check_formula(offline, conjunction([claim]), [claim])
                assert found.accepted, (attribute.name, holds, found)
                checked += 1
    assert checked > 200


# --- generated descriptions: the offline reader is never wrong ------------------------------


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


@st.composite
def described(draw: st.DrawFn) -> tuple[str, str, frozenset[Claim] | None]:
    """A description of facts of a pair, each stated, denied, hedged or replaced by words no
    lexicon holds, joined in one sentence or several, sometimes a question, a contrast or a
    sentence about the other word; and its truth (None: the reader cannot know it)."""
    pair = draw(st.sampled_from(lexicon().pairs))
    word = draw(st.sampled_from(pair.words))
    other = pair.other(word)
    facts: list[Fact] = [f for w in pair.words for f in lexicon().facts(w)]
    chosen = draw(st.lists(st.sampled_from(facts), min_size=1, max_size=3))
    clauses: list[str] = []
    truth: list[Claim] | None = []
    for fact in chosen:
        said = fact.text.rstrip(".")
        claims = literals_of(fact.formula) or ()
        mode = draw(st.sampled_from(["stated", "denied", "hedged", "unknown"]))
        if mode == "denied" and len(claims) == 1:
            clauses.append(f"it is not true that {_lower(said)}")
            truth = None if truth is None else [*truth, Claim(claims[0].core, not claims[0].holds)]
        elif mode == "hedged":
            clauses.append(f"maybe {_lower(said)}")
        elif mode == "unknown":
            clauses.append("it is much loved by everybody")
            truth = None
        else:
            clauses.append(said)
            truth = None if truth is None else [*truth, *claims]
    joint = draw(st.sampled_from([", and ", ". ", "; "]))
    text = joint.join(_lower(c) if i and joint == ", and " else c for i, c in enumerate(clauses))
    text = text[:1].upper() + text[1:]
    frame = draw(st.sampled_from(["plain", "question", "contrast", "other word"]))
    if len(clauses) == 1 and frame == "question":
        return word, f"{text}?", frozenset()
    if len(clauses) == 1 and frame == "other word" and text.startswith("It "):
        return word, f"{other}{text[2:]}.", frozenset()
    if frame == "contrast":
        text = f"Unlike {other}, {_lower(text)}"
    if truth is not None and len({c.core for c in truth}) < len(set(truth)):
        truth = None  # it asserts and denies one attribute
    return word, f"{text}.", None if truth is None else frozenset(truth)


def test_the_offline_reader_is_never_wrong_on_generated_descriptions() -> None:
    reader = DescriptionReader(lexicon())
    outcomes: Counter[str] = Counter()

    @settings(max_examples=250, deadline=None, derandomize=True)
    @given(described())
    def run(case: tuple[str, str, frozenset[Claim] | None]) -> None:
        word, text, truth = case
        read = reader.read(word, Description(text))
        outcomes[read.record.outcome] += 1
        if read.record.outcome == "unsure":
            return
        got = (
            frozenset(literals_of(read.formula) or ()) if read.formula is not None else frozenset()
        )
        assert truth is not None and got == truth, (text, read.record)

    run()
    assert set(outcomes) == {"claims", "nothing", "unsure"}, outcomes
    assert outcomes["claims"] > 50 and outcomes["nothing"] > 20, outcomes


# --- the LLM reader where the offline reader is unsure ---------------------------------------


def test_the_llm_reader_reads_only_what_the_offline_reader_is_unsure_of() -> None:
    with ScriptedChatServer(read_by_rule) as server:
        settings_ = LLMSettings(base_url=server.base_url, model="rule")
        reader = DescriptionReader(lexicon(), "combined", LLMReader(make_client(settings_)))
        plain = reader.read(EARL, Description(THE_STATEMENT))
        assert plain.record.reader == "offline+llm" and plain.record.calls == 0
        assert len(server.requests) == 0
        loose = reader.read(CEYLON, Description("It is a flavoured tea, no doubt about that."))
        assert len(server.requests) == 2
    record = loose.record
    assert record.reader == "offline+llm" and record.calls == 2
    assert record.vote is not None and record.vote.decided_by == "repeat"
    assert len(record.vote.ballots) == 2 and record.vote.ballots[0] == record.vote.ballots[1]
    assert record.formula == "Flavoured(item)" and record.check is not None
    assert record.check.accepted
    assert checker().judge(CEYLON, loose).status is CheckOutcome.CONTRADICTS_CARD


def test_the_reader_kind_needs_an_llm_reader_for_the_llm_kinds() -> None:
    with pytest.raises(ValueError, match="needs an endpoint"):
        DescriptionReader(lexicon(), "combined")


# --- the card rule and the audit in a game --------------------------------------------------


class Saying:
    """Seat by seat, round by round, the sentence it says; everybody votes for the spy."""

    name = "scripted"

    def __init__(self, spy: int, lines: dict[int, list[str]]) -> None:
        self.spy = spy
        self.lines = lines

    def describe(self, obs: Observation) -> Description:
        return Description(self.lines[obs.seat][obs.round - 1])

    def vote(self, obs: Observation) -> int:
        return self.spy if obs.seat != self.spy else obs.vote_targets()[0]


def test_every_description_is_read_judged_and_audited(tmp_path: Path) -> None:
    game = UndercoverGame(UndercoverConfig(players=4), TEA, 1)
    spy_word = game.spy_word
    said = {
        game.spy_seat: [THE_STATEMENT if spy_word == EARL else "It is a flavoured tea."],
    }
    citizens = [s for s in range(4) if s != game.spy_seat]
    for seat, line in zip(
        citizens,
        ["Is it brewed in hot water?", "It smells of summer.", "It is a kind of tea."],
        strict=True,
    ):
        said[seat] = [line]
    agents = [Saying(game.spy_seat, said) for _ in range(4)]
    path = tmp_path / "game.jsonl"
    with EventLog(path) as log:
        play_undercover(game, agents, ProverChecker(ConsistencyTest(lexicon())), log)
    events = ENTRY.read_log(path).events
    outcomes = {e.seat: e.outcome for e in events if isinstance(e, DescriptionEvent)}
    assert outcomes[game.spy_seat] is CheckOutcome.CONTRADICTS_CARD
    assert sorted(outcomes[s].value for s in citizens) == ["consistent", "no_claim", "unread"]
    violations = [e for e in events if isinstance(e, ViolationEvent)]
    assert [(v.seat, v.kind.value) for v in violations] == [(game.spy_seat, "contradiction")]
    record = audit_record(ENTRY.read_log(path))
    assert record.figures["descriptions"] == 4 and record.figures["no_claim"] == 1
    assert record.figures["read"] == 3 and record.figures["unread"] == 1
    rows = {r.seat: r for r in record.rows}
    assert len(record.rows) == 3  # the question states no claim
    spy = rows[game.spy_seat]
    assert spy.status is ClaimStatus.CONTRADICTED and spy.judgement == "wrong"
    assert spy.detail["reader"] == "offline" and spy.detail["calls"] == 0
    assert spy.detail["reading"] == "claims" and spy.detail["words"]
    unread = next(r for r in record.rows if r.detail["reading"] == "unsure")
    assert unread.status is ClaimStatus.UNKNOWN and unread.judgement == "unjudged"
    assert "cannot place" in str(unread.detail["note"])
    tea = next(r for r in record.rows if r.detail["text"] == "It is a kind of tea.")
    assert tea.status is ClaimStatus.ENTAILED and tea.claim == "Tea(item)"


def test_a_statement_with_its_formula_reads_to_that_formula() -> None:
    word = "Navel Orange"
    vocabulary = pair_vocabulary(lexicon(), word)
    formula = "forall e y. Have(e) & Agent(e, item) & Patient(e, y) -> ~Seed(y)"
    outcome, meaning = check(word, "It has no seeds.", formula)
    assert outcome is CheckOutcome.CONSISTENT and meaning is not None
    assert literals_of(parse_formula(meaning)) == literals_of(parse_formula(formula))
    assert any(a.no == "it has no seeds" for a in vocabulary.attributes)


def _game_and_reader(request: ChatRequest) -> str:
    """The nli seat's answers (a description no offline reader reads, a vote), and the reader's
    (by the keyword rule: nothing about the card)."""
    if "Answer given:" in request.last_user:
        return read_by_rule(request)
    return _scripted(request)


def test_play_reads_descriptions_with_the_llm_reader_recorded_and_replayed(
    tmp_path: Path,
) -> None:
    game_id = "undercover-earl-grey-tea-ceylon-tea-seed1"
    args = ["play", "undercover", "--agents", "nli,prover*3", "--seed", "1"]
    args += ["--reader", "combined"]
    with ScriptedChatServer(_game_and_reader) as server:
        live = [*args, "--base-url", server.base_url, "--model", "scripted"]
        played = runner.invoke(app, [*live, "--record", "--out", str(tmp_path / "a")])
        assert played.exit_code == 0, played.output
    assert "description reader" in played.output
    recorded = tmp_path / "a" / "llm" / f"{game_id}.reader.jsonl"
    assert recorded.is_file() and recorded.read_text().strip()
    replayed = runner.invoke(
        app, [*args, "--replay", str(tmp_path / "a"), "--out", str(tmp_path / "b")]
    )
    assert replayed.exit_code == 0, replayed.output
    logs = [(tmp_path / d / f"{game_id}.jsonl").read_text() for d in ("a", "b")]
    assert logs[0] == logs[1]
    events = ENTRY.read_log(tmp_path / "a" / f"{game_id}.jsonl").events
    readings = {
        e.seat: e.reading for e in events if isinstance(e, DescriptionEvent) and e.round == 1
    }
    nli = readings[0]
    assert nli is not None and nli.reader == "offline+llm" and nli.outcome == "nothing"
    assert nli.calls == 2 and nli.vote is not None and len(nli.vote.recorded) == 2
    assert all(r is not None and r.calls == 0 for s, r in readings.items() if s != 0)
    missing = runner.invoke(app, ["play", "undercover", "--agents", "prover*4", "--reader", "llm"])
    assert missing.exit_code == 2 and "needs an endpoint" in missing.output
