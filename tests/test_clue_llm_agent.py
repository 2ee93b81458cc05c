"""The Clue LLM agents against the scripted chat server: the three phases, re-prompts, counted
fallbacks, endpoint errors, the verifier-assisted agent, and record then replay of a game."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.clue import (
    Accuse,
    Card,
    ClueConfig,
    ClueGame,
    Deduction,
    DeductionEvent,
    DeductionKind,
    Phase,
    Show,
    Suggest,
    Triple,
)
from games.clue.agents import AGENTS, ClueAgentSettings, make_agent
from games.clue.llm_agent import LLMClueAgent, make_llm_agent
from games.clue.llm_answers import (
    format_deduction,
    parse_deduction,
    parse_deduction_answer,
    parse_move_answer,
    parse_show_answer,
    read_triple,
)
from games.clue.llm_prompts import derive_info, history_lines
from games.clue.verified_agent import (
    KnowledgeChecker,
    VerifiedLLMClueAgent,
    make_verified_agent,
)
from games.core.agents import agent_fallbacks, close_agent
from games.core.recordings import seat_settings
from reasoning.claims import ClaimStatus
from reasoning.llm import LLMEndpointError, LLMSettings, MalformedAnswer, OpenAIChatClient
from reasoning.llm.scripted_server import ChatRequest, Fail, ScriptedChatServer, Step
from tests.support.played import play_clue

SMALL = ClueConfig(
    players=3,
    max_rounds=2,
    suspects=("Scarlet", "Mrs. White"),
    weapons=("Rope", "Knife"),
    rooms=("Hall", "Study", "Lounge"),
)

FAST = settings(max_examples=30, deadline=None)
NO_DEDUCTIONS = "ANALYSIS: Nothing certain yet.\nDEDUCTIONS: NONE"


def client_for(server: ScriptedChatServer, **overrides: object) -> OpenAIChatClient:
    options: dict[str, object] = {
        "base_url": server.base_url,
        "model": "scripted-model",
        "max_retries": 2,
        "backoff_base_s": 0.0,
        "backoff_cap_s": 0.0,
    }
    options.update(overrides)
    return OpenAIChatClient(LLMSettings.model_validate(options), sleep=lambda _: None)


def move(suggestion: str, accusation: str = "NONE") -> str:
    return (
        "SUMMARY: Still looking.\nREASONING: This tests cards nobody has accounted for.\n"
        f"SUGGESTION: {suggestion}\nACCUSATION: {accusation}"
    )


def triple_text(t: Triple) -> str:
    return ", ".join(t.names())


def game_where_p0_refutes_with_two() -> ClueGame:
    """A game at the moment P0 must refute P2's suggestion with two matching cards."""
    for seed in range(200):
        game = ClueGame(SMALL, seed)
        a, b = game.hands[0]
        if a.category == b.category:
            continue
        names = {a.category: a.name, b.category: b.name}
        env = game.envelope
        target = Triple(
            names.get("suspect", env.suspect),
            names.get("weapon", env.weapon),
            names.get("room", env.room),
        )
        for _ in range(2):  # P0 and P1 suggest the envelope: nobody refutes
            game.apply(Suggest(suspect=env.suspect, weapon=env.weapon, room=env.room))
        game.apply(Suggest(suspect=target.suspect, weapon=target.weapon, room=target.room))
        assert game.phase is Phase.REFUTE and game.current_player == 0
        return game
    raise AssertionError("no seed deals P0 two cards of different categories")


def phase_prompt(request: ChatRequest) -> str:
    """The phase's prompt: the first user message that is not earlier history (also when
    re-prompted)."""
    return next(
        str(m["content"])
        for m in request.messages
        if m["role"] == "user" and not str(m["content"]).startswith("Earlier game history")
    )


def phase_script(deduction: str = NO_DEDUCTIONS) -> Callable[[ChatRequest], Step]:
    """Answers by the phase the prompt names: good answers for a whole game (stating
    ``deduction``, and nothing when the verdicts are sent back)."""

    def answer(request: ChatRequest) -> Step:
        prompt = phase_prompt(request)
        if prompt.startswith("DEDUCTION PHASE"):
            revising = request.messages[-1]["content"].startswith("Your conclusions were checked")
            return NO_DEDUCTIONS if revising else deduction
        if prompt.startswith("ACTION PHASE"):
            return move("Mrs. White, Knife, Study")
        if prompt.startswith("FINAL ACCUSATION"):
            return "SUMMARY: Time is up.\nREASONING: Best guess.\nACCUSATION: Scarlet, Rope, Hall"
        if prompt.startswith("SHOW-CARD PHASE"):
            found = re.search(r"exactly one: (.+)", prompt)
            assert found is not None
            return f"REASONING: Either will do.\nSHOW: {found.group(1).split(', ')[-1]}"
        raise AssertionError(f"unexpected prompt: {prompt[:60]!r}")

    return answer


# --- answer parsing ---------------------------------------------------------------------


@st.composite
def deductions(draw: st.DrawFn) -> Deduction:
    card = draw(st.sampled_from(SMALL.deck.cards))
    kind: DeductionKind = draw(st.sampled_from(get_args(DeductionKind)))
    player = draw(st.integers(0, SMALL.players - 1)) if kind in ("holds", "not_holds") else None
    return Deduction(kind=kind, card=card, player=player)


@FAST
@given(deductions(), st.sampled_from(["{}", "- {}", "1. {}", "{}.", "**{}**"]))
def test_stated_deductions_read_back(deduction: Deduction, decoration: str) -> None:
    text = decoration.format(format_deduction(deduction))
    assert parse_deduction(text, SMALL.deck, SMALL.players) == deduction
    assert parse_deduction(text.upper(), SMALL.deck, SMALL.players) == deduction


def test_deduction_list_forms_and_errors() -> None:
    answer = parse_deduction_answer(
        "ANALYSIS: P1 refuted twice.\nDEDUCTIONS: P1 holds Knife; Mrs. White is in the envelope\n"
        "- player 2 does not hold hall\n- P1 holds Knife",
        SMALL.deck,
        3,
    )
    assert answer.analysis == "P1 refuted twice."
    assert answer.deductions == (
        Deduction(kind="holds", card=Card("weapon", "Knife"), player=1),
        Deduction(kind="in_envelope", card=Card("suspect", "Mrs. White")),
        Deduction(kind="not_holds", card=Card("room", "Hall"), player=2),
    )
    none = parse_deduction_answer("ANALYSIS: x\nDEDUCTIONS: none.", SMALL.deck, 3)
    assert none.deductions == ()
    with pytest.raises(MalformedAnswer, match="'Candlestick' is not a card"):
        parse_deduction("P1 holds Candlestick", SMALL.deck, 3)
    with pytest.raises(MalformedAnswer, match="no player P7"):
        parse_deduction("P7 holds Knife", SMALL.deck, 3)
    with pytest.raises(MalformedAnswer, match="not one of the forms"):
        parse_deduction("Knife is probably with P1", SMALL.deck, 3)
    with pytest.raises(MalformedAnswer, match="DEDUCTIONS:"):
        parse_deduction_answer("ANALYSIS: I think P1 holds Knife.", SMALL.deck, 3)


def test_triples_are_read_by_category_and_wrong_names_named() -> None:
    assert read_triple("mrs. white, knife, STUDY.", SMALL.deck) == Triple(
        "Mrs. White", "Knife", "Study"
    )
    with pytest.raises(MalformedAnswer, match="'Plum' is not a suspect"):
        read_triple("Plum, Knife, Study", SMALL.deck)
    with pytest.raises(MalformedAnswer, match="'Hall' is not a weapon"):
        read_triple("Scarlet, Hall, Knife", SMALL.deck)
    with pytest.raises(MalformedAnswer, match="after the room"):
        read_triple("Scarlet, Knife, Study, Hall", SMALL.deck)
    comma_deck = ClueConfig(
        players=3, suspects=("Green, Jr.", "Green"), weapons=("Rope",), rooms=("Hall",)
    ).deck
    assert read_triple("Green, Jr., Rope, Hall", comma_deck) == Triple("Green, Jr.", "Rope", "Hall")
    assert read_triple("Green, Rope, Hall", comma_deck) == Triple("Green", "Rope", "Hall")


def test_move_and_show_answers() -> None:
    deck = SMALL.deck
    suggestion = parse_move_answer(move("Scarlet, Rope, Hall"), deck, final=False)
    assert suggestion.action() == Suggest(suspect="Scarlet", weapon="Rope", room="Hall")
    accusation = parse_move_answer(
        move("Scarlet, Rope, Hall", "Mrs. White, Knife, Lounge"), deck, final=False
    )
    assert accusation.action() == Accuse(suspect="Mrs. White", weapon="Knife", room="Lounge")
    with pytest.raises(MalformedAnswer, match="NONE is not allowed"):
        parse_move_answer(move("Scarlet, Rope, Hall"), deck, final=True)
    with pytest.raises(MalformedAnswer, match="REASONING:"):
        parse_move_answer("SUGGESTION: Scarlet, Rope, Hall\nACCUSATION: NONE", deck, final=False)
    matching = (Card("suspect", "Scarlet"), Card("room", "Hall"))
    shown = parse_show_answer("REASONING: shown before\nSHOW: hall", deck, matching)
    assert shown.card == Card("room", "Hall")
    with pytest.raises(MalformedAnswer, match="cannot show 'Rope'"):
        parse_show_answer("REASONING: r\nSHOW: Rope", deck, matching)


# --- derived information ----------------------------------------------------------------


def test_derived_information_from_the_observation() -> None:
    game = ClueGame(SMALL, 4)
    env = game.envelope
    game.apply(Suggest(suspect=env.suspect, weapon=env.weapon, room=env.room))
    obs = game.observation(0)
    info = derive_info(obs)
    # P0's own unrefuted suggestion of the envelope locks every category.
    assert {cat: card.name for cat, card in info.locked.items()} == {
        "suspect": env.suspect,
        "weapon": env.weapon,
        "room": env.room,
    }
    assert [s.seat for s in info.unrefuted] == [0]
    other = derive_info(game.observation(1))
    assert [s.seat for s in other.unrefuted] == [0]
    hand1 = set(game.hands[1])
    for cat, cards in other.remaining.items():
        expected = [c for c in SMALL.deck.by_category[cat] if c not in hand1]
        assert list(cards) == expected
    assert "Nobody refuted." in history_lines(obs)[0]


def test_cards_shown_are_definitive_and_excluded() -> None:
    game = game_where_p0_refutes_with_two()
    card = game.hands[0][1]
    game.apply(Show(card=card))
    obs = game.observation(2)
    info = derive_info(obs)
    assert [s.card for s in info.definitive] == [card]
    assert card not in info.remaining[card.category]
    assert f"P0 refuted and showed you {card.name}." in history_lines(obs)[-1]
    assert "P0 refuted (you did not see the card)." in history_lines(game.observation(1))[-1]


# --- the three phases -------------------------------------------------------------------


def test_turn_asks_for_deductions_then_a_move() -> None:
    game = ClueGame(SMALL, 1)
    other_card = game.hands[1][0]
    deduced = (
        f"ANALYSIS: P1 must hold it.\nDEDUCTIONS: P1 holds {other_card.name}\n"
        f"{game.hands[0][0].name} is not in the envelope"
    )
    with ScriptedChatServer([deduced, move("Mrs. White, Knife, Study")]) as srv:
        agent = LLMClueAgent(client_for(srv), seed=3)
        action = agent.act(game.observation(0))
        requests = list(srv.requests)
    stated = (
        Deduction(kind="holds", card=other_card, player=1),
        Deduction(kind="not_in_envelope", card=game.hands[0][0]),
    )
    assert action == Suggest(suspect="Mrs. White", weapon="Knife", room="Study", deductions=stated)
    assert [r.last_user.split(" ", 2)[:2] for r in requests] == [
        ["DEDUCTION", "PHASE"],
        ["ACTION", "PHASE"],
    ]
    assert requests[0].messages[0]["role"] == "system"
    assert "You are P0" in requests[0].messages[0]["content"]
    assert f"Your hand: {', '.join(c.name for c in game.hands[0])}" in requests[0].last_user
    assert f"P1 holds {other_card.name}" in requests[1].last_user
    assert all(r.body["seed"] == 3 for r in requests)
    assert agent.usage.calls == 2 and agent.usage.completion_tokens > 0
    assert agent.fallbacks.total == 0
    game.apply(action)
    logged = [e for e in game.events if isinstance(e, DeductionEvent)]
    assert [e.deductions for e in logged] == [stated]


def test_accusation_and_the_reasoning_carried_to_the_next_turn() -> None:
    game = ClueGame(SMALL, 2)
    env = triple_text(game.envelope)
    first = move("Mrs. White, Knife, Study").replace("This tests", "Remember this: it tests")
    script: list[Step] = [NO_DEDUCTIONS, first, NO_DEDUCTIONS, move("Scarlet, Rope, Hall", env)]
    with ScriptedChatServer(script) as srv:
        agent = LLMClueAgent(client_for(srv), seed=0)
        game.apply(agent.act(game.observation(0)))
        while not (game.phase is Phase.TURN and game.current_player == 0):
            if game.phase is Phase.REFUTE:
                game.apply(Show(card=game.observation(game.current_player or 0).matching[0]))
            else:
                game.apply(Suggest(suspect="Scarlet", weapon="Rope", room="Hall"))
        action = agent.act(game.observation(0))
        second_move = srv.requests[3].last_user
    assert action == Accuse(
        suspect=game.envelope.suspect, weapon=game.envelope.weapon, room=game.envelope.room
    )
    assert "Your reasoning on your last move: Remember this" in second_move
    assert "Your last suggestion: Round 1, turn 1: you suggested Mrs. White, Knife, Study." in (
        second_move
    )


def test_show_card_asks_only_when_there_is_a_choice() -> None:
    game = game_where_p0_refutes_with_two()
    obs = game.observation(0)
    assert len(obs.matching) == 2
    with ScriptedChatServer([f"REASONING: Least revealing.\nSHOW: {obs.matching[1].name}"]) as srv:
        agent = LLMClueAgent(client_for(srv), seed=0)
        assert agent.act(obs) == Show(card=obs.matching[1])
        prompt = srv.requests[0].last_user
    assert prompt.startswith("SHOW-CARD PHASE") and "P2 suggested" in prompt
    single = ClueGame(SMALL, 0)
    env = single.envelope
    card = single.hands[1][0]
    suspect = card.name if card.category == "suspect" else env.suspect
    weapon = card.name if card.category == "weapon" else env.weapon
    room = card.name if card.category == "room" else env.room
    single.apply(Suggest(suspect=suspect, weapon=weapon, room=room))
    with ScriptedChatServer([]) as srv:
        agent = LLMClueAgent(client_for(srv), seed=0)
        assert agent.act(single.observation(1)) == Show(card=card)
        assert srv.requests == []


# --- malformed and illegal answers ------------------------------------------------------


def test_malformed_answers_are_reprompted_then_fall_back_counted() -> None:
    game = ClueGame(SMALL, 5)
    bad = [
        "I would rather not say.",
        "DEDUCTIONS: P1 holds",
        "ANALYSIS: hm",
        "ANALYSIS: x\nDEDUCTIONS: maybe",
    ]
    bad_moves = [
        "Let us suggest something.",
        "REASONING: r",
        "SUGGESTION: a, b, c",
        "REASONING: x\nSUGGESTION: NONE",
    ]
    with ScriptedChatServer([*bad, *bad_moves]) as srv:
        agent = LLMClueAgent(client_for(srv), seed=11)
        action = agent.act(game.observation(0))
        requests = list(srv.requests)
    assert len(requests) == 8
    assert len(requests[3].messages) == 2 + 2  # system, prompt, the last answer and re-prompt
    assert "could not be used" in requests[1].last_user
    assert isinstance(action, Suggest) and action.deductions == ()
    assert action in game.legal_actions()
    assert agent.fallbacks.counts == {"deduction": {"unparsed": 1}, "action": {"unparsed": 1}}
    assert agent.fallbacks.total == 2
    with ScriptedChatServer([*bad, *bad_moves]) as srv:
        again = LLMClueAgent(client_for(srv), seed=11).act(game.observation(0))
    assert again == action  # the fallback is seeded


def test_an_unknown_card_is_reprompted_and_the_corrected_answer_used() -> None:
    game = ClueGame(SMALL, 6)
    script: list[Step] = [
        "ANALYSIS: x\nDEDUCTIONS: P1 holds Candlestick",
        NO_DEDUCTIONS,
        move("Professor Plum, Knife, Study"),
        move("Scarlet, Knife, Study"),
    ]
    with ScriptedChatServer(script) as srv:
        agent = LLMClueAgent(client_for(srv), seed=0)
        action = agent.act(game.observation(0))
        reprompts = [srv.requests[1].last_user, srv.requests[3].last_user]
    assert action == Suggest(suspect="Scarlet", weapon="Knife", room="Study")
    assert "'Candlestick' is not a card" in reprompts[0]
    assert "'Professor Plum' is not a suspect" in reprompts[1]
    assert agent.fallbacks.total == 0 and agent.usage.calls == 4


def test_a_card_that_cannot_be_shown_is_reprompted_then_falls_back() -> None:
    game = game_where_p0_refutes_with_two()
    obs = game.observation(0)
    other = next(c for c in SMALL.deck.cards if c not in obs.matching)
    wrong = f"REASONING: r\nSHOW: {other.name}"
    with ScriptedChatServer([wrong] * 4) as srv:
        agent = LLMClueAgent(client_for(srv), seed=2)
        action = agent.act(obs)
        assert f"cannot show {other.name!r}" in srv.requests[1].last_user
    assert isinstance(action, Show) and action.card in obs.matching
    assert agent.fallbacks.counts == {"show_card": {"unparsed": 1}}


def test_final_accusation_must_accuse() -> None:
    game = ClueGame(SMALL.model_copy(update={"max_rounds": 1}), 0)
    for _ in range(3):
        game.apply(Suggest(suspect="Scarlet", weapon="Rope", room="Hall"))
        while game.phase is Phase.REFUTE:
            game.apply(Show(card=game.observation(game.current_player or 0).matching[0]))
    assert game.phase is Phase.FINAL_ACCUSATION
    obs = game.observation(game.current_player or 0)
    final = "SUMMARY: s\nREASONING: r\nACCUSATION: Mrs. White, Knife, Lounge"
    with ScriptedChatServer([NO_DEDUCTIONS, move("Scarlet, Rope, Hall"), final]) as srv:
        action = LLMClueAgent(client_for(srv), seed=0).act(obs)
        assert "NONE is not allowed" in srv.requests[2].last_user
        assert srv.requests[1].last_user.startswith("FINAL ACCUSATION")
    assert action == Accuse(suspect="Mrs. White", weapon="Knife", room="Lounge")


# --- endpoint errors --------------------------------------------------------------------


def test_server_errors_are_retried_then_raised_out_of_the_game() -> None:
    game = ClueGame(SMALL, 7)
    with ScriptedChatServer([Fail(500, "overloaded")] * 3) as srv:
        # In plain text: with structured output on, a 500 first degrades the format once.
        agent = LLMClueAgent(client_for(srv, max_retries=2, structured="off"), seed=0)
        with pytest.raises(LLMEndpointError, match="overloaded") as raised:
            play_clue(game, [agent, agent, agent])
        assert len(srv.requests) == 3
    assert raised.value.status == 500 and raised.value.attempts == 3
    assert agent.usage.errors == 1 and agent.usage.calls == 0


def test_a_transient_error_is_retried_and_the_turn_goes_on() -> None:
    game = ClueGame(SMALL, 7)
    with ScriptedChatServer(
        [Fail(503), NO_DEDUCTIONS, Fail(429), move("Scarlet, Rope, Hall")]
    ) as srv:
        client = client_for(srv)
        action = LLMClueAgent(client, seed=0).act(game.observation(0))
    assert action == Suggest(suspect="Scarlet", weapon="Rope", room="Hall")
    assert client.meter.snapshot().retries == 2


# --- whole games, record and replay -----------------------------------------------------


def test_record_then_replay_a_game_without_the_server(tmp_path: Path) -> None:
    served: list[int] = []
    good = phase_script("ANALYSIS: A guess.\nDEDUCTIONS: Scarlet is in the envelope")

    def answer(request: ChatRequest) -> Step:
        served.append(1)
        return "I am not sure what to answer." if len(served) % 5 == 0 else good(request)

    def seats(settings: LLMSettings) -> list[LLMClueAgent]:
        return [
            make_llm_agent(settings, 0, seed=0),
            make_llm_agent(settings, 1, seed=1),
            make_verified_agent(settings, 2, seed=2),
        ]

    record = tmp_path / "calls.jsonl"
    with ScriptedChatServer(answer) as srv:
        agents = seats(LLMSettings(base_url=srv.base_url, model="m", record_path=record))
        played = ClueGame(SMALL, 9)
        result = play_clue(played, agents)
        assert srv.errors == []
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "calls.seat0.jsonl",
        "calls.seat1.jsonl",
        "calls.seat2.jsonl",
    ]
    replayers = seats(LLMSettings(model="m", replay_path=record))
    again = ClueGame(SMALL, 9)
    assert play_clue(again, replayers) == result
    assert list(again.events) == list(played.events)
    assert any(isinstance(e, DeductionEvent) for e in played.events)
    assert sum(a.usage.calls for a in replayers) == len(served)
    assert [a.fallbacks for a in replayers] == [a.fallbacks for a in agents]
    assert [a.usage.total_tokens for a in replayers] == [a.usage.total_tokens for a in agents]
    verified, replayed = agents[2], replayers[2]
    assert isinstance(verified, VerifiedLLMClueAgent)
    assert isinstance(replayed, VerifiedLLMClueAgent)
    assert replayed.reviews == verified.reviews
    assert any(review.sent_back for review in verified.reviews)
    verified.close()
    replayed.close()


def test_seat_settings_keep_other_fields() -> None:
    base = LLMSettings(model="m", replay_path=Path("runs/calls.jsonl"), temperature=0.2)
    seat = seat_settings(base, 4)
    assert seat.replay_path == Path("runs/calls.seat4.jsonl") and seat.record_path is None
    assert (seat.model, seat.temperature) == ("m", 0.2)
    with pytest.raises(ValueError, match="no LLM endpoint configured"):
        make_llm_agent(LLMSettings(), 0, seed=0)


def test_observation_is_required_to_be_ours() -> None:
    game = ClueGame(SMALL, 0)
    with ScriptedChatServer([]) as srv:
        agent = LLMClueAgent(client_for(srv), seed=0)
        with pytest.raises(ValueError, match="no decision"):
            agent.act(game.observation(1))


# --- the verifier-assisted agent --------------------------------------------------------


def test_knowledge_checker_judges_against_what_the_player_saw() -> None:
    game = game_where_p0_refutes_with_two()
    before = game.observation(2)
    shown = game.hands[0][0]
    game.apply(Show(card=shown))
    mine = game.hands[2][0]
    claims = [
        Deduction(kind="holds", card=shown, player=0),
        Deduction(kind="not_in_envelope", card=mine),
        Deduction(kind="holds", card=mine, player=1),
    ]
    checker = KnowledgeChecker()
    try:
        after = checker.check(game.observation(2), claims)
        earlier = checker.check(before, claims[:1])  # an older observation: knowledge rebuilt
    finally:
        checker.close()
    assert after == [ClaimStatus.ENTAILED, ClaimStatus.ENTAILED, ClaimStatus.CONTRADICTED]
    assert earlier == [ClaimStatus.UNDETERMINED]


def test_a_contradicted_deduction_is_sent_back_once_and_the_revision_used() -> None:
    game = ClueGame(SMALL, 3)
    own = game.hands[0][0]
    first = (
        "ANALYSIS: First try.\n"
        f"DEDUCTIONS: P1 holds {own.name}\n{own.name} is not in the envelope\n"
        f"P2 holds {game.hands[2][0].name}"
    )
    revised = f"ANALYSIS: Corrected.\nDEDUCTIONS: {own.name} is not in the envelope"
    with ScriptedChatServer([first, revised, move("Scarlet, Knife, Hall")]) as srv:
        agent = VerifiedLLMClueAgent(client_for(srv), seed=0)
        with agent:
            action = agent.act(game.observation(0))
        requests = list(srv.requests)
    kept = (Deduction(kind="not_in_envelope", card=own),)
    assert action == Suggest(suspect="Scarlet", weapon="Knife", room="Hall", deductions=kept)
    assert len(requests) == 3
    sent_back = requests[1].messages
    assert [m["role"] for m in sent_back] == ["system", "user", "assistant", "user"]
    assert sent_back[2]["content"] == first
    verdicts = sent_back[3]["content"]
    assert f"P1 holds {own.name}: CONTRADICTED" in verdicts
    assert f"{own.name} is not in the envelope: ENTAILED" in verdicts
    assert f"P2 holds {game.hands[2][0].name}: UNDETERMINED" in verdicts
    assert requests[2].last_user.startswith("ACTION PHASE")
    assert f"- {own.name} is not in the envelope" in requests[2].last_user
    assert f"P1 holds {own.name}" not in requests[2].last_user
    (review,) = agent.reviews
    assert review.sent_back and not review.revision_failed
    assert [c.status for c in review.stated] == [
        ClaimStatus.CONTRADICTED,
        ClaimStatus.ENTAILED,
        ClaimStatus.UNDETERMINED,
    ]
    assert [(c.deduction, c.status) for c in review.revised] == [(kept[0], ClaimStatus.ENTAILED)]
    assert review.acted_on == kept and (review.seat, review.turn) == (0, 1)
    assert agent.name == "llm-verified" and agent.fallbacks.total == 0


def test_entailed_deductions_are_not_sent_back() -> None:
    game = ClueGame(SMALL, 3)
    own = game.hands[0][0]
    stated = f"ANALYSIS: Mine.\nDEDUCTIONS: P0 holds {own.name}"
    with ScriptedChatServer([stated, move("Scarlet, Knife, Hall")]) as srv:
        agent = VerifiedLLMClueAgent(client_for(srv), seed=0)
        action = agent.act(game.observation(0))
        assert len(srv.requests) == 2
    agent.close()
    assert action.deductions == (Deduction(kind="holds", card=own, player=0),)
    assert [r.sent_back for r in agent.reviews] == [False]


def test_an_unreadable_revision_falls_back_to_the_entailed_deductions() -> None:
    game = ClueGame(SMALL, 3)
    own = game.hands[0][0]
    first = f"ANALYSIS: a\nDEDUCTIONS: P1 holds {own.name}\nP0 holds {own.name}"
    with ScriptedChatServer([first, *["no idea"] * 4, move("Scarlet, Knife, Hall")]) as srv:
        agent = VerifiedLLMClueAgent(client_for(srv), seed=0)
        action = agent.act(game.observation(0))
        assert len(srv.requests) == 6
    agent.close()
    assert action.deductions == (Deduction(kind="holds", card=own, player=0),)
    assert agent.fallbacks.counts == {"revision": {"unparsed": 1}}
    assert agent.reviews[0].revision_failed and agent.reviews[0].revised == ()


def test_registry_builds_llm_seats_that_play_a_game() -> None:
    with ScriptedChatServer(phase_script()) as srv:
        settings = ClueAgentSettings(llm=LLMSettings(base_url=srv.base_url, model="m"))
        names = AGENTS.parse("llm, random, llm-verified")
        agents = [make_agent(name, seat, 21, settings) for seat, name in enumerate(names)]
        result = play_clue(ClueGame(SMALL, 21), agents)
        assert srv.errors == [] and srv.requests
    assert isinstance(agents[0], LLMClueAgent) and agents[0].name == "llm"
    assert isinstance(agents[2], VerifiedLLMClueAgent) and agents[2].name == "llm-verified"
    assert [agent_fallbacks(a).total for a in agents] == [0, 0, 0]
    assert result.reason in ("round_limit", "correct_accusation", "all_eliminated")
    for agent in agents:
        close_agent(agent)
