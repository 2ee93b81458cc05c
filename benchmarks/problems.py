"""Generated Neo-Davidsonian entailment problems of a chosen size, for the prover benchmark.

A problem is a chain of event rules in the style of seed 002's knowledge bases: a fact says some
tea-like entity is the agent of an event with a patient; each rule says that whoever is the agent
of an event of kind i, with a patient, has property i+1 and is the agent of an event of kind i+1
with the same patient. Distractor rules mention other predicates. The goal is the chain's last
property (VALID) or a property nothing implies (INVALID).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from reasoning.formula import ENTITY, EVENT, And, Atom, Exists, Forall, Formula, Implies, Not, Var
from reasoning.prover import Axiom

X = Var("x", ENTITY)
Y = Var("y", ENTITY)
E = Var("e", EVENT)
E2 = Var("e2", EVENT)


@dataclass(frozen=True, slots=True)
class ChainSpec:
    """The shape of a problem: chain length, distractor predicate pairs, entailed or not.

    Both the IR problem (``build_problem``) and the benchmark's direct z3 baseline are built
    from it, so they state the same axioms.
    """

    chain: int
    noise: tuple[tuple[int, int], ...]
    valid: bool


@dataclass(frozen=True, slots=True)
class Problem:
    """Axioms, a goal, and whether the goal is entailed by construction."""

    axioms: tuple[Axiom, ...]
    goal: Formula
    expected_valid: bool


def chain_spec(n_axioms: int, valid: bool, seed: int = 0) -> ChainSpec:
    """The spec of a problem with exactly ``n_axioms`` axioms (at least 2), half chain rules."""
    if n_axioms < 2:
        raise ValueError("n_axioms must be at least 2")
    rng = random.Random(seed)
    chain = max(1, (n_axioms - 1) // 2)
    noise = tuple(
        (a, b) for a, b in (rng.sample(range(1000, 1100), 2) for _ in range(n_axioms - 1 - chain))
    )
    return ChainSpec(chain, noise, valid)


def _step(i: int) -> Formula:
    body = And(
        (
            Atom(f"Prop{i}", (X,)),
            Atom(f"Act{i}", (E,)),
            Atom("Agent", (E, X)),
            Atom("Patient", (E, Y)),
        )
    )
    head = And(
        (
            Atom(f"Prop{i + 1}", (X,)),
            Exists(
                (E2,),
                And(
                    (
                        Atom(f"Act{i + 1}", (E2,)),
                        Atom("Agent", (E2, X)),
                        Atom("Patient", (E2, Y)),
                    )
                ),
            ),
        )
    )
    return Forall((X, Y, E), Implies(body, head))


def build_problem(spec: ChainSpec) -> Problem:
    """The IR problem of ``spec``: a fact, the chain rules, then the distractors."""
    fact = Exists(
        (X, Y, E),
        And(
            (
                Atom("Prop0", (X,)),
                Atom("Leaf", (Y,)),
                Atom("Act0", (E,)),
                Atom("Agent", (E, X)),
                Atom("Patient", (E, Y)),
            )
        ),
    )
    axioms = [Axiom("fact_0", fact)]
    axioms += [Axiom(f"rule_{i}", _step(i)) for i in range(spec.chain)]
    axioms += [
        Axiom(
            f"noise_{i}",
            Forall((X,), Implies(Atom(f"Noise{a}", (X,)), Not(Atom(f"Noise{b}", (X,))))),
        )
        for i, (a, b) in enumerate(spec.noise)
    ]
    target = f"Prop{spec.chain}" if spec.valid else "Unrelated"
    goal = Exists((X,), Atom(target, (X,)))
    return Problem(tuple(axioms), goal, spec.valid)


def neo_davidsonian_problem(n_axioms: int, valid: bool, seed: int = 0) -> Problem:
    """A problem with exactly ``n_axioms`` axioms (at least 2), about half of them chain rules."""
    return build_problem(chain_spec(n_axioms, valid, seed))
