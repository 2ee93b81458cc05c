"""The CLI starts without importing what its command does not use, and every listed command loads.

The import checks run in a fresh interpreter and read ``sys.modules``; they never time anything.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks import clue_bench
from benchmarks.console.cli import COMMANDS, app
from benchmarks.console.command_group import Group, Lazy

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("openai", "dask", "matplotlib", "torch", "sentence_transformers", "numpy", "rich")
"""Libraries that neither the composed app nor ``prove`` may import."""
NOT_FOR_PROVE = ("games", "formalize", "cvc5", "isabelle_client", "networkx", "asyncio")
"""Packages that ``prove`` with the default backend has no use for."""


def imported_after(code: str) -> set[str]:
    """Top-level packages loaded by running ``code`` in a fresh interpreter at the repo root."""
    script = f"import sys, json\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    modules = json.loads(done.stdout.splitlines()[-1])
    return {name.split(".")[0] for name in modules}


GAME_MODULES_WITHOUT_LLM = (
    "games.clue.cards",
    "games.clue.engine",
    "games.undercover.engine",
    "games.hanabi.engine",
    "games.detective.engine",
    "games.mystery.engine",
    "games.core.registry",
)
"""A game's cards, engine and the registry load no LLM client (the games' packages are lazy),
no hypothesis (an optional extra, for the games' strategies) and no scipy (its statistics)."""


@pytest.mark.parametrize("module", GAME_MODULES_WITHOUT_LLM)
def test_importing_a_game_engine_loads_no_llm_client_hypothesis_or_scipy(module: str) -> None:
    loaded = imported_after(f"import {module}")
    assert "games" in loaded
    assert not loaded & {"openai", "hypothesis", "scipy"}


CHEAP_CORE = {
    "games.core": set(),
    "games.core.play": {"openai", "numpy", "lark", "pydantic_settings", "z3", "pysat"},
    "games.core.errors": {"openai", "numpy", "lark", "pydantic_settings"},
    "games.clue.engine": {"openai", "numpy", "lark", "pydantic_settings"},
    "reasoning.llm.usage": {"openai", "numpy", "pydantic_settings"},
}
"""What the core's modules import, and what they must not: the package itself nothing (its names
are lazy), the play path no LLM client, numpy, formula parser, settings loader or solver, the
LLM error types no client, Clue's events no parser (``ClaimStatus`` lives apart from the
Verifier), the usage meter no numpy (the percentile is written out)."""


@pytest.mark.parametrize("module", sorted(CHEAP_CORE))
def test_the_core_imports_cheaply(module: str) -> None:
    loaded = imported_after(f"import {module}")
    forbidden = CHEAP_CORE[module]
    if not forbidden:
        own = subprocess.run(
            [sys.executable, "-c", f"import sys, {module}\nprint(sorted(sys.modules))"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert "pydantic" not in own and f"{module}." not in own
    assert not loaded & forbidden


def run_cli(*args: str) -> str:
    """Code that runs the gumshoe app on ``args`` and swallows its exit."""
    return (
        "from benchmarks.console.cli import app\n"
        f"try:\n    app({list(args)!r}, prog_name='gumshoe')\nexcept SystemExit:\n    pass"
    )


def test_importing_the_app_loads_no_heavy_library() -> None:
    loaded = imported_after("import benchmarks.console.cli")
    assert not loaded & {*HEAVY, "games", "provers", "z3"}


def test_help_loads_no_command() -> None:
    loaded = imported_after(run_cli("--help"))
    assert not loaded & {"openai", "dask", "matplotlib", "torch", "games", "provers", "z3"}


def test_a_play_command_help_is_plain_text_and_loads_no_game_machinery() -> None:
    loaded = imported_after(run_cli("play", "clue", "--help"))
    assert not loaded & {"rich", "openai", "numpy", "z3", "pysat", "lark", "pydantic_settings"}


def test_prove_loads_only_the_prover_it_uses() -> None:
    loaded = imported_after(run_cli("prove", "examples/tea.thy"))
    assert "z3" in loaded
    assert not loaded & {*HEAVY, *NOT_FOR_PROVE}


def _leaves(entries: dict[str, Lazy | Group], path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = []
    for name, entry in entries.items():
        if isinstance(entry, Group):
            found += _leaves(dict(entry.entries), (*path, name))
        else:
            found.append((*path, name))
    return found


@pytest.mark.parametrize("path", _leaves(COMMANDS), ids=" ".join)
def test_every_listed_command_loads_and_shows_its_help(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(app, [*path, "--help"], prog_name="gumshoe")
    assert result.exit_code == 0, result.output
    assert f"gumshoe {' '.join(path)}" in result.output


def test_group_help_lists_its_commands_with_summaries() -> None:
    result = CliRunner().invoke(app, ["bench", "--help"])
    assert result.exit_code == 0
    bench = COMMANDS["bench"]
    assert isinstance(bench, Group)
    for name in bench.entries:
        assert name in result.output


def _interrupt_then(converted: type[BaseException] | None) -> Callable[..., None]:
    """A stand-in for a run that gets Ctrl-C, which a library may turn into ``converted``."""

    def run(*args: object, **kwargs: object) -> None:
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        except KeyboardInterrupt:
            if converted is None:
                raise
            raise converted("Caught keyboard interrupt") from None

    return run


@pytest.mark.parametrize("converted", [None, RuntimeError])
def test_interrupted_resumable_bench_prints_how_to_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, converted: type[BaseException] | None
) -> None:
    monkeypatch.setattr(clue_bench, "run", _interrupt_then(converted))
    out = tmp_path / "run"
    args = ["bench", "clue", "--games", "3", "--out", str(out)]
    result = CliRunner().invoke(app, args, prog_name="gumshoe")
    assert result.exit_code == 130
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert f"run `gumshoe bench clue --games 3 --out {out}` again to resume" in lines[0]


def test_interrupted_command_that_does_not_resume_says_nothing_of_resuming(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from benchmarks import clue_perf

    monkeypatch.setattr(clue_perf, "run", _interrupt_then(None))
    result = CliRunner().invoke(app, ["bench", "clue-perf"], prog_name="gumshoe")
    assert result.exit_code == 130
    assert "resume" not in result.stderr


def test_an_error_without_an_interrupt_is_not_taken_for_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fails(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(clue_bench, "run", fails)
    args = ["bench", "clue", "--games", "3", "--out", str(tmp_path / "run")]
    result = CliRunner().invoke(app, args, prog_name="gumshoe")
    assert isinstance(result.exception, RuntimeError)


def _interrupting(real: Callable[..., object]) -> Callable[..., object]:
    """``real``, but Ctrl-C arrives while it runs (after it has done its work)."""

    def run(*args: object, **kwargs: object) -> object:
        result = real(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
        return result

    return run


@pytest.mark.parametrize("where", ["generating", "writing"])
def test_ctrl_c_in_detective_generate_leaves_the_old_case_whole(
    where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.detective import cli as detective_cli

    out = tmp_path / "case.json"
    out.write_text("the case from before\n")
    if where == "generating":
        monkeypatch.setattr(
            detective_cli, "generate_case", _interrupting(detective_cli.generate_case)
        )
    else:
        monkeypatch.setattr(os, "fsync", _interrupting(os.fsync))
    args = ["detective", "generate", "--seed", "3", "--out", str(out)]
    result = CliRunner().invoke(app, args, prog_name="gumshoe")
    assert result.exit_code == 130, result.output
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("interrupted")
    assert out.read_text() == "the case from before\n"
    assert [p.name for p in tmp_path.iterdir()] == ["case.json"], "a temporary file was left"
