"""The options every game-playing command shares are declared once (``CommandOptions``,
``RunCommandOptions``): each command lists them in ``--help`` and refuses a bad one in one line
naming it, before anything runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import COMMANDS, app
from benchmarks.console.command_group import Group, Lazy
from benchmarks.options import RunCommandOptions
from games.core.cli import CommandOptions, EndpointOptions, option_flag
from games.detective.cli import WriterOptions

runner = CliRunner()

BENCH = COMMANDS["bench"]
assert isinstance(BENCH, Group)
RESUMABLE = sorted(
    name for name, entry in BENCH.entries.items() if isinstance(entry, Lazy) and entry.resumable
)
"""The bench commands that play games on the shared runner."""
PLAYS_WITH_RECORDINGS = ["clue", "undercover", "detective", "mystery"]
"""The play commands that record and replay LLM calls."""
ASKING = ["detective-free", "detective-agreement", "freetext", "descriptions", "wellplay"]
"""The bench commands that call an LLM outside the runner: the endpoint options alone."""


def flags(options_type: type[EndpointOptions]) -> list[str]:
    return [option_flag(options_type, name) for name in options_type.DECLARATIONS]


def test_every_resumable_bench_is_covered() -> None:
    assert RESUMABLE == ["clue", "detective", "hanabi", "mystery", "undercover"]
    assert flags(RunCommandOptions) == [
        "--out",
        "--json",
        "--model",
        "--base-url",
        "--reasoning-effort",
        "--record",
        "--replay",
        "--workers",
        "--concurrency",
        "--scheduler",
        "--quiet",
        "--views",
    ]


@pytest.mark.parametrize(
    ("command", "options_type"),
    [(["bench", name], RunCommandOptions) for name in RESUMABLE]
    + [(["play", name], CommandOptions) for name in PLAYS_WITH_RECORDINGS]
    + [(["bench", name], EndpointOptions) for name in ASKING]
    + [(["detective", "generate"], WriterOptions)],
)
def test_help_lists_every_shared_option(
    command: list[str], options_type: type[EndpointOptions]
) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for flag in flags(options_type):
        assert f" {flag} " in result.output, flag


@pytest.mark.parametrize("name", RESUMABLE)
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--workers", "0"], "error: option '--workers': Input should be greater than or equal"),
        (["--concurrency", "100000"], "error: option '--concurrency': Input should be less"),
        (["--scheduler", "nohost"], "error: option '--scheduler': not a scheduler address"),
        (
            ["--record", "--replay", "elsewhere"],
            "error: --record and --replay cannot be used together",
        ),
    ],
)
def test_a_bad_shared_option_is_one_line_naming_it(
    name: str, args: list[str], message: str, tmp_path: Path
) -> None:
    result = runner.invoke(app, ["bench", name, *args, "--out", str(tmp_path / "run")])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(message), lines
    assert not (tmp_path / "run").exists()


def test_the_endpoint_options_are_the_settings_of_every_command() -> None:
    from benchmarks.undercover_bench import undercover_llm

    assert flags(EndpointOptions) == ["--model", "--base-url", "--reasoning-effort"]
    given = {"model": "m", "base_url": "http://127.0.0.1:9/v1", "reasoning_effort": "high"}
    for options in (EndpointOptions.model_validate(given), CommandOptions.model_validate(given)):
        assert options.llm().reasoning_effort == "high" and options.llm().model == "m"
    assert undercover_llm("m", given["base_url"], "high").reasoning_effort == "high"
