"""The importable ``scripted_chat`` fixture starts a real chat-completions endpoint for a test."""

from __future__ import annotations

from reasoning.llm import LLMSettings, OpenAIChatClient, user
from reasoning.llm.pytest_plugin import StartServer


def test_fixture_serves_its_script_and_records_the_prompt(scripted_chat: StartServer) -> None:
    server = scripted_chat(["first", "second"])
    client = OpenAIChatClient(LLMSettings(base_url=server.base_url, model="scripted"))
    replies = [client.complete([user(f"question {i}")]) for i in (1, 2)]
    assert [r.content for r in replies] == ["first", "second"]
    assert server.requests[1].last_user == "question 2"
    assert server.pending == 0
