"""A local stand-in for the Isabelle server that plays recorded responses from fixture files.

It speaks the Isabelle server protocol as ``isabelle_client`` expects it: the client sends a
password line, the server greets with ``OK {...}``; then each command line ``name {json}`` gets
its replies. Synchronous commands (``echo``, ``help``, ``cancel``, ``purge_theories``,
``shutdown``) answer ``OK``; asynchronous ones (``session_build``, ``session_start``,
``session_stop``, ``use_theories``) answer ``OK {"task": ...}``, ``NOTE``s and a final
``FINISHED`` or ``FAILED``; unknown commands get ``ERROR``. A message longer than 100 bytes is
sent as a line with its length (including the closing newline) followed by the message, as the
real server does.

Replies come from ``tests/fixtures/isabelle/<name>.txt``: one response a line (``#`` lines are
comments), with placeholders filled in per request: ``@TASK@`` (the task id), ``@THEORY@``,
``@FILE@`` (the checked theory and its path), ``@TMP@`` (a temporary directory) and
``@LINE:text@`` (the number of the last line of the checked theory containing ``text``). A line
``@HANG@`` stops the reply there: the task never finishes until it is cancelled (or, for a
session command, until the server stops); a line ``@SLEEP:seconds@`` waits that long before the
rest of the reply.

``use_theories`` plays the fixtures of ``script`` in order, then ``default``; the session commands
play the fixture named like the command unless ``replies`` maps it to another. Usage::

    with FakeIsabelleServer(["use_theories_no_proof"]) as fake:
        server = IsabelleServer.connect(fake.host, fake.port, fake.password)

``main`` runs it as a stand-in ``isabelle`` executable (``isabelle server -n NAME -p PORT``):
it prints the server line and serves until ``shutdown``. The environment variables
``GUMSHOE_FAKE_ISABELLE_SCRIPT`` (comma-separated fixture names) and
``GUMSHOE_FAKE_ISABELLE_RECORD`` (a file that gets one JSON line per start and per request)
configure it.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import socketserver
import tempfile
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reasoning.formula import (
    ENTITY,
    EVENT,
    And,
    Atom,
    Card,
    Const,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Truth,
    Var,
    prop,
)
from reasoning.prover import Axiom

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "isabelle"
HANG = "@HANG@"
_SLEEP = re.compile(r"@SLEEP:([0-9.]+)@")
SCRIPT_ENV = "GUMSHOE_FAKE_ISABELLE_SCRIPT"
RECORD_ENV = "GUMSHOE_FAKE_ISABELLE_RECORD"
GREETING = 'OK {"isabelle_id":"fake","isabelle_name":"Isabelle2024"}'
COMMANDS = (
    "cancel",
    "echo",
    "help",
    "purge_theories",
    "session_build",
    "session_start",
    "session_stop",
    "shutdown",
    "use_theories",
)
_LINE_MARK = re.compile(r"@LINE:([^@]+)@")
_HANG_LIMIT_S = 120.0
_SERVE_LIMIT_S = 600.0


@dataclass(frozen=True)
class Request:
    """One command the server received, with its decoded JSON argument (None if absent)."""

    command: str
    argument: Any


def encode_message(text: str) -> bytes:
    """One server message on the wire: long or multi-line messages carry their length first."""
    data = text.encode("utf-8")
    if len(data) > 100 or b"\n" in data:
        return f"{len(data) + 1}\n".encode() + data + b"\n"
    return data + b"\n"


class _Connection(socketserver.StreamRequestHandler):
    server: _TCPServer

    def setup(self) -> None:
        super().setup()
        self.write_lock = threading.Lock()

    def send(self, text: str) -> None:
        with self.write_lock:
            try:
                self.wfile.write(encode_message(text))
                self.wfile.flush()
            except OSError:
                pass

    def handle(self) -> None:
        fake = self.server.fake
        if self.rfile.readline().decode("utf-8").rstrip("\n") != fake.password:
            return
        self.send(GREETING)
        while True:
            line = self.rfile.readline()
            if not line:
                return
            fake.dispatch(self, line.decode("utf-8").rstrip("\n"))


class _TCPServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, port: int, fake: FakeIsabelleServer) -> None:
        self.fake = fake
        super().__init__(("127.0.0.1", port), _Connection)


class FakeIsabelleServer:
    """A TCP server on 127.0.0.1 that answers like Isabelle from recorded responses."""

    def __init__(
        self,
        script: Sequence[str] = (),
        *,
        default: str = "use_theories_no_proof",
        replies: Mapping[str, str] | None = None,
        port: int = 0,
        name: str = "gumshoe-test",
        fixtures: Path = FIXTURES,
        record: Path | None = None,
    ) -> None:
        self.script = list(script)
        self.default = default
        self.replies = dict(replies or {})
        self.name = name
        self.fixtures = fixtures
        self.record = record
        self.password = secrets.token_hex(8)
        self.requests: list[Request] = []
        self.theories: list[str] = []
        self.sessions: set[str] = set()
        self.shutdown_requested = threading.Event()
        self._lock = threading.Lock()
        self._cancelled: dict[str, threading.Event] = {}
        self._stopping = threading.Event()
        self._tcp = _TCPServer(port, self)
        self._thread: threading.Thread | None = None

    @property
    def host(self) -> str:
        """The address it listens on."""
        return "127.0.0.1"

    @property
    def port(self) -> int:
        """The port it listens on."""
        port: int = self._tcp.server_address[1]
        return port

    @property
    def server_line(self) -> str:
        """The line ``isabelle server`` prints on start."""
        return f'server "{self.name}" = {self.host}:{self.port} (password "{self.password}")'

    def start(self) -> FakeIsabelleServer:
        """Serve on a background thread."""
        self._thread = threading.Thread(
            target=self._tcp.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and release every hanging task."""
        self._stopping.set()
        if self._thread is not None:
            self._tcp.shutdown()
            self._thread.join()
            self._thread = None
        self._tcp.server_close()

    def __enter__(self) -> FakeIsabelleServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def commands(self, name: str) -> list[Request]:
        """The requests received for command ``name``, in order."""
        with self._lock:
            return [r for r in self.requests if r.command == name]

    def dispatch(self, connection: _Connection, line: str) -> None:
        """Answer one command line."""
        command, _, rest = line.partition(" ")
        try:
            argument = json.loads(rest) if rest else None
        except json.JSONDecodeError:
            connection.send(f"ERROR {json.dumps('Malformed command argument: ' + rest)}")
            return
        self._note(Request(command, argument))
        try:
            self._answer(connection, command, rest, argument if isinstance(argument, dict) else {})
        except (KeyError, IndexError, TypeError) as exc:
            connection.send(f"ERROR {json.dumps(f'Bad argument for {command}: {exc}')}")

    def _answer(
        self, connection: _Connection, command: str, rest: str, argument: dict[str, Any]
    ) -> None:
        if command == "echo":
            connection.send(f"OK {rest}")
        elif command == "help":
            connection.send(f"OK {json.dumps(list(COMMANDS))}")
        elif command == "cancel":
            self._cancel_event(str(argument.get("task"))).set()
            connection.send("OK")
        elif command == "purge_theories":
            connection.send('OK {"purged":[],"retained":[]}')
        elif command == "shutdown":
            connection.send("OK")
            self.shutdown_requested.set()
            self._stopping.set()
        elif command in ("session_build", "session_start", "session_stop"):
            self._session_command(connection, command, argument)
        elif command == "use_theories":
            self._use_theories(connection, argument)
        else:
            connection.send(f"ERROR {json.dumps(f'Bad command {command!r}')}")

    def _session_command(
        self, connection: _Connection, command: str, argument: dict[str, Any]
    ) -> None:
        task = str(uuid.uuid4())
        lines = self.play(self.replies.get(command, command), task=task)
        for text in lines:
            if text == HANG:
                self._stopping.wait(_HANG_LIMIT_S)
                return
            if self._slept(text):
                continue
            if command == "session_start" and text.startswith("FINISHED "):
                with self._lock:
                    self.sessions.add(json.loads(text[len("FINISHED ") :])["session_id"])
            connection.send(text)
        if command == "session_stop":
            with self._lock:
                self.sessions.discard(str(argument.get("session_id")))

    def _use_theories(self, connection: _Connection, argument: dict[str, Any]) -> None:
        task = str(uuid.uuid4())
        theory = str(argument["theories"][0])
        path = Path(str(argument.get("master_dir", "."))) / f"{theory}.thy"
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        with self._lock:
            self.theories.append(text)
            known = argument.get("session_id") in self.sessions
            fixture = self.script.pop(0) if self.script else self.default
        if not known:
            connection.send(f'OK {{"task":"{task}"}}')
            message = json.dumps(f"Bad session_id: {argument.get('session_id')!r}")
            connection.send(f'FAILED {{"kind":"error","message":{message},"task":"{task}"}}')
            return
        for line in self.play(fixture, task=task, theory=theory, path=path, text=text):
            if line == HANG:
                cancelled = self._cancel_event(task)
                end = time.monotonic() + _HANG_LIMIT_S
                while not (cancelled.wait(0.05) or self._stopping.is_set()):
                    if time.monotonic() > end:
                        break
                connection.send(f'FAILED {{"kind":"error","message":"Interrupt","task":"{task}"}}')
                return
            if not self._slept(line):
                connection.send(line)

    def _slept(self, line: str) -> bool:
        """Wait when ``line`` is ``@SLEEP:seconds@`` (then True: it is not sent)."""
        found = _SLEEP.fullmatch(line)
        if found is None:
            return False
        self._stopping.wait(float(found.group(1)))
        return True

    def play(
        self,
        fixture: str,
        *,
        task: str,
        theory: str = "",
        path: Path | None = None,
        text: str = "",
    ) -> list[str]:
        """The response lines of ``fixture`` with this request's placeholders filled in."""
        source = (self.fixtures / f"{fixture}.txt").read_text(encoding="utf-8")
        theory_lines = text.splitlines()

        def line_of(found: re.Match[str]) -> str:
            hits = [i for i, line in enumerate(theory_lines, start=1) if found.group(1) in line]
            return str(hits[-1]) if hits else "1"

        values = {
            "@TASK@": task,
            "@THEORY@": theory,
            "@FILE@": str(path or ""),
            "@TMP@": tempfile.gettempdir(),
        }
        out = []
        for raw in source.splitlines():
            if not raw.strip() or raw.startswith("#"):
                continue
            line = _LINE_MARK.sub(line_of, raw)
            for key, value in values.items():
                line = line.replace(key, json.dumps(value)[1:-1])
            out.append(line)
        return out

    def _cancel_event(self, task: str) -> threading.Event:
        with self._lock:
            return self._cancelled.setdefault(task, threading.Event())

    def _note(self, request: Request) -> None:
        with self._lock:
            self.requests.append(request)
        if self.record is not None:
            _append(self.record, {"command": request.command, "argument": request.argument})


def _append(path: Path, entry: dict[str, Any]) -> None:
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(entry) + "\n")


def main(argv: Sequence[str]) -> int:
    """Run as ``isabelle server [-n NAME] [-p PORT] [-L LOG]`` until a ``shutdown`` command."""
    if not argv or argv[0] != "server":
        print("usage: isabelle server [-n NAME] [-p PORT] [-L LOG]")
        return 2
    options = dict(zip(argv[1::2], argv[2::2], strict=False))
    record = Path(os.environ[RECORD_ENV]) if os.environ.get(RECORD_ENV) else None
    script = [s for s in os.environ.get(SCRIPT_ENV, "").split(",") if s]
    if record is not None:
        _append(record, {"command": "start", "argument": list(argv)})
    fake = FakeIsabelleServer(
        script, port=int(options.get("-p", "0")), name=options.get("-n", "isabelle"), record=record
    )
    with fake:
        print(fake.server_line, flush=True)
        fake.shutdown_requested.wait(_SERVE_LIMIT_S)
    return 0


# Example problems: the tea example the recorded responses were made for, a constraint set with
# cardinalities, and names an LLM might produce.


def tea_problem() -> tuple[list[Axiom], Formula]:
    """The tea example the recorded responses were made for (fact_1, rule_2 |- some EarlGrey)."""
    x, y, e = Var("x", ENTITY), Var("y", ENTITY), Var("e", EVENT)
    infusion = And(
        (
            Atom("Tea", (x,)),
            Atom("Bergamot", (y,)),
            Atom("Infuse", (e,)),
            Atom("Agent", (e, x)),
            Atom("Patient", (e, y)),
        )
    )
    earl_grey = And((Atom("EarlGrey", (x,)), Not(Atom("CeylonTea", (x,)))))
    axioms = [
        Axiom("fact_1", Exists((x, y, e), infusion)),
        Axiom("rule_2", Forall((x, y, e), Implies(infusion, earl_grey))),
    ]
    return axioms, Exists((x,), Atom("EarlGrey", (x,)))


def card_problem() -> tuple[list[Axiom], Formula]:
    """A Clue-like constraint set: cardinalities over propositions and ground atoms."""
    alice, bob, knife = Const("alice", ENTITY), Const("bob", ENTITY), Const("knife", ENTITY)
    x = Var("x", ENTITY)
    weapons = tuple(prop(f"envelope_{w}") for w in ("knife", "rope", "pipe"))
    holders = (Atom("Has", (alice, knife)), Atom("Has", (bob, knife)), weapons[0])
    axioms = [
        Axiom("one_weapon", Card("exactly", 1, weapons)),
        Axiom("one_place", Card("atmost", 1, holders)),
        Axiom("alice_shows", Atom("Has", (alice, knife))),
        Axiom("only_alice", Forall((x,), Iff(Atom("Has", (x, knife)), Eq(x, alice)))),
        Axiom("trivia", Or((Truth(True), Not(Truth(False))))),
    ]
    return axioms, Card("atleast", 1, weapons[1:])


def odd_names_problem() -> tuple[list[Axiom], Formula]:
    """Names an LLM might produce: quotes, newlines, comment ends, Isabelle keywords, Unicode."""
    sort = 'bool" *)'
    v = Var("end\n", sort)
    c = Const('x" ML \\<open>', sort)
    evil = Atom('theory" imports Main begin', (v,))
    axioms = [
        Axiom('fact *) ML \\<open> bash "rm" \\<close> (*', Forall((v,), Implies(evil, Eq(v, c)))),
        Axiom("lemma", Atom("Café_", (c,))),
        Axiom("rule_", Atom("sorry", ())),
    ]
    return axioms, Exists((v,), Atom("Café_", (v,)))
