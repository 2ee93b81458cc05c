"""The Isabelle server: one per process, started lazily, with its HOL session built once.

``IsabelleServer`` finds the ``isabelle`` executable (an explicit path, else the environment
variable ``GUMSHOE_ISABELLE``, else ``PATH``), runs ``isabelle server`` on a free port, builds and
starts the session (HOL by default) and keeps its id; ``close()`` (also run at exit) stops the
session and shuts the server down. ``IsabelleServer.connect`` uses a server someone else runs.

The protocol is spoken through ``isabelle_client``'s message reader on our own connections, so
that a wall-clock limit can stop waiting and cancel the server task: each command opens a
connection, sends the password and the command, reads the server's typed responses
(``OK``/``NOTE``/``FINISHED``/``FAILED``/``ERROR``) and returns them. Results of
``use_theories`` are read from their JSON structure (``ok``, ``nodes[].messages[]`` with kind and
position), never by searching the raw text.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import logging
import math
import os
import queue
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import ValidationError

from reasoning.extras import optional_import
from reasoning.prover import ProverUnavailable

if TYPE_CHECKING:
    from isabelle_client import IsabelleResponse
    from isabelle_client.data_models import Message

ENV_VAR = "GUMSHOE_ISABELLE"
DEFAULT_SESSION = "HOL"
INSTALL_HINT = (
    "install Isabelle (https://isabelle.in.tum.de) and put its bin/isabelle on PATH, "
    f"or set {ENV_VAR} to the path of the isabelle executable"
)
CONTROL_TIMEOUT_S = 30.0
CHECK_DELAY_S = 0.5

_ASYNC_FINAL = frozenset({"FINISHED", "FAILED", "ERROR"})
_SYNC_FINAL = frozenset({"OK", "ERROR"})
_INTERRUPTS = ("Interrupt", "Timeout")
_log = logging.getLogger(__name__)
_T = TypeVar("_T")


def _client(module: str = "isabelle_client") -> ModuleType:
    """``isabelle_client`` (or one of its modules), the ``isabelle`` extra, imported when the
    server is first spoken to; MissingExtra naming the extra when it is not installed."""
    return optional_import(module, "isabelle", "the Isabelle backend")


def _kind(response: IsabelleResponse) -> str:
    """The type of a server response: OK, NOTE, FINISHED, FAILED or ERROR."""
    return str(response.response_type.name)


class IsabelleServerError(RuntimeError):
    """The server could not be reached, broke the protocol or failed a command."""


class IsabelleTimeout(TimeoutError):
    """A command did not finish within its wall-clock limit (its task was cancelled)."""


@dataclass(frozen=True, slots=True)
class TheoryMessage:
    """One message Isabelle attached to a theory: kind (``writeln``, ``error`` ...), text, place."""

    kind: str
    text: str
    line: int | None = None
    offset: int | None = None
    file: str | None = None

    @property
    def is_error(self) -> bool:
        """True for error messages."""
        return self.kind == "error"


@dataclass(frozen=True, slots=True)
class TheoryCheck:
    """What ``use_theories`` reported for one theory.

    ``messages`` are the theory's messages in order; ``errors`` its error messages together with
    any top-level errors; ``canceled`` is set when Isabelle interrupted a command, and
    ``consolidated`` once the whole theory was checked to its ``end``. ``log`` is the exchange,
    one server response a line.
    """

    ok: bool
    messages: tuple[TheoryMessage, ...]
    errors: tuple[TheoryMessage, ...]
    canceled: bool
    log: str
    consolidated: bool = True

    @property
    def problems(self) -> tuple[TheoryMessage, ...]:
        """The errors that are about the theory, not interruptions of its check."""
        return tuple(e for e in self.errors if not _is_interrupt(e))

    @property
    def interrupted(self) -> bool:
        """True when Isabelle stopped short (cancelled, interrupted, timed out, not finished)."""
        return self.canceled or not self.consolidated or any(map(_is_interrupt, self.errors))

    @property
    def outputs(self) -> tuple[str, ...]:
        """The texts of the non-error messages, in order."""
        return tuple(m.text for m in self.messages if not m.is_error)


def find_isabelle(executable: str | None = None) -> str:
    """The path of the isabelle executable: ``executable``, else $GUMSHOE_ISABELLE, else PATH.

    Raises ProverUnavailable, with a hint on how to point gumshoe at an install, if none is found.
    """
    configured = executable or os.environ.get(ENV_VAR)
    if configured:
        found = shutil.which(configured)
        if found is None:
            source = "given" if executable else f"set in {ENV_VAR}"
            raise ProverUnavailable(
                f"Isabelle executable {configured!r} ({source}) not found or not executable: "
                f"{INSTALL_HINT}"
            )
        return found
    found = shutil.which("isabelle")
    if found is None:
        raise ProverUnavailable(f"Isabelle not found (isabelle is not on PATH): {INSTALL_HINT}")
    return found


def isabelle_available(executable: str | None = None) -> bool:
    """True when an isabelle executable can be found (see ``find_isabelle``)."""
    try:
        find_isabelle(executable)
    except ProverUnavailable:
        return False
    return True


def read_theory_check(responses: Sequence[IsabelleResponse]) -> TheoryCheck:
    """Read the final ``use_theories`` response; IsabelleServerError if it is not a result."""
    log = "\n".join(str(r) for r in responses)
    if not responses:
        raise IsabelleServerError("no response to use_theories")
    final = responses[-1]
    if _kind(final) != "FINISHED":
        raise IsabelleServerError(f"use_theories failed: {_failure_text(final)}")
    try:
        results = _client("isabelle_client.data_models").UseTheoriesResults.model_validate(
            final.response_body
        )
    except ValidationError as exc:
        raise IsabelleServerError(f"unexpected use_theories result: {exc}") from exc
    messages = tuple(_message(m) for node in results.nodes for m in node.messages)
    errors = [m for m in messages if m.is_error]
    seen = {(e.text, e.line) for e in errors}
    errors += [
        m for m in map(_message, results.errors) if (m.text, m.line) not in seen and m.is_error
    ]
    return TheoryCheck(
        ok=results.ok,
        messages=messages,
        errors=tuple(errors),
        canceled=any(node.status.canceled for node in results.nodes),
        log=log,
        consolidated=all(node.status.consolidated for node in results.nodes),
    )


def _is_interrupt(message: TheoryMessage) -> bool:
    return message.text.strip().startswith(_INTERRUPTS)


def _message(m: Message) -> TheoryMessage:
    pos = m.pos
    if pos is None:
        return TheoryMessage(kind=m.kind, text=m.message)
    return TheoryMessage(m.kind, m.message, pos.line, pos.offset, pos.file)


def _failure_text(response: IsabelleResponse) -> str:
    body = response.response_body
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        return str(body["message"])
    return str(response)


class _LoopThread:
    """An asyncio event loop on a daemon thread, so callers in any context can wait with a limit."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def run(self, coro: Coroutine[Any, Any, _T], timeout: float | None) -> _T:
        """Run ``coro`` on the loop; TimeoutError (after cancelling it) past ``timeout`` seconds."""
        with self._lock:
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                self._thread = threading.Thread(
                    target=self._loop.run_forever, name="isabelle-client", daemon=True
                )
                self._thread.start()
            loop = self._loop
        future = asyncio.run_coroutine_threadsafe(asyncio.wait_for(coro, timeout), loop)
        try:
            return future.result(None if timeout is None else timeout + CONTROL_TIMEOUT_S)
        except TimeoutError:
            future.cancel()
            raise

    def stop(self) -> None:
        """Stop the loop and its thread."""
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        loop.call_soon_threadsafe(loop.stop)
        thread.join(CONTROL_TIMEOUT_S)
        if not thread.is_alive():
            loop.close()


class IsabelleServer:
    """One Isabelle server process and session, started on first use and reused; thread-safe."""

    def __init__(
        self,
        executable: str | None = None,
        *,
        session: str = DEFAULT_SESSION,
        dirs: Sequence[str] = (),
        options: Sequence[str] = (),
        start_timeout: float = 3600.0,
    ) -> None:
        """Configure a server to run ``executable`` (see ``find_isabelle``) with ``session``.

        ``dirs`` and ``options`` go to session_build/session_start; ``start_timeout`` bounds the
        server start and the session build (a first HOL build can take long).
        """
        self._executable = executable
        self._session = session
        self._dirs = list(dirs)
        self._options = list(options)
        self._start_timeout = start_timeout
        self._owned = True
        self._address: tuple[str, int, str] | None = None
        self._lock = threading.RLock()
        self._loop = _LoopThread()
        self._process: subprocess.Popen[str] | None = None
        self._output: deque[str] = deque(maxlen=200)
        self._workdir: Path | None = None
        self._session_id: str | None = None
        self._at_exit = False

    @classmethod
    def connect(
        cls,
        host: str,
        port: int,
        password: str,
        *,
        session: str = DEFAULT_SESSION,
        start_timeout: float = 3600.0,
    ) -> IsabelleServer:
        """Use an Isabelle server already running at ``host:port``; ``close`` leaves it running."""
        server = cls(session=session, start_timeout=start_timeout)
        server._owned = False
        server._address = (host, port, password)
        return server

    @property
    def session(self) -> str:
        """The name of the session the server runs (HOL by default)."""
        return self._session

    @property
    def session_id(self) -> str | None:
        """The id of the started session, or None before ``start``."""
        return self._session_id

    @property
    def running(self) -> bool:
        """True while a session is up (and, for a server we started, its process lives)."""
        with self._lock:
            if self._session_id is None:
                return False
            return not self._owned or (self._process is not None and self._process.poll() is None)

    def start(self, timeout: float | None = None) -> None:
        """Start the server and session if they are not up; a no-op when they are.

        ``timeout`` (seconds) bounds the start-up together with the ``start_timeout`` given at
        construction, whichever is smaller. Raises ProverUnavailable when Isabelle is missing or
        the session cannot be built, IsabelleTimeout when start-up does not finish in time, and
        IsabelleServerError when the server stops answering; MissingExtra when the ``isabelle``
        extra (isabelle-client) is not installed.
        """
        _client()
        limit = self._start_timeout if timeout is None else min(timeout, self._start_timeout)
        deadline = time.perf_counter() + limit
        with self._lock:
            if self.running:
                return
            if self._owned and (self._process is None or self._process.poll() is not None):
                self._session_id = None
                self._spawn(deadline)
            if not self._at_exit:
                atexit.register(self.close)
                self._at_exit = True
            self._session_id = self._start_session(deadline)

    def use_theory(self, master_dir: Path, theory: str, timeout: float) -> TheoryCheck:
        """Check theory ``theory`` (file ``master_dir/theory.thy``) within ``timeout`` seconds.

        Isabelle's own limits (``check_limit``, ``watchdog_timeout``) are set to ``timeout`` too.
        Raises IsabelleTimeout when the limit passes (the server task is cancelled) and
        IsabelleServerError when the server fails.
        """
        self.start()
        arguments = {
            "session_id": self._session_id,
            "theories": [theory],
            "master_dir": str(master_dir),
            "unicode_symbols": True,
            "check_delay": CHECK_DELAY_S,
            "check_limit": math.ceil(timeout / CHECK_DELAY_S) + 1,
            "watchdog_timeout": max(1.0, timeout),
        }
        tasks: list[str] = []
        try:
            responses = self._command("use_theories", arguments, True, timeout, tasks.append)
        except TimeoutError:
            for task in tasks:
                self._quietly("cancel", {"task": task})
            raise IsabelleTimeout(f"Isabelle gave no answer within {timeout:.3g} s") from None
        finally:
            purge = {key: arguments[key] for key in ("session_id", "theories", "master_dir")}
            self._quietly("purge_theories", purge)
        return read_theory_check(responses)

    def close(self) -> None:
        """Stop the session and, for a server we started, shut it down; safe to call twice."""
        with self._lock:
            if self._session_id is not None:
                self._quietly("session_stop", {"session_id": self._session_id}, asynchronous=True)
                self._session_id = None
            process, self._process = self._process, None
            if process is not None:
                self._quietly("shutdown", None)
                _stop_process(process)
            if self._owned:
                self._address = None
            self._loop.stop()
            if self._workdir is not None:
                shutil.rmtree(self._workdir, ignore_errors=True)
                self._workdir = None
            if self._at_exit:
                atexit.unregister(self.close)
                self._at_exit = False

    def __enter__(self) -> IsabelleServer:
        """Start the server."""
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        """Close the server."""
        self.close()

    def _spawn(self, deadline: float) -> None:
        executable = find_isabelle(self._executable)
        self._workdir = Path(tempfile.mkdtemp(prefix="gumshoe-isabelle-"))
        name = f"gumshoe-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        command = [executable, "server", "-n", name, "-p", str(_free_port())]
        command += ["-L", str(self._workdir / "server.log")]
        try:
            process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
        except OSError as exc:
            raise ProverUnavailable(f"cannot run {executable!r} ({exc}): {INSTALL_HINT}") from exc
        first_line: queue.Queue[str] = queue.Queue()
        threading.Thread(
            target=_drain, args=(process, self._output, first_line.put), daemon=True
        ).start()
        try:
            line = first_line.get(timeout=max(0.0, deadline - time.perf_counter()))
            client = _client().get_isabelle_client(line.strip())
        except queue.Empty:
            _stop_process(process, grace_s=0.0)
            raise IsabelleTimeout("'isabelle server' did not start within the time limit") from None
        except ValueError:
            _stop_process(process, grace_s=0.0)
            output = " | ".join(self._output) or "no output"
            raise ProverUnavailable(
                f"'isabelle server' did not report its address ({output}): {INSTALL_HINT}"
            ) from None
        self._process = process
        self._address = (client.address, client.port, client.password)

    def _start_session(self, deadline: float) -> str:
        arguments = {"session": self._session, "dirs": self._dirs, "options": self._options}

        def left() -> float:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise IsabelleTimeout(f"session {self._session} did not start within the limit")
            return remaining

        try:
            built = self._command("session_build", arguments, True, left())
            final = built[-1]
            body = final.response_body
            if _kind(final) != "FINISHED" or not (
                isinstance(body, dict) and body.get("ok") is True
            ):
                raise ProverUnavailable(
                    f"building the Isabelle session {self._session} failed: {_failure_text(final)}"
                )
            started = self._command("session_start", {**arguments, "print_mode": []}, True, left())
        except IsabelleTimeout:
            raise
        except TimeoutError:
            raise IsabelleTimeout(
                f"session {self._session} did not start within the time limit"
            ) from None
        final = started[-1]
        body = final.response_body
        if _kind(final) == "FINISHED" and isinstance(body, dict):
            session_id = body.get("session_id")
            if isinstance(session_id, str):
                return session_id
        raise ProverUnavailable(
            f"starting the Isabelle session {self._session} failed: {_failure_text(final)}"
        )

    def _command(
        self,
        command: str,
        argument: object,
        asynchronous: bool,
        timeout: float | None,
        on_task: Callable[[str], None] | None = None,
    ) -> list[IsabelleResponse]:
        if self._address is None:
            raise IsabelleServerError("the Isabelle server is not running")
        exchange = _exchange(self._address, command, argument, asynchronous, on_task)
        return self._loop.run(exchange, timeout)

    def _quietly(self, command: str, argument: object, asynchronous: bool = False) -> None:
        """Send a housekeeping command, logging rather than raising when it fails."""
        try:
            self._command(command, argument, asynchronous, CONTROL_TIMEOUT_S)
        except (IsabelleServerError, TimeoutError) as exc:
            _log.debug("Isabelle %s failed: %s", command, exc)


async def _exchange(
    address: tuple[str, int, str],
    command: str,
    argument: object,
    asynchronous: bool,
    on_task: Callable[[str], None] | None,
) -> list[IsabelleResponse]:
    """Send one command on a fresh connection and read responses up to the final one."""
    host, port, password = address
    text = command if argument is None else f"{command} {json.dumps(argument)}"
    final = _ASYNC_FINAL if asynchronous else _SYNC_FINAL
    read_response = _client("isabelle_client.socket_communication").get_response_from_isabelle
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError as exc:
        raise IsabelleServerError(f"cannot connect to Isabelle at {host}:{port}: {exc}") from exc
    try:
        writer.write(f"{password}\n{text}\n".encode())
        await writer.drain()
        greeting = await read_response(reader)
        if _kind(greeting) != "OK":
            raise IsabelleServerError(f"Isabelle refused the connection: {greeting}")
        responses: list[IsabelleResponse] = []
        while True:
            response = await read_response(reader)
            responses.append(response)
            body = response.response_body
            if (
                asynchronous
                and _kind(response) == "OK"
                and isinstance(body, dict)
                and isinstance(body.get("task"), str)
            ):
                if on_task is not None:
                    on_task(body["task"])
                continue
            if _kind(response) in final:
                return responses
    except (OSError, ValueError, asyncio.IncompleteReadError) as exc:
        raise IsabelleServerError(f"Isabelle protocol failure on {command}: {exc}") from exc
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


def _drain(
    process: subprocess.Popen[str], output: deque[str], first: Callable[[str], None]
) -> None:
    """Read the server's output: hand on the first line, keep the last ones for diagnostics."""
    assert process.stdout is not None
    seen_first = False
    for line in process.stdout:
        output.append(line.rstrip("\n"))
        if not seen_first:
            seen_first = True
            first(line)
    if not seen_first:
        first("")


def _stop_process(process: subprocess.Popen[str], grace_s: float = CONTROL_TIMEOUT_S / 3) -> None:
    """Wait ``grace_s`` for ``process`` to exit, then terminate it, then kill it."""
    try:
        process.wait(grace_s)
    except subprocess.TimeoutExpired:
        process.terminate()
        try:
            process.wait(CONTROL_TIMEOUT_S / 3)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


_shared_lock = threading.Lock()
_shared: IsabelleServer | None = None


def shared_server() -> IsabelleServer:
    """The process-wide server that provers use when none is given (created, not started)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = IsabelleServer()
        return _shared
