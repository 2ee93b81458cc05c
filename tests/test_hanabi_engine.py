"""Hanabi engine rules, seeded deals, observations and events."""

from __future__ import annotations

import pytest

from formalize.hanabi.deck import card_name, parse_card
from games.core.protocol import IllegalAction
from games.hanabi.config import HANABI_INFO
from games.hanabi.engine import MAX_TOKENS, HanabiGame, deal_event, turn_event
from games.hanabi.events import HANABI_EVENT, HanabiConfig
from games.hanabi.rng import MT19937


def test_mt19937_matches_the_standard_check_value() -> None:
    """The C++ standard fixes the 10000th output of a default-seeded mt19937."""
    rng = MT19937(5489)
    for _ in range(9999):
        rng.next_u32()
    assert rng.next_u32() == 4123659995


def test_same_seed_same_deal_and_hand_sizes() -> None:
    for players, size in ((2, 5), (3, 5), (4, 4), (5, 4)):
        first = HanabiGame(HanabiConfig(players=players), 7)
        again = HanabiGame(HanabiConfig(players=players), 7)
        assert first.hands == again.hands
        assert [len(hand) for hand in first.hands] == [size] * players
        assert first.deck_size == 50 - size * players
    assert HanabiGame(seed=1).hands != HanabiGame(seed=2).hands


def test_no_discard_at_eight_tokens_and_hints_must_touch() -> None:
    game = HanabiGame(seed=3)
    legal = game.legal_actions(0)
    assert game.tokens == MAX_TOKENS
    assert not any(game.moves[a].kind == "discard" for a in legal)
    teammate = game.hands[1]
    for action in legal:
        move = game.moves[action]
        if move.kind == "reveal_color":
            assert any(card // 5 == move.color for card in teammate)
        if move.kind == "reveal_rank":
            assert any(card % 5 == move.rank for card in teammate)
    hints = {game.moves[a] for a in legal if game.moves[a].kind.startswith("reveal")}
    colors = {card // 5 for card in teammate}
    ranks = {card % 5 for card in teammate}
    assert len(hints) == len(colors) + len(ranks)
    assert game.legal_actions(1) == []


def test_illegal_moves_are_rejected_with_the_move_named() -> None:
    game = HanabiGame(seed=3)
    with pytest.raises(IllegalAction, match="move 0 is not legal for seat 0"):
        game.apply({0: 0})
    with pytest.raises(IllegalAction, match="seat 1"):
        game.apply({1: game.hand_size})
    with pytest.raises(IllegalAction, match="one seat"):
        game.apply({})
    with pytest.raises(ValueError, match="seed"):
        HanabiGame(seed=-1)


def _play_slot_of(game: HanabiGame, wanted: bool) -> int | None:
    """A slot of the current hand whose card is (or is not) playable now."""
    for slot, card in enumerate(game.hands[game.current]):
        if (card % 5 == game.fireworks[card // 5]) == wanted:
            return slot
    return None


def test_misplays_cost_lives_and_scoring_modes_differ() -> None:
    for scoring, expected_zero in (("fireworks", False), ("hle", True)):
        game = HanabiGame(HanabiConfig(scoring=scoring), 11)
        while not game.is_terminal():
            slot = _play_slot_of(game, wanted=False)
            good = _play_slot_of(game, wanted=True)
            chosen = good if good is not None and sum(game.fireworks) < 2 else slot
            assert chosen is not None
            before = (game.lives, len(game.discards))
            card = game.hands[game.current][chosen]
            game.apply({game.current: game.hand_size + chosen})
            if chosen == slot and chosen != good:
                assert (game.lives, len(game.discards)) == (before[0] - 1, before[1] + 1)
                assert game.discards[-1] == card
        assert game.end_reason() == "out_of_lives"
        assert sum(game.fireworks) == 2
        assert (game.score() == 0) is expected_zero


def test_everyone_gets_one_more_turn_after_the_last_draw() -> None:
    for players in (2, 3, 4, 5):
        game = HanabiGame(HanabiConfig(players=players), 5)
        drawer = None
        turns_after = 0
        while not game.is_terminal():
            seat = game.current
            assert game.current_players() == [seat]
            if drawer is not None:
                turns_after += 1
            legal = game.legal_actions(seat)
            discards = [a for a in legal if game.moves[a].kind == "discard"]
            hints = [a for a in legal if game.moves[a].kind.startswith("reveal")]
            game.apply({seat: discards[0] if discards else hints[0]})
            if game.deck_size == 0 and drawer is None:
                drawer = seat
        assert turns_after == players
        assert game.history[-1].seat == drawer
        assert game.end_reason() == "deck_exhausted"
        assert game.current_players() == []
        assert game.returns() == [float(sum(game.fireworks))] * players


def test_new_cards_go_to_the_last_slot_and_hints_mark_knowledge() -> None:
    game = HanabiGame(HanabiConfig(players=3), 2)
    target = game.hands[1]
    rank = target[0] % 5
    action = next(
        a
        for a in game.legal_actions(0)
        if game.moves[a].kind == "reveal_rank"
        and game.moves[a].offset == 1
        and game.moves[a].rank == rank
    )
    game.apply({0: action})
    touched = [slot for slot, card in enumerate(target) if card % 5 == rank]
    assert game.history[-1].touched == sum(1 << s for s in touched)
    assert all(game.rank_masks[1][s] == 1 << rank for s in touched)
    assert all(not game.rank_masks[1][s] >> rank & 1 for s in range(5) if s not in touched)
    old = list(game.hands[1])
    game.apply({1: game.hand_size + 1})
    assert game.hands[1][:4] == [old[0], *old[2:]]
    assert game.rank_masks[1][-1] == 31


def test_observation_hides_own_cards_only() -> None:
    game = HanabiGame(HanabiConfig(players=4), 9)
    obs = game.observation(2)
    assert obs.hands[2] == (-1,) * 4
    assert obs.hands[0] == tuple(game.hands[0])
    assert obs.legal_actions == ()
    assert game.observation(0).legal_actions == tuple(game.legal_actions(0))
    assert HANABI_INFO.name == "hanabi" and not HANABI_INFO.simultaneous


def test_events_describe_every_move_and_validate() -> None:
    game = HanabiGame(HanabiConfig(players=2), 4)
    events = [deal_event(game)]
    while not game.is_terminal():
        seat = game.current
        legal = game.legal_actions(seat)
        game.apply({seat: legal[len(game.history) % len(legal)]})
        events.append(turn_event(game, len(game.history) - 1, game.history[-1]))
    for event in events:
        assert HANABI_EVENT.validate_json(event.model_dump_json()) == event
    assert [parse_card(name) for name in events[0].hands[0]] == HanabiGame(seed=4).hands[0]
    assert card_name(parse_card("W3")) == "W3"
    with pytest.raises(ValueError, match="not a card"):
        parse_card("X9")
