"""The chat-client interface and its implementation over any OpenAI-compatible endpoint."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import openai
from openai.types.chat import (
    ChatCompletion,
    ChatCompletionAssistantMessageParam,
    ChatCompletionMessageParam,
    ChatCompletionSystemMessageParam,
    ChatCompletionUserMessageParam,
)

from reasoning.closing import Closing
from reasoning.llm.messages import ChatMessage, ChatReply
from reasoning.llm.settings import LLMSettings
from reasoning.llm.usage import UsageMeter

Sleep = Callable[[float], None]

# Sent as the bearer key to endpoints that need none (local servers); the openai client
# refuses to start without some key.
_NO_KEY = "no-key"
_MAX_EXPONENT = 60


@runtime_checkable
class ChatClient(Protocol):
    """Anything that answers a conversation with one reply, counting its usage."""

    @property
    def model(self) -> str:
        """The model requests are made for."""
        ...

    @property
    def meter(self) -> UsageMeter:
        """Where calls, retries, errors and tokens are counted."""
        ...

    def complete(self, messages: Sequence[ChatMessage], *, seed: int | None = None) -> ChatReply:
        """Answer ``messages``; raise ``LLMEndpointError`` when the endpoint cannot."""
        ...


class LLMEndpointError(RuntimeError):
    """The endpoint failed for good: a non-retryable error, or retries ran out."""

    def __init__(self, endpoint: str, attempts: int, detail: str, status: int | None = None):
        self.endpoint = endpoint
        self.attempts = attempts
        self.detail = detail
        self.status = status
        plural = "" if attempts == 1 else "s"
        super().__init__(
            f"chat endpoint {endpoint} failed after {attempts} attempt{plural}: {detail}"
        )


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


class OpenAIChatClient(Closing):
    """Chat calls through the ``openai`` client, with our own bounded retry loop.

    Rate limits (429), server errors (5xx), connection errors and timeouts are retried up to
    ``settings.max_retries`` times with exponential backoff and jitter (honouring a
    ``Retry-After`` header up to the cap); other errors fail at once. ``sleep`` and ``rng`` are
    injectable so tests need not wait.
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

    @property
    def model(self) -> str:
        """The configured model name."""
        return self._settings.model

    @property
    def meter(self) -> UsageMeter:
        """The usage meter this client records into."""
        return self._meter

    def close(self) -> None:
        """Release the HTTP connections."""
        self._client.close()

    def complete(self, messages: Sequence[ChatMessage], *, seed: int | None = None) -> ChatReply:
        """Send ``messages`` and return the first choice, retrying transient failures."""
        params = [_message_param(m) for m in messages]
        settings = self._settings
        max_tokens = settings.max_tokens if settings.max_tokens is not None else openai.omit
        attempts = 0
        while True:
            attempts += 1
            started = time.perf_counter()
            try:
                completion = self._client.chat.completions.create(
                    model=settings.model,
                    messages=params,
                    temperature=settings.temperature,
                    max_tokens=max_tokens,
                    seed=seed if seed is not None else openai.omit,
                )
            except openai.OpenAIError as err:
                failure = _classify(err, settings.request_timeout_s)
            else:
                return self._reply(completion, time.perf_counter() - started, attempts)
            if not failure.retryable or attempts > settings.max_retries:
                self._meter.record_error()
                raise LLMEndpointError(settings.endpoint, attempts, failure.detail, failure.status)
            self._meter.record_retry()
            self._sleep(self._delay(attempts - 1, failure.retry_after_s))

    def _delay(self, retry: int, retry_after_s: float | None) -> float:
        settings = self._settings
        delay = backoff_delay(retry, settings.backoff_base_s, settings.backoff_cap_s, self._rng)
        if retry_after_s is not None:
            delay = max(delay, min(retry_after_s, settings.backoff_cap_s))
        return delay

    def _reply(self, completion: ChatCompletion, latency_s: float, attempts: int) -> ChatReply:
        if not completion.choices:
            self._meter.record_error()
            raise LLMEndpointError(
                self._settings.endpoint, attempts, "the reply contained no choices"
            )
        usage = completion.usage
        reply = ChatReply(
            content=completion.choices[0].message.content or "",
            model=completion.model or self._settings.model,
            prompt_tokens=usage.prompt_tokens if usage is not None else 0,
            completion_tokens=usage.completion_tokens if usage is not None else 0,
            latency_s=latency_s,
        )
        self._meter.record_reply(reply)
        return reply


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
        return _Failure(
            detail=f"HTTP {status}: {_status_message(err)}",
            retryable=status == 429 or status >= 500,
            status=status,
            retry_after_s=_retry_after(err),
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
