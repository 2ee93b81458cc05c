"""The Isabelle/HOL backend: Nitpick looks for a countermodel, Sledgehammer for a proof, and
replaying its tactic decides.

``prove`` first writes the problem as a theory whose theorem is attacked by ``nitpick`` with every
axiom taken into account: a genuine counterexample is a model of the axioms in which the goal is
false, so the verdict is INVALID (its text in the message; a potentially spurious or quasi-genuine
one is not enough). Otherwise the theorem is attacked by ``sledgehammer`` (seed 002, Fig. 7): a
"Try this" suggestion is only trusted once a theory with that tactic in place of ``sledgehammer``
checks without errors (VALID, ``used_axioms`` being the axioms the tactic cites); no countermodel
and no proof is UNKNOWN. An error means the theory does not parse or type-check (SYNTAX_ERROR,
with Isabelle's message and the line).

The server and its HOL session are started first, under their own start-up limit
(``start_timeout``, or ``$GUMSHOE_ISABELLE_START_TIMEOUT`` seconds); a start that does not finish
in time is ProverUnavailable in one line, and every later call fails at once with it. Only then
does a call's wall-clock limit begin: it covers Nitpick, the search and the replays; past it the
server task is cancelled and the verdict is TIMEOUT. Server failures become UNKNOWN with the
reason.
"""

from __future__ import annotations

import math
import os
import re
import tempfile
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path

from provers.identifiers import axiom_id
from provers.isabelle.server import (
    IsabelleServer,
    IsabelleServerError,
    IsabelleTimeout,
    TheoryCheck,
    find_isabelle,
    shared_server,
)
from provers.isabelle.theory_text import ProofTextError, isabelle_name, render_theory
from provers.signature import MalformedProblem, UnsupportedProblem
from reasoning.formula import Formula
from reasoning.prover import Axiom, ProverUnavailable
from reasoning.verdict import ProofResult, Verdict

SLEDGEHAMMER_SHARE = 0.6
"""Of the time left after Nitpick, the share Sledgehammer may search (the rest replays)."""
NITPICK_SHARE = 0.25
"""Of a call's limit, the share Nitpick may look for a countermodel."""
MAX_REPLAYS = 3
DEFAULT_TIMEOUT_S = 30.0
DEFAULT_START_TIMEOUT_S = 600.0
START_TIMEOUT_ENV = "GUMSHOE_ISABELLE_START_TIMEOUT"

_TRY_THIS = re.compile(r"Try this:\s*(?P<tactic>.+?)\s*$")
_TIMING = re.compile(r"\s*\((?P<note>(?:>\s*)?[\d.]+\s*m?s(?:,[^()]*)?|failed|timed out)\)$")
_ONE_LINER = re.compile(r"(?:using\s+\S.*\s+)?by\s+\S.*")
_FACT = re.compile(r"[A-Za-z][A-Za-z0-9_'.]*")
_EXCERPT_CHARS = 160
_GENUINE = re.compile(r"Nitpick found a counterexample\b")


def unique_theory_name(base: str) -> str:
    """``base`` with a random suffix, so concurrent checks never share a theory name."""
    return f"{base}_{uuid.uuid4().hex[:12]}"


def sledgehammer_command(timeout: float) -> str:
    """The ``sledgehammer`` call for a search that must leave time for replaying its proof."""
    return f"sledgehammer [timeout = {max(1, int(timeout * SLEDGEHAMMER_SHARE))}]"


def nitpick_command(timeout: float) -> str:
    """The ``nitpick`` call for a countermodel search within a call of ``timeout`` seconds; every
    axiom is taken into account, so a counterexample it calls genuine is a model of them all."""
    return f"nitpick [user_axioms = true, timeout = {max(1, int(timeout * NITPICK_SHARE))}]"


def nitpick_countermodel(check: TheoryCheck) -> str | None:
    """The genuine counterexample Nitpick reported (its text), None when it found none or only a
    potentially spurious or quasi-genuine one."""
    for text in check.outputs:
        if _GENUINE.match(text.strip()):
            return " ".join(text.split())
    return None


def start_timeout_setting() -> float:
    """The start-up limit of ``$GUMSHOE_ISABELLE_START_TIMEOUT`` (default
    ``DEFAULT_START_TIMEOUT_S``); ProverUnavailable naming the variable when it is not a positive
    number of seconds."""
    text = os.environ.get(START_TIMEOUT_ENV)
    if text is None or not text.strip():
        return DEFAULT_START_TIMEOUT_S
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value > 0 or math.isinf(value):
        raise ProverUnavailable(f"{START_TIMEOUT_ENV}: a positive number of seconds, not {text!r}")
    return value


def suggested_tactics(check: TheoryCheck) -> list[str]:
    """The one-line tactics Sledgehammer proposed ("Try this: by ..."), without repeats.

    Tactics whose preplay succeeded come first; those marked failed or timed out come last.
    """
    played: list[str] = []
    doubtful: list[str] = []
    for text in check.outputs:
        for line in text.splitlines():
            found = _TRY_THIS.search(line)
            if found is None:
                continue
            tactic = found.group("tactic")
            timing = _TIMING.search(tactic)
            if timing is not None:
                tactic = tactic[: timing.start()].strip()
            if not _ONE_LINER.fullmatch(tactic) or tactic in played or tactic in doubtful:
                continue
            note = "" if timing is None else timing.group("note")
            (doubtful if note.startswith((">", "failed", "timed")) else played).append(tactic)
    return played + doubtful


def describe_error(check: TheoryCheck, theory: str) -> str | None:
    """The first problem as ``line N: message`` with the offending source line; None if none."""
    if not check.problems:
        return None
    error = check.problems[0]
    if error.line is None:
        return error.text
    lines = theory.splitlines()
    text = f"line {error.line}: {error.text}"
    if 1 <= error.line <= len(lines):
        text += f"\n  in: {lines[error.line - 1].strip()[:_EXCERPT_CHARS]}"
    return text


def sledgehammer_summary(check: TheoryCheck) -> str:
    """Sledgehammer's closing remarks ("No proof found", warnings), for a no-proof message."""
    remarks = [t for t in check.outputs if t.strip() and t.strip() != "Sledgehammering..."]
    return "; ".join(dict.fromkeys(remarks)) or "no output"


def nitpick_summary(check: TheoryCheck) -> str:
    """What Nitpick said when it gave no genuine countermodel, for a no-verdict message."""
    said = [" ".join(t.split()) for t in check.outputs if t.strip().startswith("Nitpick")]
    return "; ".join(dict.fromkeys(said)) or "Nitpick gave no countermodel"


def used_axioms(tactic: str, identifiers: Mapping[str, str]) -> list[str]:
    """The axiom names a tactic cites, in order, read back through ``identifiers`` (id -> name)."""
    cited: dict[str, None] = {}
    for word in _FACT.findall(tactic):
        name = identifiers.get(word.rsplit(".", 1)[-1])
        if name is not None:
            cited.setdefault(name)
    return list(cited)


def remaining(deadline: float) -> float:
    """Seconds left until ``deadline`` (a ``time.perf_counter`` value); IsabelleTimeout if none."""
    left = deadline - time.perf_counter()
    if left <= 0:
        raise IsabelleTimeout("the time limit passed")
    return left


class IsabelleProver:
    """Decides entailment with Isabelle/HOL: Nitpick's countermodel, Sledgehammer's proof
    replayed, or no answer."""

    def __init__(
        self,
        name: str = "isabelle",
        timeout: float = DEFAULT_TIMEOUT_S,
        server: IsabelleServer | None = None,
        *,
        max_replays: int = MAX_REPLAYS,
        start_timeout: float | None = None,
    ) -> None:
        """Use ``server``, or the process-wide one (then Isabelle must be installed).

        Raises ProverUnavailable, with a hint, when no server is given and no isabelle
        executable is found. ``max_replays`` bounds how many suggested tactics are replayed;
        ``start_timeout`` (default: ``start_timeout_setting()``) bounds starting the server and
        session, apart from any call's limit.
        """
        if server is None:
            find_isabelle()
        self.name = name
        self.timeout = timeout
        self.max_replays = max_replays
        self.start_timeout = start_timeout_setting() if start_timeout is None else start_timeout
        self._server = server
        self._start_failure: ProverUnavailable | None = None

    @property
    def server(self) -> IsabelleServer:
        """The server this prover talks to."""
        return self._server if self._server is not None else shared_server()

    def start(self) -> None:
        """Start the server and its session (a no-op once they are up) within the start-up limit.

        Raises ProverUnavailable in one line when Isabelle is missing, the session cannot be
        built or the start-up limit passes; once it has, every later call raises it at once.
        IsabelleServerError when the server breaks the protocol.
        """
        if self._start_failure is not None:
            raise self._start_failure
        try:
            self.server.start(self.start_timeout)
        except IsabelleTimeout:
            self._start_failure = ProverUnavailable(
                f"Isabelle: the server and the {self.server.session} session did not start "
                f"within {self.start_timeout:g} s (set {START_TIMEOUT_ENV} to allow longer)"
            )
        except ProverUnavailable as err:
            self._start_failure = err
        if self._start_failure is not None:
            raise self._start_failure

    def check_theory(self, theory: str, name: str, timeout: float) -> TheoryCheck:
        """Check the text of theory ``name`` on the server within ``timeout`` seconds.

        Raises IsabelleTimeout past the limit and IsabelleServerError when the server fails.
        """
        with tempfile.TemporaryDirectory(prefix="gumshoe-theory-") as directory:
            (Path(directory) / f"{name}.thy").write_text(theory, encoding="utf-8")
            return self.server.use_theory(Path(directory), name, timeout)

    def prove(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> ProofResult:
        """Check whether ``axioms`` entail ``goal``; never raises for a bad or hard problem.

        Raises ProverUnavailable only when Isabelle is missing or its session cannot be started
        (see ``start``); the limit ``timeout`` begins once the server and session are up.
        """
        limit = self.timeout if timeout is None else timeout
        name = unique_theory_name("Countermodel")
        try:
            theory = render_theory(axioms, goal, name, proof=nitpick_command(limit))
        except (MalformedProblem, ProofTextError) as exc:
            return _Run(self.name).result(Verdict.SYNTAX_ERROR, str(exc))
        except UnsupportedProblem as exc:
            message = f"{self.name} cannot take this input: {exc}"
            return _Run(self.name).result(Verdict.UNSUPPORTED, message)
        try:
            self.start()
        except IsabelleServerError as exc:
            return _Run(self.name).result(Verdict.UNKNOWN, f"Isabelle server failure: {exc}")
        run = _Run(self.name)
        try:
            return self._search(axioms, goal, theory, name, run.start + limit, run)
        except IsabelleTimeout:
            return run.result(
                Verdict.TIMEOUT, f"no verdict within {limit:g} s (the Isabelle task was cancelled)"
            )
        except IsabelleServerError as exc:
            return run.result(Verdict.UNKNOWN, f"Isabelle server failure: {exc}")

    def _search(
        self,
        axioms: Sequence[Axiom],
        goal: Formula,
        countermodel_theory: str,
        countermodel_name: str,
        deadline: float,
        run: _Run,
    ) -> ProofResult:
        check = self._diagnose(run, countermodel_theory, countermodel_name, deadline, "Nitpick")
        if isinstance(check, ProofResult):
            return check
        found = nitpick_countermodel(check)
        if found is not None:
            return run.result(Verdict.INVALID, f"Nitpick: {found}")
        nitpick = nitpick_summary(check)
        name = unique_theory_name("Hypothesis")
        theory = render_theory(axioms, goal, name, proof=sledgehammer_command(remaining(deadline)))
        check = self._diagnose(run, theory, name, deadline, "Sledgehammer")
        if isinstance(check, ProofResult):
            return check
        tactics = suggested_tactics(check)
        if not tactics:
            return run.result(
                Verdict.UNKNOWN,
                f"Sledgehammer found no proof: {sledgehammer_summary(check)}; {nitpick}",
            )
        identifiers = {isabelle_name(axiom_id(a.name)): a.name for a in axioms}
        failures: list[str] = []
        for tactic in tactics[: self.max_replays]:
            replay_name = unique_theory_name("Replay")
            try:
                replay = render_theory(axioms, goal, replay_name, proof=tactic)
            except ProofTextError as exc:
                failures.append(f"{tactic}: refused ({exc})")
                continue
            check = run.check(self, replay, replay_name, deadline)
            if check.ok and not check.errors:
                return run.result(
                    Verdict.VALID,
                    f"Sledgehammer's proof replayed: {tactic}",
                    used_axioms=used_axioms(tactic, identifiers),
                )
            reason = describe_error(check, replay)
            if reason is None:
                reason = "interrupted" if check.interrupted else "not accepted"
            failures.append(f"{tactic}: {reason}")
        return run.result(
            Verdict.UNKNOWN,
            "Sledgehammer suggested proofs but none replayed: " + "; ".join(failures),
        )

    def _diagnose(
        self, run: _Run, theory: str, name: str, deadline: float, tool: str
    ) -> TheoryCheck | ProofResult:
        """Check a theory whose theorem ``tool`` attacks: the check, or the verdict when the
        theory has an error (SYNTAX_ERROR) or Isabelle stopped the search (TIMEOUT)."""
        check = run.check(self, theory, name, deadline)
        problem = describe_error(check, theory)
        if problem is not None:
            return run.result(Verdict.SYNTAX_ERROR, problem)
        if check.interrupted:
            return run.result(Verdict.TIMEOUT, f"Isabelle stopped {tool} (time limit)")
        return check


class _Run:
    """One ``prove`` call: its clock and the log of every theory checked."""

    def __init__(self, prover: str) -> None:
        self.prover = prover
        self.start = time.perf_counter()
        self.log: list[str] = []

    def check(self, prover: IsabelleProver, theory: str, name: str, deadline: float) -> TheoryCheck:
        self.log.append(f"(* theory {name} *)\n{theory}")
        check = prover.check_theory(theory, name, remaining(deadline))
        self.log.append(f"(* Isabelle on {name} *)\n{check.log}")
        return check

    def result(
        self, verdict: Verdict, message: str, *, used_axioms: list[str] | None = None
    ) -> ProofResult:
        return ProofResult(
            verdict=verdict,
            prover=self.prover,
            elapsed_s=time.perf_counter() - self.start,
            used_axioms=used_axioms,
            message=message,
            raw_log="\n".join(self.log),
        )
