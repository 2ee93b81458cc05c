"""LLM autoformalisation with repair rounds, through the scripted chat server (real client path)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pytest
from hypothesis import given, settings

from formalize.davidsonian.autoformalize import (
    PROVER_AXIOM,
    Autoformalizer,
    ProblemKind,
    autoformalize,
    check_logical_form,
    extract_formula,
)
from reasoning.formula import TOP, Formula
from reasoning.llm import LLMEndpointError, LLMSettings, MalformedAnswer, OpenAIChatClient
from reasoning.llm.scripted_server import Fail, ScriptedChatServer
from reasoning.prover import Axiom
from reasoning.sorts import Signature, erase_sorts, infer_sorts
from reasoning.strategies import SMALL_SIGNATURE, fol_formulas
from reasoning.syntax import format_formula, parse_formula
from reasoning.verdict import ProofResult, Verdict

SENTENCE = "It is flavoured with oil of bergamot."
GOOD = "exists e y. Flavour(e) & Patient(e, item) & BergamotOil(y) & Instrument(e, y)"
BAD_SYNTAX = "exists e y. Flavour(e) & Patient(e, item) & BergamotOil(y) & Instrument(e y)"
BAD_ROLE = "exists e y. Flavour(e) & Patient(item, e) & BergamotOil(y)"
UNUSED = "exists e y z. Flavour(e) & Patient(e, item) & BergamotOil(y) & Instrument(e, y)"


@contextmanager
def scripted(
    replies: Sequence[str | Fail],
) -> Iterator[tuple[ScriptedChatServer, OpenAIChatClient]]:
    """A scripted server answering ``replies`` in order, and a real client pointed at it."""
    with ScriptedChatServer(list(replies)) as server:
        settings_ = LLMSettings(base_url=server.base_url, model="scripted", max_retries=0)
        yield server, OpenAIChatClient(settings_, sleep=lambda _: None)


def sorted_form(text: str, signature: Signature | None = None) -> Formula:
    return infer_sorts([parse_formula(text)], signature)[0][0]


def test_a_good_first_answer_is_parsed_and_sorted() -> None:
    with scripted([f"REASONING: an event of flavouring.\nFORMULA: {GOOD}"]) as (server, client):
        result = Autoformalizer(client).formalize(SENTENCE)
    assert result.ok and result.repairs == 0 and result.error is None
    assert result.formula == sorted_form(GOOD)
    assert result.formula_text == GOOD
    assert result.signature.predicates["Patient"] == ("event", "entity")
    first = server.requests[0]
    assert first.messages[0]["role"] == "system"
    assert "Neo-Davidsonian" in first.messages[0]["content"]
    assert first.last_user.startswith(f"Sentence: {SENTENCE}")


def test_repairs_fix_a_syntax_error_then_a_lint_error() -> None:
    replies = [f"FORMULA: {BAD_SYNTAX}", f"FORMULA: {BAD_ROLE}", f"FORMULA: {GOOD}"]
    with scripted(replies) as (server, client):
        result = Autoformalizer(client).formalize(SENTENCE)
    assert result.ok and result.formula == sorted_form(GOOD) and result.repairs == 2
    kinds = [[p.kind for p in a.problems] for a in result.attempts]
    assert kinds[0] == [ProblemKind.SYNTAX] and kinds[2] == []
    assert {p.code for p in result.attempts[1].problems} == {"role-on-non-event"}
    syntax = result.attempts[0].problems[0]
    assert (syntax.line, syntax.column) == (1, BAD_SYNTAX.rindex("y)") + 1)
    # The parser's position and excerpt go back to the model, then the lint code and symbol.
    second, third = server.requests[1], server.requests[2]
    assert f"line 1, column {syntax.column}" in second.last_user
    assert "Instrument(e y)" in second.last_user and "^" in second.last_user
    assert second.messages[-2] == {"role": "assistant", "content": f"FORMULA: {BAD_SYNTAX}"}
    assert "[role-on-non-event]" in third.last_user and "'Patient'" in third.last_user


def test_gives_up_after_the_cap_with_the_last_error() -> None:
    replies = [f"FORMULA: {BAD_SYNTAX}", "I am not sure.\nMaybe later.", f"FORMULA: {BAD_ROLE}"]
    with scripted(replies) as (server, client):
        result = Autoformalizer(client, max_repairs=2).formalize(SENTENCE)
    assert not result.ok and result.formula is None
    assert len(server.requests) == 3 and result.repairs == 2
    assert result.attempts[1].problems[0].kind is ProblemKind.NO_FORMULA
    assert result.error is not None and "[role-on-non-event]" in result.error
    assert result.last_text == BAD_ROLE


def test_a_sort_clash_with_the_known_signature_is_sent_back() -> None:
    known = Signature(
        predicates={"Tea": ("entity",), "Patient": ("event", "entity")},
        constants={"item": "entity"},
    )
    clash = "exists e. Brew(e) & Tea(e) & Patient(e, item)"
    fixed = "exists e. Brew(e) & Patient(e, item) & Tea(item)"
    with scripted([f"FORMULA: {clash}", f"FORMULA: {fixed}"]) as (server, client):
        result = autoformalize("It is a tea that is brewed.", client, signature=known)
    problem = result.attempts[0].problems[0]
    assert problem.kind is ProblemKind.SORT and problem.symbol == "e"
    assert "sort clash" in server.requests[1].last_user
    assert "Tea(entity)" in server.requests[0].last_user
    assert result.formula == sorted_form(fixed, known)
    assert result.signature.predicates["Brew"] == ("event",)


def test_an_unbound_name_is_sent_back() -> None:
    with scripted(["FORMULA: Tea(x)", "FORMULA: Tea(item)"]) as (server, client):
        result = autoformalize("It is a tea.", client)
    problem = result.attempts[0].problems[0]
    assert (problem.kind, problem.symbol) == (ProblemKind.UNBOUND, "x")
    assert "'x' is not bound" in server.requests[1].last_user
    assert result.formula == sorted_form("Tea(item)")


class FlakyProver:
    """A backend that rejects the first formula it is given as a syntax error."""

    name = "flaky"

    def __init__(self) -> None:
        self.calls: list[tuple[tuple[Axiom, ...], Formula]] = []

    def prove(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> ProofResult:
        self.calls.append((tuple(axioms), goal))
        first = len(self.calls) == 1
        return ProofResult(
            verdict=Verdict.SYNTAX_ERROR if first else Verdict.VALID,
            prover=self.name,
            elapsed_s=0.0,
            message='line 12: Inner syntax error at "Flavour"' if first else "",
        )


def test_the_provers_syntax_error_is_sent_back() -> None:
    prover = FlakyProver()
    with scripted([f"FORMULA: {GOOD}", f"FORMULA: {GOOD}"]) as (server, client):
        result = autoformalize(SENTENCE, client, prover=prover)
    assert result.ok and result.repairs == 1
    assert result.attempts[0].problems[0].kind is ProblemKind.PROVER
    assert "Inner syntax error" in server.requests[1].last_user
    axioms, goal = prover.calls[0]
    assert goal == TOP and [a.name for a in axioms] == [PROVER_AXIOM]
    assert axioms[0].formula == sorted_form(GOOD)


def test_warnings_are_repaired_but_accepted_when_the_repairs_run_out() -> None:
    with scripted([f"FORMULA: {UNUSED}", f"FORMULA: {UNUSED}"]) as (server, client):
        result = Autoformalizer(client, max_repairs=1).formalize(SENTENCE)
    assert "[unused-variable]" in server.requests[1].last_user
    assert result.ok and result.formula == sorted_form(UNUSED)
    assert [w.code.value for w in result.warnings] == ["unused-variable"]
    assert result.attempts[-1].accepted


def test_warnings_can_be_left_alone() -> None:
    with scripted([f"FORMULA: {UNUSED}"]) as (_, client):
        result = Autoformalizer(client, repair_warnings=False).formalize(SENTENCE)
    assert result.ok and result.repairs == 0 and len(result.warnings) == 1


def test_endpoint_errors_propagate() -> None:
    with scripted([Fail(400, "bad request")]) as (_, client), pytest.raises(LLMEndpointError):
        Autoformalizer(client).formalize(SENTENCE)


def test_roles_are_linted_with_the_sorts_the_signature_forces() -> None:
    known = Signature(predicates={"Tea": ("entity",)})
    checked = check_logical_form("exists e. Brew(e) & Tea(e) & Patient(e, item)", signature=known)
    assert [(p.code, p.symbol) for p in checked.problems] == [("role-on-non-event", "Patient")]


def test_a_closed_vocabulary_reports_undeclared_symbols() -> None:
    vocabulary = Signature(predicates={"Tea": ("entity",)}, constants={"item": "entity"})
    checked = check_logical_form("Tea(item) & Green(item)", vocabulary=vocabulary)
    assert checked.formula is None
    assert [(p.code, p.symbol) for p in checked.problems] == [("undeclared-symbol", "Green")]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (f"REASONING: two lines\nFORMULA: {GOOD}\n", GOOD),
        (f"Here it is:\n```\n{GOOD}\n```\nDone.", GOOD),
        (f"FORMULA: `{GOOD}`", GOOD),
        (f"**FORMULA:**\n```text\n{GOOD}\n```", GOOD),
        ("Tea(item)", "Tea(item)"),
    ],
)
def test_extract_formula(reply: str, expected: str) -> None:
    assert extract_formula(reply) == expected


@pytest.mark.parametrize("reply", ["", "I cannot\ndo that.", "FORMULA:   "])
def test_extract_formula_rejects_replies_without_one(reply: str) -> None:
    with pytest.raises(MalformedAnswer):
        extract_formula(reply)


@settings(max_examples=60, deadline=None)
@given(fol_formulas(SMALL_SIGNATURE, max_depth=3, with_sorts=True))
def test_every_well_sorted_formula_passes_the_checks(formula: Formula) -> None:
    text = format_formula(erase_sorts(formula))
    extracted = extract_formula(f"REASONING: by the book\nFORMULA: {text}")
    checked = check_logical_form(
        extracted, signature=SMALL_SIGNATURE, vocabulary=SMALL_SIGNATURE, allowed_constants=None
    )
    assert checked.problems == ()
    assert checked.formula is not None
    assert erase_sorts(checked.formula) == erase_sorts(formula)
