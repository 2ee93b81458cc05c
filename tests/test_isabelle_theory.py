"""Isabelle theory text: golden files, safe names, precedence, cardinality, proof text, sketches."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provers.identifiers import axiom_id, pred_id
from provers.isabelle.sketch import SketchStep, SketchSyntaxError, parse_sketch, render_sketch
from provers.isabelle.theory_text import (
    CARD_EXPANSION_LIMIT,
    ProofTextError,
    check_proof_text,
    expand_card,
    isabelle_name,
    isabelle_symbols,
    proof_start_line,
    render_formula,
    render_theory,
)
from provers.signature import MalformedProblem, UnsupportedProblem
from reasoning.formula import (
    ENTITY,
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
    prop,
)
from reasoning.prover import Axiom
from tests.support.isabelle_server import card_problem, odd_names_problem, tea_problem

GOLDEN = Path(__file__).parent / "golden" / "isabelle"
IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]*'?")
FAST = settings(max_examples=60, deadline=None)


GOLDEN_CASES: dict[str, Callable[[], str]] = {
    "tea.thy": lambda: render_theory(*tea_problem()),
    "tea_unicode_replay.thy": lambda: render_theory(
        *tea_problem(), "Replay", proof="by (metis a_fact__1 a_rule__2)", unicode=True
    ),
    "card.thy": lambda: render_theory(*card_problem()),
    "odd_names.thy": lambda: render_theory(*odd_names_problem()),
}


@pytest.mark.parametrize("filename", sorted(GOLDEN_CASES))
def test_theory_matches_golden_file(filename: str) -> None:
    assert GOLDEN_CASES[filename]() == (GOLDEN / filename).read_text(encoding="utf-8")


def test_tea_theory_has_the_shape_of_fig_7() -> None:
    axioms, goal = tea_problem()
    lines = render_theory(axioms, goal).splitlines()
    assert lines[:3] == ["theory Hypothesis", "  imports Main", "begin"]
    assert "typedecl s_entity" in lines and "typedecl s_event" in lines
    assert '  p_Agent :: "s_event \\<Rightarrow> s_entity \\<Rightarrow> bool"' in lines
    assert lines.count("axiomatization where") == 2
    assert "(* axiom fact_1 *)" in lines
    assert lines[-4:] == ["  sledgehammer", "  oops", "", "end"]
    shows = lines[lines.index("theorem hypothesis:") + 1]
    assert shows == '  shows "\\<exists>v_x. p_EarlGrey v_x"'


def _theory_lines_are_well_formed(text: str) -> None:
    """Every line of a rendered theory is one of the shapes render_theory writes."""
    quoted = r'"[^"]*"'
    shapes = [
        r"theory [A-Za-z][A-Za-z0-9_]*",
        r"  imports Main",
        r"begin",
        r"",
        rf"typedecl {IDENT.pattern}",
        r"consts",
        rf"  {IDENT.pattern} :: {quoted}",
        r"\(\* axiom [A-Za-z0-9 _.,:;!?=+\-/#@%&^~|'<>\[\]$]*\*\)",
        r"axiomatization where",
        rf"  {IDENT.pattern}: {quoted}",
        r"theorem hypothesis:",
        rf"  shows {quoted}",
        r"  sledgehammer",
        r"  oops",
        r"end",
    ]
    for line in text.splitlines():
        assert any(re.fullmatch(shape, line) for shape in shapes), line
    for body in re.findall(quoted, text):
        assert not set(body) - set(
            "\"\\<>()=.:' _ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
        ), body


def test_odd_names_never_break_the_theory() -> None:
    axioms, goal = odd_names_problem()
    text = render_theory(axioms, goal)
    _theory_lines_are_well_formed(text)
    assert text.count("(*") == text.count("*)") == len(axioms)


names = st.text(min_size=1, max_size=12)


@FAST
@given(pred=names, const=names, var=names, sort=names, axiom=names)
def test_any_names_give_a_well_formed_theory(
    pred: str, const: str, var: str, sort: str, axiom: str
) -> None:
    v, c = Var(var, sort), Const(const, sort)
    body = Implies(Atom(pred, (v,)), Or((Eq(v, c), Not(Atom(pred, (c,))))))
    text = render_theory([Axiom(axiom, Forall((v,), body))], Exists((v,), Atom(pred, (v,))))
    _theory_lines_are_well_formed(text)


@FAST
@given(first=names, second=names)
def test_identifiers_are_plain_and_injective(first: str, second: str) -> None:
    a, b = isabelle_name(pred_id(first)), isabelle_name(pred_id(second))
    assert IDENT.fullmatch(a) and not a.endswith("_")
    assert (a == b) == (first == second)


def test_identifier_ending_in_underscore_gets_a_prime() -> None:
    assert isabelle_name(axiom_id("rule_")) == "a_rule__'"
    assert isabelle_name(axiom_id("rule")) == "a_rule"


# --- precedence: render, parse back with HOL's precedences, compare truth tables ----------

_SYMBOL_PRECEDENCE = {"⟷": 25, "⟶": 25, "\N{LOGICAL OR}": 30, "∧": 35}


def _parse_hol(text: str) -> object:
    """Parse propositional HOL text: not 40 (prefix); and 35, or 30, implies/iff 25 (infixr)."""
    tokens: list[str] = re.findall(r"p_\w+|True|False|[()¬∧⟶⟷\N{LOGICAL OR}]", text)
    position = 0

    def peek() -> str | None:
        return tokens[position] if position < len(tokens) else None

    def take() -> str:
        nonlocal position
        position += 1
        return tokens[position - 1]

    def operand() -> object:
        token = take()
        if token == "(":
            inner = expression(0)
            assert take() == ")"
            return inner
        if token == "¬":
            return ("not", expression(40))
        return token

    def expression(minimum: int) -> object:
        left = operand()
        while (op := peek()) in _SYMBOL_PRECEDENCE and _SYMBOL_PRECEDENCE[op] >= minimum:
            take()
            left = (op, left, expression(_SYMBOL_PRECEDENCE[op]))
        return left

    tree = expression(0)
    assert position == len(tokens)
    return tree


def _eval_tree(tree: object, world: dict[str, bool]) -> bool:
    if isinstance(tree, str):
        return {"True": True, "False": False}.get(tree, world.get(tree, False))
    assert isinstance(tree, tuple)
    if tree[0] == "not":
        return not _eval_tree(tree[1], world)
    left, right = _eval_tree(tree[1], world), _eval_tree(tree[2], world)
    return {
        "∧": left and right,
        "\N{LOGICAL OR}": left or right,
        "⟶": (not left) or right,
        "⟷": left == right,
    }[tree[0]]


def _eval_formula(f: Formula, world: dict[str, bool]) -> bool:
    match f:
        case Atom(pred, ()):
            return world.get("p_" + pred, False)
        case Truth(value):
            return value
        case Not(body):
            return not _eval_formula(body, world)
        case And(parts):
            return all(_eval_formula(p, world) for p in parts)
        case Or(parts):
            return any(_eval_formula(p, world) for p in parts)
        case Implies(left, right):
            return not _eval_formula(left, world) or _eval_formula(right, world)
        case Iff(left, right):
            return _eval_formula(left, world) == _eval_formula(right, world)
        case Card(op, k, parts):
            count = sum(_eval_formula(p, world) for p in parts)
            return {"exactly": count == k, "atmost": count <= k, "atleast": count >= k}[op]
    raise AssertionError(f)


LETTERS = ("a", "b", "c")
propositional = st.recursive(
    st.sampled_from([prop(n) for n in LETTERS] + [Truth(True), Truth(False)]),
    lambda sub: st.one_of(
        st.builds(Not, sub),
        st.builds(lambda ps: And(tuple(ps)), st.lists(sub, min_size=2, max_size=3)),
        st.builds(lambda ps: Or(tuple(ps)), st.lists(sub, min_size=2, max_size=3)),
        st.builds(Implies, sub, sub),
        st.builds(Iff, sub, sub),
        st.builds(
            lambda op, k, ps: Card(op, k, tuple(ps)),
            st.sampled_from(["exactly", "atmost", "atleast"]),
            st.integers(0, 4),
            st.lists(sub, min_size=0, max_size=3),
        ),
    ),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(propositional)
def test_printed_formula_parses_back_to_the_same_truth_table(f: Formula) -> None:
    tree = _parse_hol(render_formula(f, unicode=True))
    for values in itertools.product([False, True], repeat=len(LETTERS)):
        world = {"p_" + n: v for n, v in zip(LETTERS, values, strict=True)}
        assert _eval_tree(tree, world) == _eval_formula(f, world)


def test_binders_and_parentheses() -> None:
    x, y = Var("x", ENTITY), Var("y", ENTITY)
    p, q = prop("p"), prop("q")
    assert render_formula(And((Forall((x,), Atom("P", (x,))), p)), unicode=True) == (
        "(∀v_x. p_P v_x) ∧ p_p"
    )
    assert render_formula(Not(Eq(x, y)), unicode=True) == "¬ v_x = v_y"
    assert render_formula(Implies(Implies(p, q), p), unicode=True) == "(p_p ⟶ p_q) ⟶ p_p"
    # a variable no atom types gets an explicit type constraint
    assert render_formula(Forall((x, y), Eq(x, y)), unicode=True) == (
        "∀(v_x::s_entity) (v_y::s_entity). v_x = v_y"
    )


@FAST
@given(
    op=st.sampled_from(["exactly", "atmost", "atleast"]),
    k=st.integers(0, 6),
    n=st.integers(0, 5),
)
def test_card_expansion_counts_true_parts(op: str, k: int, n: int) -> None:
    parts = tuple(prop(f"q{i}") for i in range(n))
    expanded = expand_card(op, k, parts)
    assert not any(isinstance(g, Card) for g in [expanded])
    for values in itertools.product([False, True], repeat=n):
        world = {f"p_q{i}": v for i, v in enumerate(values)}
        count = sum(values)
        expected = {"exactly": count == k, "atmost": count <= k, "atleast": count >= k}[op]
        assert _eval_formula(expanded, world) == expected


def test_card_above_the_limit_is_a_clear_error() -> None:
    parts = tuple(prop(f"c{i}") for i in range(21))
    with pytest.raises(UnsupportedProblem, match=r"exactly 3 of 21.*1330 cases.*'big'"):
        render_theory([Axiom("big", Card("exactly", 3, parts))], prop("c0"))
    assert CARD_EXPANSION_LIMIT < 1330


def test_unsorted_terms_are_rejected_with_their_name() -> None:
    with pytest.raises(MalformedProblem, match="variable 'x' has no sort"):
        render_theory([], Exists((Var("x"),), Atom("P", (Var("x"),))))


def test_bad_theory_name_is_rejected() -> None:
    axioms, goal = tea_problem()
    with pytest.raises(ValueError, match="theory name"):
        render_theory(axioms, goal, "Bad name\nend")


# --- proof text ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "by (metis a_fact__1 a_rule__2)",
        "using a_fact__1 by blast",
        'proof -\n  have "\\<exists>v_x. p_P v_x" by auto\n  then show ?thesis by blast\nqed',
        "sledgehammer [timeout = 10]",
    ],
)
def test_ordinary_proof_text_is_accepted(text: str) -> None:
    assert check_proof_text(text) == text


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("by auto\nML \\<open>OS.Process.exit 0\\<close>", "not allowed"),
        ("by auto\nML_val foo", "'ML_val' is not allowed"),
        ('by (tactic "all_tac")', "'tactic' is not allowed"),
        ("sorry", "'sorry' is not allowed"),
        ("by (simp add: [[quick_and_dirty]])", r"'\[\[' is not allowed"),
        ('by (simp add: "x\\" ML "y")', "unsupported escape"),
        ("by auto (* note *)", r"'\*' is not allowed"),
        ("by auto {* ML *}", "'{' is not allowed"),
        ("by auto\nend\ntheory X", "not allowed"),
        ("axiomatization where bad: False", "'axiomatization' is not allowed"),
        ("by auto\n\n  \N{SINGLE LEFT-POINTING ANGLE QUOTATION MARK}x", "not allowed"),
    ],
)
def test_dangerous_proof_text_is_refused(text: str, reason: str) -> None:
    with pytest.raises(ProofTextError, match=reason):
        check_proof_text(text)
    axioms, goal = tea_problem()
    with pytest.raises(ProofTextError):
        render_theory(axioms, goal, proof=text)


def test_unicode_symbols_become_isabelle_notation() -> None:
    assert isabelle_symbols("∀x. P x ⟶ ¬ Q x") == "\\<forall>x. P x \\<longrightarrow> \\<not> Q x"
    with pytest.raises(ProofTextError, match=r"U\+00E9.*line 2, column 4"):
        isabelle_symbols("ok\ncafé")


def test_diagnostic_proof_gets_oops_but_tactic_does_not() -> None:
    axioms, goal = tea_problem()
    assert render_theory(axioms, goal, proof="nitpick").rstrip().endswith("nitpick\n  oops\n\nend")
    replay = render_theory(axioms, goal, proof="by blast")
    assert "oops" not in replay
    lines = replay.splitlines()
    assert lines[proof_start_line(replay) - 1] == "  by blast"


# --- sketches -----------------------------------------------------------------------------

FIG_8 = """theorem hypothesis:
  shows "∃x. GreenTea x"
  proof -
  have "∃y. Popular y ∧ BlackTea y"
    sledgehammer
  then have "¬(∃x. GreenTea x)" <ATP>
  then show ?thesis <ATP>
qed
"""


def test_fig_8_sketch_parses_into_three_steps() -> None:
    steps = parse_sketch(FIG_8)
    assert [s.statement for s in steps] == [
        'have "\\<exists>y. Popular y \\<and> BlackTea y"',
        'then have "\\<not>(\\<exists>x. GreenTea x)"',
        "then show ?thesis",
    ]
    assert [s.tactic for s in steps] == ["sledgehammer", "<ATP>", "<ATP>"]
    assert all(s.is_gap for s in steps)
    assert render_sketch(steps).splitlines()[0] == "proof -"
    assert render_sketch(steps).splitlines()[-1] == "qed"


def test_sketch_with_given_tactics_and_labels() -> None:
    steps = parse_sketch('from a_fact__1 have h1: "P" by blast\nthus ?thesis\n  using h1 by auto')
    assert steps[0].statement == 'from a_fact__1 have h1: "P"'
    assert not steps[0].is_gap
    assert steps[1].tactic == "using h1 by auto"


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ('have "P"\nhave "Q" by auto', 2, "has no tactic"),
        ('have "P" <ATP>\nML \\<open>x\\<close>', 2, "expected a have/show step"),
        ('have "P" by (tactic all_tac)', 1, "'tactic' is not allowed"),
        ('have "P" sorry', 1, "not a tactic"),
        ('have "P"', 1, "no tactic"),
        ('have "P" by auto\nshow ?thesis by (simp add: café)', 2, "U\\+00E9"),
        ("", 1, "no steps"),
    ],
)
def test_bad_sketches_name_their_line(text: str, line: int, reason: str) -> None:
    with pytest.raises(SketchSyntaxError, match=reason) as caught:
        parse_sketch(text)
    assert caught.value.line == line


def test_sketch_step_validates_its_fields() -> None:
    with pytest.raises(ValueError, match="not a step statement"):
        SketchStep(statement='lemma "False"')
    with pytest.raises(ValueError, match="not a tactic"):
        SketchStep(statement="show ?thesis", tactic="oops")
