"""Theory files: statements, continuation lines, round trips, and errors at file positions."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasoning.formula import ENTITY, EVENT, Atom, Const, Exists, Formula, Var, terms
from reasoning.prover import Axiom
from reasoning.sorts import Signature, SortError
from reasoning.strategies import SMALL_SIGNATURE, fol_formulas, names
from reasoning.syntax import MAX_NESTING, parse_formula
from reasoning.theory import (
    Theory,
    TheoryError,
    format_theory,
    load_theory,
    parse_theory,
    with_goal,
)

TEA = """\
# a comment
axiom fact_1: exists x y e. Tea(x) & Bergamot(y) & Infuse(e) & Agent(e, x) & Patient(e, y)
axiom rule_2: forall x y e. Tea(x) & Bergamot(y) & Infuse(e) & Agent(e, x) & Patient(e, y) -> EarlGrey(x) & ~CeylonTea(x)
goal: exists x. EarlGrey(x)
"""  # noqa: E501


def test_parse_tea_example() -> None:
    theory = parse_theory(TEA)
    assert [a.name for a in theory.axioms] == ["fact_1", "rule_2"]
    assert theory.goal == Exists((Var("x", ENTITY),), Atom("EarlGrey", (Var("x", ENTITY),)))
    assert theory.signature.predicates["Agent"] == (EVENT, ENTITY)
    assert theory.signature.predicates["Infuse"] == (EVENT,)
    assert theory.signature.predicates["CeylonTea"] == (ENTITY,)
    for axiom in theory.axioms:
        assert all(t.sort is not None for t in terms(axiom.formula))


def test_continuation_lines_comments_and_blanks() -> None:
    text = (
        "\n"
        "# header comment\n"
        "axiom a: forall x.\n"
        "    Tea(x)   # trailing comment\n"
        "\n"
        "# comment between continuation lines\n"
        "\t-> Drink(x)\n"
        "\n"
        "axiom b: Tea(c)\n"
        "goal:\n"
        "  Drink(c)\n"
        "# final comment\n"
    )
    theory = parse_theory(text)
    assert theory.axioms[0].formula == parse_formula("forall x:entity. Tea(x) -> Drink(x)")
    assert theory.axioms[1].formula == Atom("Tea", (Const("c", ENTITY),))
    assert theory.goal == Atom("Drink", (Const("c", ENTITY),))


def test_quoted_axiom_names_and_no_goal() -> None:
    theory = parse_theory('axiom "rule one": P\naxiom forall: Q\n')
    assert [a.name for a in theory.axioms] == ["rule one", "forall"]
    assert theory.goal is None
    assert theory.signature == Signature(predicates={"P": (), "Q": ()})
    assert format_theory(theory) == 'axiom "rule one": P\naxiom "forall": Q\n'
    assert parse_theory("") == Theory((), None, Signature())
    assert format_theory(parse_theory("# only a comment\n")) == ""


def test_format_round_trip_and_minimal_annotations() -> None:
    theory = parse_theory(TEA)
    text = format_theory(theory)
    assert parse_theory(text) == theory
    assert ":entity" not in text and ":event" not in text
    custom = parse_theory("axiom a: forall d:drink. Tea(d)\ngoal: exists d. Tea(d)\n")
    text = format_theory(custom)
    assert "d:drink" in text
    assert parse_theory(text) == custom


@given(
    st.lists(
        st.tuples(names(odd=True), fol_formulas(max_depth=3)), max_size=4, unique_by=lambda p: p[0]
    ),
    st.none() | fol_formulas(max_depth=3),
)
@settings(max_examples=60, deadline=None)
def test_format_then_parse_is_identity(
    pairs: list[tuple[str, Formula]], goal: Formula | None
) -> None:
    theory = Theory.build([Axiom(n, f) for n, f in pairs], goal)
    assert parse_theory(format_theory(theory)) == theory


CUSTOM = Signature(
    predicates={"Likes": ("person", "drink"), "Hot": ("drink",), "Agent": (EVENT, "person")},
    constants={"ann": "person", "tea": "drink", "ev": EVENT},
)


@given(st.lists(fol_formulas(CUSTOM, max_depth=3), min_size=1, max_size=3))
@settings(max_examples=40, deadline=None)
def test_round_trip_with_custom_sorts(formulas: list[Formula]) -> None:
    theory = Theory.build([Axiom(f"ax{i}", f) for i, f in enumerate(formulas)], None, CUSTOM)
    restricted = parse_theory(format_theory(theory))
    assert restricted.axioms == theory.axioms
    for pred, arg_sorts in restricted.signature.predicates.items():
        assert CUSTOM.predicates[pred] == arg_sorts


def test_load_theory(tmp_path: Path) -> None:
    path = tmp_path / "tea.thy"
    path.write_text(TEA, encoding="utf-8")
    assert load_theory(path) == parse_theory(TEA)
    path.write_text("axiom a: P &\n", encoding="utf-8")
    with pytest.raises(TheoryError) as info:
        load_theory(path)
    assert str(info.value).startswith(f"{path}:1:")


def test_with_goal_sorts_against_axioms() -> None:
    theory = parse_theory("axiom a: Agent(ev1, earl)\ngoal: Tea(earl)\n")
    probe = with_goal(theory, parse_formula("Often(ev1)"))
    assert probe.axioms == theory.axioms
    assert probe.goal == Atom("Often", (Const("ev1", EVENT),))
    assert "Tea" not in probe.signature.predicates
    assert probe.signature.predicates["Often"] == (EVENT,)
    assert with_goal(theory, None).goal is None
    with pytest.raises(SortError):
        with_goal(theory, parse_formula("Agent(earl, ev1)"))


def test_build_rejects_duplicate_names() -> None:
    with pytest.raises(ValueError, match="'a'"):
        Theory.build([Axiom("a", Atom("P")), Axiom("a", Atom("Q"))])


@pytest.mark.parametrize(
    ("text", "line", "column", "phrase"),
    [
        ("axiom a: P\ngoal:\n", 2, 6, "missing formula after 'goal:'"),
        ("goal:   # nothing here\n", 1, 6, "missing formula after 'goal:'"),
        ("axiom a:\n\naxiom b: Q\n", 1, 9, "missing formula after axiom 'a'"),
        ("axiom a: P\naxiom a: Q\n", 2, 7, "duplicate axiom name 'a' (first on line 1)"),
        ("goal: P\n# x\ngoal: Q\n", 3, 1, "second goal"),
        ("axiom a: (P\n  & Q\n", 2, 6, "expected ')'"),
        ("axiom a: P\n\naxiom b: forall x.\n   Q(x) & & R\n", 4, 11, "expected a formula"),
        ("axiom a: P(x) )\n", 1, 15, "unexpected ')'"),
        ("axiom a: P $\n", 1, 12, "unexpected character '$'"),
        ("  axiom a: P\n", 1, 3, "indented line before the first statement"),
        ("lemma a: P\n", 1, 1, "expected 'axiom NAME:' or 'goal:'"),
        ("axiom: P\n", 1, 6, "expected an axiom name"),
        ("axiom a P\n", 1, 8, "expected ':' after the axiom name"),
        ('axiom "a\\q": P\n', 1, 7, "bad escape"),
        (
            "axiom a: Agent(e1, x)\naxiom b:\n    Tea(e1) & Agent(x, y)\n",
            3,
            5,
            "sort clash on 'x': expected event, found entity",
        ),
        ("axiom a: P(a)\ngoal: P(a, b)\n", 2, 7, "arity clash on 'P'"),
    ],
)
def test_errors_at_file_positions(text: str, line: int, column: int, phrase: str) -> None:
    with pytest.raises(TheoryError) as info:
        parse_theory(text, source="case.thy")
    err = info.value
    assert (err.source, err.line, err.column) == ("case.thy", line, column)
    assert phrase in err.message
    assert str(err) == f"case.thy:{line}:{column}: {err.message}"
    assert "\n" not in str(err)
    source_line, caret = err.excerpt.split("\n")
    assert source_line == text.split("\n")[line - 1]
    assert len(caret) == column


def test_sort_error_names_the_statement() -> None:
    with pytest.raises(TheoryError) as info:
        parse_theory("axiom a: Agent(e1, x)\ngoal: Tea(e1) & Agent(x, y)\n")
    assert "in the goal" in info.value.message
    assert "'x'" in info.value.message
    with pytest.raises(TheoryError) as info:
        parse_theory("axiom first: Agent(e, x)\naxiom second: Agent(x, y)\n")
    assert "axiom 'second'" in info.value.message
    assert EVENT in info.value.message and ENTITY in info.value.message


def test_small_signature_theory() -> None:
    theory = Theory.build([Axiom("p", Atom("R"))], None, SMALL_SIGNATURE)
    assert theory.signature == SMALL_SIGNATURE


@pytest.mark.parametrize("text", ["~" * 1000 + "p", "(" * 1000 + "p" + " & q)" * 1000])
def test_deep_nesting_is_a_theory_error(text: str) -> None:
    with pytest.raises(TheoryError, match=f"nested deeper than {MAX_NESTING} levels"):
        parse_theory(f"axiom a: p\naxiom b: {text}\n", source="deep.thy")


def test_theory_files_are_utf8_with_an_optional_bom(tmp_path: Path) -> None:
    path = tmp_path / "t.thy"
    path.write_bytes(codecs.BOM_UTF8 + b"axiom a: p\ngoal: p\n")
    assert load_theory(path).goal == Atom("p")
    path.write_bytes(b"axiom a: p\ngoal: \xe9\n")
    with pytest.raises(TheoryError) as info:
        load_theory(path)
    assert (info.value.line, info.value.column) == (2, 7)
    assert str(info.value) == f"{path}:2:7: not UTF-8: byte 0xe9 at line 2, column 7"
