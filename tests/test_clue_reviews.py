"""The verifier-assisted agent's deduction reviews in the game log: written by the game loop with
the action they led to, validated, replayed, transcribed, and accepted by the audit."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from pydantic import ValidationError

from games.clue import (
    AccusationEvent,
    Accuse,
    Card,
    CheckedDeduction,
    ClueEvent,
    ClueGame,
    Deduction,
    DeductionEvent,
    DeductionReview,
    DeductionReviewEvent,
    IllegalAction,
    LogError,
    ReplayError,
    ReviewingAgent,
    Suggest,
    SuggestionEvent,
    Triple,
    read_clue_log,
    replay,
)
from games.clue.agent import ClueObservation
from games.clue.agents import ClueAgentSettings
from games.clue.audit import GameAudit, audit_game, audit_log
from games.clue.entry import ENTRY as CLUE
from games.clue.transcript import transcript
from games.clue.verified_agent import VerifiedLLMClueAgent
from games.core.log import GameLog
from games.core.play import play_game
from games.core.played import PlayedGame
from games.core.runlog import EventLog
from reasoning.claims import ClaimStatus
from reasoning.llm import LLMSettings
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer, Step
from tests.test_clue_llm_agent import SMALL, client_for, move, phase_prompt, phase_script

SCARLET_ROPE_HALL = ("Scarlet", "Rope", "Hall")
GUESS = "ANALYSIS: A hunch.\nDEDUCTIONS: Scarlet is in the envelope"


def play_with_reviews(log: Path) -> PlayedGame:
    """A small game with an `llm-verified` seat whose guess is sent back when not entailed."""
    with ScriptedChatServer(phase_script(GUESS)) as srv:
        settings = ClueAgentSettings(llm=LLMSettings(base_url=srv.base_url, model="m"))
        with EventLog(log) as sink:
            played = play_game(CLUE, ["llm-verified", "prover", "random"], 4, settings, SMALL, sink)
        assert srv.errors == []
    return played


def reviewed(
    player: int = 0, turn: int = 1, acted_on: tuple[Deduction, ...] = ()
) -> DeductionReview:
    guess = Deduction(kind="in_envelope", card=SMALL.deck.card("Scarlet"))
    return DeductionReview(
        seat=player,
        round=1,
        turn=turn,
        stated=(CheckedDeduction(deduction=guess, status=ClaimStatus.UNDETERMINED),),
        sent_back=True,
        revised=tuple(CheckedDeduction(deduction=d, status=ClaimStatus.ENTAILED) for d in acted_on),
        acted_on=acted_on,
    )


def counts(audit: GameAudit) -> list[tuple[int | None, ...]]:
    return [
        (p.deductions, p.correct, p.incorrect, p.entailed, p.recall_entailed) for p in audit.players
    ]


def test_the_game_loop_logs_each_review_before_the_action_it_led_to(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    played = play_with_reviews(path)
    events = read_clue_log(path)
    assert events == list(played.state.events())
    logged = [(i, e) for i, e in enumerate(events) if isinstance(e, DeductionReviewEvent)]
    assert all(e.seat == 0 for _, e in logged)
    assert {e.sent_back for _, e in logged} == {True, False}
    for index, event in logged:
        after = events[index + 1]
        if event.acted_on:
            assert isinstance(after, DeductionEvent) and after.deductions == event.acted_on
        else:
            assert after.type in ("suggestion", "accusation")
        assert (after.round, after.turn, after.seq) == (event.round, event.turn, event.seq + 1)
    assert [e.seq for e in events] == list(range(len(events)))
    checked = "P0 (llm-verified) is checked: Scarlet is in the envelope (UNDETERMINED); sent back"
    said = "\n".join(transcript(events, played.seats))
    assert f"{checked}, revised to: nothing" in said


def test_logs_with_and_without_reviews_replay_and_audit_alike(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    played = play_with_reviews(path)
    log = CLUE.read_log(path)
    with_reviews = log.events
    assert list(replay(log.header, with_reviews).events) == with_reviews[1:]

    plain = ClueGame(SMALL, 4)
    for action in played.state.game.actions:
        plain.apply(action)
    without: list[ClueEvent] = [with_reviews[0], *plain.events]
    assert not any(isinstance(e, DeductionReviewEvent) for e in without)
    assert list(replay(log.header, without).events) == without[1:]
    assert counts(audit_log(path)) == counts(audit_game(GameLog.of_events(log.header, without)))


def test_a_replay_checks_the_logged_review(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    play_with_reviews(path)
    log = CLUE.read_log(path)
    events = log.events
    index = next(i for i, e in enumerate(events) if isinstance(e, DeductionReviewEvent))
    review = events[index]
    assert isinstance(review, DeductionReviewEvent)
    assert review.acted_on == ()  # the guess was withdrawn in the revision
    rope = Deduction(kind="holds", card=SMALL.deck.card("Rope"), player=1)
    tampered = [*events]
    tampered[index] = review.model_copy(update={"acted_on": (rope,)})
    with pytest.raises(ReplayError, match="acted_on differs") as info:
        replay(log.header, tampered)
    assert info.value.line == index + 2
    with pytest.raises(ReplayError, match="ends after a deduction_review"):
        replay(log.header, events[: index + 1])


def test_the_engine_logs_a_review_for_its_player_only() -> None:
    game = ClueGame(SMALL, 0)
    rope = (Deduction(kind="holds", card=SMALL.deck.card("Rope"), player=1),)
    game.apply(
        Suggest(suspect="Scarlet", weapon="Rope", room="Hall", deductions=rope),
        reviewed(acted_on=rope),
    )
    kinds = [type(e) for e in game.events[1:4]]
    assert kinds == [DeductionReviewEvent, DeductionEvent, SuggestionEvent]
    assert isinstance(game.events[1], DeductionReviewEvent)
    assert game.events[1].review() == reviewed(acted_on=rope)
    assert game.events[1] in game.observation(0).history
    assert not any(isinstance(e, DeductionReviewEvent) for e in game.observation(1).history)


@pytest.mark.parametrize(
    ("review", "deductions", "message"),
    [
        (reviewed(player=1), (), "review of player 1"),
        (reviewed(turn=2), (), "turn 2"),
        (reviewed(), (Deduction(kind="in_envelope", card=SMALL.deck.card("Rope")),), "acted_on"),
        (
            reviewed(acted_on=(Deduction(kind="holds", card=Card("weapon", "Axe"), player=1),)),
            (Deduction(kind="holds", card=Card("weapon", "Axe"), player=1),),
            "unknown card",
        ),
    ],
)
def test_the_engine_rejects_a_review_that_does_not_fit(
    review: DeductionReview, deductions: tuple[Deduction, ...], message: str
) -> None:
    game = ClueGame(SMALL, 0)
    action = Suggest(suspect="Scarlet", weapon="Rope", room="Hall", deductions=deductions)
    with pytest.raises(IllegalAction, match=message):
        game.apply(action, review)
    assert len(game.events) == 1 and not game.actions


def test_review_records_must_be_consistent(tmp_path: Path) -> None:
    rope = (Deduction(kind="not_in_envelope", card=SMALL.deck.card("Rope")),)
    with pytest.raises(ValidationError, match="sent_back"):
        DeductionReview.model_validate({**reviewed().model_dump(), "sent_back": False})
    with pytest.raises(ValidationError, match="revised: must be empty"):
        DeductionReview.model_validate(
            {**reviewed(acted_on=rope).model_dump(), "revision_failed": True}
        )
    entailed = {"stated": [], "sent_back": False, "revision_failed": True}
    with pytest.raises(ValidationError, match="only a review that was sent back"):
        DeductionReview.model_validate({**reviewed().model_dump(), **entailed})
    path = tmp_path / "game.jsonl"
    play_with_reviews(path)
    lines = path.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if '"deduction_review"' in line)
    bad = [*lines]
    bad[index] = lines[index].replace('"sent_back":true', '"sent_back":false')
    (tmp_path / "bad.jsonl").write_text("\n".join(bad) + "\n")
    with pytest.raises(LogError, match="sent_back") as info:
        read_clue_log(tmp_path / "bad.jsonl")
    assert info.value.line == index + 1
    unknown = [*lines]
    unknown[index] = lines[index].replace('"name":"Scarlet"', '"name":"Mustard"', 1)
    (tmp_path / "unknown.jsonl").write_text("\n".join(unknown) + "\n")
    with pytest.raises(LogError, match="Mustard") as info:
        audit_log(tmp_path / "unknown.jsonl")
    assert info.value.line == index + 1


def test_the_verified_agent_is_a_reviewing_agent() -> None:
    with ScriptedChatServer([]) as srv:
        agent = VerifiedLLMClueAgent(client_for(srv), seed=0)
        assert isinstance(agent, ReviewingAgent)
        agent.close()


def accusing_script(request: ChatRequest) -> Step:
    """Good answers for a whole game, except that every move also accuses Scarlet, Rope, Hall."""
    if phase_prompt(request).startswith("ACTION PHASE"):
        return move("Mrs. White, Knife, Study", "Scarlet, Rope, Hall")
    return phase_script()(request)


class Entailing:
    """A checker that finds every claim entailed."""

    def check(self, obs: ClueObservation, deductions: Sequence[Deduction]) -> list[ClaimStatus]:
        return [ClaimStatus.ENTAILED for _ in deductions]

    def close(self) -> None:
        return None


def play_accusing(agent: str, seed: int, log: Path) -> PlayedGame:
    with ScriptedChatServer(accusing_script) as srv:
        settings = ClueAgentSettings(llm=LLMSettings(base_url=srv.base_url, model="m"))
        with EventLog(log) as sink:
            played = play_game(CLUE, [agent, "random", "random"], seed, settings, SMALL, sink)
        assert srv.errors == []
    return played


def test_the_verified_agent_withholds_an_accusation_its_knowledge_does_not_entail(
    tmp_path: Path,
) -> None:
    seed = next(s for s in range(50) if ClueGame(SMALL, s).envelope.names() != SCARLET_ROPE_HALL)
    plain = list(play_accusing("llm", seed, tmp_path / "plain.jsonl").state.events())
    accused = [e for e in plain if isinstance(e, AccusationEvent)]
    assert accused[0].seat == 0 and accused[0].eliminated

    path = tmp_path / "verified.jsonl"
    played = play_accusing("llm-verified", seed, path)
    events = list(played.state.events())
    assert read_clue_log(path) == events
    assert not any(isinstance(e, AccusationEvent) and not e.final for e in events)
    withheld = [e for e in events if isinstance(e, DeductionReviewEvent) and e.withheld]
    assert withheld, "every turn of P0 accuses, so some accusation must be withheld"
    for review in withheld:
        assert review.withheld_accusation() == Triple("Scarlet", "Rope", "Hall")
        assert any(c.status is not ClaimStatus.ENTAILED for c in review.withheld)
        after = events[events.index(review) + 1]
        assert isinstance(after, SuggestionEvent)
        assert (after.suspect, after.weapon, after.room) == ("Mrs. White", "Knife", "Study")
    assert list(replay(played.header, events).events) == events[1:]
    lines = "\n".join(transcript(events, played.seats))
    assert "P0 (llm-verified) would accuse Scarlet, Rope, Hall: withheld (" in lines
    audit_log(path)


def test_an_entailed_accusation_is_made() -> None:
    game = ClueGame(SMALL, 0)
    with ScriptedChatServer(accusing_script) as srv:
        agent = VerifiedLLMClueAgent(client_for(srv), seed=0, checker=Entailing())
        action = agent.act(game.observation(0))
    assert action.model_dump(include={"suspect", "weapon", "room"}) == {
        "suspect": "Scarlet",
        "weapon": "Rope",
        "room": "Hall",
    }
    assert type(action).__name__ == "Accuse"
    assert not any(r.withheld for r in agent.reviews)


def test_a_withheld_accusation_is_three_envelope_claims_not_all_entailed() -> None:
    claims = tuple(
        CheckedDeduction(
            deduction=Deduction(kind="in_envelope", card=SMALL.deck.card(name)),
            status=ClaimStatus.ENTAILED,
        )
        for name in SCARLET_ROPE_HALL
    )
    base = {**reviewed().model_dump(), "withheld": [c.model_dump() for c in claims]}
    with pytest.raises(ValidationError, match="entailed accusation is not withheld"):
        DeductionReview.model_validate(base)
    with pytest.raises(ValidationError, match="three in_envelope claims"):
        DeductionReview.model_validate({**base, "withheld": base["withheld"][:2]})
    doubtful = claims[0].model_copy(update={"status": ClaimStatus.UNDETERMINED})
    review = DeductionReview.model_validate(
        {**base, "withheld": [doubtful.model_dump(), *base["withheld"][1:]]}
    )
    game = ClueGame(SMALL, 0)
    with pytest.raises(IllegalAction, match="withheld accusation comes with a suggestion"):
        game.apply(Accuse(suspect="Scarlet", weapon="Rope", room="Hall"), review)
