"""Neo-Davidsonian lint: each code caught on a small example; clean formulas stay clean."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from formalize.davidsonian import LintCode, LintMessage, Severity, lint
from games.undercover import Lexicon
from reasoning.formula import ENTITY, EVENT, Exists, Formula, Var
from reasoning.sorts import Signature
from reasoning.strategies import SMALL_SIGNATURE, fol_formulas, formulas
from reasoning.syntax import parse_formula

VOCABULARY = Signature(
    predicates={
        "Tea": (ENTITY,),
        "Bergamot": (ENTITY,),
        "Infuse": (EVENT,),
        "Patient": (EVENT, ENTITY),
        "Instrument": (EVENT, ENTITY),
    },
    constants={"item": ENTITY, "ev1": EVENT},
)

CLEAN = "exists e y. Infuse(e) & Patient(e, item) & Bergamot(y) & Instrument(e, y)"


def run(*texts: str, vocabulary: Signature | None = None) -> list[LintMessage]:
    return lint([parse_formula(t) for t in texts], vocabulary)


def codes(messages: list[LintMessage]) -> list[tuple[LintCode, str]]:
    return [(m.code, m.symbol) for m in messages]


def test_a_clean_formula_gives_nothing() -> None:
    assert run(CLEAN) == []
    assert run(CLEAN, "forall x. Tea(x) -> ~Bergamot(x)", vocabulary=VOCABULARY) == []


def test_the_shipped_lexicon_is_lint_clean() -> None:
    lex = Lexicon.load()
    for word in lex.words:
        entry = lex.entry(word)
        formulas = [f.formula for f in entry.facts] + [a.formula for a in entry.theory()]
        assert lint(formulas, lex.signature(word)) == [], word


def test_undeclared_symbols_are_named_once() -> None:
    messages = run(
        "exists e. Infuse(e) & Patient(e, item) & Tee(item)",
        "Tee(cup)",
        vocabulary=VOCABULARY,
    )
    assert codes(messages) == [
        (LintCode.UNDECLARED_SYMBOL, "Tee"),
        (LintCode.UNDECLARED_SYMBOL, "cup"),
    ]
    assert "predicate 'Tee'" in messages[0].message and messages[0].index == 0
    assert "constant 'cup'" in messages[1].message and messages[1].index == 1
    assert all(m.severity is Severity.ERROR for m in messages)
    assert run("Tee(item)") == []


def test_sort_clash_names_the_symbol() -> None:
    messages = run("exists e y. Patient(e, y) & Patient(y, e)")
    assert codes(messages)[0] == (LintCode.SORT_CLASH, "y")
    assert "'y'" in messages[0].message and "event" in messages[0].message
    assert (LintCode.ROLE_ON_NON_EVENT, "Patient") in codes(messages)
    arity = run("Tea(item) & Tea(item, item)")
    assert codes(arity) == [(LintCode.SORT_CLASH, "Tea")] and "arity" in arity[0].message
    declared = run("Tea(ev1)", vocabulary=VOCABULARY)
    assert codes(declared) == [(LintCode.SORT_CLASH, "ev1")]


def test_sort_clash_across_formulas() -> None:
    messages = run("exists e. Infuse(e) & Patient(e, item)", "Infuse(item)")
    assert codes(messages) == [(LintCode.SORT_CLASH, "item")]
    assert "across the formulas" in messages[0].message and messages[0].index == 1


def test_role_on_non_event() -> None:
    constant = run("exists y. Patient(item, y) & Bergamot(y)")
    assert codes(constant) == [(LintCode.ROLE_ON_NON_EVENT, "Patient")]
    assert "'item'" in constant[0].message
    annotated = run("forall x:entity y. Tea(x) -> Patient(x, y)")
    assert codes(annotated) == [(LintCode.ROLE_ON_NON_EVENT, "Patient")]
    assert "'x'" in annotated[0].message and "entity" in annotated[0].message
    tea_only = Signature(predicates={"Tea": (ENTITY,)})
    by_vocabulary = run("exists x y. Tea(x) & Instrument(x, y)", vocabulary=tea_only)
    assert (LintCode.ROLE_ON_NON_EVENT, "Instrument") in codes(by_vocabulary)
    participant = run("exists e x y. Patient(e, x) & Instrument(x, y)")
    assert (LintCode.ROLE_ON_NON_EVENT, "Instrument") in codes(participant)
    assert run("Patient(ev1, item)", vocabulary=VOCABULARY) == []


def test_vacuous_antecedent() -> None:
    messages = run("(exists x. Tea(x)) -> Bergamot(item)")
    assert codes(messages) == [(LintCode.VACUOUS_ANTECEDENT, "x")]
    assert messages[0].severity is Severity.WARNING and "forall x" in messages[0].message
    nested = run("forall y. Tea(y) -> ((exists x e. Infuse(e) & Patient(e, x)) -> Tea(y))")
    assert codes(nested) == [(LintCode.VACUOUS_ANTECEDENT, "x e")]
    assert run("forall x. Tea(x) -> Bergamot(item)") == []
    assert run("Tea(item) -> (exists x. Bergamot(x))") == []


def test_unused_variable() -> None:
    messages = run("exists x y. Tea(x)", "forall e z. Infuse(e) -> Tea(item)")
    assert codes(messages) == [
        (LintCode.UNUSED_VARIABLE, "y"),
        (LintCode.UNUSED_VARIABLE, "z"),
    ]
    assert [m.index for m in messages] == [0, 1]
    assert all(m.severity is Severity.WARNING and f"'{m.symbol}'" in m.message for m in messages)


@settings(max_examples=40, deadline=None)
@given(f=fol_formulas(SMALL_SIGNATURE, max_depth=3, with_sorts=False), name=st.sampled_from("pqw"))
def test_an_added_unused_variable_is_always_reported(f: Formula, name: str) -> None:
    before = [m for m in lint([f]) if m.code is LintCode.UNUSED_VARIABLE]
    after = [m for m in lint([Exists((Var(name),), f)]) if m.code is LintCode.UNUSED_VARIABLE]
    assert [m.symbol for m in after] == [name] + [m.symbol for m in before]


@settings(max_examples=60, deadline=None)
@given(f=formulas(max_leaves=6))
def test_lint_never_crashes(f: Formula) -> None:
    for message in lint([f], SMALL_SIGNATURE):
        assert message.symbol in message.message or message.code is LintCode.SORT_CLASH
