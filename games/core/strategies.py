"""Hypothesis strategies shared by the games' own ``strategies`` modules: a registered game's
state after random legal play. Needs hypothesis (``pip install 'gumshoe[testing]'``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import note
from hypothesis import strategies as st
from pydantic import BaseModel

from games.core.log import SeatInfo
from games.core.protocol import GameState
from games.core.registry import get_game

Chooser = Callable[[random.Random, GameState, int], Any]
"""A seat's random action where the game does not list its actions (an open sentence)."""


def any_legal(rng: random.Random, state: GameState, seat: int) -> Any:
    """One of the seat's listed legal actions, uniformly."""
    return rng.choice(state.legal_actions(seat))


def random_play(
    draw: st.DrawFn, state: GameState, most: int, game: str, choose: Chooser = any_legal
) -> None:
    """Play up to ``most`` random joint actions (each seat's from ``choose``) on ``state``; the
    seed and the number of moves are noted, so a failing example names them."""
    seed = draw(st.integers(0, 2**16))
    moves = draw(st.integers(0, most))
    note(f"{game}: random play with seed {seed}, up to {moves} moves")
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            return
        state.apply({s: choose(rng, state, s) for s in state.current_players()})


def played_state(
    draw: st.DrawFn,
    game: str,
    players: int,
    seeds: int,
    most: int,
    config: BaseModel | None = None,
    choose: Chooser = any_legal,
) -> GameState:
    """A game of ``game`` (its default ``config`` for ``players`` unless given) dealt from one
    of the first ``seeds`` seeds, after up to ``most`` random legal joint actions."""
    entry = get_game(game)
    seats = [SeatInfo(name=f"P{i}", agent="random") for i in range(players)]
    seed = draw(st.integers(0, seeds - 1))
    state = entry.new_state(config or entry.default_config(players), seed, seats)
    note(f"{game}: {players} seats, deal seed {seed}")
    random_play(draw, state, most, game, choose)
    return state
