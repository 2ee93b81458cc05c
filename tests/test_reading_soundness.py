"""Soundness of the reading of answers in words: answers built from templates whose meaning is
known (one option, a denied option and an asserted one, hedged pairs, lists, role descriptions,
"the victim was shot by X", decoys naming the victim, a hedged guess, no answer; predicates that
deny or doubt, "X and Y are innocent", someone else's belief, reported speech, a witness, a
reason, a comparative, a question back) never have an option asserted that they do not assert,
are never graded above their true grade, and every reading outcome occurs in the sample."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.freetext_bench import LABELLED, LabelledCase, load_labelled
from formalize.reading.reading import OUTCOMES
from games.detective.case import AnswerSlot, Question
from games.detective.grading import grade_answer
from games.detective.reading import make_reader, question_task

CASES = load_labelled(LABELLED).cases

Part = tuple[str, str | None, str]
"""One slot's words, the option they truly assert (None: none), and the template's name."""

DOUBTS = ("can be ruled out", "is unlikely", "is a red herring", "was ruled out")
"""Predicates that deny or doubt whatever they are said of."""

PERSON_DOUBTS = (
    "is innocent",
    "has an alibi",
    "was framed",
    "is the least likely",
    "was elsewhere at the time",
    "had nothing to do with it",
    "could not have done it",
    "is not the killer",
)
"""Predicates that deny or doubt that a person did it."""

CONDITIONALS = ("would", "should", "might", "could", "will")
"""Modals by which "X ... have done it" is a supposition, not an answer."""

BELIEVERS = ("The police think", "Everyone suspects", "The maid says", "Some would say")
"""Someone else's belief, put before an option."""


def _name(slot: AnswerSlot, value: str, case: LabelledCase, first: bool) -> str:
    """How an answer names option ``value``: a person by full or first name, else the option's
    words without their parenthesis."""
    if slot.kind == "culprit":
        name = case.setting.person(value).name
        return name.split()[0] if first else name
    return slot.choice(value).text.split(" (")[0]


@st.composite
def slot_part(draw: st.DrawFn, case: LabelledCase, slot: AnswerSlot) -> Part:
    """One slot's part of an answer, from a template with a known meaning."""
    values = [c.value for c in slot.choices]
    a, b, c = draw(st.permutations(values))[:3]
    first = draw(st.booleans())

    def n(value: str) -> str:
        return _name(slot, value, case, first)

    victim = case.setting.person(case.setting.crimes[0].victim).name
    templates = ["one", "denied", "hedged", "listed", "maybe", "rejected", "absent"]
    templates += ["doubted", "both doubted", "believed", "reported", "reason", "question"]
    templates += ["comparative"]
    if slot.kind == "culprit":
        templates += ["conditional"]
        templates += ["role", "passive", "victim", "witness", "person doubted"]
    template = draw(st.sampled_from(templates))
    match template:
        case "one":
            return draw(st.sampled_from([n(a), f"it was {n(a)}", f"{n(a)} did it"])), a, template
        case "conditional":
            return f"{n(a)} {draw(st.sampled_from(CONDITIONALS))} have done it", None, template
        case "denied":
            said = draw(st.sampled_from([f"not {n(b)} but {n(a)}", f"it was not {n(b)}; {n(a)}"]))
            return said, a, template
        case "hedged":
            return (
                draw(
                    st.sampled_from(
                        [
                            f"either {n(a)} or {n(b)}",
                            f"{n(a)} or {n(b)}",
                            f"{n(a)}, or someone else",
                            f"{n(a)}. Or maybe not",
                        ]
                    )
                ),
                None,
                template,
            )
        case "listed":
            return f"{n(a)}, {n(b)} and {n(c)}", None, template
        case "maybe":
            return f"maybe {n(a)}", a, template
        case "rejected":
            return (
                draw(st.sampled_from([f"not {n(a)}", f"neither {n(a)} nor {n(b)}"])),
                None,
                template,
            )
        case "role":
            role = case.setting.person(a).role
            return role, a, template
        case "passive":
            return f"{victim} was shot by {n(a)}", a, template
        case "victim":
            return draw(st.sampled_from([victim, f"{victim} was the victim"])), None, template
        case "doubted":
            return f"{n(a)} {draw(st.sampled_from(DOUBTS))}", None, template
        case "person doubted":
            return f"{n(a)} {draw(st.sampled_from(PERSON_DOUBTS))}", None, template
        case "both doubted":
            said = draw(
                st.sampled_from(
                    [
                        f"{n(a)} and {n(b)} can both be ruled out",
                        f"{n(a)} can be ruled out and so can {n(b)}",
                        f"{n(a)} is unlikely and so is {n(b)}",
                    ]
                )
            )
            return said, None, template
        case "believed":
            said = draw(
                st.sampled_from(
                    [
                        f"{draw(st.sampled_from(BELIEVERS))} {n(a)}",
                        f"the police think {n(a)}, but I disagree",
                        f"according to the police, {n(a)}",
                    ]
                )
            )
            return said, None, template
        case "reported":
            return f"{victim} said it was {n(a)}", None, template
        case "witness":
            return f"{n(b)} saw {n(a)} shoot her", a, template
        case "reason":
            said = draw(
                st.sampled_from(
                    [f"{n(a)}, because it fits the clues", f"{n(a)}, because {n(b)} was away"]
                )
            )
            return said, a, template
        case "question":
            said = draw(st.sampled_from([f"was it {n(a)}?", f"{n(a)}? Never", f"{n(a)}, no."]))
            return said, None, template
        case "comparative":
            said = draw(
                st.sampled_from(
                    [f"{n(a)} is less likely than {n(b)}", f"more likely {n(a)} than {n(b)}"]
                )
            )
            return said, None, template
    return "", None, template


@st.composite
def templated_answer(draw: st.DrawFn) -> tuple[LabelledCase, Question, str, dict[str, str | None]]:
    """A question of a labelled case and an answer to it, with what each slot truly asserts."""
    case = draw(st.sampled_from(CASES))
    question = draw(st.sampled_from(case.questions))
    parts = [draw(slot_part(case, slot)) for slot in question.slots]
    truth = {slot.name: value for slot, (_, value, _) in zip(question.slots, parts, strict=True)}
    words = [text for text, _, _ in parts if text]
    text = "; ".join(words) if words else draw(st.sampled_from(["I don't know.", "No idea."]))
    return case, question, text[:1].upper() + text[1:], truth


def test_templated_answers_are_never_graded_above_their_truth() -> None:
    readers = {c.name: make_reader(c.setting) for c in CASES}
    outcomes: Counter[str] = Counter()

    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(templated_answer())
    def check(drawn: tuple[LabelledCase, Question, str, dict[str, str | None]]) -> None:
        case, question, text, truth = drawn
        reading = readers[case.name].read(question_task(question, case.setting), text)
        outcomes.update(s.outcome for s in reading.slots)
        for slot, asserted in reading.values().items():
            assert asserted is None or asserted == truth[slot], (text, slot, asserted)
        if reading.decided:
            graded = grade_answer(question, reading.values()).score
            assert graded <= grade_answer(question, truth).score, (text, reading)

    check()
    assert set(outcomes) == set(OUTCOMES), outcomes
