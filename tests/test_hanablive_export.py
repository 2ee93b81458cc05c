"""The hanab.live export replays, under hanab.live's own rules, to the game gumshoe played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.core.play import play_game
from games.core.runlog import EventLog
from games.hanabi.entry import ENTRY, HanabiState
from games.hanabi.hanablive import LiveGame, export_hanablive


def simulate(game: LiveGame, hand_size: int) -> tuple[list[int], int]:
    """Play a hanab.live JSON game as hanab.live deals and scores it: the fireworks and strikes.

    Written from the format's description, apart from gumshoe's engine: hands are dealt player
    by player, action ``i`` is player ``i mod n``'s, a play or discard names a card by its deck
    order and draws the next card, a clue must touch a card of its target.
    """
    players = len(game.players)
    hands = [list(range(p * hand_size, (p + 1) * hand_size)) for p in range(players)]
    next_card = players * hand_size
    fireworks, strikes = [0] * 5, 0
    for index, action in enumerate(game.actions):
        actor = index % players
        if action.type in (0, 1):
            assert action.target in hands[actor], f"action {index}: card not in the hand"
            hands[actor].remove(action.target)
            card = game.deck[action.target]
            if action.type == 0:
                if card.rank == fireworks[card.suitIndex] + 1:
                    fireworks[card.suitIndex] += 1
                else:
                    strikes += 1
            if next_card < len(game.deck):
                hands[actor].append(next_card)
                next_card += 1
        else:
            assert action.target != actor and action.value is not None
            cards = [game.deck[o] for o in hands[action.target]]
            touched = [
                c for c in cards if (c.suitIndex if action.type == 2 else c.rank) == action.value
            ]
            assert touched, f"action {index}: a clue that touches no card"
    return fireworks, strikes


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 4), (4, 7), (5, 2)])
def test_the_export_replays_to_the_same_fireworks(tmp_path: Path, players: int, seed: int) -> None:
    config = ENTRY.default_config(players)
    path = tmp_path / "game.jsonl"
    with EventLog(path) as log:
        played = play_game(ENTRY, ["symbolic"] * players, seed, log=log)
    state = played.state
    assert isinstance(state, HanabiState)
    game = export_hanablive(ENTRY.read_log(path))
    assert len(game.deck) == 50 and game.players == [s.name for s in played.seats]
    fireworks, strikes = simulate(game, config.hand_size)
    engine = state.game
    assert sum(fireworks) == sum(engine.fireworks) and strikes == 3 - engine.lives
    notes = game.notes
    assert len(notes) == players and all(len(n) == 50 for n in notes)
    assert any("could be" in note for seat_notes in notes for note in seat_notes)


def test_the_command_writes_the_replay_and_refuses_a_bad_log(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "nonsense"}\n', encoding="utf-8")
    refused = CliRunner().invoke(app, ["export", "hanablive", str(bad)])
    assert refused.exit_code == 2
    assert refused.stderr.count("\n") == 1 and "bad.jsonl" in refused.stderr
    good = tmp_path / "good.jsonl"
    with EventLog(good) as log:
        play_game(ENTRY, ["symbolic"] * 2, 3, log=log)
    done = CliRunner().invoke(
        app, ["export", "hanablive", str(good), "-o", str(tmp_path / "r.json")]
    )
    assert done.exit_code == 0, done.output
    replay = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert set(replay) == {"players", "deck", "actions", "options", "notes", "seed"}
    assert replay["options"] == {"variant": "No Variant"}
