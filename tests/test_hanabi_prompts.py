"""What each LLM setting is told, as captured through the scripted chat server: Watson only what
hints named (no history, so nothing about the slots a hint left untouched), Sherlock the
hint-derived possibilities and the starting deck (the engine-computed unseen cards only in the
``exact`` view; no history), Mycroft the clued facts of its own cards and the moves since its
last turn; every setting names the last player in the final round; a mixture asks the history
analyst only from three players on, and it and the aggregator see the moves without the slots
hints touched."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from games.hanabi.agents import AGENTS, HanabiAgentSettings
from games.hanabi.engine import HanabiGame
from games.hanabi.events import HanabiConfig
from games.hanabi.knowledge import visible_cards
from games.hanabi.llm_prompts import RECENT_MOVES, ROLE_FOCUS, STARTING_DECK
from games.hanabi.moves import move_table
from games.hanabi.symbolic import SymbolicAgent
from reasoning.llm import LLMSettings
from reasoning.llm.scripted_server import ScriptedChatServer
from tests.test_hanabi_llm import scripted

HISTORY_LINE = re.compile(r"^\s*turn \d+: P\d", re.MULTILINE)
"""A line of the moves played."""
TOUCHED = re.compile(r"told P\d \w+: slots")
"""A hint with the slots it touched: negative information about every other slot."""
UNSEEN = "Cards you cannot see"


def _hinted_game() -> tuple[HanabiGame, int]:
    """Three players; seat 0 tells seat 1 the colour of its slot 0; the game and the colour."""
    game = HanabiGame(HanabiConfig(players=3), 5)
    color = game.hands[1][0] // 5
    game.apply({0: 2 * game.hand_size + color})
    assert game.current == 1 and game.history[-1].touched != (1 << game.hand_size) - 1
    return game, color


def played(players: int, seed: int, until: Callable[[HanabiGame], bool]) -> HanabiGame:
    """A game the symbolic agents play until ``until(game)`` holds."""
    game = HanabiGame(HanabiConfig(players=players), seed)
    agents = [SymbolicAgent(s) for s in range(players)]
    while not until(game):
        assert not game.is_terminal()
        seat = game.current
        game.apply({seat: agents[seat].act(game.observation(seat))})
    return game


def prompts(role: str, game: HanabiGame, **options: Any) -> list[str]:
    """The user prompts the seat to move sends for one move, as the server received them."""
    with ScriptedChatServer(scripted) as server:
        llm = LLMSettings(base_url=server.base_url, model="scripted", max_retries=0)
        settings = HanabiAgentSettings.model_validate({"llm": llm, **options})
        seat = game.current
        AGENTS.make(role, seat, 0, settings).act(game.observation(seat))
        return [request.last_user for request in server.requests]


def _line(prompt: str, start: str) -> str:
    return next(line for line in prompt.splitlines() if line.strip().startswith(start))


def test_watson_is_told_what_hints_named_and_nothing_of_the_untouched_slots() -> None:
    game, color = _hinted_game()
    (prompt,) = prompts("watson", game)
    touched = game.history[-1].touched
    you = _line(prompt, "you:").split()[1:]
    assert you == [f"{s}:{'RYGWB'[color] if touched >> s & 1 else '?'}?" for s in range(5)]
    assert not HISTORY_LINE.search(prompt) and " told P" not in prompt and "slots" not in prompt
    assert "Possible identities" not in prompt and UNSEEN not in prompt
    assert STARTING_DECK not in prompt and "Final round" not in prompt


@pytest.mark.parametrize("view", ["hints", "exact"])
def test_sherlock_is_told_hint_possibilities_and_the_starting_deck(view: str) -> None:
    game, color = _hinted_game()
    (prompt,) = prompts("sherlock", game, view=view)
    touched = game.history[-1].touched
    untouched = next(s for s in range(5) if not touched >> s & 1)
    you = _line(prompt, "you:").split()[1:]
    slot_text = next(part for part in you if part.startswith(f"{untouched}:")).split(":")[1]
    assert "RYGWB"[color] not in slot_text.split("]")[0], "a hint's negative information"
    assert STARTING_DECK in prompt and "Think aloud" in prompt
    assert not HISTORY_LINE.search(prompt) and " told P" not in prompt
    if view == "hints":
        assert "(from hints):" in prompt
        assert UNSEEN not in prompt and "(playable " not in prompt
    else:
        unseen = _line(prompt, UNSEEN).split(": ")[1].split()
        seen = len(visible_cards(game.observation(1)))
        assert sum(int(part.split("x")[1]) for part in unseen) == 50 - seen
        assert "(playable " in prompt


def test_mycroft_is_told_its_clued_facts_and_the_moves_since_its_last_turn() -> None:
    game, color = _hinted_game()
    (prompt,) = prompts("mycroft", game)
    assert f"0:{'RYGWB'[color]}?" in _line(prompt, "What hints named of your cards")
    assert TOUCHED.search(prompt.split("Moves since your last turn:")[1])
    assert "Possible identities" not in prompt and UNSEEN not in prompt


def _final_round(game: HanabiGame) -> bool:
    return game.deck_size == 0 and game.turns_to_play > 1


@pytest.mark.parametrize("role", ["watson", "sherlock", "mycroft"])
def test_every_setting_names_the_last_player_in_the_final_round(role: str) -> None:
    game = played(3, 1, _final_round)
    seat = game.current
    last = (seat + game.turns_to_play - 1) % 3
    assert last != seat
    (prompt,) = prompts(role, game)
    line = _line(prompt, "Final round:")
    assert f"{game.turns_to_play} moves are left" in line and f"P{last} makes the last move" in line
    before = played(3, 1, lambda g: g.deck_size == 1)
    assert "Final round" not in prompts(role, before)[0]


def _speakers(prompts: list[str]) -> dict[str, str]:
    """A mixture's prompts by role (the aggregator's is the last, giving the proposals)."""
    focus = {text: role for role, text in ROLE_FOCUS.items() if text}
    out = {"aggregator": prompts[-1]}
    for prompt in prompts[:-1]:
        role = next((r for text, r in focus.items() if prompt.endswith(text)), "base")
        out[role] = prompt
    return out


@pytest.mark.parametrize("players", [2, 3])
def test_a_mixture_asks_the_history_analyst_from_three_players_on(players: int) -> None:
    game = played(players, 3, lambda g: len(g.history) >= RECENT_MOVES + 3)
    asked = prompts("sherlock", game, mixture=True)
    by_role = _speakers(asked)
    expected = {"base", "rank", "analyst", "discard", "aggregator"}
    assert set(by_role) == (expected if players == 2 else expected | {"history"})
    assert len(asked) == len(by_role)
    for role, prompt in by_role.items():
        moves = HISTORY_LINE.findall(prompt)
        if role in ("history", "aggregator"):
            assert "Moves so far:" in prompt and len(moves) == len(game.history)
        else:
            assert not moves and "Moves so far" not in prompt
        assert not TOUCHED.search(prompt) and UNSEEN not in prompt


def test_a_watson_mixture_shows_the_last_moves_only() -> None:
    game = played(3, 3, lambda g: len(g.history) >= RECENT_MOVES + 3)
    by_role = _speakers(prompts("watson", game, mixture=True))
    for role in ("history", "aggregator"):
        prompt = by_role[role]
        assert f"The last {RECENT_MOVES} moves:" in prompt
        assert len(HISTORY_LINE.findall(prompt)) == RECENT_MOVES
        assert not TOUCHED.search(prompt)
    assert not HISTORY_LINE.search(by_role["base"])
    hints = [t for t in game.history if move_table(3, 5)[t.action].kind.startswith("reveal")]
    assert hints, "the history holds hints whose slots stay unsaid"
