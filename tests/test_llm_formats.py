"""Structured output: the request's response_format per mode, degrading on rejection, and
reading JSON answers through a game's labelled-text parser."""

from __future__ import annotations

import random
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from reasoning.llm import (
    ChatMessage,
    ChatReply,
    LLMSettings,
    MalformedAnswer,
    OpenAIChatClient,
    UsageMeter,
    accepts_options,
    ask_structured,
    labelled_fields,
    labelled_text,
    parse_answer,
    system,
    user,
)
from reasoning.llm.scripted_server import ChatRequest, Fail, ScriptedChatServer, Step

PROMPT = [system("You play Clue."), user("Suggest. Answer REASONING: and SUGGESTION: lines.")]
ROOMS = ("Hall", "Kitchen", "Study")


class MoveJSON(BaseModel):
    """What the model fills: the labels of the labelled-text answer as fields."""

    model_config = ConfigDict(extra="forbid")

    reasoning: str
    suggestion: str


class Move(BaseModel):
    """The game's checked answer."""

    reasoning: str
    room: str


def parse_move(text: str) -> Move:
    """The game's labelled-text parser, which checks the room exists."""
    fields = labelled_fields(text, ["REASONING", "SUGGESTION"], required=["SUGGESTION"])
    room = fields["SUGGESTION"].strip()
    if room not in ROOMS:
        raise MalformedAnswer(f"{room!r} is not a room")
    return Move(reasoning=fields.get("REASONING", ""), room=room)


def client_for(server: ScriptedChatServer, **overrides: object) -> OpenAIChatClient:
    options: dict[str, object] = {"base_url": server.base_url, "model": "scripted-model"}
    options.update(overrides)
    return OpenAIChatClient(
        LLMSettings.model_validate(options), sleep=lambda _: None, rng=random.Random(0)
    )


def ask(client: OpenAIChatClient) -> Move | None:
    outcome = ask_structured(client, PROMPT, Move, parse=parse_move, answer=MoveJSON, seed=3)
    return outcome.value


GOOD_JSON = '{"reasoning": "Kitchen is unseen", "suggestion": "Kitchen"}'


def test_json_schema_is_asked_for_first_and_the_json_goes_through_the_game_parser() -> None:
    with ScriptedChatServer([GOOD_JSON]) as srv:
        client = client_for(srv)
        assert ask(client) == Move(reasoning="Kitchen is unseen", room="Kitchen")
    fmt = srv.requests[0].response_format
    assert fmt is not None and fmt["type"] == "json_schema"
    assert fmt["json_schema"]["name"] == "MoveJSON"
    assert fmt["json_schema"]["schema"] == MoveJSON.model_json_schema()


def test_a_rejected_format_degrades_once_without_retries_and_is_remembered() -> None:
    with ScriptedChatServer([GOOD_JSON, GOOD_JSON], reject_formats={"json_schema": 500}) as srv:
        client = client_for(srv)
        assert ask(client) is not None
        again = client_for(srv)  # a second client of the same endpoint asks once, in the mode
        assert ask(again) is not None
    assert [r.format_type for r in srv.requests] == ["json_schema", "json_object", "json_object"]
    assert srv.requests[1].response_format == {
        "type": "json_object",
        "schema": MoveJSON.model_json_schema(),
    }
    usage = client.meter.snapshot()
    assert (usage.format_degrades, usage.retries, usage.errors, usage.calls) == (1, 0, 0, 1)
    assert again.structured_mode == "json_object"


def test_with_both_formats_rejected_the_plain_text_parser_answers() -> None:
    text = "REASONING: only one left\nSUGGESTION: Study"
    rejections = {"json_schema": 422, "json_object": 400}
    with ScriptedChatServer([text], reject_formats=rejections) as srv:
        client = client_for(srv)
        assert ask(client) == Move(reasoning="only one left", room="Study")
    assert [r.format_type for r in srv.requests] == ["json_schema", "json_object", None]
    assert client.structured_mode == "off"


def test_a_gateway_error_is_retried_as_a_fault_not_blamed_on_the_format() -> None:
    with ScriptedChatServer([503, GOOD_JSON]) as srv:
        client = client_for(srv)
        assert ask(client) is not None
    assert [r.format_type for r in srv.requests] == ["json_schema", "json_schema"]
    assert client.meter.snapshot().retries == 1


def test_explicit_modes_and_no_answer_model_send_what_they_say() -> None:
    with ScriptedChatServer([GOOD_JSON, "REASONING: r\nSUGGESTION: Hall", "x"]) as srv:
        assert ask(client_for(srv, structured="json_object")) is not None
        assert ask(client_for(srv, structured="off")) is not None
        client_for(srv).complete(PROMPT)
    assert [r.format_type for r in srv.requests] == ["json_object", None, None]


class Wide(BaseModel):
    """An answer whose grammar the scripted llama.cpp server below cannot build."""

    model_config = ConfigDict(extra="forbid")

    reasoning: str
    suggestion: str


GRAMMAR_500 = "failed to parse grammar"


def grammar_server(request: ChatRequest) -> Step:
    """llama-cpp-python as seen from outside: json_schema is not served (500), a json_object
    schema titled ``Wide`` gives a grammar it cannot build (500), anything else answers."""
    if request.format_type == "json_schema":
        return Fail(500, "response_format type 'json_schema' is not supported")
    schema = (request.response_format or {}).get("schema", {})
    if schema.get("title") == "Wide":
        return Fail(500, GRAMMAR_500)
    return GOOD_JSON


def test_a_grammar_the_server_cannot_build_goes_to_the_next_mode_for_that_schema_only() -> None:
    with ScriptedChatServer(grammar_server) as srv:
        client = client_for(srv)
        assert ask(client) is not None  # settles on json_object, which then works
        wide = ask_structured(client, PROMPT, Move, parse=parse_move, answer=Wide, seed=3)
        assert wide.value is not None  # asked again in plain text at once
        assert ask(client) is not None  # the endpoint still takes json_object
    assert [r.format_type for r in srv.requests] == [
        "json_schema",
        "json_object",
        "json_object",
        None,
        "json_object",
    ]
    usage = client.meter.snapshot()
    assert (usage.format_degrades, usage.retries, usage.errors, usage.calls) == (2, 0, 0, 3)
    assert client.structured_mode == "json_object"


def test_a_json_answer_the_game_rejects_is_reprompted_with_the_game_problem() -> None:
    wrong = '{"reasoning": "r", "suggestion": "Attic"}'
    with ScriptedChatServer([wrong, GOOD_JSON]) as srv:
        outcome = ask_structured(
            client_for(srv), PROMPT, Move, parse=parse_move, answer=MoveJSON, seed=3
        )
    assert outcome.value is not None and outcome.attempts == 2
    assert outcome.errors == ("'Attic' is not a room",)
    follow_up = srv.requests[1].last_user
    assert "'Attic' is not a room" in follow_up
    assert "JSON object with the fields reasoning, suggestion" in follow_up


def test_parse_answer_prefers_json_and_falls_back_to_labelled_text() -> None:
    assert parse_answer(GOOD_JSON, Move, parse_move, MoveJSON).room == "Kitchen"
    labelled = "Sure!\nREASONING: r\nSUGGESTION: Hall"
    assert parse_answer(labelled, Move, parse_move, MoveJSON).room == "Hall"
    try:
        parse_answer('{"reasoning": "r"}', Move, parse_move, MoveJSON)
    except MalformedAnswer as exc:
        assert str(exc) == "field 'suggestion' is missing"
    else:
        raise AssertionError("an incomplete JSON answer parsed")
    assert parse_answer(GOOD_JSON, MoveJSON, None, MoveJSON).suggestion == "Kitchen"


def test_labelled_text_renders_lists_and_none() -> None:
    class Listed(BaseModel):
        analysis: str
        deductions: list[str]
        accusation: str | None

    text = labelled_text(Listed(analysis="a", deductions=["P1 holds Rope", "x"], accusation=None))
    assert text == "ANALYSIS: a\nDEDUCTIONS: P1 holds Rope\nx\nACCUSATION: NONE"
    assert labelled_text(Listed(analysis="a", deductions=[], accusation="b")).endswith(
        "DEDUCTIONS: NONE\nACCUSATION: b"
    )


class _OldWrapper:
    """A client written before per-call options: it takes only a seed."""

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.meter = UsageMeter()
        self.model = "old"

    def complete(self, messages: Sequence[ChatMessage], *, seed: int | None = None) -> ChatReply:
        return ChatReply(content=self.reply, model=self.model)


def test_a_client_without_options_is_asked_in_plain_text() -> None:
    old = _OldWrapper("REASONING: r\nSUGGESTION: Hall")
    assert not accepts_options(old)
    outcome = ask_structured(old, PROMPT, Move, parse=parse_move, answer=MoveJSON)
    assert outcome.value == Move(reasoning="r", room="Hall")
