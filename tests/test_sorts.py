"""Sort inference: declared by use, propagation, defaults, and clash reports."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from reasoning.formula import (
    ENTITY,
    EVENT,
    And,
    Atom,
    Const,
    Eq,
    Forall,
    Formula,
    Not,
    Var,
    atoms,
    depth,
    free_vars,
    terms,
    walk,
)
from reasoning.sorts import ROLE_PREDICATES, Signature, SortError, erase_sorts, infer_sorts
from reasoning.strategies import SMALL_SIGNATURE, fol_formulas, formulas
from reasoning.syntax import parse_formula


def infer(*texts: str, signature: Signature | None = None) -> tuple[tuple[Formula, ...], Signature]:
    return infer_sorts([parse_formula(t) for t in texts], signature)


def sorts_of(f: Formula) -> dict[str, set[str | None]]:
    out: dict[str, set[str | None]] = {}
    for t in terms(f):
        out.setdefault(t.name, set()).add(t.sort)
    return out


def test_event_propagates_through_agent() -> None:
    (f,), sig = infer("exists x y e. Tea(x) & Infuse(e) & Agent(e, x) & Patient(e, y)")
    assert sig.predicates == {
        "Tea": (ENTITY,),
        "Infuse": (EVENT,),
        "Agent": (EVENT, ENTITY),
        "Patient": (EVENT, ENTITY),
    }
    assert sorts_of(f) == {"x": {ENTITY}, "y": {ENTITY}, "e": {EVENT}}
    assert f.vars == (Var("x", ENTITY), Var("y", ENTITY), Var("e", EVENT))  # type: ignore[union-attr]


def test_propagation_across_formulas_and_equality() -> None:
    _, sig = infer("Often(ev2)", "ev2 = ev1", "Agent(ev1, earl)", "forall e. Often(e) -> Quick(e)")
    assert sig.constants == {"ev2": EVENT, "ev1": EVENT, "earl": ENTITY}
    assert sig.predicates["Often"] == (EVENT,)
    assert sig.predicates["Quick"] == (EVENT,)


def test_long_chain_propagates_to_a_fixpoint() -> None:
    n = 3000
    chain: list[Formula] = [Eq(Const(f"c{i}"), Const(f"c{i + 1}")) for i in range(n)]
    chain.append(Atom("Agent", (Const(f"c{n}"), Const("someone"))))
    chain.insert(0, Atom("Walk", (Const("c0"),)))
    _, sig = infer_sorts([And(tuple(chain))])
    assert sig.predicates["Walk"] == (EVENT,)
    assert set(sig.constants.values()) == {EVENT, ENTITY}
    assert sig.constants["someone"] == ENTITY


def test_defaults_entity_and_propositional_arity() -> None:
    (f,), sig = infer("P(a) & R & forall x. Q(x, a)")
    assert sig.predicates == {"P": (ENTITY,), "R": (), "Q": (ENTITY, ENTITY)}
    assert sig.constants == {"a": ENTITY}
    assert all(t.sort == ENTITY for t in terms(f))


def test_role_predicates_constant() -> None:
    assert {"Agent", "Patient", "Theme", "Experiencer", "Instrument", "Location"} <= ROLE_PREDICATES
    for role in ("Recipient", "Beneficiary", "Time", "Manner", "Cause", "Purpose", "Attribute"):
        assert role in ROLE_PREDICATES
        _, sig = infer(f"{role}(u, v)")
        assert sig.predicates[role] == (EVENT, ENTITY)
    _, sig = infer("Time(t)")
    assert sig.predicates["Time"] == (ENTITY,)


def test_annotations_fix_sorts_and_beat_role_defaults() -> None:
    _, sig = infer("forall d:drink. Tea(d) -> Hot(d)")
    assert sig.predicates == {"Tea": ("drink",), "Hot": ("drink",)}
    _, sig = infer("exists e x. Agent(e, x:person)")
    assert sig.predicates["Agent"] == (EVENT, "person")
    _, sig = infer("Tea(c:drink)", "Hot(c)")
    assert sig.constants == {"c": "drink"}
    assert sig.predicates["Hot"] == ("drink",)


def test_given_signature_fixes_sorts() -> None:
    given_sig = Signature(predicates={"Tea": ("drink",), "Unused": ()}, constants={"k": "card"})
    (f,), sig = infer("exists x. Tea(x) & Has(x, k)", signature=given_sig)
    assert sig.predicates == {"Tea": ("drink",), "Unused": (), "Has": ("drink", "card")}
    assert sig.constants == {"k": "card"}
    assert sorts_of(f) == {"x": {"drink"}, "k": {"card"}}


def test_scopes_are_separate() -> None:
    (f,), _ = infer("(exists x. Agent(x, a)) & (exists x. Tea(x)) & Walk(x)")
    x_sorts = [t.sort for t in terms(f) if t.name == "x"]
    assert x_sorts == [EVENT, ENTITY, ENTITY]
    assert [type(t) for t in terms(f) if t.name == "x"] == [Var, Var, Const]


def test_free_variables_are_sorted() -> None:
    (f,), _ = infer_sorts([Atom("Agent", (Var("e"), Var("x")))])
    assert f == Atom("Agent", (Var("e", EVENT), Var("x", ENTITY)))


def test_sort_clash_names_symbol_and_both_sorts() -> None:
    with pytest.raises(SortError) as info:
        infer("Agent(a, b)", "Tea(c) & Agent(b, c)")
    err = info.value
    assert err.symbol == "b"
    assert {err.expected, err.found} == {EVENT, ENTITY}
    assert err.index == 1
    assert err.kind == "sort"
    message = str(err)
    assert "'b'" in message and EVENT in message and ENTITY in message
    assert "Agent" in message and "formula 2" in message


def test_annotation_clash() -> None:
    with pytest.raises(SortError) as info:
        infer("forall x:entity. P(x) & Q(x:event)")
    assert info.value.symbol == "x"
    assert {info.value.expected, info.value.found} == {EVENT, ENTITY}
    with pytest.raises(SortError) as info:
        infer("P(a:colour) & P(b:shape)")
    assert (info.value.symbol, info.value.expected, info.value.found) == ("b", "colour", "shape")


def test_equality_clash() -> None:
    with pytest.raises(SortError) as info:
        infer("forall e. Agent(e, a) & e = a")
    assert info.value.symbol == "a"
    assert "equality" in str(info.value)


def test_signature_clash() -> None:
    sig = Signature(predicates={"Tea": ("drink",)}, constants={"k": "card"})
    with pytest.raises(SortError) as info:
        infer("Tea(k)", signature=sig)
    assert (info.value.symbol, info.value.expected, info.value.found) == ("k", "drink", "card")


def test_arity_clash() -> None:
    with pytest.raises(SortError) as info:
        infer("P(a)", "P(a, b)")
    err = info.value
    assert (err.kind, err.symbol, err.expected, err.found, err.index) == ("arity", "P", "1", "2", 1)
    assert "arity" in str(err) and "'P'" in str(err)
    with pytest.raises(SortError):
        infer("R & R(a)")
    with pytest.raises(SortError):
        infer("Tea(a, b)", signature=Signature(predicates={"Tea": (ENTITY,)}))


def test_signature_is_immutable_and_hashable() -> None:
    preds: dict[str, tuple[str, ...]] = {"P": (ENTITY,)}
    sig = Signature(predicates=preds, constants={"a": ENTITY})
    preds["Q"] = ()
    assert "Q" not in sig.predicates
    with pytest.raises(TypeError):
        sig.predicates["Q"] = ()  # type: ignore[index]
    assert hash(sig) == hash(Signature({"P": (ENTITY,)}, {"a": ENTITY}))
    assert sig == Signature({"P": (ENTITY,)}, {"a": ENTITY})
    assert SMALL_SIGNATURE.sorts == (ENTITY, EVENT)


@given(formulas(max_leaves=10, with_sorts=False))
@settings(max_examples=150, deadline=None)
def test_inference_sorts_every_term_and_is_idempotent(f: Formula) -> None:
    try:
        out, sig = infer_sorts([f])
    except SortError:
        return
    (g,) = out
    assert erase_sorts(g) == f
    assert all(t.sort is not None for t in terms(g))
    assert infer_sorts(out) == (out, sig)
    for a in atoms(g):
        assert tuple(t.sort for t in a.args) == sig.predicates[a.pred]


@given(fol_formulas(max_depth=4))
@settings(max_examples=100, deadline=None)
def test_well_sorted_formulas_are_recovered(f: Formula) -> None:
    assert infer_sorts([f], SMALL_SIGNATURE)[0] == (f,)
    (g,), _ = infer_sorts([erase_sorts(f)], SMALL_SIGNATURE)
    assert [a.args for a in atoms(g)] == [a.args for a in atoms(f)]


def test_deep_formulas_do_not_exhaust_the_stack() -> None:
    deep: Formula = Forall((Var("x"),), Atom("P", (Var("x"), Const("c"))))
    for i in range(3000):
        deep = Not(deep) if i % 2 else And((deep, Atom("Q", (Const("c"),))))
    (done,), signature = infer_sorts([deep])
    assert depth(done) == depth(deep) == 3002
    assert signature.predicates["P"] == (ENTITY, ENTITY)
    sorted_terms = [t for g in walk(done) if isinstance(g, Atom) for t in g.args]
    assert {t.sort for t in sorted_terms} == {ENTITY}
    assert free_vars(done) == frozenset()
    erased = [t for g in walk(erase_sorts(done)) if isinstance(g, Atom) for t in g.args]
    assert {t.sort for t in erased} == {None}
