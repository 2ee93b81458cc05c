"""Structured answers: parsing, re-prompting on malformed replies, and counted fallbacks."""

from __future__ import annotations

import json
import random
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, ValidationError

from reasoning.llm import (
    FallbackCounter,
    LLMEndpointError,
    LLMSettings,
    MalformedAnswer,
    OpenAIChatClient,
    ask_structured,
    choose_with_fallback,
    describe_validation_error,
    json_objects,
    labelled_fields,
    parse_answer,
    parse_reply,
    user,
)
from reasoning.llm.answer_models import answer_model, keyed_model, text_field
from reasoning.llm.scripted_server import Fail, ScriptedChatServer

Room = Literal["Hall", "Kitchen", "Library"]


class Suggestion(BaseModel):
    """A Clue suggestion as an agent states it."""

    suspect: str
    weapon: str
    room: Room


GOOD = '{"suspect": "Mr. Green", "weapon": "Rope", "room": "Hall"}'
EXPECTED = Suggestion(suspect="Mr. Green", weapon="Rope", room="Hall")
PROMPT = [user("Make a suggestion as a JSON object with suspect, weapon and room.")]


def client_for(server: ScriptedChatServer) -> OpenAIChatClient:
    return OpenAIChatClient(
        LLMSettings(base_url=server.base_url, model="scripted-model"), sleep=lambda _: None
    )


def parse_suggestion_line(text: str) -> dict[str, str]:
    """Read the paper-style line ``SUGGESTION: suspect, weapon, room``."""
    fields = labelled_fields(text, ["REASONING", "SUGGESTION"], required=["SUGGESTION"])
    parts = [part.strip() for part in fields["SUGGESTION"].split(",")]
    if len(parts) != 3:
        raise MalformedAnswer(f"SUGGESTION needs suspect, weapon and room; got {len(parts)} items")
    return dict(zip(["suspect", "weapon", "room"], parts, strict=True))


# --- through the scripted server -------------------------------------------------------


def test_good_answer_is_parsed_first_time() -> None:
    with ScriptedChatServer([GOOD]) as srv:
        outcome = ask_structured(client_for(srv), PROMPT, Suggestion)
    assert outcome.value == EXPECTED
    assert (outcome.ok, outcome.attempts, outcome.reprompts) == (True, 1, 0)
    assert outcome.replies == (GOOD,) and outcome.errors == ()


def test_json_in_a_fence_with_prose_around_it() -> None:
    reply = f"Let me think.\n```json\n{GOOD}\n```\nThat is my move."
    with ScriptedChatServer([reply]) as srv:
        assert ask_structured(client_for(srv), PROMPT, Suggestion).value == EXPECTED


def test_malformed_answer_is_reprompted_with_the_problem() -> None:
    bad = '{"suspect": "Mr. Green", "weapon": "Rope"}'
    with ScriptedChatServer([bad, GOOD]) as srv:
        outcome = ask_structured(client_for(srv), PROMPT, Suggestion, seed=5)
    assert outcome.value == EXPECTED
    assert outcome.attempts == 2 and len(srv.requests) == 2
    assert outcome.errors == ("field 'room' is missing",)
    second = srv.requests[1].messages
    assert second[0] == PROMPT[0].model_dump()
    assert second[1] == {"role": "assistant", "content": bad}
    assert second[2]["role"] == "user"
    assert "field 'room' is missing" in second[2]["content"]
    assert "suspect, weapon, room" in second[2]["content"]
    assert srv.requests[1].body["seed"] == 6  # a new sampling seed for the re-prompt


def test_four_malformed_answers_give_none_and_a_counted_fallback() -> None:
    replies = ["I am not sure.", "{not json}", '{"suspect": 1}', '{"room": "Attic"}']
    with ScriptedChatServer([*replies, GOOD]) as srv:
        outcome = ask_structured(client_for(srv), PROMPT, Suggestion)
    assert outcome.value is None and not outcome.ok
    assert outcome.attempts == 4 and outcome.replies == tuple(replies)
    assert len(outcome.errors) == 4 and len(srv.requests) == 4
    assert outcome.errors[0] == "no JSON object was found in the answer"
    assert srv.pending == 1
    # each re-prompt keeps only the last failed reply and its problem, with a new seed
    last = srv.requests[3].messages
    assert len(last) == 1 + 2
    assert last[1] == {"role": "assistant", "content": replies[2]}
    assert "could not be used" in last[2]["content"]
    assert [request.body.get("seed") for request in srv.requests] == [None] * 4

    legal = [EXPECTED, Suggestion(suspect="Mrs. White", weapon="Knife", room="Kitchen")]
    counter = FallbackCounter()
    action, fell_back = choose_with_fallback(
        outcome.value, legal, random.Random(1), counter=counter, phase="action"
    )
    assert fell_back and action in legal
    assert counter.count() == 1 and counter.count("action") == 1
    assert counter.snapshot().counts == {"action": {"unparsed": 1}}


def test_max_reprompts_bounds_the_calls() -> None:
    with ScriptedChatServer(["nope"] * 5) as srv:
        client = client_for(srv)
        outcome = ask_structured(client, PROMPT, Suggestion, max_reprompts=0)
        assert outcome.attempts == 1 and len(srv.requests) == 1
        with pytest.raises(ValueError, match="max_reprompts"):
            ask_structured(client, PROMPT, Suggestion, max_reprompts=-1)
        assert len(srv.requests) == 1


def test_custom_line_parser_and_its_reprompt() -> None:
    bad = "REASONING: Green was seen.\nSUGGESTION: Mr. Green, Rope"
    good = "REASONING: Green was seen\nwith the rope.\n**SUGGESTION:** Mr. Green, Rope, Hall"
    with ScriptedChatServer([bad, good]) as srv:
        outcome = ask_structured(client_for(srv), PROMPT, Suggestion, parse=parse_suggestion_line)
    assert outcome.value == EXPECTED
    assert outcome.errors == ("SUGGESTION needs suspect, weapon and room; got 2 items",)
    reprompt = srv.requests[1].messages[-1]["content"]
    assert "got 2 items" in reprompt and "format asked for" in reprompt
    assert "JSON" not in reprompt


def test_endpoint_errors_propagate() -> None:
    server = ScriptedChatServer([Fail(400, "context too long"), "unused"])
    with server as srv, pytest.raises(LLMEndpointError, match="context too long"):
        ask_structured(client_for(srv), PROMPT, Suggestion)
    assert server.pending == 1


# --- parsing without a server ----------------------------------------------------------


def test_parse_reply_prefers_an_object_that_validates() -> None:
    text = 'Schema: {"type": "object"}. Answer: ' + GOOD
    assert parse_reply(text, Suggestion) == EXPECTED


def test_parse_reply_reports_the_first_object_error() -> None:
    with pytest.raises(MalformedAnswer, match="field 'room': input should be 'Hall'"):
        parse_reply('{"suspect": "a", "weapon": "b", "room": "Attic"}', Suggestion)
    with pytest.raises(MalformedAnswer, match="empty"):
        parse_reply("  \n", Suggestion)


def test_custom_parse_errors_become_malformed_answers() -> None:
    def lookup(text: str) -> dict[str, str]:
        return {"suspect": text.split()[5]}

    with pytest.raises(MalformedAnswer, match=r"list index out of range"):
        parse_reply("too short", Suggestion, lookup)
    with pytest.raises(MalformedAnswer, match="field 'weapon' is missing"):
        parse_reply("a b c d e f", Suggestion, lookup)


def test_describe_validation_error_wording() -> None:
    class Strict(BaseModel, extra="forbid"):
        count: int

    with pytest.raises(ValidationError) as caught:
        Strict.model_validate({"count": "many", "colour": "red"})
    described = describe_validation_error(caught.value)
    assert "field 'count': input should be a valid integer" in described
    assert "field 'colour' is not one of the expected fields" in described


def test_labelled_fields_markdown_multiline_and_last_wins() -> None:
    text = (
        "Format: SUGGESTION: <suspect>, <weapon>, <room>\n"
        "- **Reasoning**: first step\n  second step\n"
        "### SUGGESTION: Mr. Green, Rope, Hall\n"
        "ACCUSATION: NONE\n"
    )
    fields = labelled_fields(text, ["Reasoning", "SUGGESTION", "ACCUSATION"])
    assert fields == {
        "Reasoning": "first step\nsecond step",
        "SUGGESTION": "Mr. Green, Rope, Hall",
        "ACCUSATION": "NONE",
    }
    with pytest.raises(MalformedAnswer, match="SHOW:"):
        labelled_fields(text, ["SUGGESTION"], required=["SHOW"])
    with pytest.raises(MalformedAnswer, match="ACCUSATION:"):
        labelled_fields("ACCUSATION:\n", ["ACCUSATION"], required=["ACCUSATION"])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)
prose = st.text(alphabet=st.characters(blacklist_characters="{}"), max_size=30)


@settings(max_examples=80, deadline=None)
@given(
    value=st.dictionaries(st.text(max_size=6), json_values, max_size=4),
    before=prose,
    after=prose,
    fenced=st.booleans(),
)
def test_json_object_found_anywhere(
    value: dict[str, object], before: str, after: str, fenced: bool
) -> None:
    body = json.dumps(value, ensure_ascii=False)
    text = f"{before}\n```json\n{body}\n```\n{after}" if fenced else before + body + after
    assert json_objects(text)[0] == value


# --- fallback ----------------------------------------------------------------------------


def test_legal_proposal_is_played_and_not_counted() -> None:
    counter = FallbackCounter()
    assert choose_with_fallback("b", ["a", "b"], random.Random(0), counter=counter) == ("b", False)
    assert counter.count() == 0


def test_illegal_proposal_falls_back_and_is_counted_by_phase() -> None:
    counter = FallbackCounter()
    rng = random.Random(3)
    for _ in range(3):
        action, fell_back = choose_with_fallback("z", ["a", "b"], rng, counter=counter)
        assert fell_back and action in ("a", "b")
    choose_with_fallback(None, ["card"], rng, counter=counter, phase="show-card")
    snapshot = counter.snapshot()
    assert snapshot.counts == {"action": {"illegal": 3}, "show-card": {"unparsed": 1}}
    assert snapshot.total == 4 and counter.count("show-card") == 1


def test_fallback_needs_a_legal_action() -> None:
    with pytest.raises(ValueError, match="deduction"):
        choose_with_fallback(None, [], random.Random(0), phase="deduction")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), size=st.integers(min_value=1, max_value=9))
def test_fallback_is_seeded(seed: int, size: int) -> None:
    legal = list(range(size))
    first = choose_with_fallback(None, legal, random.Random(seed))
    assert first == choose_with_fallback(None, legal, random.Random(seed))
    assert first[0] in legal


class UpperCaseReply(BaseModel):
    """A game's reply schema whose field keeps its label's upper case."""

    model_config = ConfigDict(extra="forbid")

    LOCATION: str


class LocationChoice(BaseModel):
    """The structured answer model of that reply: the label lower-cased, an enum of choices."""

    model_config = ConfigDict(extra="forbid")

    location: Literal["The study", "The pantry"]


def test_a_filled_answer_model_becomes_the_schema_whatever_the_case_of_its_fields() -> None:
    read = parse_answer('{"location": "The study"}', UpperCaseReply, answer=LocationChoice)
    assert read == UpperCaseReply(LOCATION="The study")
    with pytest.raises(MalformedAnswer, match="location"):
        parse_answer('{"location": "The attic"}', UpperCaseReply, answer=LocationChoice)


def test_raw_newlines_inside_json_strings_are_read() -> None:
    reply = '{"suspect": "Plum\nor so", "weapon": "Rope\t", "room": "Hall"}'
    assert parse_reply(reply, Suggestion) == Suggestion(
        suspect="Plum\nor so", weapon="Rope\t", room="Hall"
    )


def test_a_keyed_model_reads_and_writes_keys_that_are_not_identifiers() -> None:
    model = keyed_model(
        "Levels", dict.fromkeys(("Silas Ellery", "k_0", "class"), Literal["a", "b"])
    )
    schema = model.model_json_schema()
    assert schema["required"] == ["Silas Ellery", "k_0", "class"]
    given = {"Silas Ellery": "a", "k_0": "b", "class": "a"}
    assert model.model_validate(given).model_dump() == given
    with pytest.raises(ValidationError):
        model.model_validate({**given, "Silas Ellery": "c"})
    wrapped = answer_model("Answer", {"levels": (model, ...), "why": text_field()})
    with pytest.raises(ValidationError, match="it is empty"):
        wrapped.model_validate({"levels": given, "why": " "})
