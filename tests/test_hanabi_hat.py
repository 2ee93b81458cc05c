"""The hat (information-strategy) agent and the ``strong`` name."""

from __future__ import annotations

import statistics
from collections import Counter

import pytest

from games.core.play import play_game
from games.hanabi.agents import AGENTS, StrongAgent, make_agent
from games.hanabi.annotate import move_values
from games.hanabi.engine import HanabiGame, HanabiObservation
from games.hanabi.entry import ENTRY, HanabiState
from games.hanabi.events import HanabiConfig
from games.hanabi.hat import HatAgent
from games.hanabi.search import PRUNE_AFTER, ROLLOUTS, SearchAgent


def _play(players: int, seed: int, names: list[str]) -> HanabiGame:
    state = play_game(ENTRY, names, seed).state
    assert isinstance(state, HanabiState)
    return state.game


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_public_tables_agree_and_hold_the_true_cards(players: int) -> None:
    """After every move every seat's public tables are the same, and every table holds the card
    actually in that slot: hat sums are read back exactly as they were meant."""
    game = HanabiGame(HanabiConfig(players=players), 7 + players)
    agents = [HatAgent(seat) for seat in range(players)]
    while not game.is_terminal():
        seat = game.current
        game.apply({seat: agents[seat].act(game.observation(seat))})
        infos = [agent.tables(game.observation(agent.seat)) for agent in agents]
        assert all(hands == infos[0] for hands in infos)
        for hand, tables in zip(game.hands, infos[0], strict=True):
            assert all(card in table for card, table in zip(hand, tables, strict=True))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_hat_scores_near_perfect_at_three_to_five_players(players: int) -> None:
    scores = [_play(players, seed, ["hat"] * players).score() for seed in range(6)]
    assert statistics.fmean(scores) >= 23.5


def test_hat_is_repeatable_and_strong_plays_it_from_three_players() -> None:
    first = _play(3, 4, ["hat"] * 3)
    assert [t.action for t in _play(3, 4, ["hat"] * 3).history] == [t.action for t in first.history]
    assert [t.action for t in _play(3, 4, ["strong"] * 3).history] == [
        t.action for t in first.history
    ]
    assert not AGENTS.needs_llm(["hat", "strong", "hat-search"])


def test_strong_searches_at_two_players() -> None:
    agent = make_agent("strong", 0, 4)
    assert isinstance(agent, StrongAgent) and agent.chosen is None
    agent.act(HanabiGame(HanabiConfig(players=2), 4).observation(0))
    assert isinstance(agent.chosen, SearchAgent)


@pytest.mark.parametrize("players", [2, 4])
def test_hat_survives_partners_that_ignore_the_protocol(players: int) -> None:
    """Beside agents that do not follow it, the hat agent still makes only legal moves."""
    for seed in range(3):
        names = ["hat", "symbolic", "random", "hat", "symbolic"][:players]
        game = _play(players, seed, names)
        assert game.is_terminal()


def test_hat_is_a_rollout_policy() -> None:
    game = HanabiGame(HanabiConfig(players=3), 2)
    agents = [HatAgent(seat) for seat in range(3)]
    for _ in range(9):
        seat = game.current
        game.apply({seat: agents[seat].act(game.observation(seat))})
    valued = move_values(game, 2, 2, 0, "hat")
    assert len(valued.values) == len(game.legal_actions(game.current))
    assert valued == move_values(game, 2, 2, 0, "hat")
    assert all(0 <= v <= 25 for v in valued.values)


@pytest.mark.parametrize("players", [2, 4])
def test_a_game_rebuilt_from_an_observation_goes_on_the_same(players: int) -> None:
    """With the seat's true hand, the rebuilt game matches the real one in every public field
    and accepts the same moves; a hand the seat cannot hold is refused."""
    game = HanabiGame(HanabiConfig(players=players), 3)
    agents = [HatAgent(seat) for seat in range(players)]
    for _ in range(20):
        seat = game.current
        game.apply({seat: agents[seat].act(game.observation(seat))})
    seat = game.current
    obs = game.observation(seat)
    rebuilt = HanabiGame.from_observation(obs, game.hands[seat], 11)
    for other in range(players):
        assert rebuilt.observation(other) == game.observation(other)
    assert rebuilt.deck == game.deck
    with pytest.raises(ValueError, match="hand"):
        HanabiGame.from_observation(obs, [game.hands[seat][0]] * 4 + [0], 11)


def test_search_makes_legal_moves_and_keeps_certain_ones() -> None:
    """The searching seat only ever deviates at a judgement call of its blueprint."""
    game = HanabiGame(HanabiConfig(players=2), 6)
    agents = [SearchAgent(seat, seat, rollouts=2) for seat in range(2)]
    while not game.is_terminal():
        seat = game.current
        obs = game.observation(seat)
        blueprint = agents[seat].blueprint.clone(seat).act(obs)
        move = agents[seat].act(obs)
        decision = agents[seat].blueprint.last
        assert decision is not None
        assert move in game.legal_actions(seat)
        if not decision.unsure:
            assert move == blueprint
        game.apply({seat: move})
    assert game.score() > 10


class ScriptedRollouts(SearchAgent):
    """A searcher whose rollouts return a set value per candidate move, counted."""

    def __init__(self, seat: int, values: dict[int, int]) -> None:
        super().__init__(seat, 0)
        self.values = values
        self.calls: Counter[int] = Counter()

    def _rollout(self, obs: HanabiObservation, hand: list[int], seed: int, action: int) -> int:
        self.calls[action] += 1
        return self.values[action]


def test_search_drops_a_trailing_candidate_and_takes_a_leading_one() -> None:
    """Racing: a candidate four points behind the blueprint's move gets no more rollouts after
    the second deal; one ahead by the margin is rolled out on every deal and chosen."""
    game = HanabiGame(HanabiConfig(players=2), 6)
    hat = [HatAgent(seat) for seat in range(2)]
    while True:
        obs = game.observation(game.current)
        move = hat[game.current].act(obs)
        decision = hat[game.current].last
        assert decision is not None
        probe = SearchAgent(game.current, 0)
        candidates = probe._candidates(obs, move, decision)
        if decision.unsure and len(candidates) >= 3:
            break
        game.apply({game.current: move})
    worse, better = [a for a in candidates if a != move][:2]
    seat = game.current
    trailing = ScriptedRollouts(seat, {a: 20 if a == move else 17 for a in candidates})
    assert trailing.act(obs) == move
    assert set(trailing.calls.values()) == {PRUNE_AFTER}
    leading = ScriptedRollouts(seat, {a: 20 if a != better else 21 for a in candidates})
    leading.values[worse] = 17
    assert leading.act(obs) == better
    assert leading.calls[better] == leading.calls[move] == ROLLOUTS
    assert leading.calls[worse] == PRUNE_AFTER
