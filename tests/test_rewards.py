"""Exact rewards: the weighted terms of ``games.core.reward`` and Hanabi replies scored by the
exact audit of their stated deductions, their recall and the value of the chosen move."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from formalize.hanabi.deck import COLORS, NUM_RANKS
from games.core.reward import RewardWeights, reward
from games.hanabi.position import Position
from games.hanabi.reward import decision_reward, exact_deductions
from games.hanabi.symbolic import SymbolicAgent

KINDS = ("sound", "lucky", "wrong", "unjudged")


def test_the_terms_add_up_as_documented() -> None:
    weights = RewardWeights()
    scored = reward(["sound", "sound", "wrong", "lucky"], weights, recall=0.5, value=0.4)
    assert (scored.sound, scored.lucky, scored.wrong, scored.unjudged) == (2, 1, 1, 0)
    assert scored.claims_term == pytest.approx(0.25)
    assert scored.total == pytest.approx(0.25 + 0.5 + 0.4)
    strict = RewardWeights(lucky=-0.5, recall=2.0, value=0.0)
    assert reward(["lucky", "sound"], strict, recall=1.0, value=1.0).total == pytest.approx(2.25)
    assert reward([], weights).total == 0.0
    with pytest.raises(ValueError, match="value"):
        reward([], weights, value=25.0)


@given(
    st.lists(st.sampled_from(KINDS), max_size=20),
    st.none() | st.floats(0, 1),
    st.none() | st.floats(0, 1),
)
def test_default_rewards_lie_between_minus_one_and_three(
    kinds: list[str], recall: float | None, value: float | None
) -> None:
    scored = reward(kinds, RewardWeights(), recall=recall, value=value)  # type: ignore[arg-type]
    assert -1.0 <= scored.total <= 3.0
    assert scored.sound + scored.lucky + scored.wrong + scored.unjudged == len(kinds)


def position_after(players: int, seed: int, moves: int) -> Position:
    game = Position(players=players, seed=seed).game()
    agents = [SymbolicAgent(s) for s in range(players)]
    made: list[int] = []
    for _ in range(moves):
        move = agents[game.current].act(game.observation(game.current))
        game.apply({game.current: move})
        made.append(move)
    return Position(players=players, seed=seed, moves=tuple(made))


def perfect_claims(position: Position) -> list[dict[str, object]]:
    return [claim.model_dump() for claim in exact_deductions(position)]


def reply(position: Position, claims: list[dict[str, object]], chosen: int = 0) -> str:
    legal = position.game().observation(position.game().current).legal_actions
    answer = {"reasoning": "r", "deductions": claims, "ratings": [0.0] * len(legal)}
    return json.dumps(answer | {"chosen": chosen})


def test_a_perfect_tracker_scores_every_slot_sound_and_complete() -> None:
    position = position_after(3, 5, 6)
    claims = perfect_claims(position)
    scored = decision_reward(position, reply(position, claims))
    assert scored.parsed and scored.claims == scored.sound == len(claims) == 15
    assert scored.recall == 1.0 and scored.value is None and scored.total == 2.0


def test_wrong_lucky_and_impossible_claims_cost_what_their_weights_say() -> None:
    position = position_after(2, 7, 4)
    game = position.game()
    claims = perfect_claims(position)
    hand = game.hands[game.current]
    wrong, lucky = [c for c in claims if c["seat"] == game.current and len(str(c["colors"])) > 1][
        :2
    ]
    wrong["colors"] = "".join(
        c for c in COLORS if c != COLORS[hand[int(str(wrong["slot"]))] // NUM_RANKS]
    )
    lucky["colors"] = COLORS[hand[int(str(lucky["slot"]))] // NUM_RANKS]
    claims.append({"seat": 1, "slot": 9, "colors": "R", "ranks": "1"})
    scored = decision_reward(position, reply(position, claims))
    assert (scored.lucky, scored.wrong, scored.unjudged) == (1, 1, 1)
    assert scored.sound == scored.claims - 3 and scored.claims == len(claims)
    assert scored.recall is not None and scored.recall < 1.0
    expected = (scored.sound - scored.wrong - scored.unjudged) / scored.claims + scored.recall
    assert scored.total == pytest.approx(expected)


def test_the_move_value_comes_from_given_values_or_rollouts() -> None:
    position = position_after(2, 3, 30)
    legal = position.game().observation(position.game().current).legal_actions
    values = [float(i % 26) for i in range(len(legal))]
    text = reply(position, perfect_claims(position), chosen=len(legal) - 1)
    given_values = decision_reward(position, text, values=values)
    assert given_values.value == pytest.approx(values[-1] / 25)
    rolled = decision_reward(position, text, samples=2)
    assert rolled.value is not None and 0.0 <= rolled.value <= 1.0
    with pytest.raises(ValueError, match="values"):
        decision_reward(position, text, values=values[:-1])
    move_only = json.dumps({"reasoning": "r", "ratings": [0.0] * len(legal), "chosen": 0})
    plain = decision_reward(position, move_only, tracking=False, values=values)
    assert plain.claims == 0 and plain.recall is None and plain.total == pytest.approx(0.0)


def test_an_unreadable_reply_scores_malformed() -> None:
    position = position_after(2, 1, 0)
    for text in ("no JSON here", '{"reasoning": "r", "ratings": [0.0], "chosen": 0}'):
        scored = decision_reward(position, text, RewardWeights(malformed=-2.0))
        assert not scored.parsed and scored.total == -2.0
