"""The Isabelle backend against a stand-in server playing recorded responses.

Covers reading each recorded response (verdict, message, error line), Nitpick's countermodels
(only a genuine one makes INVALID), the server lifecycle (one start for many proofs, shutdown at
close, a missing install, a start-up limit of its own outside every call's limit), the
wall-clock limit on a task that never finishes, server failures, and step-by-step checking of
proof sketches.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socketserver
import stat
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from isabelle_client import IsabelleResponse
from isabelle_client.socket_communication import get_response_from_isabelle

from provers.isabelle import (
    ENV_VAR,
    IsabelleProver,
    IsabelleServer,
    SketchResult,
    check_sketch,
    find_isabelle,
    isabelle_available,
    parse_sketch,
)
from provers.isabelle.prover import (
    START_TIMEOUT_ENV,
    nitpick_countermodel,
    start_timeout_setting,
    suggested_tactics,
    used_axioms,
)
from provers.isabelle.server import (
    IsabelleServerError,
    TheoryCheck,
    TheoryMessage,
    read_theory_check,
)
from provers.isabelle.theory_text import render_theory
from reasoning.formula import Atom, Card, prop
from reasoning.prover import Axiom, ProverUnavailable
from reasoning.verdict import ProofResult, Verdict
from tests.support.isabelle_server import FakeIsabelleServer, encode_message, tea_problem

ROOT = Path(__file__).resolve().parent.parent
LIVENESS_S = 60.0
NO_MODEL = "use_theories_nitpick_none"
"""Nitpick's answer when the goal has no countermodel: the search for a proof follows."""


@pytest.fixture
def fake() -> Iterator[FakeIsabelleServer]:
    with FakeIsabelleServer() as server:
        yield server


def connect(fake: FakeIsabelleServer) -> IsabelleServer:
    return IsabelleServer.connect(fake.host, fake.port, fake.password)


def prove_with(
    script: list[str], timeout: float = 10.0, replies: dict[str, str] | None = None
) -> tuple[ProofResult, FakeIsabelleServer]:
    axioms, goal = tea_problem()
    with FakeIsabelleServer(script, replies=replies) as fake:
        server = connect(fake)
        try:
            result = IsabelleProver(server=server, timeout=timeout).prove(axioms, goal)
        finally:
            server.close()
    return result, fake


# --- reading recorded responses ------------------------------------------------------------


def recorded(fixture: str, theory: str) -> TheoryCheck:
    """Play ``fixture`` over the wire format and read it back as isabelle_client does."""
    with FakeIsabelleServer() as fake:
        lines = fake.play(fixture, task="t-1", theory="Hypothesis", path=Path("H.thy"), text=theory)
    wire = b"".join(encode_message(line) for line in lines)

    async def read_all() -> list[IsabelleResponse]:
        reader = asyncio.StreamReader()
        reader.feed_data(wire)
        reader.feed_eof()
        return [await get_response_from_isabelle(reader) for _ in lines]

    return read_theory_check(asyncio.run(read_all()))


def tea_theory(proof: str = "sledgehammer") -> str:
    axioms, goal = tea_problem()
    return render_theory(axioms, goal, proof=proof)


def line_containing(text: str, needle: str) -> int:
    return max(i for i, line in enumerate(text.splitlines(), start=1) if needle in line)


def test_sledgehammer_suggestions_are_read_in_order() -> None:
    check = recorded("use_theories_sledgehammer_found", tea_theory())
    assert check.ok and not check.errors and not check.interrupted
    assert suggested_tactics(check) == [
        "by (metis a_fact__1 a_rule__2)",
        "by (meson a_fact__1 a_rule__2)",
    ]


def test_syntax_error_is_read_with_its_line() -> None:
    theory = tea_theory()
    check = recorded("use_theories_syntax_error", theory)
    assert not check.ok
    assert [e.line for e in check.errors] == [line_containing(theory, "a_rule__2:")]
    assert check.errors[0].text.startswith("Inner syntax error")


def test_no_proof_has_no_suggestions() -> None:
    check = recorded("use_theories_no_proof", tea_theory())
    assert check.ok and not check.errors and suggested_tactics(check) == []
    assert "No proof found" in check.outputs


def test_interrupted_check_is_recognised() -> None:
    check = recorded("use_theories_interrupted", tea_theory())
    assert check.canceled and check.interrupted


def test_unfinished_or_interrupted_checks_are_told_apart_from_problems() -> None:
    interrupt = TheoryMessage("error", "Interrupt", 3)
    broken = TheoryMessage("error", "Undefined type name", 5)
    check = TheoryCheck(False, (interrupt, broken), (interrupt, broken), False, "")
    assert check.interrupted and check.problems == (broken,)
    assert TheoryCheck(True, (), (), False, "", consolidated=False).interrupted
    assert not TheoryCheck(True, (), (), False, "").interrupted


def test_nitpick_counterexamples_are_read_only_when_genuine() -> None:
    theory = tea_theory("nitpick [user_axioms = true, timeout = 2]")
    found = nitpick_countermodel(recorded("use_theories_nitpick_found", theory))
    assert found is not None
    assert found.startswith("Nitpick found a counterexample for card s_entity = 2")
    assert "c_item = s_entity" in found
    for fixture in (
        NO_MODEL,
        "use_theories_nitpick_spurious",
        "use_theories_nitpick_quasi_genuine",
    ):
        assert nitpick_countermodel(recorded(fixture, theory)) is None, fixture


def test_failed_task_is_a_server_error() -> None:
    with pytest.raises(IsabelleServerError, match="No such file"):
        recorded("use_theories_failed", tea_theory())


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("e: Try this: by (metis a_x) (12 ms)", ["by (metis a_x)"]),
        ("z3: Try this: using a_x by blast (0.3 ms)", ["using a_x by blast"]),
        ("Try this: by (smt (verit) a_x) (> 1.0 s, timed out)", ["by (smt (verit) a_x)"]),
        ("e: Try this: by simp (failed)", ["by simp"]),
        ("Try this: proof - qed", []),
        ("Sledgehammering...", []),
    ],
)
def test_try_this_lines(line: str, expected: list[str]) -> None:
    check = TheoryCheck(True, (TheoryMessage("writeln", line),), (), False, "")
    assert suggested_tactics(check) == expected


def test_used_axioms_are_decoded_from_the_tactic() -> None:
    ids = {"a_fact__1": "fact_1", "a_rule__2": "rule_2", "a_x_'": "x_"}
    tactic = "by (metis Draft.a_rule__2 a_fact__1(2) a_x_' HOL.refl a_rule__2)"
    assert used_axioms(tactic, ids) == ["rule_2", "fact_1", "x_"]


# --- verdicts through the whole client path ------------------------------------------------


def test_sledgehammer_proof_is_valid_after_replay() -> None:
    script = [NO_MODEL, "use_theories_sledgehammer_found", "use_theories_replay_ok"]
    result, fake = prove_with(script)
    assert result.verdict is Verdict.VALID
    assert result.used_axioms == ["fact_1", "rule_2"]
    countermodel, search, replay = fake.theories
    assert "  nitpick [user_axioms = true, timeout = 2]\n  oops" in countermodel
    assert re.search(r"\n  sledgehammer \[timeout = [1-6]\]\n  oops", search)
    assert "  by (metis a_fact__1 a_rule__2)\n\nend" in replay
    assert "sledgehammer" not in replay


def test_failed_replays_are_unknown_not_valid() -> None:
    script = [NO_MODEL, "use_theories_sledgehammer_found", *["use_theories_replay_failed"] * 2]
    result, fake = prove_with(script)
    assert result.verdict is Verdict.UNKNOWN
    assert "none replayed" in result.message
    assert "Failed to apply initial proof method" in result.message
    assert len(fake.theories) == 4


def test_genuine_countermodel_is_invalid_without_a_proof_search() -> None:
    result, fake = prove_with(["use_theories_nitpick_found"])
    assert result.verdict is Verdict.INVALID
    assert result.message.startswith("Nitpick: Nitpick found a counterexample for card")
    assert len(fake.theories) == 1 and "sledgehammer" not in fake.theories[0]


@pytest.mark.parametrize(
    "fixture", [NO_MODEL, "use_theories_nitpick_spurious", "use_theories_nitpick_quasi_genuine"]
)
def test_no_genuine_countermodel_and_no_proof_is_unknown(fixture: str) -> None:
    result, fake = prove_with([fixture, "use_theories_no_proof"])
    assert result.verdict is Verdict.UNKNOWN
    assert "No proof found" in result.message and "Nitpick found" in result.message
    assert len(fake.theories) == 2


@pytest.mark.parametrize(
    ("fixture", "needle", "text"),
    [
        ("use_theories_syntax_error", "a_rule__2:", "Inner syntax error"),
        ("use_theories_type_error", "a_fact__1:", "Type unification failed"),
    ],
)
def test_errors_are_syntax_errors_with_line(fixture: str, needle: str, text: str) -> None:
    result, fake = prove_with([fixture])
    line = line_containing(fake.theories[0], needle)
    assert result.verdict is Verdict.SYNTAX_ERROR
    assert result.message.startswith(f"line {line}: {text}")
    assert needle in result.message


def test_isabelle_interrupt_is_timeout() -> None:
    result, _ = prove_with(["use_theories_interrupted"])
    assert result.verdict is Verdict.TIMEOUT


def test_failed_task_is_unknown_with_reason() -> None:
    result, _ = prove_with(["use_theories_failed"])
    assert result.verdict is Verdict.UNKNOWN
    assert "No such file" in result.message


def test_never_finishing_task_times_out_and_is_cancelled(fake: FakeIsabelleServer) -> None:
    fake.script = ["use_theories_hang"]
    axioms, goal = tea_problem()
    server = connect(fake)
    results: list[ProofResult] = []
    worker = threading.Thread(
        target=lambda: results.append(IsabelleProver(server=server).prove(axioms, goal, 0.5))
    )
    worker.start()
    worker.join(LIVENESS_S)
    assert not worker.is_alive(), "prove() did not return after its time limit"
    assert results[0].verdict is Verdict.TIMEOUT
    cancels = fake.commands("cancel")
    assert len(cancels) == 1 and cancels[0].argument["task"]
    server.close()


def test_problem_errors_need_no_server(fake: FakeIsabelleServer) -> None:
    parts = tuple(prop(f"c{i}") for i in range(21))
    prover = IsabelleProver(server=connect(fake))
    result = prover.prove([Axiom("big", Card("exactly", 3, parts))], Atom("c0"))
    assert result.verdict is Verdict.UNSUPPORTED
    assert "above the Isabelle limit" in result.message
    assert result.message.startswith("isabelle cannot take this input")
    assert fake.requests == []


def test_server_gone_is_unknown(fake: FakeIsabelleServer) -> None:
    axioms, goal = tea_problem()
    server = connect(fake)
    server.start()
    fake.stop()
    result = IsabelleProver(server=server).prove(axioms, goal)
    assert result.verdict is Verdict.UNKNOWN
    assert "Isabelle server failure" in result.message


class _Garbage(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        self.rfile.readline()
        self.wfile.write(b'OK {"isabelle_id":"x"}\n%%% not a response\n')


def test_protocol_garbage_is_unknown() -> None:
    axioms, goal = tea_problem()
    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Garbage) as garbage:
        threading.Thread(target=garbage.serve_forever, daemon=True).start()
        server = IsabelleServer.connect("127.0.0.1", garbage.server_address[1], "pw")
        result = IsabelleProver(server=server).prove(axioms, goal)
        garbage.shutdown()
    assert result.verdict is Verdict.UNKNOWN
    assert "protocol failure" in result.message


def test_failed_session_build_means_unavailable() -> None:
    axioms, goal = tea_problem()
    replies = {"session_build": "session_build_failed"}
    with (
        FakeIsabelleServer(replies=replies) as fake,
        pytest.raises(ProverUnavailable, match="Undefined session"),
    ):
        IsabelleProver(server=connect(fake)).prove(axioms, goal)


def test_one_session_for_many_concurrent_proofs(fake: FakeIsabelleServer) -> None:
    axioms, goal = tea_problem()
    server = connect(fake)
    prover = IsabelleProver(server=server)
    results: list[Verdict] = []
    workers = [
        threading.Thread(target=lambda: results.append(prover.prove(axioms, goal).verdict))
        for _ in range(4)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(LIVENESS_S)
    assert results == [Verdict.UNKNOWN] * 4
    assert len(fake.commands("session_start")) == 1
    assert len(fake.commands("use_theories")) == 8
    assert len(set(json.dumps(r.argument["theories"]) for r in fake.commands("use_theories"))) == 8
    server.close()
    server.close()
    assert [r.command for r in fake.requests][-1] == "session_stop"
    assert not server.running


def test_start_up_does_not_count_against_the_first_call_limit() -> None:
    result, fake = prove_with(
        [NO_MODEL, "use_theories_no_proof"],
        timeout=1.0,
        replies={"session_start": "session_start_slow"},
    )
    assert result.verdict is Verdict.UNKNOWN, result.message
    assert len(fake.theories) == 2


def test_start_up_past_its_limit_is_one_line_and_remembered(fake: FakeIsabelleServer) -> None:
    fake.replies["session_start"] = "session_start_hang"
    axioms, goal = tea_problem()
    prover = IsabelleProver(server=connect(fake), start_timeout=0.5)
    for _ in range(2):
        with pytest.raises(ProverUnavailable, match=r"did not start within 0\.5 s") as err:
            prover.prove(axioms, goal)
        assert "\n" not in str(err.value) and START_TIMEOUT_ENV in str(err.value)
    assert len(fake.commands("session_start")) == 1
    assert fake.commands("use_theories") == []


def test_start_up_limit_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(START_TIMEOUT_ENV, "45")
    assert start_timeout_setting() == 45.0
    for bad in ("soon", "-3", "inf"):
        monkeypatch.setenv(START_TIMEOUT_ENV, bad)
        with pytest.raises(ProverUnavailable, match=START_TIMEOUT_ENV):
            start_timeout_setting()


# --- lifecycle of a server process we start ------------------------------------------------


@pytest.fixture
def fake_isabelle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in ``isabelle`` executable that runs the fake server and records requests."""
    script = tmp_path / "bin" / "isabelle"
    script.parent.mkdir()
    script.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from tests.support.isabelle_server import main\n"
        "raise SystemExit(main(sys.argv[1:]))\n",
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("GUMSHOE_FAKE_ISABELLE_RECORD", str(tmp_path / "record.jsonl"))
    return script


def records(script: Path) -> list[str]:
    lines = (script.parent.parent / "record.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["command"] for line in lines]


def test_one_server_start_for_many_proofs_and_shutdown_at_close(fake_isabelle: Path) -> None:
    axioms, goal = tea_problem()
    server = IsabelleServer(str(fake_isabelle))
    prover = IsabelleProver(server=server, timeout=5.0)
    verdicts = [prover.prove(axioms, goal).verdict for _ in range(3)]
    assert verdicts == [Verdict.UNKNOWN] * 3
    assert server.running
    log = records(fake_isabelle)
    assert log.count("start") == 1
    assert log.count("session_build") == log.count("session_start") == 1
    assert log.count("use_theories") == 6
    server.close()
    assert not server.running
    assert records(fake_isabelle)[-2:] == ["session_stop", "shutdown"]


def test_server_found_through_the_environment(
    fake_isabelle: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_VAR, str(fake_isabelle))
    monkeypatch.setenv("PATH", os.defpath)
    assert find_isabelle() == str(fake_isabelle)
    assert isabelle_available()
    assert IsabelleProver().server is IsabelleProver().server


def test_missing_isabelle_is_unavailable_with_a_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert not isabelle_available()
    with pytest.raises(ProverUnavailable, match=ENV_VAR):
        IsabelleProver()
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "nowhere" / "isabelle"))
    with pytest.raises(ProverUnavailable, match="set in GUMSHOE_ISABELLE"):
        find_isabelle()


def test_broken_isabelle_is_unavailable(tmp_path: Path) -> None:
    broken = tmp_path / "isabelle"
    broken.write_text("#!/bin/sh\necho 'cannot find java'\nexit 1\n", encoding="utf-8")
    broken.chmod(broken.stat().st_mode | stat.S_IXUSR)
    server = IsabelleServer(str(broken))
    with pytest.raises(ProverUnavailable, match="cannot find java"):
        server.start()
    server.close()


# --- proof sketches ------------------------------------------------------------------------

SKETCH = """proof -
  have "\\<exists>x y e. p_Tea x \\<and> p_Infuse e" <ATP>
  then show ?thesis by blast
qed"""


def check_with(
    script: list[str], sketch: str = SKETCH, timeout: float = 10.0
) -> tuple[SketchResult, FakeIsabelleServer]:
    axioms, goal = tea_problem()
    with FakeIsabelleServer(script) as fake:
        server = connect(fake)
        try:
            result = check_sketch(IsabelleProver(server=server), axioms, goal, sketch, timeout)
        finally:
            server.close()
    return result, fake


def test_sketch_gaps_are_filled_and_the_proof_closes() -> None:
    ok = "use_theories_replay_ok"
    result, fake = check_with(["use_theories_sledgehammer_found", ok, ok, ok])
    assert result.ok and result.failed_step is None
    assert result.steps[0].tactic == "by (metis a_fact__1 a_rule__2)"
    assert result.used_axioms == ["fact_1", "rule_2"]
    assert result.proof.splitlines()[-1] == "qed"
    search, replay, given, final = fake.theories
    assert "    sledgehammer [timeout = 6]\n  oops" in search
    assert "    by (metis a_fact__1 a_rule__2)\n  oops" in replay
    assert "    by blast\n  oops" in given
    assert final.rstrip().endswith("    by blast\n  qed\n\nend")


def test_sketch_reports_the_first_failing_step() -> None:
    script = ["use_theories_sledgehammer_found", "use_theories_replay_ok"]
    result, _ = check_with([*script, "use_theories_replay_failed"])
    assert result.verdict is Verdict.UNKNOWN
    assert result.failed_step == 1
    assert result.failed_text == "then show ?thesis"
    assert "Failed to apply initial proof method" in result.message
    assert len(result.steps) == 1


def test_sketch_statement_that_does_not_parse_is_a_syntax_error() -> None:
    result, _ = check_with(["use_theories_statement_error"])
    assert result.verdict is Verdict.SYNTAX_ERROR and result.failed_step == 0
    given = 'have "P" by auto\nthen show ?thesis <ATP>'
    result, _ = check_with(["use_theories_statement_error"], sketch=given)
    assert result.verdict is Verdict.SYNTAX_ERROR and result.failed_step == 0


def test_sketch_gap_without_proof_is_feedback() -> None:
    result, _ = check_with(["use_theories_no_proof"])
    assert result.verdict is Verdict.UNKNOWN and result.failed_step == 0
    assert result.message == "no proof found: No proof found"


def test_sketch_step_that_never_finishes_times_out() -> None:
    result, _ = check_with(["use_theories_hang"], timeout=0.5)
    assert result.verdict is Verdict.TIMEOUT and result.failed_step == 0


def test_sketch_closing_failure_points_at_qed() -> None:
    ok = "use_theories_replay_ok"
    result, _ = check_with(
        ["use_theories_sledgehammer_found", ok, ok, "use_theories_replay_failed"]
    )
    assert result.failed_step == 2 and result.failed_text == "qed"


def test_parse_sketch_round_trip_is_accepted_by_check() -> None:
    steps = parse_sketch(SKETCH)
    assert [s.is_gap for s in steps] == [True, False]
