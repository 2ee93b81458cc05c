"""Seed 002's tea example as sorted IR, shared by the backend tests."""

from __future__ import annotations

from reasoning.formula import And, Atom, Const, Exists, Forall, Implies, Not, Var
from reasoning.prover import Axiom

X = Var("x", "entity")
Y = Var("y", "entity")
E = Var("e", "event")


def atom(pred: str, *args: Var | Const) -> Atom:
    """``pred`` applied to ``args``."""
    return Atom(pred, args)


INFUSION = And(
    (
        atom("Tea", X),
        atom("Bergamot", Y),
        atom("Infuse", E),
        atom("Agent", E, X),
        atom("Patient", E, Y),
    )
)
TEA = [
    Axiom("fact_1", Exists((X, Y, E), INFUSION)),
    Axiom(
        "rule_2",
        Forall(
            (X, Y, E),
            Implies(INFUSION, And((atom("EarlGrey", X), Not(atom("CeylonTea", X))))),
        ),
    ),
]
