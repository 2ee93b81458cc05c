"""EProver: SZS statuses become verdicts, proofs give used axioms, process failures are verdicts."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

import provers.eprover as eprover_module
from provers.eprover import EProver, eprover_available
from provers.tptp import CARD_EXPANSION_LIMIT, to_tptp
from reasoning.formula import (
    BOTTOM,
    Atom,
    Card,
    Const,
    Eq,
    Exists,
    Forall,
    Implies,
    Not,
    Var,
    prop,
)
from reasoning.prover import Axiom, Prover, ProverUnavailable, check_consistency
from reasoning.verdict import Verdict
from tests.support.tea import TEA, E, X, Y, atom

needs_e = pytest.mark.skipif(not eprover_available(), reason="E prover (eprover) not installed")


@pytest.fixture(scope="module")
def eprover() -> EProver:
    if not eprover_available():
        pytest.skip("E prover (eprover) not installed")
    return EProver(timeout=5.0)


def fake_eprover(tmp_path: Path, script: str) -> EProver:
    """An EProver running a shell script that stands in for the E binary."""
    path = tmp_path / "fake-eprover"
    path.write_text("#!/bin/sh\n" + script + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return EProver(binary=str(path), timeout=1.0)


def test_missing_binary_raises_with_install_hint() -> None:
    assert not eprover_available("no-such-eprover-binary")
    with pytest.raises(ProverUnavailable, match="apt-get install eprover"):
        EProver(binary="no-such-eprover-binary")


@needs_e
def test_eprover_implements_the_protocol(eprover: EProver) -> None:
    assert isinstance(eprover, Prover)
    assert eprover.name == "eprover"


@needs_e
def test_tea_goal_is_valid_with_used_axioms(eprover: EProver) -> None:
    noise = Axiom("noise", Forall((X,), Implies(atom("Hot", X), atom("Drink", X))))
    result = eprover.prove([noise, *TEA], Exists((X,), atom("EarlGrey", X)))
    assert result.verdict is Verdict.VALID
    assert result.used_axioms == ["fact_1", "rule_2"]
    assert "SZS status Theorem" in result.raw_log


@needs_e
def test_tea_ceylon_goal_is_invalid_without_a_model(eprover: EProver) -> None:
    result = eprover.prove(TEA, Exists((X,), atom("CeylonTea", X)))
    assert result.verdict is Verdict.INVALID
    assert result.countermodel is None
    assert "saturation" in result.message


@needs_e
def test_consistency_check_both_ways(eprover: EProver) -> None:
    assert check_consistency(eprover, TEA).verdict is Verdict.INVALID
    clash = Axiom("clash", Forall((E,), Not(atom("Infuse", E))))
    inconsistent = check_consistency(eprover, [*TEA, clash])
    assert inconsistent.verdict is Verdict.VALID
    assert inconsistent.used_axioms == ["fact_1", "clash"]


@needs_e
def test_sorts_are_kept_apart(eprover: EProver) -> None:
    # Unguarded, "all entities are equal" would collapse the events too and prove the goal.
    axioms = [
        Axiom("one_entity", Forall((X, Y), Eq(X, Y))),
        Axiom("some_infusion", Exists((E,), atom("Infuse", E))),
    ]
    assert eprover.prove(axioms, Forall((E,), atom("Infuse", E))).verdict is Verdict.INVALID
    c, d = Const("c", "entity"), Const("d", "entity")
    axioms = [Axiom("same", Eq(c, d)), Axiom("tea", atom("Tea", c))]
    assert eprover.prove(axioms, atom("Tea", d)).verdict is Verdict.VALID


@needs_e
def test_cardinality_is_expanded_faithfully(eprover: EProver) -> None:
    cards = tuple(prop(name) for name in "abcd")
    axioms = [Axiom("two", Card("exactly", 2, cards)), Axiom("a", cards[0])]
    goal = Card("atmost", 1, cards[1:])
    assert eprover.prove(axioms, goal).verdict is Verdict.VALID
    assert eprover.prove(axioms, Card("exactly", 1, cards[2:])).verdict is Verdict.INVALID
    assert eprover.prove(axioms, Card("atleast", 5, cards)).verdict is Verdict.INVALID


@needs_e
def test_pigeonhole_with_short_limit_is_timeout(eprover: EProver) -> None:
    holes = 9
    axioms = [
        Axiom(f"pigeon{i}", Card("atleast", 1, tuple(prop(f"p{i}_{j}") for j in range(holes))))
        for i in range(holes + 1)
    ] + [
        Axiom(f"hole{j}", Card("atmost", 1, tuple(prop(f"p{i}_{j}") for i in range(holes + 1))))
        for j in range(holes)
    ]
    result = eprover.prove(axioms, BOTTOM, timeout=0.5)
    assert result.verdict is Verdict.TIMEOUT, result.message + result.raw_log[-300:]


@needs_e
def test_malformed_input_is_a_syntax_error(eprover: EProver) -> None:
    result = eprover.prove([], Atom("P", (Var("x"),)))
    assert result.verdict is Verdict.SYNTAX_ERROR
    assert "variable 'x' has no sort" in result.message


def test_card_expansion_above_limit_is_rejected(tmp_path: Path) -> None:
    parts = tuple(prop(f"p{i}") for i in range(30))
    big = Card("atmost", 5, parts)
    with pytest.raises(ValueError, match=f"above the limit of {CARD_EXPANSION_LIMIT}"):
        to_tptp([Axiom("big", big)], BOTTOM)
    prover = fake_eprover(tmp_path, "exit 0")
    result = prover.prove([Axiom("big", big)], BOTTOM)
    assert result.verdict is Verdict.UNSUPPORTED
    assert "in axiom 'big'" in result.message
    assert result.message.startswith("eprover:")


def test_input_error_from_e_is_a_syntax_error(tmp_path: Path) -> None:
    prover = fake_eprover(
        tmp_path, 'cat > /dev/null; echo "eprover: <stdin>:1:(Column 3): syntax error" >&2; exit 3'
    )
    result = prover.prove([], prop("p"))
    assert result.verdict is Verdict.SYNTAX_ERROR
    assert "Column 3" in result.message


@pytest.mark.parametrize(
    ("status", "verdict"),
    [
        ("GaveUp", Verdict.UNKNOWN),
        ("ResourceOut", Verdict.TIMEOUT),
        ("CounterSatisfiable", Verdict.INVALID),
        ("Satisfiable", Verdict.INVALID),
        ("Unsatisfiable", Verdict.VALID),
        ("SomethingNew", Verdict.UNKNOWN),
    ],
)
def test_szs_status_mapping(tmp_path: Path, status: str, verdict: Verdict) -> None:
    prover = fake_eprover(tmp_path, f"cat > /dev/null; echo '# SZS status {status}'")
    result = prover.prove([], prop("p"))
    assert result.verdict is verdict
    assert status in result.message


def test_crash_without_status_is_unknown(tmp_path: Path) -> None:
    prover = fake_eprover(tmp_path, "cat > /dev/null; echo 'segmentation fault' >&2; exit 139")
    result = prover.prove([], prop("p"))
    assert result.verdict is Verdict.UNKNOWN
    assert "segmentation fault" in result.message


def test_hung_process_is_killed_and_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(eprover_module, "WALL_BACKSTOP_FACTOR", 0.0)
    monkeypatch.setattr(eprover_module, "WALL_BACKSTOP_S", 0.3)
    prover = fake_eprover(tmp_path, "exec sleep 30")
    result = prover.prove([], prop("p"), timeout=0.2)
    assert result.verdict is Verdict.TIMEOUT
    assert "wall clock" in result.message


def test_used_axioms_come_from_the_proof_object(tmp_path: Path) -> None:
    proof = (
        "# SZS status Theorem\n"
        "# SZS output start CNFRefutation\n"
        "fof(a_rule__2, axiom, p, file('<stdin>', a_rule__2)).\n"
        "fof(c_0_1, plain, p, inference(split_conjunct,[status(thm)],[a_rule__2])).\n"
        "# SZS output end CNFRefutation\n"
    )
    script = "cat > /dev/null; cat <<'EOF'\n" + proof + "EOF"
    prover = fake_eprover(tmp_path, script)
    result = prover.prove([Axiom("fact_1", prop("q")), Axiom("rule_2", prop("p"))], prop("p"))
    assert result.verdict is Verdict.VALID
    assert result.used_axioms == ["rule_2"]


LONG_E_RUN = """
import sys
from provers.eprover import EProver
from reasoning.formula import BOTTOM, Card, prop
from reasoning.prover import Axiom

holes = 11
pigeons = [
    Axiom(f"pigeon{i}", Card("atleast", 1, tuple(prop(f"p{i}_{j}") for j in range(holes))))
    for i in range(holes + 1)
]
rooms = [
    Axiom(f"hole{j}", Card("atmost", 1, tuple(prop(f"p{i}_{j}") for i in range(holes + 1))))
    for j in range(holes)
]
print("proving", flush=True)
EProver().prove(pigeons + rooms, BOTTOM, timeout=120)
"""


def _children_named(parent: int, name: str) -> list[int]:
    """Pids of the live (not zombie) processes called ``name`` whose parent is ``parent``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat_line = (entry / "stat").read_text()
        except OSError:
            continue
        comm = stat_line[stat_line.index("(") + 1 : stat_line.rindex(")")]
        state, ppid = stat_line[stat_line.rindex(")") + 2 :].split()[:2]
        if comm == name and int(ppid) == parent and state != "Z":
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@needs_e
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_sigterm_to_gumshoe_leaves_no_eprover_behind() -> None:
    root = Path(__file__).resolve().parents[1]
    child = subprocess.Popen(
        [sys.executable, "-c", LONG_E_RUN],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "proving"
        eprovers: list[int] = []
        for _ in range(200):
            eprovers = _children_named(child.pid, "eprover")
            if eprovers:
                break
            time.sleep(0.05)
        assert eprovers, "E did not start"
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=20) == -signal.SIGTERM
        for _ in range(100):
            if not any(_alive(pid) for pid in eprovers):
                break
            time.sleep(0.05)
        assert not any(_alive(pid) for pid in eprovers)
    finally:
        child.kill()
        child.wait()
