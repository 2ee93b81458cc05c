"""The formula text syntax: exact parses, the print-then-parse identity, and error positions."""
# ruff: noqa: RUF001  (the Unicode logic symbols under test look like letters)

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasoning.formula import (
    And,
    Atom,
    Card,
    Const,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Truth,
    Var,
)
from reasoning.strategies import (
    ODD_NAMES,
    fol_formulas,
    formulas,
    propositional_formulas,
)
from reasoning.syntax import (
    KEYWORDS,
    FormulaSyntaxError,
    format_formula,
    format_name,
    parse_formula,
    parse_name,
)

P, Q, R, S, T = (Atom(n) for n in "PQRST")
x, y, e = Var("x"), Var("y"), Var("e")


def test_precedence_loosest_first() -> None:
    got = parse_formula("forall x y. P(x) & ~Q(x, y) | R -> S <-> T")
    body = Iff(
        Implies(Or((And((Atom("P", (x,)), Not(Atom("Q", (x, y))))), R)), S),
        T,
    )
    assert got == Forall((x, y), body)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("~P(a) & Q", And((Not(Atom("P", (Const("a"),))), Q))),
        ("P | Q & R", Or((P, And((Q, R))))),
        ("P & Q | R", Or((And((P, Q)), R))),
        ("P -> Q -> R", Implies(P, Implies(Q, R))),
        ("(P -> Q) -> R", Implies(Implies(P, Q), R)),
        ("P <-> Q -> R", Iff(P, Implies(Q, R))),
        ("P -> Q <-> R", Iff(Implies(P, Q), R)),
        ("P <-> Q <-> R", Iff(P, Iff(Q, R))),
        ("~~P", Not(Not(P))),
        ("P & Q & R", And((P, Q, R))),
        ("(P & Q) & R", And((And((P, Q)), R))),
        ("P & (Q & R)", And((P, And((Q, R))))),
        ("P | Q | R | S", Or((P, Q, R, S))),
        ("true & ~false", And((Truth(True), Not(Truth(False))))),
        ("a = b", Eq(Const("a"), Const("b"))),
        ("a != b", Not(Eq(Const("a"), Const("b")))),
        ("~(a = b)", Not(Eq(Const("a"), Const("b")))),
        ("P # a comment", P),
    ],
)
def test_specific_parses(text: str, expected: Formula) -> None:
    assert parse_formula(text) == expected


def test_quantifier_body_extends_right() -> None:
    px, qx = Atom("P", (x,)), Atom("Q", (x,))
    assert parse_formula("forall x. P(x) -> Q(x)") == Forall((x,), Implies(px, qx))
    assert parse_formula("P & forall x. Q(x) | R") == And((P, Forall((x,), Or((qx, R)))))
    assert parse_formula("~exists x. P(x) & Q") == Not(Exists((x,), And((px, Q))))
    assert parse_formula("(forall x. P(x)) & Q") == And((Forall((x,), px), Q))


def test_isabelle_ascii_and_unicode_spellings_agree() -> None:
    ascii_text = "forall x. exists y. P(x) & Q(y) | ~R -> S <-> x != y"
    for text in (
        "ALL x. EX y. P x & Q y | ~R --> S <--> x != y",
        "∀x. ∃y. P x ∧ Q y ∨ ¬R → S ↔ x ≠ y",
        "∀x. ∃y. P(x) ∧ Q(y) ∨ ¬R ⟶ S ⟷ x ≠ y",
    ):
        assert parse_formula(text) == parse_formula(ascii_text)
    assert parse_formula("⊤ ∧ ⊥") == And((Truth(True), Truth(False)))


def test_juxtaposition_and_application_agree() -> None:
    assert parse_formula("forall e x. Agent e x") == parse_formula("forall e x. Agent(e, x)")
    assert parse_formula("Tea x") == Atom("Tea", (Const("x"),))
    assert parse_formula("R") == R
    assert parse_formula("R()") == R


def test_bound_names_are_vars_others_consts() -> None:
    got = parse_formula("forall x. P(x, c) & (exists c. Q(x, c)) & Q(c, x)")
    c = Const("c")
    assert got == Forall(
        (x,),
        And(
            (
                Atom("P", (x, c)),
                Exists((Var("c"),), Atom("Q", (x, Var("c")))),
                Atom("Q", (c, x)),
            )
        ),
    )


def test_sort_annotations() -> None:
    ev, en = Var("e", "event"), Var("x", "entity")
    want = Forall((ev, en), Atom("Agent", (ev, en)))
    assert parse_formula("forall e:event x:entity. Agent(e, x)") == want
    assert parse_formula("∀e::event x::entity. Agent e x") == want
    assert parse_formula("forall e:event x. Agent(e, x:entity)") == Forall(
        (ev, x), Atom("Agent", (ev, en))
    )
    assert parse_formula("P(c:thing)") == Atom("P", (Const("c", "thing"),))


def test_explicit_var_and_const_markers() -> None:
    got = parse_formula("forall x:entity. P(x, @x, ?x, ?y)")
    assert got == Forall(
        (Var("x", "entity"),),
        Atom("P", (Var("x", "entity"), Const("x"), Var("x"), Var("y"))),
    )
    assert format_formula(Atom("P", (Var("y"),))) == "P(?y)"
    assert format_formula(Forall((x,), Atom("P", (Const("x"),)))) == "forall x. P(@x)"


def test_cardinality() -> None:
    parts = (Atom("a"), Atom("b"), Atom("c"))
    assert parse_formula("exactly 1 of {a, b, c}") == Card("exactly", 1, parts)
    assert parse_formula("atmost 2 of {p, ~q}") == Card("atmost", 2, (Atom("p"), Not(Atom("q"))))
    assert parse_formula("atleast 0 of {}") == Card("atleast", 0, ())
    assert parse_formula("exactly 1 of {a, b} & c") == And(
        (Card("exactly", 1, parts[:2]), parts[2])
    )


def test_seed_002_formula() -> None:
    text = "∀x y e. Animal x ∧ Tree y ∧ ¬LiveOn e ∧ Agent e x ∧ Patient e y ⟶ (∃z. Wolf z ∧ z = x)"
    z = Var("z")
    want = Forall(
        (x, y, e),
        Implies(
            And(
                (
                    Atom("Animal", (x,)),
                    Atom("Tree", (y,)),
                    Not(Atom("LiveOn", (e,))),
                    Atom("Agent", (e, x)),
                    Atom("Patient", (e, y)),
                )
            ),
            Exists((z,), And((Atom("Wolf", (z,)), Eq(z, x)))),
        ),
    )
    assert parse_formula(text) == want
    assert format_formula(want, unicode=True) == (
        "∀x y e. Animal(x) ∧ Tree(y) ∧ ¬LiveOn(e) ∧ Agent(e, x) ∧ Patient(e, y) ⟶ "
        "∃z. Wolf(z) ∧ z = x"
    )


def test_printer_uses_minimal_parentheses() -> None:
    assert format_formula(parse_formula("((P & Q)) | (R)")) == "P & Q | R"
    assert format_formula(parse_formula("(P -> Q) -> R")) == "(P -> Q) -> R"
    assert format_formula(parse_formula("P -> (Q -> R)")) == "P -> Q -> R"
    assert format_formula(parse_formula("(P & Q) & R")) == "(P & Q) & R"
    assert format_formula(parse_formula("(forall x. P(x)) & Q")) == "(forall x. P(x)) & Q"
    assert format_formula(parse_formula("~(forall x. P(x)) & Q")) == "~(forall x. P(x)) & Q"
    assert format_formula(parse_formula("Q & (forall x. P(x))")) == "Q & forall x. P(x)"


def test_keywords_need_quotes() -> None:
    assert {"forall", "exists", "exactly", "atmost", "atleast", "of", "true", "false"} <= KEYWORDS
    assert {"ALL", "EX"} <= KEYWORDS
    for word in sorted(KEYWORDS):
        with pytest.raises(FormulaSyntaxError):
            parse_formula(f"P({word})")
        assert parse_formula(f'P("{word}")') == Atom("P", (Const(word),))
    assert parse_formula("forallx & ofs") == And((Atom("forallx"), Atom("ofs")))


def test_quoted_names() -> None:
    got = parse_formula(r'"has space"("say \"hi\"", "a\\b", "new\nline", "\u{3b1}")')
    assert got == Atom("has space", tuple(Const(n) for n in ('say "hi"', "a\\b", "new\nline", "α")))
    assert format_name("new\nline") == r'"new\nline"'
    assert format_name("naïve_x'") == "naïve_x'"
    assert format_name("of") == '"of"'


@given(st.one_of(st.text(max_size=8), st.sampled_from(ODD_NAMES)))
@settings(max_examples=150, deadline=None)
def test_name_round_trip(name: str) -> None:
    assert parse_name(format_name(name)) == name
    assert "\n" not in format_name(name)


@given(formulas(max_leaves=10, odd=True), st.booleans())
@settings(max_examples=300, deadline=None)
def test_print_then_parse_is_identity(f: Formula, unicode: bool) -> None:
    text = format_formula(f, unicode=unicode)
    assert parse_formula(text) == f


@given(propositional_formulas(max_leaves=12), st.booleans())
@settings(max_examples=100, deadline=None)
def test_print_then_parse_propositional(f: Formula, unicode: bool) -> None:
    assert parse_formula(format_formula(f, unicode=unicode)) == f


@given(fol_formulas(max_depth=4), st.booleans())
@settings(max_examples=100, deadline=None)
def test_print_then_parse_sorted_fol(f: Formula, unicode: bool) -> None:
    text = format_formula(f, unicode=unicode)
    assert parse_formula(text) == f
    assert "?" not in text and "@" not in text


def test_unicode_printing_uses_symbols() -> None:
    f = parse_formula("forall x. ~P(x) & Q | R -> S <-> x != y & true | false")
    assert format_formula(f, unicode=True) == "∀x. ¬P(x) ∧ Q ∨ R ⟶ S ⟷ x ≠ y ∧ ⊤ ∨ ⊥"
    assert format_formula(f) == "forall x. ~P(x) & Q | R -> S <-> x != y & true | false"


@pytest.mark.parametrize(
    ("text", "line", "column", "found", "phrase"),
    [
        ("(P & Q", 1, 7, "end of input", "expected ')'"),
        ("P & Q)", 1, 6, ")", "unexpected ')'"),
        ("P &", 1, 4, "end of input", "expected a formula"),
        ("P & # a comment\n", 1, 4, "end of input", "expected a formula"),
        ("P & & Q", 1, 5, "&", "expected a formula"),
        ("P -> | Q", 1, 6, "|", "expected a formula"),
        ("P $ Q", 1, 3, "$", "unexpected character '$'"),
        ("forall . P", 1, 8, ".", "expected a name"),
        ('P("abc)', 1, 3, '"', "unterminated quoted name"),
        (r'P("a\qb")', 1, 3, r'"a\qb"', r"bad escape '\q'"),
        ("P(x,\n  y,,\n z)", 2, 5, ",", "unexpected ','"),
        ("P &\n\t& Q", 2, 2, "&", "expected a formula"),
        ("", 1, 1, "end of input", "expected a formula"),
        ("exactly x of {a}", 1, 9, "x", "expected a number"),
    ],
)
def test_syntax_errors(text: str, line: int, column: int, found: str, phrase: str) -> None:
    with pytest.raises(FormulaSyntaxError) as info:
        parse_formula(text)
    err = info.value
    assert (err.line, err.column, err.text) == (line, column, found)
    assert phrase in err.message
    first, source_line, caret = str(err).split("\n")
    assert first == f"line {line}, column {column}: {err.message}"
    assert source_line == text.split("\n")[line - 1]
    assert caret.endswith("^") and len(caret) == column
    assert err.excerpt == f"{source_line}\n{caret}"
    assert isinstance(err, ValueError)


@pytest.mark.parametrize(
    "bad",
    [
        And((P,)),
        Or(()),
        Forall((), P),
        Card("exactly", -1, (P,)),
        Card("most", 1, (P,)),  # type: ignore[arg-type]
    ],
)
def test_printer_rejects_malformed_ir(bad: Formula) -> None:
    with pytest.raises(ValueError):
        format_formula(bad)
