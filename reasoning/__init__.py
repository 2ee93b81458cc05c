"""gumshoe's core: formulas, syntax, verdicts, the Prover protocol, the vote, the Verifier."""

from reasoning.formula import Formula
from reasoning.prover import Axiom, Prover, ProverUnavailable, check_consistency
from reasoning.session import (
    ConstraintEntailment,
    EntailmentSession,
    EntailmentSessionFactory,
    GroundAtoms,
)
from reasoning.sorts import Signature, SortError, infer_sorts
from reasoning.syntax import FormulaSyntaxError, format_formula, parse_formula
from reasoning.theory import Theory, TheoryError, format_theory, load_theory, parse_theory
from reasoning.trace import (
    ReasoningTrace,
    SortedTrace,
    TraceAudit,
    TraceError,
    audit_trace,
    audit_trace_incremental,
    load_trace,
    parse_trace,
)
from reasoning.verdict import Countermodel, ProofResult, Verdict
from reasoning.verifier import (
    AuditReport,
    ClaimCheck,
    ClaimStatus,
    Correctness,
    RecallReport,
    Verifier,
)
from reasoning.vote import VoteProver, VoteResult, early_stop_vote

__all__ = [
    "AuditReport",
    "Axiom",
    "ClaimCheck",
    "ClaimStatus",
    "ConstraintEntailment",
    "Correctness",
    "Countermodel",
    "EntailmentSession",
    "EntailmentSessionFactory",
    "Formula",
    "FormulaSyntaxError",
    "GroundAtoms",
    "ProofResult",
    "Prover",
    "ProverUnavailable",
    "ReasoningTrace",
    "RecallReport",
    "Signature",
    "SortError",
    "SortedTrace",
    "Theory",
    "TheoryError",
    "TraceAudit",
    "TraceError",
    "Verdict",
    "Verifier",
    "VoteProver",
    "VoteResult",
    "audit_trace",
    "audit_trace_incremental",
    "check_consistency",
    "early_stop_vote",
    "format_formula",
    "format_theory",
    "infer_sorts",
    "load_theory",
    "load_trace",
    "parse_formula",
    "parse_theory",
    "parse_trace",
]
