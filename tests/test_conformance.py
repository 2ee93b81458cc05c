"""The conformance suite every registered game passes (in the manner of PettingZoo's api_test).

For each game in ``games.core.registry`` and a few seeds and mixes of its offline agents: the
same seed gives byte-identical logs; the logs parse with the common reader and replay event for
event; agents are offered and play only legal actions, and illegal ones are rejected with the
game's own error; games end within their bound; a run interrupted and resumed, and a run on two
worker processes, give the same logs as one uninterrupted single-process run. A new game gets all
of this by registering.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from benchmarks.runner import MemoryLog, RegisteredGamePlayer, RunOptions, run_games
from games.core import GameEntry, SeatInfo, game_names, get_game, replay
from games.core.runlog import RunDir

SEEDS = (0, 1)


def mixes(entry: GameEntry[Any]) -> list[tuple[str, ...]]:
    """Two seat lists of offline agents at the smallest table: all the first agent, and a mix."""
    offline = [n for n, t in entry.agents.types.items() if not t.needs_llm]
    n = entry.info.min_players
    mixed = tuple(offline[i % len(offline)] for i in range(n))
    return [(offline[0],) * n, mixed]


CASES = [
    pytest.param(name, seed, mix, id=f"{name}-seed{seed}-mix{m}")
    for name in game_names()
    for seed in SEEDS
    for m, mix in enumerate(mixes(get_game(name)))
]


def play_lines(entry: GameEntry[Any], specs: Sequence[str], seed: int) -> list[str]:
    log = MemoryLog()
    entry.play(specs, seed, log)
    return log.lines


@pytest.mark.parametrize(("name", "seed", "specs"), CASES)
def test_a_seed_gives_a_byte_identical_log_that_reads_and_replays(
    name: str, seed: int, specs: tuple[str, ...], tmp_path: Path
) -> None:
    entry = get_game(name)
    lines = play_lines(entry, specs, seed)
    assert play_lines(entry, specs, seed) == lines
    path = tmp_path / "game.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    log = entry.read_log(path)
    assert log.header is not None and log.header.game == name and log.header.seed == seed
    assert [s.agent for s in log.header.seats] == list(specs)
    assert log.end is not None and log.end.status == "finished"
    assert len(log.end.returns) == len(specs) and len(log.end.ranks) == len(specs)
    state = replay(entry, log)
    assert state.is_terminal() and list(state.events()) == log.events


class Checked:
    """A seat that checks every action its agent takes against the game's legal actions."""

    def __init__(self, entry: GameEntry[Any], state: Any, agent: Any, seat: int) -> None:
        self.entry, self.state, self.agent, self.seat = entry, state, agent, seat
        self.name = agent.name
        self.decisions = 0

    def act(self, obs: Any) -> Any:
        action = self.agent.act(obs)
        legal = self.state.legal_actions(self.seat)
        if legal:
            assert self.entry.bare_action(action) in legal
        self.decisions += 1
        return action


@pytest.mark.parametrize(("name", "seed", "specs"), CASES[::2])
def test_agents_play_legal_actions_illegal_ones_are_refused_and_games_end_in_bound(
    name: str, seed: int, specs: tuple[str, ...]
) -> None:
    from games.core.loop import play

    entry = get_game(name)
    agents = entry.seat_agents(specs, seed)
    seats = [SeatInfo(name=f"P{i}", agent=a.name) for i, a in enumerate(agents)]
    config = entry.default_config(len(specs))
    state = entry.new_state(config, seed, seats)
    waiting = list(state.current_players())
    # a single-seat game has no idle seat: then a seat number the game does not have
    idle = next((s for s in range(len(specs)) if s not in waiting), len(specs))
    before = len(state.events())
    with pytest.raises(entry.illegal_error):
        state.apply({idle: next(iter(state.legal_actions(waiting[0])), None)})
    assert len(state.events()) == before
    checked = [Checked(entry, state, a, i) for i, a in enumerate(agents)]
    header = entry.header(config, seed, seats)
    play(state, checked, header, max_decisions=entry.info.max_decisions)
    assert state.is_terminal() and not state.current_players()
    assert 0 < max(c.decisions for c in checked) <= entry.info.max_decisions
    with pytest.raises(entry.illegal_error):
        state.apply({0: None})


class RunConfig(BaseModel):
    game: str


def run_logs(name: str, out: Path, ids: Sequence[str], options: RunOptions) -> dict[str, str]:
    entry = get_game(name)
    specs = mixes(entry)[1]
    rundir = RunDir(out, RunConfig(game=name))
    run_games(rundir, ids, RegisteredGamePlayer(name, specs), options)
    return {p.name: p.read_text() for p in sorted(rundir.games_dir.glob("*.jsonl"))}


@pytest.mark.parametrize("name", game_names())
def test_resumed_and_two_process_runs_equal_one_uninterrupted_run(
    name: str, tmp_path: Path
) -> None:
    ids = [f"seed-{s}" for s in (3, 4, 5)]
    quiet = RunOptions(quiet=True)
    whole = run_logs(name, tmp_path / "whole", ids, quiet)
    assert len(whole) == 3
    run_logs(name, tmp_path / "cut", ids[:2], quiet)
    cut = tmp_path / "cut" / "games" / f"{ids[1]}.jsonl"
    cut.write_text(cut.read_text()[:-10])  # killed while writing the end
    assert run_logs(name, tmp_path / "cut", ids, quiet) == whole
    two = run_logs(name, tmp_path / "two", ids, RunOptions(workers=2, quiet=True))
    assert two == whole
