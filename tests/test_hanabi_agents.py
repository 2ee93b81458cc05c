"""The symbolic agent and the score statistics."""

from __future__ import annotations

import statistics

import pytest

from games.core.play import play_game
from games.hanabi.agents import make_agent
from games.hanabi.conventions import PublicState
from games.hanabi.engine import HanabiGame
from games.hanabi.entry import ENTRY, HanabiState
from games.hanabi.events import HanabiConfig
from games.hanabi.stats import bootstrap_ci, iqm, score_stats
from games.hanabi.symbolic import SymbolicAgent


def _symbolic(players: int, seed: int) -> HanabiGame:
    state = play_game(ENTRY, ("symbolic",) * players, seed).state
    assert isinstance(state, HanabiState)
    return state.game


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_symbolic_plays_only_known_cards_while_the_deck_lasts(players: int) -> None:
    """Before the last round every play it makes scores, and the same seed replays the same."""
    for seed in range(3):
        game = _symbolic(players, seed)
        for turn in game.history:
            if game.moves[turn.action].kind == "play" and turn.drew:
                assert turn.scored, (players, seed, turn)
        assert [t.action for t in _symbolic(players, seed).history] == [
            t.action for t in game.history
        ]


def test_symbolic_scores_well_on_a_few_seeds() -> None:
    scores = [_symbolic(3, seed).score() for seed in range(8)]
    assert statistics.fmean(scores) >= 18.0


def test_conventions_are_common_knowledge() -> None:
    """Every seat's public replay of the conventions agrees, and every conventional mask holds
    the true card (the hinter only gives hints that are read truthfully)."""
    game = HanabiGame(HanabiConfig(players=4), 21)
    agents = [SymbolicAgent(seat) for seat in range(4)]
    while not game.is_terminal():
        seat = game.current
        game.apply({seat: agents[seat].act(game.observation(seat))})
    replays = []
    for seat in range(4):
        state = PublicState(4, 4)
        state.update(game.observation(seat).history, game.moves)
        replays.append(state.hands)
    assert all(hands == replays[0] for hands in replays)
    for seat, hand in enumerate(game.hands):
        for info, card in zip(replays[0][seat], hand, strict=True):
            assert info.mask() >> card & 1


def test_agent_knowledge_holds_the_true_cards() -> None:
    """The knowledge the agent decides on (exact, narrowed by conventions) holds every true card."""
    game = HanabiGame(HanabiConfig(players=2), 8)
    agents = [SymbolicAgent(0), SymbolicAgent(1)]
    while not game.is_terminal():
        seat = game.current
        hand = list(game.hands[seat])
        game.apply({seat: agents[seat].act(game.observation(seat))})
        knowledge = agents[seat].last_knowledge
        assert knowledge is not None
        assert all(mask >> card & 1 for mask, card in zip(knowledge.exact, hand, strict=True))


def test_unknown_agent_is_named() -> None:
    with pytest.raises(ValueError, match="unknown agent 'cheater'"):
        make_agent("cheater", 0, 0)


def test_iqm_and_bootstrap() -> None:
    assert iqm([0, 1, 2, 3, 4, 5, 6, 100]) == pytest.approx(3.5)
    low, high = bootstrap_ci([float(v % 7) for v in range(200)], "mean")
    assert low < 3.0 < high
    assert bootstrap_ci([5.0] * 10, "iqm") == (5.0, 5.0)


def test_score_stats_count_perfect_games_and_bomb_outs() -> None:
    games = [_symbolic(2, seed) for seed in range(4)]
    bombed = HanabiGame(HanabiConfig(players=2), 0)
    while not bombed.is_terminal():
        bombed.apply({bombed.current: bombed.hand_size})
    stats = score_stats([*games, bombed])
    assert stats.games == 5
    assert stats.bomb_outs == 1
    assert stats.perfect == sum(1 for g in games if g.score() == 25)
    assert stats.mean == pytest.approx(statistics.fmean([g.score() for g in [*games, bombed]]))
    assert stats.iqm_ci[0] <= stats.iqm <= stats.iqm_ci[1]
    with pytest.raises(ValueError, match="share one configuration"):
        score_stats([games[0], HanabiGame(HanabiConfig(players=3), 0)])
