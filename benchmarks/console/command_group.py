"""Command groups that import a subcommand only when it runs, and report usage errors in one line.

``gumshoe --help`` lists every command from its summary alone; ``gumshoe prove`` imports the
prover modules and nothing of the games or the benchmarks. The root group turns click's usage
errors (bad values, unknown options, missing arguments) into ``error: <command>: <what>`` on
stderr with exit status 2, and prints how to resume when a resumable run is interrupted.
"""

from __future__ import annotations

import _thread
import errno
import shlex
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import import_module
from types import FrameType
from typing import Any, ClassVar

import typer
from typer import _click as click
from typer.core import TyperCommand, TyperGroup

USAGE_ERROR_STATUS = 2
"""Exit status of a command line click cannot parse: bad input, as everywhere in gumshoe."""
FAULT_STATUS = 1
"""Exit status when the machine fails a run (a full disk, a dead worker process)."""
INTERRUPTED_STATUS = 130
"""Exit status after Ctrl-C (128 + SIGINT)."""
_ARGV_KEY = "gumshoe.argv"
_PATH_KEY = "gumshoe.path"


@dataclass(frozen=True)
class Lazy:
    """A subcommand imported on first use: ``target`` is ``module:attribute``, a typer app or a
    command function (or, with ``argument``, a function of it returning one); ``resumable`` runs
    continue in their run directory when started again."""

    summary: str
    target: str
    resumable: bool = False
    argument: str | None = None


@dataclass(frozen=True)
class Group:
    """A group of lazy subcommands under one name."""

    summary: str
    entries: Mapping[str, Lazy | Group] = field(default_factory=dict)


class Generated(Mapping[str, "Lazy | Group"]):
    """Subcommands built by ``make`` when their group is first opened (not when the console
    starts), such as one row per registered game."""

    def __init__(self, make: Callable[[], Mapping[str, Lazy | Group]]) -> None:
        self._make = make
        self._entries: Mapping[str, Lazy | Group] | None = None

    def _built(self) -> Mapping[str, Lazy | Group]:
        if self._entries is None:
            self._entries = self._make()
        return self._entries

    def __getitem__(self, name: str) -> Lazy | Group:
        return self._built()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._built())

    def __len__(self) -> int:
        return len(self._built())


class _Listed(TyperCommand):
    """A subcommand known by name and summary only, so listing it imports nothing."""


def _build(name: str, entry: Lazy | Group) -> click.Command:
    """The click command for ``entry``, importing its module now."""
    if isinstance(entry, Group):
        return LazyGroup(
            name=name,
            help=entry.summary,
            no_args_is_help=True,
            rich_markup_mode=None,
            entries=entry.entries,
        )
    module, attribute = entry.target.split(":")
    target = getattr(import_module(module), attribute)
    if entry.argument is not None:
        target = target(entry.argument)
    if not isinstance(target, typer.Typer):
        single = typer.Typer(add_completion=False)
        single.command(name)(target)
        target = single
    command = typer.main.get_command(target)
    command.name = name
    _plain_help(command)
    return command


def _plain_help(command: click.Command) -> None:
    """Show ``command``'s help (and its subcommands') as plain text: rich's help panels cost
    more to import than a game's whole play command."""
    if isinstance(command, TyperCommand | TyperGroup):
        command.rich_markup_mode = None
    if isinstance(command, TyperGroup):
        for sub in command.commands.values():
            _plain_help(sub)


class LazyGroup(TyperGroup):
    """A typer group whose subcommands, given as ``entries``, are built when first resolved."""

    entries: ClassVar[Mapping[str, Lazy | Group]] = {}

    def __init__(self, *, entries: Mapping[str, Lazy | Group] | None = None, **kwargs: Any) -> None:
        """The group with ``entries`` (default: the class's) listed by their summaries."""
        super().__init__(**kwargs)
        self.lazy_entries = self.entries if entries is None else entries
        for name, entry in self.lazy_entries.items():
            self.add_command(_Listed(name, help=entry.summary, short_help=entry.summary))

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """The named subcommand, built (and kept) when it was only listed so far."""
        name, command, rest = super().resolve_command(ctx, args)
        if name is not None and isinstance(command, _Listed):
            command = _build(name, self.lazy_entries[name])
            self.commands[name] = command
        if name is not None:
            ctx.find_root().meta.setdefault(_PATH_KEY, []).append(name)
        return name, command, rest

    def resumable(self, path: list[str]) -> bool:
        """Whether the subcommand at ``path`` (names below this group) resumes its runs."""
        entry: Lazy | Group = Group("", self.lazy_entries)
        for name in path:
            if not isinstance(entry, Group) or name not in entry.entries:
                return False
            entry = entry.entries[name]
        return isinstance(entry, Lazy) and entry.resumable


@contextmanager
def _usage_errors_in_one_line() -> Iterator[None]:
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise
    except click.exceptions.UsageError as err:
        where = f"{err.ctx.command_path}: " if err.ctx is not None else ""
        typer.echo(f"error: {where}{' '.join(err.format_message().split())}", err=True)
        raise typer.Exit(USAGE_ERROR_STATUS) from None


class _Interrupts:
    """Whether Ctrl-C arrived, and the repeater that makes sure the command notices it."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self.handled = threading.Event()

    def is_set(self) -> bool:
        """Whether Ctrl-C arrived."""
        return self.event.is_set()

    def repeat(self) -> None:
        """Raise KeyboardInterrupt in the main thread again every half second until the command
        has handled it: a KeyboardInterrupt raised where Python only reports exceptions (inside
        ``isinstance`` called from C, a finaliser) is lost, and the command would run on."""
        while not self.handled.wait(0.5):
            _thread.interrupt_main()


@contextmanager
def _watching_interrupts() -> Iterator[_Interrupts]:
    """Interrupts set when Ctrl-C arrives (which still raises KeyboardInterrupt, and again until
    the command handles it), watched in the main thread only, where Python delivers signals."""
    interrupts = _Interrupts()
    if threading.current_thread() is not threading.main_thread():
        yield interrupts
        return

    def on_interrupt(signum: int, frame: FrameType | None) -> None:
        if interrupts.handled.is_set():
            return
        if not interrupts.event.is_set():
            interrupts.event.set()
            threading.Thread(target=interrupts.repeat, name="interrupt", daemon=True).start()
        raise KeyboardInterrupt

    def unraisable(report: Any) -> None:
        if not isinstance(report.exc_value, KeyboardInterrupt):
            previous_hook(report)

    previous = signal.signal(signal.SIGINT, on_interrupt)
    previous_hook, sys.unraisablehook = sys.unraisablehook, unraisable
    try:
        yield interrupts
    finally:
        interrupts.handled.set()
        signal.signal(signal.SIGINT, previous)
        sys.unraisablehook = previous_hook


class RootGroup(LazyGroup):
    """The top-level group: usage errors in one line, and a resume hint after Ctrl-C."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Parse the top-level options, keeping the command line for the resume hint."""
        ctx.meta[_ARGV_KEY] = list(args)
        with _usage_errors_in_one_line():
            return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the chosen subcommand; after Ctrl-C leave with status 130, whatever a library
        turned the interrupt into (the SAT solver raises its own error)."""
        with _usage_errors_in_one_line(), _watching_interrupts() as interrupted:
            try:
                return super().invoke(ctx)
            except (KeyboardInterrupt, Exception) as err:
                interrupted.handled.set()
                resumable = self.resumable(ctx.meta.get(_PATH_KEY, []))
                line = shlex.join([ctx.command_path, *ctx.meta[_ARGV_KEY]])
                hint = f"; finished games are kept; run `{line}` again to resume"
                if not (isinstance(err, KeyboardInterrupt) or interrupted.is_set()):
                    fault = _fault(err)
                    if fault is None:
                        raise
                    message, status = fault
                    typer.echo(f"error: {message}{hint if resumable else ''}", err=True)
                    raise typer.Exit(status) from None
                typer.echo(f"interrupted{hint if resumable else ''}", err=True)
                raise typer.Exit(INTERRUPTED_STATUS) from None


def _fault(err: Exception) -> tuple[str, int] | None:
    """The one line and exit status for an error no command handled itself: a user's file
    that cannot be read (2), a feature whose optional package is not installed (2, naming the
    extra that adds it), a full disk (1) or a run stopped by a dead worker (1); None for
    anything else, which is a bug and keeps its traceback."""
    textfile = sys.modules.get("reasoning.textfile")
    if textfile is not None and isinstance(err, textfile.UserFileError):
        return str(err), USAGE_ERROR_STATUS
    extras = sys.modules.get("reasoning.extras")
    if extras is not None and isinstance(err, extras.MissingExtra):
        return str(err), USAGE_ERROR_STATUS
    if isinstance(err, OSError) and err.errno in (errno.ENOSPC, errno.EDQUOT):
        where = f"{err.filename}: " if err.filename else ""
        return f"{where}cannot write: {err.strerror}", FAULT_STATUS
    runner = sys.modules.get("benchmarks.runner")
    if runner is not None and isinstance(err, runner.RunStopped):
        return str(err), FAULT_STATUS
    return None
