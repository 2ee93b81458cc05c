"""Exact rewards for Mycroft's replies, as a reward function for RL fine-tuning.

``games.hanabi.reward.reward`` has the signature TRL's ``GRPOTrainer`` takes in
``reward_funcs``: the prompts, the sampled completions (plain text, or chat messages), and every
other dataset column as a keyword list. Here the dataset's ``position`` column
(``games.hanabi.position.Position`` as JSON; `gumshoe export dataset` writes it for every logged
Hanabi decision) rebuilds the exact state, and each completion is scored by the exact audit of
its deduction block instead of an LLM judge. Nothing here imports an RL library; with TRL
installed: ``GRPOTrainer(model, reward_funcs=reward, train_dataset=Dataset.from_list(rows),
...)``. Every game has one (``games.<game>.reward.reward``).

Run: python examples/hanabi_rewards.py
"""

from __future__ import annotations

import json
from typing import Any

from games.hanabi.llm_prompts import Memory, mycroft_prompt, system_prompt
from games.hanabi.position import Position
from games.hanabi.reward import exact_deductions, reward
from games.hanabi.symbolic import SymbolicAgent


def dataset(seed: int, players: int, turns: int) -> list[dict[str, Any]]:
    """Mycroft prompts at the first ``turns`` positions of a game the symbolic agent plays: a
    ``prompt`` (chat messages) and a ``position`` column per row."""
    position = Position(players=players, seed=seed)
    game = position.game()
    agents = [SymbolicAgent(seat) for seat in range(players)]
    rows = []
    for _ in range(turns):
        seat = game.current
        question = mycroft_prompt(game.observation(seat), Memory())
        rows.append(
            {
                "prompt": [
                    {"role": "system", "content": system_prompt("mycroft")},
                    {"role": "user", "content": question},
                ],
                "position": position.model_dump_json(),
            }
        )
        move = agents[seat].act(game.observation(seat))
        game.apply({seat: move})
        position = position.model_copy(update={"moves": (*position.moves, move)})
    return rows


def answer(position: Position, deductions: list[dict[str, Any]]) -> list[dict[str, str]]:
    """A chat completion whose reply states ``deductions`` and plays the first legal move."""
    game = position.game()
    moves = len(game.observation(game.current).legal_actions)
    reply = {"reasoning": "...", "deductions": deductions, "ratings": [0.0] * moves, "chosen": 0}
    return [{"role": "assistant", "content": json.dumps(reply)}]


def stand_ins(position: Position) -> dict[str, list[dict[str, str]]]:
    """Replies of four kinds to one prompt: exact deductions on every slot; nothing known of any
    slot; a guess naming each of the speaker's cards as a red 1; no JSON at all."""
    exact = [claim.model_dump() for claim in exact_deductions(position)]
    unsure = [claim | {"colors": "RYGWB", "ranks": "12345"} for claim in exact]
    game = position.game()
    guess = [
        claim | {"colors": "R", "ranks": "1"} if claim["seat"] == game.current else claim
        for claim in exact
    ]
    return {
        "exact": answer(position, exact),
        "unsure": answer(position, unsure),
        "guess": answer(position, guess),
        "no JSON": [{"role": "assistant", "content": "I would play my oldest card."}],
    }


def main() -> None:
    """Score the four stand-in replies at three positions and print one line per reply."""
    rows = dataset(seed=3, players=3, turns=3)
    for turn, row in enumerate(rows, start=1):
        replies = stand_ins(Position.model_validate_json(row["position"]))
        count = len(replies)
        scores = reward(
            [row["prompt"]] * count, list(replies.values()), position=[row["position"]] * count
        )
        for kind, score in zip(replies, scores, strict=True):
            assert score is not None
            print(f"turn {turn}  {kind:8s} {score:+.3f}")


if __name__ == "__main__":
    main()
