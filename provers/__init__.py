"""Backends behind the ``reasoning.Prover`` interface: Z3, cvc5, SAT, E prover and Isabelle/HOL."""

from provers.cvc5_prover import Cvc5Prover
from provers.eprover import EProver, eprover_available
from provers.isabelle import IsabelleProver, isabelle_available
from provers.model_eval import evaluate
from provers.registry import DEFAULT_PROVER, PROVER_NAMES, get_prover
from provers.sat_prover import SatProver
from provers.sat_session import SatSession
from provers.smtlib import to_smtlib
from provers.tptp import to_tptp
from provers.z3_prover import Z3Prover

__all__ = [
    "DEFAULT_PROVER",
    "PROVER_NAMES",
    "Cvc5Prover",
    "EProver",
    "IsabelleProver",
    "SatProver",
    "SatSession",
    "Z3Prover",
    "eprover_available",
    "evaluate",
    "get_prover",
    "isabelle_available",
    "to_smtlib",
    "to_tptp",
]
