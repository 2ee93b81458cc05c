"""LLM machinery shared by every game: settings, chat clients, record/replay, structured
answers with re-prompting, usage metering and counted fallbacks.

Each name is imported from its module on first use, so importing one submodule (the scripted
test server, say) loads no LLM client.
"""

from typing import TYPE_CHECKING

from reasoning.lazy import lazy_exports

if TYPE_CHECKING:
    from reasoning.llm.budget import ContextOverflow as ContextOverflow
    from reasoning.llm.budget import context_from_error as context_from_error
    from reasoning.llm.budget import conversation_tokens as conversation_tokens
    from reasoning.llm.budget import estimate_tokens as estimate_tokens
    from reasoning.llm.budget import fit_messages as fit_messages
    from reasoning.llm.budget import is_context_error as is_context_error
    from reasoning.llm.chat import ChatClient as ChatClient
    from reasoning.llm.chat import ChatOptions as ChatOptions
    from reasoning.llm.chat import accepts_options as accepts_options
    from reasoning.llm.chat import complete_with as complete_with
    from reasoning.llm.client import OpenAIChatClient as OpenAIChatClient
    from reasoning.llm.client import backoff_delay as backoff_delay
    from reasoning.llm.endpoint import EndpointProbe as EndpointProbe
    from reasoning.llm.endpoint import StructuredMode as StructuredMode
    from reasoning.llm.errors import ContextLengthError as ContextLengthError
    from reasoning.llm.errors import LLMEndpointError as LLMEndpointError
    from reasoning.llm.errors import ReplayError as ReplayError
    from reasoning.llm.errors import ReplayExhausted as ReplayExhausted
    from reasoning.llm.errors import ReplayMismatch as ReplayMismatch
    from reasoning.llm.extract import MalformedAnswer as MalformedAnswer
    from reasoning.llm.extract import json_objects as json_objects
    from reasoning.llm.extract import labelled_fields as labelled_fields
    from reasoning.llm.extract import labelled_text as labelled_text
    from reasoning.llm.factory import ClientProvider as ClientProvider
    from reasoning.llm.factory import chat_clients_from as chat_clients_from
    from reasoning.llm.factory import make_client as make_client
    from reasoning.llm.fallback import FallbackCounter as FallbackCounter
    from reasoning.llm.fallback import FallbackReason as FallbackReason
    from reasoning.llm.fallback import FallbackSnapshot as FallbackSnapshot
    from reasoning.llm.fallback import choose_with_fallback as choose_with_fallback
    from reasoning.llm.messages import ChatMessage as ChatMessage
    from reasoning.llm.messages import ChatReply as ChatReply
    from reasoning.llm.messages import Role as Role
    from reasoning.llm.messages import assistant as assistant
    from reasoning.llm.messages import history as history
    from reasoning.llm.messages import system as system
    from reasoning.llm.messages import user as user
    from reasoning.llm.prices import ModelPrice as ModelPrice
    from reasoning.llm.prices import PriceTable as PriceTable
    from reasoning.llm.recording import RecordedCall as RecordedCall
    from reasoning.llm.recording import RecordedFailure as RecordedFailure
    from reasoning.llm.recording import RecordingClient as RecordingClient
    from reasoning.llm.recording import ReplayClient as ReplayClient
    from reasoning.llm.recording import load_recording as load_recording
    from reasoning.llm.recording import recording_file as recording_file
    from reasoning.llm.settings import LLMSettings as LLMSettings
    from reasoning.llm.structured import StructuredOutcome as StructuredOutcome
    from reasoning.llm.structured import ask_structured as ask_structured
    from reasoning.llm.structured import attempt_seed as attempt_seed
    from reasoning.llm.structured import describe_validation_error as describe_validation_error
    from reasoning.llm.structured import parse_answer as parse_answer
    from reasoning.llm.structured import parse_reply as parse_reply
    from reasoning.llm.structured import reprompt_text as reprompt_text
    from reasoning.llm.usage import UsageMeter as UsageMeter
    from reasoning.llm.usage import UsageReport as UsageReport
    from reasoning.llm.usage import UsageSnapshot as UsageSnapshot
    from reasoning.llm.usage import combined as combined

_HOMES = {
    "ChatClient": "reasoning.llm.chat",
    "ChatMessage": "reasoning.llm.messages",
    "ChatOptions": "reasoning.llm.chat",
    "ChatReply": "reasoning.llm.messages",
    "ClientProvider": "reasoning.llm.factory",
    "ContextLengthError": "reasoning.llm.errors",
    "ContextOverflow": "reasoning.llm.budget",
    "EndpointProbe": "reasoning.llm.endpoint",
    "FallbackCounter": "reasoning.llm.fallback",
    "FallbackReason": "reasoning.llm.fallback",
    "FallbackSnapshot": "reasoning.llm.fallback",
    "LLMEndpointError": "reasoning.llm.errors",
    "LLMSettings": "reasoning.llm.settings",
    "MalformedAnswer": "reasoning.llm.extract",
    "ModelPrice": "reasoning.llm.prices",
    "OpenAIChatClient": "reasoning.llm.client",
    "PriceTable": "reasoning.llm.prices",
    "RecordedCall": "reasoning.llm.recording",
    "RecordedFailure": "reasoning.llm.recording",
    "RecordingClient": "reasoning.llm.recording",
    "ReplayClient": "reasoning.llm.recording",
    "ReplayError": "reasoning.llm.errors",
    "ReplayExhausted": "reasoning.llm.errors",
    "ReplayMismatch": "reasoning.llm.errors",
    "Role": "reasoning.llm.messages",
    "StructuredMode": "reasoning.llm.endpoint",
    "StructuredOutcome": "reasoning.llm.structured",
    "UsageMeter": "reasoning.llm.usage",
    "UsageReport": "reasoning.llm.usage",
    "UsageSnapshot": "reasoning.llm.usage",
    "accepts_options": "reasoning.llm.chat",
    "ask_structured": "reasoning.llm.structured",
    "assistant": "reasoning.llm.messages",
    "attempt_seed": "reasoning.llm.structured",
    "backoff_delay": "reasoning.llm.client",
    "chat_clients_from": "reasoning.llm.factory",
    "choose_with_fallback": "reasoning.llm.fallback",
    "combined": "reasoning.llm.usage",
    "complete_with": "reasoning.llm.chat",
    "context_from_error": "reasoning.llm.budget",
    "conversation_tokens": "reasoning.llm.budget",
    "describe_validation_error": "reasoning.llm.structured",
    "estimate_tokens": "reasoning.llm.budget",
    "fit_messages": "reasoning.llm.budget",
    "history": "reasoning.llm.messages",
    "is_context_error": "reasoning.llm.budget",
    "json_objects": "reasoning.llm.extract",
    "labelled_fields": "reasoning.llm.extract",
    "labelled_text": "reasoning.llm.extract",
    "load_recording": "reasoning.llm.recording",
    "make_client": "reasoning.llm.factory",
    "parse_answer": "reasoning.llm.structured",
    "parse_reply": "reasoning.llm.structured",
    "recording_file": "reasoning.llm.recording",
    "reprompt_text": "reasoning.llm.structured",
    "system": "reasoning.llm.messages",
    "user": "reasoning.llm.messages",
}

__getattr__ = lazy_exports(__name__, _HOMES)
__all__ = sorted(_HOMES)
