"""What every game's commands share: one-line errors, output folders, and the LLM options."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, NoReturn

import typer
from pydantic import BaseModel, ConfigDict, ValidationError, model_validator
from typer.models import OptionInfo

from games.core.runlog import field_errors

if TYPE_CHECKING:
    from reasoning.llm.settings import LLMSettings
    from reasoning.llm.usage import UsageMeter

Model = Annotated[
    str | None,
    typer.Option(help="LLM model for LLM agents (with --replay: the recorded one)."),
]
BaseUrl = Annotated[str | None, typer.Option(help="OpenAI-compatible endpoint for LLM agents.")]
ReasoningEffort = Annotated[
    str | None,
    typer.Option(
        metavar="LEVEL",
        help="low, medium or high: sent as reasoning_effort to servers of reasoning models "
        "(default: GUMSHOE_LLM_REASONING_EFFORT, else none is sent).",
    ),
]
"""The ``--reasoning-effort`` option of commands with LLM agents."""
Record = Annotated[
    bool,
    typer.Option(
        "--record",
        help="Record every LLM call under the output folder, one file per game and seat: "
        "llm/<game id>.seat<k>.jsonl (rewritten when a game is played again).",
    ),
]
LogFolder = Annotated[Path | None, typer.Option(help="Folder to write the game's JSONL log into.")]
"""The ``--out`` option of the ``play`` commands."""
SeatsFileOption = Annotated[
    Path | None,
    typer.Option(
        "--seats",
        metavar="FILE",
        help='One entry per seat (JSON {"seats": [...]} or JSONL): agent, and for LLM seats '
        "model, base_url, api_key_env (the variable holding the key); in place of --agents.",
    ),
]
"""The ``--seats`` option of the commands that seat LLM agents (``games.core.seats``)."""
RecordedRun = Annotated[
    Path | None,
    typer.Option(
        metavar="DIR",
        help="A run directory recorded with --record: answer each game's LLM calls from "
        "DIR/llm/<game id>.seat<k>.jsonl instead of an endpoint; play into a fresh --out.",
    ),
]


class EndpointOptions(BaseModel):
    """The options of every command that calls an LLM: the model, the endpoint and the reasoning
    effort. ``DECLARATIONS`` is each field's typer option; ``with_options`` adds them to a
    command, and ``llm()`` is the settings they give."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    DECLARATIONS: ClassVar[dict[str, Any]] = {
        "model": Model,
        "base_url": BaseUrl,
        "reasoning_effort": ReasoningEffort,
    }

    model: str | None = None
    base_url: str | None = None
    reasoning_effort: str | None = None

    @property
    def recordings(self) -> tuple[Path | None, Path | None]:
        """The folders the LLM calls are recorded into and replayed from (none here)."""
        return None, None

    def llm(self, model: str | None = None) -> LLMSettings:
        """The LLM settings of these options (``model``, such as a recorded run's, when the
        command line names none); ValueError in one line naming a bad option."""
        chosen = self.model if self.model is not None else model
        record, replay = self.recordings
        return llm_settings(chosen, self.base_url, record, replay, self.reasoning_effort)


class CommandOptions(EndpointOptions):
    """The options every command playing games with LLM seats shares: the output folder, the
    endpoint and the reasoning effort, and recording or replaying the calls, under the one rule
    that ``--record`` needs ``--out`` and never goes with ``--replay``."""

    DECLARATIONS: ClassVar[dict[str, Any]] = {
        "out": LogFolder,
        **EndpointOptions.DECLARATIONS,
        "record": Record,
        "replay": RecordedRun,
    }

    out: Path | None = None
    record: bool = False
    replay: Path | None = None

    @model_validator(mode="after")
    def _record_or_replay(self) -> CommandOptions:
        if self.record and self.replay is not None:
            raise ValueError("--record and --replay cannot be used together")
        if self.record and self.out is None:
            raise ValueError("--record needs --out: the calls are recorded in OUT/llm/")
        return self

    @property
    def record_in(self) -> Path | None:
        """The folder the LLM calls are recorded into (``out`` with ``--record``), else None."""
        return self.out if self.record else None

    @property
    def recordings(self) -> tuple[Path | None, Path | None]:
        """The folders the LLM calls are recorded into (``--out`` with ``--record``) and
        replayed from (``--replay``)."""
        return self.record_in, self.replay


def option_flag(options_type: type[EndpointOptions], name: str) -> str:
    """The command-line flag of field ``name`` (``--base-url``, or the name its declaration
    gives, such as ``--json``)."""
    for meta in getattr(options_type.DECLARATIONS.get(name), "__metadata__", ()):
        if isinstance(meta, OptionInfo):
            for decl in (meta.default, *(meta.param_decls or ())):
                if isinstance(decl, str) and decl.startswith("--"):
                    return decl
    return "--" + name.replace("_", "-")


def option_errors(options_type: type[EndpointOptions], err: ValidationError) -> str:
    """One line naming every invalid option of ``err``: ``option '--workers': message``."""
    problems = []
    for item in err.errors(include_url=False):
        names = [part for part in item["loc"] if isinstance(part, str)]
        message = item["msg"].removeprefix("Value error, ")
        flag = option_flag(options_type, names[-1]) if names else ""
        problems.append(f"option '{flag}': {message}" if flag else message)
    return "; ".join(problems)


def with_options(
    options_type: type[EndpointOptions], **defaults: Any
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Decorate a typer command taking ``shared: options_type`` so that the command line offers
    each field of ``options_type`` as its declared option (``defaults`` override the fields'
    defaults; a parameter of the command named as a field replaces its declaration, to give it
    help of its own, and receives it as an argument too) and the command receives them validated
    as one object; an invalid one ends the command with one line naming the option, status 2."""
    fields = options_type.model_fields

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(command, eval_str=True)
        declared = {n: p for n, p in signature.parameters.items() if n != "shared"}
        added = [
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=declaration,
                default=defaults.get(name, fields[name].default),
            )
            for name, declaration in options_type.DECLARATIONS.items()
            if name not in declared
        ]

        @functools.wraps(command)
        def run(**given: Any) -> None:
            values = {n: given[n] if n in declared else given.pop(n) for n in fields}
            try:
                shared = options_type.model_validate(values)
            except ValidationError as err:
                fail(option_errors(options_type, err))
            command(shared=shared, **given)

        parameters = [*declared.values(), *added]
        run.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in parameters}
        return run

    return decorate


LLM_OPTIONS = {
    "model": "--model",
    "base_url": "--base-url",
    "record_path": "--record",
    "replay_path": "--replay",
    "reasoning_effort": "--reasoning-effort",
}
"""The command-line option behind each LLM setting a command takes."""


def llm_settings(
    model: str | None,
    base_url: str | None,
    record: Path | None = None,
    replay: Path | None = None,
    reasoning_effort: str | None = None,
) -> LLMSettings:
    """The LLM settings of a command: the options given (model, endpoint, the run folder to
    record into or replay from, the reasoning effort) over the environment's
    ``GUMSHOE_LLM_*``; a model left unset is the endpoint's first listed one. ValueError in one
    line naming the option, or the environment variable, whose value is wrong."""
    from reasoning.llm.settings import LLMSettings

    given = {
        "model": model,
        "base_url": base_url,
        "record_path": record,
        "replay_path": replay,
        "reasoning_effort": reasoning_effort,
    }
    try:
        return LLMSettings.model_validate({k: v for k, v in given.items() if v is not None})
    except ValidationError as err:
        text = field_errors(err)
        for name in LLMSettings.model_fields:
            source = (
                f"option '{LLM_OPTIONS[name]}'"
                if given.get(name) is not None
                else f"environment variable GUMSHOE_LLM_{name.upper()}"
            )
            text = text.replace(f"field '{name}'", source)
        raise ValueError(text) from None


USAGE_HEADING = "LLM usage (latency in seconds, cost in the price table's currency):"
"""The heading of the usage table under a played game."""


def usage_footer(seats: Mapping[str, Sequence[UsageMeter]]) -> list[str]:
    """The lines under a played game's transcript: a blank line, the heading and the usage table
    of the seats that asked a chat model (seat label -> its meters); none when no seat did."""
    asked = {label: meters for label, meters in seats.items() if meters}
    if not asked:
        return []
    from reasoning.llm.usage import UsageReport

    return ["", USAGE_HEADING, UsageReport.from_seats(asked).table()]


def describe_error(err: BaseException) -> str:
    """One line saying what went wrong: the invalid fields of a validation error, else the
    error's message with its lines joined."""
    if isinstance(err, ValidationError):
        return field_errors(err)
    if isinstance(err, OSError) and err.strerror:
        where = f"{err.filename}: " if err.filename else ""
        return f"{where}{err.strerror}"
    return "; ".join(line.strip() for line in str(err).splitlines() if line.strip())


def fail(err: BaseException | str, code: int = 2) -> NoReturn:
    """Print ``error: <one line>`` on stderr and leave with ``code`` (2: bad input)."""
    text = err if isinstance(err, str) else describe_error(err)
    typer.echo(f"error: {text}", err=True)
    raise typer.Exit(code)


def prepare_out(path: Path, option: str = "--out") -> Path:
    """Create the output folder ``path`` (and its parents); ValueError in one line when it is a
    file or cannot be created."""
    if path.exists() and not path.is_dir():
        raise ValueError(f"{option} {path}: is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"{option} {path}: cannot create it ({err.strerror or err})") from None
    return path
