"""LLM machinery shared by every game: settings, chat clients, record/replay, structured
answers with re-prompting, usage metering and counted fallbacks."""

from reasoning.llm.budget import (
    ContextOverflow,
    context_from_error,
    conversation_tokens,
    estimate_tokens,
    fit_messages,
    is_context_error,
)
from reasoning.llm.client import (
    ChatClient,
    ChatOptions,
    ContextLengthError,
    LLMEndpointError,
    OpenAIChatClient,
    accepts_options,
    backoff_delay,
    complete_with,
)
from reasoning.llm.endpoint import EndpointProbe, StructuredMode
from reasoning.llm.extract import MalformedAnswer, json_objects, labelled_fields, labelled_text
from reasoning.llm.factory import make_client
from reasoning.llm.fallback import (
    FallbackCounter,
    FallbackReason,
    FallbackSnapshot,
    choose_with_fallback,
)
from reasoning.llm.messages import (
    ChatMessage,
    ChatReply,
    Role,
    assistant,
    history,
    system,
    user,
)
from reasoning.llm.prices import ModelPrice, PriceTable
from reasoning.llm.recording import (
    RecordedCall,
    RecordedFailure,
    RecordingClient,
    ReplayClient,
    ReplayError,
    ReplayExhausted,
    ReplayMismatch,
    load_recording,
    recording_file,
)
from reasoning.llm.settings import LLMSettings
from reasoning.llm.structured import (
    StructuredOutcome,
    ask_structured,
    attempt_seed,
    describe_validation_error,
    parse_answer,
    parse_reply,
    reprompt_text,
)
from reasoning.llm.usage import UsageMeter, UsageReport, UsageSnapshot, combined

__all__ = [
    "ChatClient",
    "ChatMessage",
    "ChatOptions",
    "ChatReply",
    "ContextLengthError",
    "ContextOverflow",
    "EndpointProbe",
    "FallbackCounter",
    "FallbackReason",
    "FallbackSnapshot",
    "LLMEndpointError",
    "LLMSettings",
    "MalformedAnswer",
    "ModelPrice",
    "OpenAIChatClient",
    "PriceTable",
    "RecordedCall",
    "RecordedFailure",
    "RecordingClient",
    "ReplayClient",
    "ReplayError",
    "ReplayExhausted",
    "ReplayMismatch",
    "Role",
    "StructuredMode",
    "StructuredOutcome",
    "UsageMeter",
    "UsageReport",
    "UsageSnapshot",
    "accepts_options",
    "ask_structured",
    "assistant",
    "attempt_seed",
    "backoff_delay",
    "choose_with_fallback",
    "combined",
    "complete_with",
    "context_from_error",
    "conversation_tokens",
    "describe_validation_error",
    "estimate_tokens",
    "fit_messages",
    "history",
    "is_context_error",
    "json_objects",
    "labelled_fields",
    "labelled_text",
    "load_recording",
    "make_client",
    "parse_answer",
    "parse_reply",
    "recording_file",
    "reprompt_text",
    "system",
    "user",
]
