"""The E prover backend: TPTP FOF over a subprocess, with the SZS status read back as a verdict.

For E the time limit is CPU time, whole seconds rounded up: E's own ``--cpu-limit``, and a hard
RLIMIT_CPU ``CPU_GRACE_S`` above it (room for E to stop cleanly and print its status), which the
kernel enforces however loaded the machine is. So the verdict does
not depend on load. A generous wall-clock backstop (``WALL_BACKSTOP_FACTOR`` times the CPU limit
plus ``WALL_BACKSTOP_S``) only catches a child that is stuck without using CPU. E runs in its own
process group, killed when gumshoe exits or gets SIGTERM (``provers.child_process``). A proof lists
the input formulas it used, from which ``used_axioms`` is read. When E saturates without a proof
(CounterSatisfiable) the goal is not entailed, but E prints no model, so the countermodel stays
None.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import time
from collections.abc import Sequence

from provers.child_process import CPU_SIGNALS, install_sigterm_handler, run_child
from provers.identifiers import axiom_id
from provers.signature import MalformedProblem, UnsupportedProblem, collect_signature
from provers.tptp import render_tptp
from reasoning.formula import Formula
from reasoning.prover import Axiom, ProverUnavailable
from reasoning.verdict import ProofResult, Verdict

CPU_GRACE_S = 5
WALL_BACKSTOP_FACTOR = 4.0
WALL_BACKSTOP_S = 10.0
INSTALL_HINT = "install it with `apt-get install eprover` (Debian/Ubuntu) or put it on PATH"

_STATUS = re.compile(r"^# SZS status (\w+)", re.MULTILINE)
_PROOF = re.compile(r"^# SZS output start CNFRefutation.*?^# SZS output end", re.M | re.S)
_SOURCE = re.compile(r"file\('(?:[^'\\]|\\.)*',\s*(\w+)\)")
_VERDICTS = {
    "Theorem": Verdict.VALID,
    "Unsatisfiable": Verdict.VALID,
    "ContradictoryAxioms": Verdict.VALID,
    "CounterSatisfiable": Verdict.INVALID,
    "Satisfiable": Verdict.INVALID,
    "ResourceOut": Verdict.TIMEOUT,
    "Timeout": Verdict.TIMEOUT,
    "GaveUp": Verdict.UNKNOWN,
    "Unknown": Verdict.UNKNOWN,
    "Incomplete": Verdict.UNKNOWN,
    "Inappropriate": Verdict.UNKNOWN,
    "InputError": Verdict.SYNTAX_ERROR,
    "SyntaxError": Verdict.SYNTAX_ERROR,
    "UsageError": Verdict.SYNTAX_ERROR,
}
_INPUT_ERROR_EXIT = 3


def eprover_available(binary: str = "eprover") -> bool:
    """True when the E prover executable ``binary`` is on PATH."""
    return shutil.which(binary) is not None


class EProver:
    """Decides entailment with E on the TPTP encoding of the problem (no countermodels)."""

    def __init__(
        self, name: str = "eprover", binary: str = "eprover", timeout: float | None = 10.0
    ) -> None:
        """Find ``binary`` on PATH or raise ProverUnavailable; ``timeout`` is the default limit."""
        path = shutil.which(binary)
        if path is None:
            raise ProverUnavailable(f"E prover executable {binary!r} not found: {INSTALL_HINT}")
        self.name = name
        self.binary = path
        self.timeout = timeout
        install_sigterm_handler()

    def prove(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> ProofResult:
        """Check whether ``axioms`` entail ``goal``; never raises for a bad or hard problem."""
        start = time.perf_counter()
        limit = timeout if timeout is not None else self.timeout
        try:
            problem = render_tptp(axioms, goal, collect_signature(axioms, goal))
        except MalformedProblem as exc:
            return ProofResult.timed(Verdict.SYNTAX_ERROR, self.name, start, message=str(exc))
        except UnsupportedProblem as exc:
            return ProofResult.timed(
                Verdict.UNSUPPORTED, self.name, start, message=f"{self.name}: {exc}"
            )
        command = [self.binary, "--auto", "--tstp-format", "-s", "--proof-object"]
        cpu: int | None = None
        wall: float | None = None
        if limit is not None:
            cpu = max(1, math.ceil(limit))
            command.append(f"--cpu-limit={cpu}")
            wall = WALL_BACKSTOP_FACTOR * cpu + WALL_BACKSTOP_S
        try:
            done = run_child(command, problem, None if cpu is None else cpu + CPU_GRACE_S, wall)
        except subprocess.TimeoutExpired:
            return ProofResult.timed(
                Verdict.TIMEOUT,
                self.name,
                start,
                message=f"E killed after {wall:g} s wall clock (the CPU limit was {cpu} s)",
                raw_log=problem,
            )
        except OSError as exc:
            raise ProverUnavailable(f"cannot run {self.binary!r} ({exc}): {INSTALL_HINT}") from exc
        log = f"{problem}% E exit code {done.returncode}\n{done.stdout}{done.stderr}"
        if -done.returncode in CPU_SIGNALS and _STATUS.search(done.stdout) is None:
            return ProofResult.timed(
                Verdict.TIMEOUT,
                self.name,
                start,
                message=f"E stopped at its CPU limit of {cpu} s",
                raw_log=log,
            )
        return self._interpret(axioms, done, start, log)

    def _interpret(
        self,
        axioms: Sequence[Axiom],
        done: subprocess.CompletedProcess[str],
        start: float,
        log: str,
    ) -> ProofResult:
        found = _STATUS.search(done.stdout)
        if found is None:
            verdict = (
                Verdict.SYNTAX_ERROR
                if done.returncode == _INPUT_ERROR_EXIT or "syntax error" in done.stderr.lower()
                else Verdict.UNKNOWN
            )
            detail = done.stderr.strip() or done.stdout.strip() or "no output"
            return ProofResult.timed(
                verdict,
                self.name,
                start,
                message=f"E gave no SZS status (exit code {done.returncode}): {detail}",
                raw_log=log,
            )
        status = found.group(1)
        verdict = _VERDICTS.get(status, Verdict.UNKNOWN)
        used: list[str] | None = None
        message = f"SZS status {status}"
        if verdict is Verdict.VALID:
            used = _used_axioms(axioms, done.stdout)
        elif verdict is Verdict.INVALID:
            message += ": saturation without a proof shows the goal is not entailed (no model)"
        elif verdict is Verdict.SYNTAX_ERROR:
            message += f": {done.stderr.strip()}"
        return ProofResult.timed(
            verdict, self.name, start, used_axioms=used, message=message, raw_log=log
        )


def _used_axioms(axioms: Sequence[Axiom], output: str) -> list[str] | None:
    """The axioms a proof object cites as input, in the problem's order; None without a proof."""
    proof = _PROOF.search(output)
    if proof is None:
        return None
    cited = set(_SOURCE.findall(proof.group(0)))
    return [axiom.name for axiom in axioms if axiom_id(axiom.name) in cited]
