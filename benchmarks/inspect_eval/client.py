"""A gumshoe chat client over inspect_ai's model API, for games played inside an inspect sample.

The games' agents are synchronous: they run in a worker thread started by anyio, and each call
here hands ``Model.generate`` back to the sample's event loop, so inspect's transcript, usage
limits and concurrency see every call.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

import anyio.from_thread
from inspect_ai.model import (
    ChatMessage as InspectMessage,
)
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    ContentReasoning,
    GenerateConfig,
    Model,
    ModelOutput,
    ResponseSchema,
)
from inspect_ai.util import JSONSchema
from pydantic import BaseModel

from reasoning.llm import ChatMessage, ChatOptions, ChatReply, LLMEndpointError
from reasoning.llm.schema_limits import answer_schema
from reasoning.llm.usage import UsageMeter


def inspect_message(message: ChatMessage) -> InspectMessage:
    """One gumshoe chat message as inspect's message of the same role."""
    if message.role == "system":
        return ChatMessageSystem(content=message.content)
    if message.role == "assistant":
        return ChatMessageAssistant(content=message.content)
    return ChatMessageUser(content=message.content)


def reply_of(output: ModelOutput, latency_s: float) -> ChatReply:
    """inspect's model output as a gumshoe reply (text, reasoning, tokens, why it stopped)."""
    reasoning = [
        part.reasoning
        for choice in output.choices[:1]
        if not isinstance(choice.message.content, str)
        for part in choice.message.content
        if isinstance(part, ContentReasoning)
    ]
    usage = output.usage
    stop = output.stop_reason if output.choices else None
    return ChatReply(
        content=output.completion,
        reasoning="\n".join(reasoning) or None,
        model=output.model,
        prompt_tokens=usage.input_tokens if usage is not None else 0,
        completion_tokens=usage.output_tokens if usage is not None else 0,
        latency_s=max(0.0, output.time if output.time is not None else latency_s),
        finish_reason="length" if stop == "max_tokens" else stop,
    )


def response_schema(answer: type[BaseModel]) -> ResponseSchema:
    """An answer model as inspect's response schema: the schema gumshoe asks any server for
    (``reasoning.llm.schema_limits.answer_schema``) with its definitions written in place and
    constants as one-value enums, which inspect's schema model takes (it keeps no ``$ref`` or
    ``const``); item counts, which it does not keep, are left to validation."""
    schema = answer_schema(answer)
    inline = _inlined(schema, schema.get("$defs", {}))
    return ResponseSchema(name=answer.__name__, json_schema=JSONSchema.model_validate(inline))


def _inlined(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_inlined(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str):
        return _inlined(defs[ref.rsplit("/", 1)[-1]], defs)
    inlined = {k: _inlined(v, defs) for k, v in node.items() if k not in ("$defs", "const")}
    if "const" in node:
        inlined["enum"] = [node["const"]]
    return inlined


class SchemaSupport:
    """Which inspect models took a response schema, and which refused one, in this process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._taken: set[str] = set()
        self._refused: set[str] = set()

    def worth_trying(self, model: str) -> bool:
        """Whether ``model`` is still asked with a response schema."""
        with self._lock:
            return model not in self._refused

    def taken(self, model: str) -> bool:
        """Whether ``model`` has answered a call with a response schema."""
        with self._lock:
            return model in self._taken

    def taken_by(self, model: str) -> None:
        """Remember that ``model`` answered with a response schema."""
        with self._lock:
            self._taken.add(model)

    def refused_by(self, model: str) -> None:
        """Remember that ``model`` could not be asked with a response schema."""
        with self._lock:
            self._refused.add(model)


SCHEMAS = SchemaSupport()
"""What this process has learned of its inspect models and response schemas."""


class InspectChatClient:
    """A ``ChatClient`` asking an inspect ``Model``; call it only from a thread that anyio started
    (``anyio.to_thread.run_sync``) inside the sample. Sampling settings are inspect's own
    (``--temperature`` and the rest); a call adds only its seed, its length cap and, for an
    answer model, the structured-output schema. A model error is an ``LLMEndpointError``, so the
    game errors as it would at a failing endpoint."""

    def __init__(self, model: Model, meter: UsageMeter) -> None:
        self._model = model
        self._meter = meter

    @property
    def model(self) -> str:
        """The inspect model's name (``provider/model``)."""
        return str(self._model)

    @property
    def meter(self) -> UsageMeter:
        """Where this client's replies and failures are counted."""
        return self._meter

    def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        seed: int | None = None,
        options: ChatOptions | None = None,
    ) -> ChatReply:
        """Ask the model through inspect and count the reply.

        An answer model is asked for as inspect's response schema. Until the model has taken
        one, that first try is made without inspect's retries (inspect retries a server error
        for ever, and a server without ``json_schema``, as llama-cpp-python's, answers it with
        500): if it fails, the model is asked in plain text from then on, counted as a format
        degrade, and the answer is asked again so."""
        config = GenerateConfig(seed=seed)
        if options is not None and options.max_tokens is not None:
            config = config.merge(GenerateConfig(max_tokens=options.max_tokens))
        started = time.perf_counter()
        answer = options.answer if options is not None else None
        if answer is not None and SCHEMAS.worth_trying(self.model):
            taken = SCHEMAS.taken(self.model)
            schema = GenerateConfig(response_schema=response_schema(answer))
            if not taken:
                schema = schema.merge(GenerateConfig(max_retries=0))
            try:
                output = self._ask(messages, config.merge(schema))
            except LLMEndpointError:
                if taken:
                    raise
                SCHEMAS.refused_by(self.model)
                self._meter.record_format_degrade()
            else:
                SCHEMAS.taken_by(self.model)
                return self._count(output, started)
        return self._count(self._ask(messages, config), started)

    def _ask(self, messages: Sequence[ChatMessage], config: GenerateConfig) -> ModelOutput:
        """The model's output, or ``LLMEndpointError`` (counted) when it gave none."""
        try:
            output = anyio.from_thread.run(self._generate, list(messages), config)
        except Exception as err:
            self._meter.record_error()
            raise LLMEndpointError(self.model, 1, f"{type(err).__name__}: {err}") from err
        if output.error is not None:
            self._meter.record_error()
            raise LLMEndpointError(self.model, 1, output.error)
        return output

    def _count(self, output: ModelOutput, started: float) -> ChatReply:
        reply = reply_of(output, time.perf_counter() - started)
        self._meter.record_reply(reply)
        return reply

    async def _generate(self, messages: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        return await self._model.generate([inspect_message(m) for m in messages], config=config)
