"""The conformance suite (``games.core.conformance.check_game``) over every registered game, and
what only a run can show: a run interrupted and resumed, and a run on two worker processes, give
the same logs as one uninterrupted single-process run."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from benchmarks.runner import RegisteredGamePlayer, RunOptions, run_games
from games.core.conformance import RULES, ConformanceError, check_game, offline_mixes
from games.core.registry import game_names, get_game
from games.core.runlog import RunDir, game_id
from reasoning.llm.answer_models import answer_model
from tests.tiny_game.entry import ENTRY as NIM
from tests.tiny_game.entry import NimEntry


@pytest.mark.parametrize("name", game_names())
def test_every_registered_game_conforms(name: str) -> None:
    check_game(get_game(name))


class OldNimConfig(BaseModel):
    """Nim-21's settings in another dialect: the seats counted in ``n_players``, the type
    outside the game's events module."""

    n_players: int = 2


class OldNimEntry(NimEntry):
    """Nim-21 with its config in the old dialect."""

    config_type = OldNimConfig


@pytest.mark.parametrize("rule", ["vocabulary-players", "vocabulary-config"])
def test_a_config_in_another_dialect_breaks_the_vocabulary(rule: str) -> None:
    with pytest.raises(ConformanceError) as err:
        check_game(OldNimEntry(), seeds=(0,), rules=[rule])
    assert err.value.rule == rule
    check_game(NIM, seeds=(0,), rules=[rule])


class BoundedNimEntry(NimEntry):
    """Nim-21 with an LLM answer model no grammar-building server takes."""

    def answer_models(self) -> list[type[BaseModel]]:
        """An answer model whose free text is bounded to 16,000 characters, as Hanabi's was."""
        field = (str, Field(min_length=1, max_length=16000))
        return [answer_model("Bounded", {"reasoning": field})]


def test_an_answer_schema_no_server_takes_breaks_the_conformance_rule() -> None:
    with pytest.raises(ConformanceError, match=r"keyword .maxLength. is outside") as err:
        check_game(BoundedNimEntry(), seeds=(0,), rules=["answer-schemas"])
    assert err.value.rule == "answer-schemas"
    check_game(NIM, seeds=(0,), rules=["answer-schemas"])


def test_a_broken_rule_is_named() -> None:
    entry = get_game("detective")
    with pytest.raises(ValueError, match="unknown"):
        check_game(entry, rules=["no-such-rule"])
    error = ConformanceError("bounded", "detective", "99 decisions")
    assert error.rule == "bounded" and RULES["bounded"] in str(error)


class RunConfig(BaseModel):
    game: str


def run_logs(name: str, out: Path, ids: Sequence[str], options: RunOptions) -> dict[str, str]:
    entry = get_game(name)
    specs = offline_mixes(entry)[1]
    rundir = RunDir(out, RunConfig(game=name))
    run_games(rundir, ids, RegisteredGamePlayer(name, specs), options)
    return {p.name: p.read_text() for p in sorted(rundir.games_dir.glob("*.jsonl"))}


@pytest.mark.parametrize("name", game_names())
def test_resumed_and_two_process_runs_equal_one_uninterrupted_run(
    name: str, tmp_path: Path
) -> None:
    ids = [game_id(name, s) for s in (3, 4, 5)]
    quiet = RunOptions(quiet=True)
    whole = run_logs(name, tmp_path / "whole", ids, quiet)
    assert len(whole) == 3
    run_logs(name, tmp_path / "cut", ids[:2], quiet)
    cut = tmp_path / "cut" / "games" / f"{ids[1]}.jsonl"
    cut.write_text(cut.read_text()[:-10])  # killed while writing the end
    assert run_logs(name, tmp_path / "cut", ids, quiet) == whole
    two = run_logs(name, tmp_path / "two", ids, RunOptions(workers=2, quiet=True))
    assert two == whole
