"""LLM machinery shared by every game: settings, chat clients, record/replay, structured
answers with re-prompting, usage metering and counted fallbacks."""

from reasoning.llm.client import ChatClient, LLMEndpointError, OpenAIChatClient, backoff_delay
from reasoning.llm.extract import MalformedAnswer, json_objects, labelled_fields
from reasoning.llm.factory import make_client
from reasoning.llm.fallback import (
    FallbackCounter,
    FallbackReason,
    FallbackSnapshot,
    choose_with_fallback,
)
from reasoning.llm.messages import ChatMessage, ChatReply, Role, assistant, system, user
from reasoning.llm.recording import (
    RecordedCall,
    RecordedFailure,
    RecordingClient,
    ReplayClient,
    ReplayError,
    ReplayExhausted,
    ReplayMismatch,
    load_recording,
)
from reasoning.llm.settings import LLMSettings
from reasoning.llm.structured import (
    StructuredOutcome,
    ask_structured,
    describe_validation_error,
    parse_reply,
    reprompt_text,
)
from reasoning.llm.usage import UsageMeter, UsageSnapshot

__all__ = [
    "ChatClient",
    "ChatMessage",
    "ChatReply",
    "FallbackCounter",
    "FallbackReason",
    "FallbackSnapshot",
    "LLMEndpointError",
    "LLMSettings",
    "MalformedAnswer",
    "OpenAIChatClient",
    "RecordedCall",
    "RecordedFailure",
    "RecordingClient",
    "ReplayClient",
    "ReplayError",
    "ReplayExhausted",
    "ReplayMismatch",
    "Role",
    "StructuredOutcome",
    "UsageMeter",
    "UsageSnapshot",
    "ask_structured",
    "assistant",
    "backoff_delay",
    "choose_with_fallback",
    "describe_validation_error",
    "json_objects",
    "labelled_fields",
    "load_recording",
    "make_client",
    "parse_reply",
    "reprompt_text",
    "system",
    "user",
]
