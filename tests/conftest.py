"""Suite-wide fixtures: every test runs without LLM endpoint settings from the environment."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def _clean_llm_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drop GUMSHOE_LLM_* and OPENAI_* variables so no test reaches a real endpoint by accident."""
    for name in list(os.environ):
        if name.startswith(("GUMSHOE_LLM_", "OPENAI_")):
            monkeypatch.delenv(name)
