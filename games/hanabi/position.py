"""A Hanabi decision point in a few numbers, and a log's LLM decisions with theirs.

A Hanabi game is fixed by its config, the seed of its deal and the moves made, so ``Position``
(those, as plain JSON) rebuilds the exact state any logged decision was made in: the hidden
hands a reward grades stated deductions against (``games.hanabi.reward``), carried in a dataset
row as a small JSON object instead of the whole state.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from games.core.decisions import LoggedDecision
from games.core.log import GameLog
from games.core.replay import replay
from games.hanabi.config import MAX_SEED, Scoring
from games.hanabi.engine import HanabiGame
from games.hanabi.entry import ENTRY, hanabi_actions
from games.hanabi.events import HanabiConfig, HanabiEvent, HanabiMove


class Position(BaseModel):
    """The state before move ``len(moves) + 1`` of the game of ``players`` and ``scoring``
    dealt from ``seed``: the seat to move is the one deciding."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: int = Field(ge=2, le=5)
    scoring: Scoring = "fireworks"
    seed: int = Field(ge=0, le=MAX_SEED)
    moves: tuple[int, ...] = ()

    def game(self) -> HanabiGame:
        """The game in this position (IllegalAction when a move is not legal where made)."""
        game = HanabiGame(HanabiConfig(players=self.players, scoring=self.scoring), self.seed)
        for move in self.moves:
            game.apply({game.current: move})
        return game


def logged_decisions(log: GameLog[HanabiEvent]) -> list[LoggedDecision]:
    """Every LLM decision of a Hanabi log with the position it was made in (the log must
    replay: ReplayError names the line where it parts)."""
    replay(ENTRY, log)
    config = HanabiConfig.model_validate(log.header.config)
    moves: list[int] = []
    found: list[LoggedDecision] = []
    for _, joint in hanabi_actions(log.events):
        ((seat, move),) = joint.items()
        if isinstance(move, HanabiMove):
            decision = move.decision
            position = Position(
                players=config.players,
                scoring=config.scoring,
                seed=log.seed,
                moves=tuple(moves),
            )
            found.append(
                LoggedDecision(
                    seat=seat,
                    turn=decision.turn,
                    agent=decision.agent,
                    prompt=decision.prompt,
                    response=decision.response,
                    reasoning=decision.reasoning_content,
                    legal=decision.legal,
                    ratings=decision.ratings,
                    chosen=decision.chosen,
                    fallback=decision.fallback,
                    position=position.model_dump(mode="json"),
                )
            )
        moves.append(move.action if isinstance(move, HanabiMove) else move)
    return found
