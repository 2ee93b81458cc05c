"""The one runner behind every ``bench`` command: resumable, parallel, distributed.

A run plays the games named by ids into a run directory (``games.core.runlog``). A game is played
by a ``GamePlayer``, a picklable callable that turns a game id into the game's log lines held in
memory (``GameOutcome``); the runner writes each log whole when its game is done, so a log on disk
is always complete, and a run that is interrupted resumes without playing finished games again.
Games are spread over ``workers`` local processes, with up to ``concurrency`` games in flight in
each (threads: for seats that wait on an LLM endpoint), or over a Dask distributed cluster at
``scheduler`` (whose workers must see the run directory). Each game is seeded, and summaries are
built from the logs in game-id order, so results never depend on the parallelism.

A game that raises one of ``games.core.errors.GAME_ERRORS`` is errored: its log ends with an
``errored`` end event and the run goes on. A rich progress bar on stderr shows games done, games
per second, the time left and the errored count; it is quiet when stderr is not a terminal.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

from benchmarks.report import Timing, measure
from benchmarks.viewer.store import compute_view, save_view
from games.core.errors import GAME_ERRORS
from games.core.loop import errored_end
from games.core.recordings import check_run_recordings
from games.core.runlog import RunDir, game_seed
from reasoning.extras import optional_import
from reasoning.outfile import write_atomic
from reasoning.progress import Progress
from reasoning.prover import ProverUnavailable

T = TypeVar("T")
R = TypeVar("R")

MAX_WORKERS = 256
MAX_CONCURRENCY = 1024


class RunOptions(BaseModel):
    """How a run is spread out; none of it changes the results."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    workers: int = Field(default=1, ge=1, le=MAX_WORKERS)
    concurrency: int = Field(default=1, ge=1, le=MAX_CONCURRENCY)
    scheduler: str | None = None
    quiet: bool = False
    views: bool = False
    """Also store each game's view data beside its log when the game is written, so ``gumshoe
    view`` of the run need not replay it (``benchmarks.viewer.store``)."""

    @field_validator("scheduler")
    @classmethod
    def _scheduler_address(cls, value: str | None) -> str | None:
        if value is None:
            return None
        scheme, _, rest = value.rpartition("://")
        host, _, port = rest.rpartition(":")
        if scheme == "inproc" and rest:
            return value
        if scheme not in ("", "tcp", "tls", "ws", "wss") or not host or not port.isdigit():
            raise ValueError(f"not a scheduler address such as tcp://host:8786: {value!r}")
        return value


class RunStopped(RuntimeError):
    """A run that cannot go on here (a worker process died): finished games are kept, and the
    same command resumes it."""


class MemoryLog:
    """An event sink that keeps a game's log lines in memory."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def write(self, event: BaseModel) -> None:
        """Keep ``event`` as one JSON line."""
        self.lines.append(event.model_dump_json())


@dataclass(frozen=True)
class GameOutcome:
    """One game's log lines, whether it errored (and why), what the log lacks (``extra``), and
    the wall and CPU seconds it took where it was played."""

    game_id: str
    lines: tuple[str, ...]
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    wall_s: float = 0.0
    cpu_s: float = 0.0


class GamePlayer(Protocol):
    """Plays one game of a run into ``log``; returns what the log lacks (or an empty dict)."""

    def __call__(self, game_id: str, log: MemoryLog) -> dict[str, Any]:
        """Play game ``game_id``."""
        ...


def play_one(player: GamePlayer, game_id: str) -> GameOutcome:
    """Play ``game_id`` with ``player``, timing it; a game error becomes an errored game."""
    wall, cpu = time.perf_counter(), time.thread_time()
    log = MemoryLog()
    try:
        extra = player(game_id, log)
        error = None
    except GAME_ERRORS as err:
        log.write(errored_end(err))
        extra, error = {}, str(err)
    return GameOutcome(
        game_id=game_id,
        lines=tuple(log.lines),
        error=error,
        extra=extra,
        wall_s=time.perf_counter() - wall,
        cpu_s=time.thread_time() - cpu,
    )


def play_batch(player: GamePlayer, game_ids: Sequence[str], concurrency: int) -> list[GameOutcome]:
    """Play ``game_ids`` with up to ``concurrency`` in flight in this process."""
    if concurrency == 1 or len(game_ids) == 1:
        return [play_one(player, gid) for gid in game_ids]
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        return list(pool.map(lambda gid: play_one(player, gid), game_ids))


def _timed(fn: Callable[[T], R], item: T) -> tuple[R, float]:
    started = time.process_time()
    return fn(item), time.process_time() - started


def map_ordered(
    fn: Callable[[T], R], items: Sequence[T], options: RunOptions
) -> tuple[list[R], float]:
    """``fn`` over ``items`` in order, in ``options.workers`` local processes (``fn`` and the
    items must pickle); the results, and the CPU seconds spent in other processes."""
    if options.workers == 1 or len(items) < 2:
        return [fn(item) for item in items], 0.0
    chunk = max(1, len(items) // (4 * options.workers))
    with ProcessPoolExecutor(max_workers=options.workers) as pool:
        try:
            timed = list(pool.map(_timed, [fn] * len(items), items, chunksize=chunk))
        except BrokenProcessPool:
            raise RunStopped("a worker process died (killed, or out of memory)") from None
    return [result for result, _ in timed], sum(cpu for _, cpu in timed)


def check_replayable(
    config: BaseModel, run_dir: Path, fields: Iterable[str], game_ids: Iterable[str] = ()
) -> None:
    """ValueError naming each of ``fields`` in which the run recorded in ``run_dir`` differs
    from ``config``: its recordings would not fit the calls this run makes (RunDirError when
    ``run_dir`` is not a run directory; RecordingMissing naming the first of ``game_ids``
    without recorded calls)."""
    recorded = RunDir.resume(run_dir, type(config)).config
    differing = [
        f"{name} {getattr(recorded, name)!r} (this run: {getattr(config, name)!r})"
        for name in fields
        if getattr(recorded, name) != getattr(config, name)
    ]
    if differing:
        raise ValueError(f"replay: {run_dir} was recorded with " + ", ".join(differing))
    check_run_recordings(run_dir, game_ids)


class GameError(BaseModel):
    """A game that could not be played to its end, and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game_id: str
    error: str


@dataclass
class RunReport:
    """What one session of a run did: games played (finished or errored), games found finished
    earlier, its wall time and CPU time (this process plus every game's), and the views stored
    with ``RunOptions.views`` with what storing them took (not part of the run's times)."""

    played: list[GameOutcome]
    resumed: int
    wall_s: float
    cpu_s: float
    views: int = 0
    views_cpu_s: float = 0.0
    views_wall_s: float = 0.0

    @property
    def errored(self) -> list[GameOutcome]:
        """The games that errored, in game-id order."""
        return sorted((g for g in self.played if g.error is not None), key=lambda g: g.game_id)

    def errors(self) -> list[GameError]:
        """The errored games as summary records, in game-id order."""
        return [GameError(game_id=g.game_id, error=g.error or "") for g in self.errored]


def _batches(ids: Sequence[str], size: int) -> list[list[str]]:
    return [list(ids[i : i + size]) for i in range(0, len(ids), size)]


def _local(player: GamePlayer, ids: Sequence[str], options: RunOptions) -> Iterator[GameOutcome]:
    """Games as they finish, played in this process or in local worker processes."""
    if options.workers == 1:
        if options.concurrency == 1:
            yield from (play_one(player, gid) for gid in ids)
            return
        with ThreadPoolExecutor(max_workers=options.concurrency) as pool:
            futures = [pool.submit(play_one, player, gid) for gid in ids]
            yield from (f.result() for f in as_completed(futures))
        return
    with ProcessPoolExecutor(max_workers=options.workers) as pool:
        batches: list[Future[list[GameOutcome]]] = [
            pool.submit(play_batch, player, batch, options.concurrency)
            for batch in _batches(ids, options.concurrency)
        ]
        try:
            for future in as_completed(batches):
                yield from future.result()
        except BrokenProcessPool:
            for future in batches:
                future.cancel()
            raise RunStopped("a worker process died (killed, or out of memory)") from None


DISTRIBUTED = "--scheduler (games on a Dask cluster)"
"""What the ``distributed`` extra (dask) runs, as a missing extra names it."""
SCHEDULER_TIMEOUT_S = 10.0
"""How long a scheduler has to answer before ``--scheduler`` is refused."""


def probe_scheduler(address: str, timeout_s: float = SCHEDULER_TIMEOUT_S) -> None:
    """ValueError in one line unless a Dask scheduler at ``address`` answers its identity
    request within ``timeout_s``: a port that is closed, silent or another server is refused
    before the run starts, never waited on."""
    import asyncio

    comm_core = optional_import("distributed.comm.core", "distributed", DISTRIBUTED)

    async def identity() -> object:
        comm = await comm_core.connect(address, timeout=timeout_s)
        try:
            await comm.write({"op": "identity"})
            return await comm.read()
        finally:
            comm.abort()

    try:
        reply = asyncio.run(asyncio.wait_for(identity(), timeout_s))
    except TimeoutError:
        reason = f"no Dask scheduler answered within {timeout_s:g} s"
    except OSError as err:
        reason = f"cannot reach it ({err})"
    except (Exception, MemoryError) as err:
        reason = f"not a Dask scheduler ({type(err).__name__}: {err})"
    else:
        if isinstance(reply, dict) and reply.get("type") == "Scheduler":
            return
        reason = "the server there is not a Dask scheduler"
    raise ValueError(f"--scheduler {address}: {' '.join(reason.split())}")


def _distributed(
    player: GamePlayer, ids: Sequence[str], options: RunOptions
) -> Iterator[GameOutcome]:
    """Games as they finish on the Dask cluster at ``options.scheduler``."""
    dask = optional_import("dask.distributed", "distributed", DISTRIBUTED)
    address = options.scheduler or ""
    probe_scheduler(address)
    try:
        client = dask.Client(address, timeout=SCHEDULER_TIMEOUT_S)
    except OSError as err:
        raise ValueError(f"--scheduler {address}: cannot reach it ({err})") from None
    with client:
        futures = [
            client.submit(play_batch, player, batch, options.concurrency, pure=False)
            for batch in _batches(ids, options.concurrency)
        ]
        for _, batch in dask.as_completed(futures, with_results=True):
            yield from batch


def run_games(
    rundir: RunDir[Any],
    game_ids: Iterable[str],
    player: GamePlayer,
    options: RunOptions,
    on_done: Callable[[GameOutcome], None] | None = None,
) -> RunReport:
    """Play every game of ``game_ids`` not finished in ``rundir`` and write its log.

    ``on_done`` sees each game just before its log is written (to keep what the log lacks).
    """
    started, cpu = time.perf_counter(), time.process_time()
    wanted = list(game_ids)
    pending = [gid for gid in wanted if not rundir.is_finished(gid)]
    for gid in pending:
        rundir.log_path(gid).unlink(missing_ok=True)
    played: list[GameOutcome] = []
    games = _distributed if options.scheduler else _local
    views = Timing()
    stored = 0
    with Progress(len(wanted), len(wanted) - len(pending), quiet=options.quiet) as bar:
        for game in games(player, pending, options):
            if on_done is not None:
                on_done(game)
            path = rundir.log_path(game.game_id)
            write_atomic(path, "".join(f"{x}\n" for x in game.lines), inside=rundir.path)
            if options.views:
                stored += _store_view(path, views)
            played.append(game)
            bar.advance(errored=game.error is not None)
    elsewhere = options.workers > 1 or options.scheduler is not None
    return RunReport(
        played=played,
        resumed=len(wanted) - len(pending),
        wall_s=time.perf_counter() - started - views.wall,
        cpu_s=time.process_time()
        - cpu
        - views.cpu
        + (sum(g.cpu_s for g in played) if elsewhere else 0.0),
        views=stored,
        views_cpu_s=views.cpu,
        views_wall_s=views.wall,
    )


def _store_view(log: Path, spent: Timing) -> bool:
    """Store the view data of the game just written to ``log``, adding what it took to
    ``spent``; False when the log cannot be drawn (a bad log, or a prover its audit needs is
    missing): the run goes on, and ``gumshoe view`` names the problem."""
    with measure() as timing:
        try:
            saved = save_view(log, compute_view(log)) is not None
        except (ValueError, ProverUnavailable):
            saved = False
    spent.cpu += timing.cpu
    spent.wall += timing.wall
    return saved


@dataclass(frozen=True)
class RegisteredGamePlayer:
    """Plays game ``<game>-seed<n>`` of any registered game from seed n with registry agents under
    default settings (a picklable ``GamePlayer``)."""

    game: str
    specs: tuple[str, ...]

    def __call__(self, game_id: str, log: MemoryLog) -> dict[str, Any]:
        """Play the game ``game_id`` names into ``log``."""
        from games.core.play import play_game
        from games.core.registry import get_game

        play_game(get_game(self.game), self.specs, game_seed(game_id), log=log)
        return {}
