"""Keeping a conversation within the endpoint's context: token counts and trimming history."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

from reasoning.llm.messages import ChatMessage

TokenCounter = Callable[[str], int]

# English BPE tokenizers average about four characters a token; three overcounts on purpose, so
# an estimated budget errs towards fitting.
CHARS_PER_TOKEN = 3.0
# Tokens a chat template adds around each message, and before the reply.
MESSAGE_OVERHEAD = 8
REPLY_PRIMING = 8

# Context-length errors as servers word them: OpenAI / vLLM / llama-cpp-python
# ("maximum context length is N tokens"), llama.cpp ("exceed context window of N", "exceeds the
# available context size"), and Ollama-style "context length" messages.
_CONTEXT_CODES = frozenset({"context_length_exceeded", "exceed_context_size_error"})
_CONTEXT_WORDING = re.compile(
    r"maximum context length|context window|context size|context length|n_ctx", re.IGNORECASE
)
_CONTEXT_NUMBER = re.compile(
    r"(?:maximum context length is|context window of|n_ctx\D{0,8}|context size of)\s*(\d+)",
    re.IGNORECASE,
)


def estimate_tokens(text: str) -> int:
    """A conservative token count of ``text`` when the server offers no tokenizer."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def conversation_tokens(messages: Sequence[ChatMessage], count: TokenCounter) -> int:
    """Tokens ``messages`` take in the prompt, template overhead included."""
    return sum(count(m.content) + MESSAGE_OVERHEAD for m in messages) + REPLY_PRIMING


class ContextOverflow(ValueError):
    """The conversation does not fit the budget even with every trimmable message dropped."""

    def __init__(self, needed: int, budget: int) -> None:
        self.needed = needed
        self.budget = budget
        super().__init__(
            f"the prompt needs {needed} tokens but only {budget} fit in the context, "
            "with all trimmable history dropped"
        )


def fit_messages(
    messages: Sequence[ChatMessage], budget: int, count: TokenCounter
) -> list[ChatMessage]:
    """``messages`` with trimmable ones dropped, oldest first, until they fit in ``budget`` tokens.

    Messages not marked trimmable are always kept; ``ContextOverflow`` when they alone exceed it.
    """
    kept = list(messages)
    total = conversation_tokens(kept, count)
    position = 0
    while total > budget:
        while position < len(kept) and not kept[position].trimmable:
            position += 1
        if position == len(kept):
            raise ContextOverflow(total, budget)
        dropped = kept.pop(position)
        total -= count(dropped.content) + MESSAGE_OVERHEAD
    return kept


def is_context_error(status: int | None, code: object, message: str) -> bool:
    """Whether an endpoint error says the prompt did not fit the model's context."""
    if isinstance(code, str) and code in _CONTEXT_CODES:
        return True
    return status == 400 and _CONTEXT_WORDING.search(message) is not None


def context_from_error(message: str) -> int | None:
    """The context length an error message states, if it states one."""
    match = _CONTEXT_NUMBER.search(message)
    return int(match.group(1)) if match else None
