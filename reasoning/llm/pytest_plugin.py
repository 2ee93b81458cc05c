"""A pytest fixture for testing prompts and agents without a model: ``scripted_chat``.

Installed with gumshoe as a pytest plugin (entry point ``gumshoe``), so any test suite can ask
for it; or name it in a ``conftest.py``: ``pytest_plugins = ["reasoning.llm.pytest_plugin"]``::

    def test_my_prompt(scripted_chat):
        server = scripted_chat(['{"answer": "yes"}'])
        settings = LLMSettings(base_url=server.base_url, model="scripted")
        ...
        assert "the question" in server.requests[0].last_user

Each call starts a ``ScriptedChatServer`` on an ephemeral loopback port; every server is stopped
when the test ends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from reasoning.llm.scripted_server import Script, ScriptedChatServer

StartServer = Callable[..., ScriptedChatServer]
"""``scripted_chat(script, **options)``: a running server; options as ``ScriptedChatServer``."""


@pytest.fixture
def scripted_chat() -> Iterator[StartServer]:
    """Start scripted chat-completions servers for one test; all are stopped at its end."""
    servers: list[ScriptedChatServer] = []

    def start(script: Script, **options: Any) -> ScriptedChatServer:
        server = ScriptedChatServer(script, **options).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
