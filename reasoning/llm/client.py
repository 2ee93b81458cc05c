"""The chat client over any OpenAI-compatible endpoint (the interface it implements is
``reasoning.llm.chat``'s)."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

import openai
from openai.types.chat import (
    ChatCompletion,
    ChatCompletionAssistantMessageParam,
    ChatCompletionMessageParam,
    ChatCompletionSystemMessageParam,
    ChatCompletionUserMessageParam,
)

from reasoning.closing import Closing
from reasoning.llm.budget import (
    ContextOverflow,
    context_from_error,
    conversation_tokens,
    fit_messages,
    is_context_error,
)
from reasoning.llm.chat import ChatOptions, Sleep
from reasoning.llm.endpoint import MODE_ORDER, EndpointProbe, StructuredMode, next_mode
from reasoning.llm.errors import ContextLengthError, LLMEndpointError
from reasoning.llm.messages import ChatMessage, ChatReply
from reasoning.llm.request import RequestShape, refused_parameter, request_options
from reasoning.llm.settings import LLMSettings
from reasoning.llm.usage import UsageMeter

# Sent as the bearer key to endpoints that need none (local servers); the openai client
# refuses to start without some key.
_NO_KEY = "no-key"
_MAX_EXPONENT = 60
# Statuses with which a server may reject a response format it does not support (llama.cpp
# servers answer OpenAI's json_schema with 422 or 500); gateway errors never count as that.
_FORMAT_STATUSES = frozenset({400, 404, 415, 422, 500, 501})
# Context budgeting: tokens kept free for the chat template's rounding, the smallest reply
# worth asking for, how much harder each context error trims, and how many times it may.
_CONTEXT_MARGIN = 16
_MIN_REPLY_TOKENS = 64
_CONTEXT_SHRINK = 0.8
_MAX_CONTEXT_RETRIES = 4


def backoff_delay(retry: int, base_s: float, cap_s: float, rng: random.Random) -> float:
    """Seconds to wait before retry number ``retry`` (0-based): exponential, capped, jittered.

    Half of ``min(cap, base * 2**retry)`` is fixed and half is drawn uniformly, so concurrent
    clients spread out while each still waits at least half the nominal delay.
    """
    ceiling = min(cap_s, base_s * 2.0 ** min(retry, _MAX_EXPONENT))
    return ceiling / 2.0 + rng.uniform(0.0, ceiling / 2.0)


@dataclass(frozen=True, slots=True)
class _Failure:
    detail: str
    retryable: bool
    status: int | None = None
    retry_after_s: float | None = None
    context: bool = False
    refused: str | None = None


class OpenAIChatClient(Closing):
    """Chat calls through the ``openai`` client, with our own bounded retry loop.

    Rate limits (429), server errors (5xx), connection errors and timeouts are retried up to
    ``settings.max_retries`` times with exponential backoff and jitter (honouring a
    ``Retry-After`` header up to the cap); other errors fail at once. ``sleep`` and ``rng`` are
    injectable so tests need not wait.

    A call with an answer model asks for structured output in the endpoint's mode (see
    ``LLMSettings.structured``): a request the endpoint rejects for its response format is
    resent at once in the next mode (json_schema, json_object, off), not retried as a fault
    (counted in ``format_degrades``), and the mode that worked is remembered for the endpoint,
    unless the rejected mode had worked there before: then the rejection was of this schema
    (a grammar the server could not build, say), and only this call goes on in the next mode.
    The request carries the reply cap and sampling settings the model takes
    (``request.RequestShape``: OpenAI's reasoning models get ``max_completion_tokens`` and no
    temperature); a 400 refusing one of them is answered at once by the request without it,
    remembered for the endpoint and model. When the context length is known (set, or stated by
    the server), trimmable history is dropped to fit it; a context-length error from the server
    trims harder and retries, and ``ContextLengthError`` says when nothing more can go.
    """

    def __init__(
        self,
        settings: LLMSettings,
        *,
        meter: UsageMeter | None = None,
        sleep: Sleep | None = None,
        rng: random.Random | None = None,
    ) -> None:
        if not settings.configured:
            raise ValueError(
                "no LLM endpoint configured: set GUMSHOE_LLM_BASE_URL or GUMSHOE_LLM_API_KEY "
                "(or OPENAI_BASE_URL / OPENAI_API_KEY)"
            )
        self._settings = settings
        self._meter = meter if meter is not None else UsageMeter.for_settings(settings)
        self._sleep = sleep if sleep is not None else time.sleep
        self._rng = rng if rng is not None else random.Random()
        key = settings.api_key.get_secret_value() if settings.api_key is not None else ""
        self._client = openai.OpenAI(
            base_url=settings.endpoint,
            api_key=key or _NO_KEY,
            max_retries=0,
            timeout=settings.request_timeout_s,
        )
        self._probe = EndpointProbe(
            settings.endpoint, key or None, settings.model, settings.request_timeout_s
        )
        self._model = settings.model

    @property
    def model(self) -> str:
        """The model name: as configured, else the first one the server lists (asked once).

        Raises ``LLMEndpointError`` when none is configured and the server lists none, or does
        not answer in time.
        """
        if not self._model:
            listed = self._probe.models()
            if not listed:
                answered = self._probe.facts.models is not None
                raise LLMEndpointError(
                    self._settings.endpoint,
                    1,
                    "no model name given (set GUMSHOE_LLM_MODEL or --model) and the server "
                    + (
                        "lists no model at /models"
                        if answered
                        else "did not answer at /models in time (unreachable or busy)"
                    ),
                )
            self._model = listed[0]
        return self._model

    @property
    def meter(self) -> UsageMeter:
        """The usage meter this client records into."""
        return self._meter

    @property
    def structured_mode(self) -> StructuredMode:
        """The structured-output mode answers are asked in now at this endpoint."""
        setting = self._settings.structured
        start = MODE_ORDER[0] if setting == "auto" else setting
        learned = self._probe.facts.mode
        if learned is None:
            return start
        return max(start, learned, key=MODE_ORDER.index)

    def context_tokens(self) -> int | None:
        """The endpoint's context length: what the server stated in an error, else the setting,
        else what the server lists (None when nothing says)."""
        learned = self._probe.facts.context_tokens
        return learned or self._settings.context_tokens or self._probe.context_tokens()

    def close(self) -> None:
        """Release the HTTP connections."""
        self._client.close()

    def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        seed: int | None = None,
        options: ChatOptions | None = None,
    ) -> ChatReply:
        """Send ``messages`` and return the first choice, retrying transient failures.

        Each attempt, with the endpoint look-ups it needs (model list, context length, token
        counts: at most half of it), ends within ``settings.request_timeout_s``."""
        options = options if options is not None else ChatOptions()
        settings = self._settings
        limit = settings.request_timeout_s
        deadline = time.monotonic() + limit
        with self._probe.until(deadline - limit / 2):
            model = self.model
            context = self.context_tokens()
        max_tokens = options.max_tokens or settings.max_tokens
        mode = self.structured_mode if options.answer is not None else None
        shape = RequestShape.for_model(settings, model, self._probe.refused(model))
        adjusted: set[str] = set()
        degraded = False
        scale = 1.0
        overflows = 0
        attempts = 0
        while True:
            attempts += 1
            with self._probe.until(deadline - limit / 2):
                sent, reply_cap = self._fit(messages, context, scale, max_tokens, attempts)
            started = time.perf_counter()
            try:
                completion = self._client.chat.completions.create(
                    timeout=max(deadline - time.monotonic(), limit / 2),
                    model=model,
                    messages=[_message_param(m) for m in sent],
                    **request_options(settings, shape, reply_cap, seed, mode, options.answer),
                )
            except openai.OpenAIError as err:
                failure = _classify(err, settings.request_timeout_s)
            else:
                if mode is not None:
                    self._probe.learn_mode(mode, degraded)
                latency = time.perf_counter() - started
                return self._reply(completion, latency, attempts, mode, reply_cap)
            if failure.context:
                overflows += 1
                if overflows > _MAX_CONTEXT_RETRIES:
                    self._meter.record_error()
                    raise ContextLengthError(
                        settings.endpoint, attempts, failure.detail, failure.status
                    )
                stated = context_from_error(failure.detail)
                if stated is not None and stated != context:
                    self._probe.learn_context(stated)
                    context = stated
                elif context is None:
                    context = conversation_tokens(sent, self._probe.count) + (reply_cap or 0)
                    scale *= _CONTEXT_SHRINK
                else:
                    scale *= _CONTEXT_SHRINK
                attempts -= 1
                continue
            if failure.refused is not None and failure.refused not in adjusted:
                without = shape.without(failure.refused)
                if without is not None:
                    adjusted.add(failure.refused)
                    self._probe.learn_refused(model, failure.refused)
                    shape = without
                    attempts -= 1
                    continue
            if mode not in (None, "off") and failure.status in _FORMAT_STATUSES:
                mode = next_mode(mode)
                degraded = True
                self._meter.record_format_degrade()
                attempts -= 1
                continue
            if not failure.retryable or attempts > settings.max_retries:
                self._meter.record_error()
                raise LLMEndpointError(settings.endpoint, attempts, failure.detail, failure.status)
            self._meter.record_retry()
            self._sleep(self._delay(attempts - 1, failure.retry_after_s))
            deadline = time.monotonic() + limit

    def _fit(
        self,
        messages: Sequence[ChatMessage],
        context: int | None,
        scale: float,
        max_tokens: int | None,
        attempts: int,
    ) -> tuple[list[ChatMessage], int | None]:
        """The messages to send and the reply cap, fitted into ``context`` scaled by ``scale``.

        Trimmable history goes first; then the reply cap shrinks, down to a useful minimum.
        """
        if context is None:
            return list(messages), max_tokens
        room = int(context * scale) - _CONTEXT_MARGIN
        count = self._probe.count
        wanted = max_tokens if max_tokens is not None else _MIN_REPLY_TOKENS
        reserve = min(wanted, max(room // 2, _MIN_REPLY_TOKENS))
        try:
            kept = fit_messages(messages, room - reserve, count)
        except ContextOverflow as overflow:
            needed = overflow.needed
            if room - needed < _MIN_REPLY_TOKENS:
                self._meter.record_error()
                raise ContextLengthError(
                    self._settings.endpoint,
                    attempts,
                    f"{overflow}; the context holds {context} tokens",
                ) from overflow
            kept = [m for m in messages if not m.trimmable]
            reserve = room - needed
        self._meter.record_trimmed(len(messages) - len(kept))
        cap = max_tokens if max_tokens is None or reserve >= max_tokens else reserve
        return kept, cap

    def _delay(self, retry: int, retry_after_s: float | None) -> float:
        settings = self._settings
        delay = backoff_delay(retry, settings.backoff_base_s, settings.backoff_cap_s, self._rng)
        if retry_after_s is not None:
            delay = max(delay, min(retry_after_s, settings.backoff_cap_s))
        return delay

    def _reply(
        self,
        completion: ChatCompletion,
        latency_s: float,
        attempts: int,
        mode: StructuredMode | None,
        max_tokens: int | None,
    ) -> ChatReply:
        if not completion.choices:
            self._meter.record_error()
            raise LLMEndpointError(
                self._settings.endpoint, attempts, "the reply contained no choices"
            )
        usage = completion.usage
        choice = completion.choices[0]
        reply = ChatReply(
            content=choice.message.content or "",
            reasoning=_reasoning(choice.message),
            model=completion.model or self.model,
            prompt_tokens=usage.prompt_tokens if usage is not None else 0,
            completion_tokens=usage.completion_tokens if usage is not None else 0,
            latency_s=latency_s,
            finish_reason=choice.finish_reason,
            response_format=None if mode in (None, "off") else mode,
            max_tokens=max_tokens,
        )
        self._meter.record_reply(reply)
        return reply


def _reasoning(message: object) -> str | None:
    """The separate reasoning text a server returned beside the answer (``reasoning_content``,
    as vLLM and DeepSeek name it, or ``reasoning``), if any."""
    for name in ("reasoning_content", "reasoning"):
        text = getattr(message, name, None)
        if isinstance(text, str) and text:
            return text
    return None


def _message_param(message: ChatMessage) -> ChatCompletionMessageParam:
    if message.role == "system":
        return ChatCompletionSystemMessageParam(role="system", content=message.content)
    if message.role == "user":
        return ChatCompletionUserMessageParam(role="user", content=message.content)
    return ChatCompletionAssistantMessageParam(role="assistant", content=message.content)


def _classify(err: openai.OpenAIError, timeout_s: float) -> _Failure:
    """Say what went wrong and whether trying again may help."""
    if isinstance(err, openai.APIStatusError):
        status = err.status_code
        message = _status_message(err)
        code = _error_code(err)
        return _Failure(
            detail=f"HTTP {status}: {message}",
            retryable=status == 429 or status >= 500,
            status=status,
            retry_after_s=_retry_after(err),
            context=is_context_error(status, code, message),
            refused=refused_parameter(code, _error_param(err), message) if status == 400 else None,
        )
    if isinstance(err, openai.APITimeoutError):
        return _Failure(detail=f"no reply within {timeout_s:g} s", retryable=True)
    if isinstance(err, openai.APIConnectionError):
        cause = err.__cause__
        return _Failure(detail=f"connection failed: {cause or err}", retryable=True)
    return _Failure(detail=f"{type(err).__name__}: {err}", retryable=False)


def _status_message(err: openai.APIStatusError) -> str:
    body = err.body
    if isinstance(body, dict):
        message = body.get("message")
        if isinstance(message, str) and message:
            return message
    return err.message


def _error_code(err: openai.APIStatusError) -> object:
    body = err.body
    code = body.get("code") if isinstance(body, dict) else None
    return code if code is not None else err.code


def _error_param(err: openai.APIStatusError) -> object:
    body = err.body
    param = body.get("param") if isinstance(body, dict) else None
    return param if param is not None else err.param


def _retry_after(err: openai.APIStatusError) -> float | None:
    """The server's requested wait in seconds (``Retry-After`` or ``retry-after-ms``), if any."""
    headers = err.response.headers
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) * scale
        except ValueError:
            continue
        if seconds >= 0:
            return seconds
    return None
