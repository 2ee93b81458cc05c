"""What each LLM setting is told: Watson only what hints named, Sherlock the possibilities, the
unseen copies and the final-round flag, Mycroft the clued facts of its own cards."""

from __future__ import annotations

from games.hanabi.engine import HanabiGame
from games.hanabi.events import HanabiConfig
from games.hanabi.llm_prompts import (
    Memory,
    clued_facts,
    mycroft_prompt,
    sherlock_prompt,
    watson_prompt,
)


def _hinted_game() -> tuple[HanabiGame, int, int]:
    """Seat 0 tells seat 1 the colour of its slot 0; the game, the colour and the rank hinted."""
    game = HanabiGame(HanabiConfig(players=3), 5)
    card = game.hands[1][0]
    color = card // 5
    action = 2 * game.hand_size + color
    game.apply({0: action})
    return game, color, card % 5


def _line(prompt: str, start: str) -> str:
    return next(line for line in prompt.splitlines() if line.strip().startswith(start))


def test_watson_sees_only_what_hints_named() -> None:
    game, color, _ = _hinted_game()
    obs = game.observation(1)
    facts = clued_facts(obs, 1)
    touched = game.history[-1].touched
    assert [c is not None for c, _ in facts] == [bool(touched >> s & 1) for s in range(5)]
    assert all(r is None for _, r in facts)
    you = _line(watson_prompt(obs), "you:")
    letter = "RYGWB"[color]
    assert you.split()[1] == f"0:{letter}?"
    untouched = [s for s in range(5) if not touched >> s & 1]
    assert untouched and all(f"{s}:??" in you for s in untouched)
    assert "possible" not in watson_prompt(obs).lower()


def test_sherlock_sees_negative_information_and_the_distribution() -> None:
    game, color, _ = _hinted_game()
    obs = game.observation(1)
    prompt = sherlock_prompt(obs, "hints")
    you = _line(prompt, "you:")
    touched = game.history[-1].touched
    untouched = next(s for s in range(5) if not touched >> s & 1)
    slot_text = next(part for part in you.split()[1:] if part.startswith(f"{untouched}:"))
    assert "RYGWB"[color] not in slot_text.split(":")[1].split("]")[0]
    distribution = _line(prompt, "Cards you cannot see")
    assert sum(int(part.split("x")[1]) for part in distribution.split(": ")[1].split()) == (50 - 10)
    assert "Final round" not in prompt


def test_sherlock_names_the_last_player_in_the_final_round() -> None:
    game = HanabiGame(HanabiConfig(players=2), 1)
    while game.deck_size:
        seat = game.current
        legal = game.legal_actions(seat)
        discards = [a for a in legal if a < game.hand_size]
        game.apply({seat: discards[0] if discards else legal[-1]})
        if game.is_terminal():
            break
    assert not game.is_terminal()
    seat = game.current
    prompt = sherlock_prompt(game.observation(seat), "hints")
    last = (seat + game.turns_to_play - 1) % 2
    assert f"P{last} makes the last move" in prompt


def test_mycroft_is_told_its_clued_facts_and_nothing_derived() -> None:
    game, color, _ = _hinted_game()
    obs = game.observation(1)
    prompt = mycroft_prompt(obs, Memory())
    line = _line(prompt, "What hints named of your cards")
    assert f"0:{'RYGWB'[color]}?" in line
    assert "Possible identities" not in prompt and "Cards you cannot see" not in prompt
