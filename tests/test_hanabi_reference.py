"""Lockstep cross-check of the Hanabi engine against the reference engines.

The Hanabi Learning Environment (package ``hanabi-learning-environment-mahesh``) deals from its own
seeded generator, so it checks the deal order by seed as well as the rules; OpenSpiel's ``hanabi``
is fed our deal through its chance nodes. Both compare legal moves, tokens, lives, fireworks, hint
knowledge and score after every move. The default suite plays a few games per player count; the
full 200 per player count run under ``-m slow``.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from formalize.hanabi.deck import COLORS, NUM_RANKS
from games.hanabi.engine import HanabiGame
from games.hanabi.events import HanabiConfig

PLAYERS = (2, 3, 4, 5)
QUICK_GAMES = 8
FULL_GAMES = 200


def _policy_move(game: HanabiGame, rng: random.Random) -> int:
    """A random legal move that misplays rarely, so that games often reach the last round."""
    legal = game.legal_actions(game.current)
    if rng.random() < 0.1:
        return rng.choice(legal)
    hand = game.hands[game.current]
    safe = [
        action
        for action in legal
        if game.moves[action].kind != "play"
        or hand[game.moves[action].slot] % NUM_RANKS
        == game.fireworks[hand[game.moves[action].slot] // NUM_RANKS]
    ]
    return rng.choice(safe or legal)


def _mask_text(mask: int, letters: str) -> str:
    return "".join(letter for i, letter in enumerate(letters) if mask >> i & 1)


def _state_text(game: HanabiGame) -> tuple[int, int, list[int], list[list[str]]]:
    """Lives, tokens, fireworks and every card with its plausible colours and ranks."""
    hands = [
        [
            f"{name}|{_mask_text(c, COLORS)}{_mask_text(r, '12345')}"
            for name, c, r in zip(
                game.hand_names(seat), game.color_masks[seat], game.rank_masks[seat], strict=True
            )
        ]
        for seat in range(game.players)
    ]
    return game.lives, game.tokens, list(game.fireworks), hands


def _parse_reference(text: str) -> tuple[int, int, list[int], list[list[str]]]:
    """The same fields from the reference engines' state text."""
    lives = int(re.search(r"Life tokens: (\d+)", text).group(1))  # type: ignore[union-attr]
    tokens = int(re.search(r"Info tokens: (\d+)", text).group(1))  # type: ignore[union-attr]
    line = re.search(r"Fireworks: (.*)", text).group(1)  # type: ignore[union-attr]
    fireworks = [int(item[1]) for item in line.split()]
    body = text.split("Hands:\n", 1)[1].split("Deck size:", 1)[0]
    hands: list[list[str]] = []
    for block in body.split("-----\n"):
        cards = re.findall(r"^(\w\d) \|\| \w\w\|(\w*)$", block, flags=re.MULTILINE)
        hands.append([f"{name}|{plausible}" for name, plausible in cards])
    return lives, tokens, fireworks, hands


def _hle() -> Any:
    return pytest.importorskip(
        "hanabi_learning_environment.pyhanabi",
        reason="hanabi-learning-environment-mahesh (the reference engine) is not installed",
    )


def _pyspiel() -> Any:
    return pytest.importorskip("pyspiel", reason="open-spiel (pyspiel) is not installed")


def _lockstep_hle(players: int, seed: int) -> None:
    pyhanabi = _hle()
    ours = HanabiGame(HanabiConfig(players=players, scoring="hle"), seed)
    ref_game = pyhanabi.HanabiGame({"players": players, "seed": seed})
    ref = ref_game.new_initial_state()
    rng = random.Random(seed)
    while True:
        while ref.cur_player() == pyhanabi.CHANCE_PLAYER_ID:
            ref.deal_random_card()
        assert _state_text(ours) == _parse_reference(str(ref)), (players, seed)
        assert ours.is_terminal() == ref.is_terminal()
        assert ours.score() == ref.score()
        if ours.is_terminal():
            return
        assert ours.current == ref.cur_player()
        legal = ours.legal_actions(ours.current)
        assert legal == [ref_game.get_move_uid(move) for move in ref.legal_moves()]
        assert [ours.describe(a) for a in legal] == [str(move) for move in ref.legal_moves()]
        action = _policy_move(ours, rng)
        ours.apply({ours.current: action})
        ref.apply_move(ref_game.get_move(action))


def _lockstep_openspiel(players: int, seed: int) -> None:
    pyspiel = _pyspiel()
    ours = HanabiGame(HanabiConfig(players=players, scoring="hle"), seed)
    ref = pyspiel.load_game("hanabi", {"players": players}).new_initial_state()
    for hand in ours.hands:
        for card in hand:
            ref.apply_action(card)
    rng = random.Random(seed)
    while True:
        assert ours.is_terminal() == ref.is_terminal()
        assert ours.score() == round(ref.returns()[0])
        if ours.is_terminal():
            # A game lost on a misplay ends before the reference deals the replacement card.
            assert _state_text(ours)[:3] == _parse_reference(str(ref))[:3], (players, seed)
            return
        assert _state_text(ours) == _parse_reference(str(ref)), (players, seed)
        assert ours.current == ref.current_player()
        assert ours.legal_actions(ours.current) == ref.legal_actions()
        action = _policy_move(ours, rng)
        seat = ours.current
        held = len(ours.hands[seat])
        ours.apply({seat: action})
        ref.apply_action(action)
        if ref.is_chance_node():
            assert len(ours.hands[seat]) == held
            ref.apply_action(ours.hands[seat][-1])


@pytest.mark.parametrize("players", PLAYERS)
def test_lockstep_with_hle(players: int) -> None:
    for seed in range(QUICK_GAMES):
        _lockstep_hle(players, seed)


@pytest.mark.parametrize("players", PLAYERS)
def test_lockstep_with_openspiel(players: int) -> None:
    for seed in range(QUICK_GAMES):
        _lockstep_openspiel(players, seed)


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
def test_lockstep_full_run(players: int) -> None:
    for seed in range(FULL_GAMES):
        _lockstep_hle(players, seed)
        _lockstep_openspiel(players, seed)
