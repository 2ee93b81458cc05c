"""A local HTTP server that speaks the OpenAI chat-completions API from a script.

Tests point the real ``openai`` client (through ``reasoning.llm``) at it, so the whole client
path runs without a model. Usage::

    from reasoning.llm import LLMSettings, OpenAIChatClient
    from reasoning.llm.scripted_server import Delay, Fail, Reply, ScriptedChatServer

    with ScriptedChatServer(["first answer", Fail(429), Reply("second", prompt_tokens=7)]) as srv:
        settings = LLMSettings(base_url=srv.base_url, model="scripted")
        client = OpenAIChatClient(settings, sleep=lambda _: None)  # no real backoff waits
        ...
        assert srv.requests[0].last_user == "the prompt"

A script is either a sequence of steps, used one per request in order, or a callable that
receives each ``ChatRequest`` and returns the step to answer it with (handy when a game test
answers by what the prompt says). A step is one of:

- ``Reply(content, ...)`` or a plain ``str``: a 200 chat completion with that text;
- ``Fail(status, message)`` or a plain ``int`` status: an error with an OpenAI-style JSON body
  (``{"error": {"message", "type", "code"}}``), optionally with a ``Retry-After`` header;
- ``Delay(seconds, then)``: wait, then answer with ``then`` (use it to trigger client timeouts).

The server can also stand in for a real server's extras: ``models`` answers ``GET /v1/models``
(ids, optionally with a ``max_model_len``), ``n_ctx`` answers llama.cpp's ``GET /props``,
``tokenizer`` serves ``/extras/tokenize/count`` (llama-cpp-python) or ``/tokenize`` (llama.cpp)
counting words, ``reject_formats`` answers requests whose ``response_format`` type it names with
that status (as llama-cpp-python answers ``json_schema`` with 500), and ``context_tokens``
answers a prompt longer than that many words with llama-cpp-python's 400
``context_length_exceeded``. Rejected requests are listed in ``requests`` but use no step;
other routes are listed in ``probes``.

``personality=OpenAIReasoningModel(...)`` answers as OpenAI answers for its reasoning models
(o1, o3, o4-mini, gpt-5): a request with ``max_tokens``, or with a ``temperature`` other than 1,
gets the 400 OpenAI sends, word for word; a reply first spends ``reasoning_tokens`` (counted in
``usage.completion_tokens_details``) from ``max_completion_tokens``, so a small cap cuts the
answer off, or leaves it empty, with ``finish_reason`` ``length``.

When a sequence script runs out, the server answers 400 with a message saying so (400 is not
retried, so the test fails at once) and records the message in ``errors``; an exception raised
by a callable script is answered and recorded the same way. Requests that are not a POST to
``/v1/chat/completions`` get 404, and a body without a ``model`` string or a ``messages`` list
gets 400, as a real endpoint would.

Token usage in a reply defaults to word counts: prompt tokens are the words of all request
messages, completion tokens the words of the answer; ``Reply`` can set both explicitly.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

CHAT_PATH = "/v1/chat/completions"
_POLL_S = 0.02  # how often the serving loop checks for stop(); keeps stop() quick
_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 429: "rate_limit_error"}


@dataclass(frozen=True)
class Reply:
    """Answer 200 with ``content``; token counts and the reported model may be fixed."""

    content: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    model: str | None = None
    finish_reason: str = "stop"
    reasoning: str | None = None
    """Sent as the message's ``reasoning_content`` when given."""
    reasoning_tokens: int | None = None
    """Reported as ``usage.completion_tokens_details.reasoning_tokens`` when given."""


@dataclass(frozen=True)
class Fail:
    """Answer with HTTP ``status`` and an OpenAI-style error body carrying ``message``."""

    status: int
    message: str = "scripted failure"
    retry_after_s: float | None = None
    code: str | None = None
    param: str | None = None


@dataclass(frozen=True)
class Delay:
    """Wait ``seconds`` before answering with ``then``."""

    seconds: float
    then: Reply | Fail | str | int


@dataclass(frozen=True)
class OpenAIReasoningModel:
    """The personality of one of OpenAI's reasoning models (see the module docstring):
    ``reasoning_tokens`` hidden reasoning tokens spent on every reply before its answer."""

    reasoning_tokens: int = 0


Step = Reply | Fail | Delay | str | int
Script = Sequence[Step] | Callable[["ChatRequest"], Step]


@dataclass(frozen=True)
class ChatRequest:
    """One request the server received: its path, headers (names lower-cased, as HTTP treats
    them case-insensitively) and decoded JSON body."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def model(self) -> str:
        """The requested model name."""
        return str(self.body.get("model", ""))

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The request's messages as sent (dicts with ``role`` and ``content``)."""
        messages = self.body.get("messages", [])
        return [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []

    @property
    def response_format(self) -> dict[str, Any] | None:
        """The requested ``response_format`` object, if any."""
        value = self.body.get("response_format")
        return value if isinstance(value, dict) else None

    @property
    def format_type(self) -> str | None:
        """The requested response format's ``type`` (``json_schema``, ``json_object``), if any."""
        return None if self.response_format is None else str(self.response_format.get("type"))

    @property
    def prompt_words(self) -> int:
        """Words in all messages: the server's stand-in for prompt tokens."""
        return sum(_words(m.get("content", "")) for m in self.messages)

    @property
    def last_user(self) -> str:
        """The content of the last user message, or "" when there is none."""
        for message in reversed(self.messages):
            if message.get("role") == "user":
                return str(message.get("content", ""))
        return ""


class ScriptedChatServer:
    """Chat-completions server on 127.0.0.1 with an ephemeral port, answering from a script.

    Use as a context manager (or call ``start``/``stop``). ``base_url`` ends in ``/v1`` and is
    what ``LLMSettings.base_url`` takes; ``requests`` lists every chat request received, in order.
    """

    def __init__(
        self,
        script: Script,
        *,
        models: Sequence[str] | None = None,
        max_model_len: int | None = None,
        n_ctx: int | None = None,
        tokenizer: Literal["extras", "llama"] | None = None,
        reject_formats: dict[str, int] | None = None,
        context_tokens: int | None = None,
        personality: OpenAIReasoningModel | None = None,
    ) -> None:
        self._script = script
        self.personality = personality
        self.models = list(models) if models is not None else None
        self.max_model_len = max_model_len
        self.n_ctx = n_ctx
        self.tokenizer = tokenizer
        self.reject_formats = dict(reject_formats or {})
        self.context_tokens = context_tokens
        self.probes: list[str] = []
        self._next = 0
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self.requests: list[ChatRequest] = []
        self.errors: list[str] = []

    @property
    def base_url(self) -> str:
        """The endpoint's base URL, ``http://127.0.0.1:<port>/v1``."""
        if self._server is None:
            raise RuntimeError("the scripted chat server is not running; call start() first")
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def pending(self) -> int:
        """Steps of a sequence script not used yet (0 for a callable script)."""
        if callable(self._script):
            return 0
        with self._lock:
            return len(self._script) - self._next

    def start(self) -> ScriptedChatServer:
        """Start serving in a background thread; return self."""
        if self._server is not None:
            raise RuntimeError("the scripted chat server is already running")
        server = _Server(self)
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, args=(_POLL_S,), name="chat-server", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket; requests made afterwards fail to connect."""
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join()
        self._server = None
        self._thread = None

    def __enter__(self) -> ScriptedChatServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _step_for(self, request: ChatRequest) -> tuple[int, Step]:
        """Record ``request``; return its 1-based number and the step that answers it."""
        with self._lock:
            self.requests.append(request)
            number = len(self.requests)
            rejected = self._rejection(request)
            if rejected is not None:
                return number, rejected
            if not callable(self._script):
                if self._next >= len(self._script):
                    return number, self._error(f"script exhausted: request {number} has no step")
                step = self._script[self._next]
                self._next += 1
                return number, step
        try:
            return number, self._script(request)
        except Exception as exc:  # answered as an error and kept for the test to inspect
            with self._lock:
                return number, self._error(f"script raised on request {number}: {exc!r}")

    def _rejection(self, request: ChatRequest) -> Fail | None:
        """The error a real server would give before generating, or None."""
        if self.personality is not None:
            refused = _reasoning_model_refusal(request.body)
            if refused is not None:
                return refused
        kind = request.format_type
        if kind is not None and kind in self.reject_formats:
            return Fail(
                self.reject_formats[kind], f"response_format type {kind!r} is not supported"
            )
        words = request.prompt_words
        if self.context_tokens is not None and words >= self.context_tokens:
            return Fail(
                400,
                f"This model's maximum context length is {self.context_tokens} tokens. However, "
                f"you requested {words} tokens ({words} in the messages, 0 in the completion).",
                code="context_length_exceeded",
            )
        return None

    def _route(self, method: str, path: str, body: object) -> tuple[int, object]:
        """Answer an extras route: the model list, /props or a tokenizer; 404 when not served."""
        with self._lock:
            self.probes.append(f"{method} {path}")
        text = body.get("input", body.get("content", "")) if isinstance(body, dict) else ""
        if method == "GET" and path == "/v1/models" and self.models is not None:
            extra = {} if self.max_model_len is None else {"max_model_len": self.max_model_len}
            data = [{"id": name, "object": "model", **extra} for name in self.models]
            return 200, {"object": "list", "data": data}
        if method == "GET" and path == "/props" and self.n_ctx is not None:
            return 200, {"default_generation_settings": {"n_ctx": self.n_ctx}}
        if method == "POST" and path == "/extras/tokenize/count" and self.tokenizer == "extras":
            return 200, {"count": _words(text)}
        if method == "POST" and path == "/tokenize" and self.tokenizer == "llama":
            return 200, {"tokens": list(range(_words(text)))}
        return 404, {"error": {"message": f"no route for {method} {path}", "code": "404"}}

    def _error(self, message: str) -> Fail:
        self.errors.append(message)
        return Fail(400, message)


class _Server(ThreadingHTTPServer):
    """The HTTP server, holding a back-reference to the scripted server that owns it."""

    daemon_threads = True

    def __init__(self, owner: ScriptedChatServer) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.owner = owner


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Stay quiet: tests read ``requests`` instead of a log."""

    def do_GET(self) -> None:
        status, payload = self.server.owner._route("GET", self.path, None)
        self._send_json(status, payload)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if self.path != CHAT_PATH:
            try:
                body = json.loads(raw or b"null")
            except json.JSONDecodeError:
                body = None
            status, payload = self.server.owner._route("POST", self.path, body)
            self._send_json(status, payload)
            return
        try:
            body = json.loads(raw or b"null")
        except json.JSONDecodeError as exc:
            self._send_fail(Fail(400, f"request body is not JSON: {exc}"))
            return
        problem = _request_problem(body)
        if problem is not None:
            self._send_fail(Fail(400, problem))
            return
        request = ChatRequest(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        number, step = self.server.owner._step_for(request)
        self._answer(step, request, number)

    def _answer(self, step: Step, request: ChatRequest, number: int) -> None:
        if isinstance(step, Delay):
            time.sleep(step.seconds)
            step = step.then
        if isinstance(step, str):
            step = Reply(step)
        elif isinstance(step, int):
            step = Fail(step)
        if isinstance(step, Delay):
            self._send_fail(Fail(500, "a Delay step cannot wrap another Delay"))
        elif isinstance(step, Fail):
            self._send_fail(step)
        else:
            personality = self.server.owner.personality
            if personality is not None:
                step = _spend_reasoning(step, request, personality.reasoning_tokens)
            self._send_json(200, _completion(step, request, number))

    def _send_fail(self, fail: Fail) -> None:
        error = {
            "message": fail.message,
            "type": _ERROR_TYPES.get(
                fail.status, "server_error" if fail.status >= 500 else "error"
            ),
            **({} if fail.param is None else {"param": fail.param}),
            "code": fail.code or str(fail.status),
        }
        headers = {} if fail.retry_after_s is None else {"Retry-After": f"{fail.retry_after_s:g}"}
        self._send_json(fail.status, {"error": error}, headers)

    def _send_json(
        self, status: int, payload: object, headers: dict[str, str] | None = None
    ) -> None:
        data = json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up waiting (a Delay longer than its timeout)


def _request_problem(body: object) -> str | None:
    """What makes ``body`` an invalid chat request, or None."""
    if not isinstance(body, dict):
        return "request body must be a JSON object"
    if not isinstance(body.get("model"), str) or not body["model"]:
        return "field 'model' must be a non-empty string"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "field 'messages' must be a non-empty list"
    for index, message in enumerate(messages):
        if not isinstance(message, dict) or "role" not in message or "content" not in message:
            return f"messages[{index}] must be an object with 'role' and 'content'"
    return None


def _reasoning_model_refusal(body: dict[str, Any]) -> Fail | None:
    """The 400 OpenAI answers a reasoning model's request with, if it would."""
    if "max_tokens" in body:
        return Fail(
            400,
            "Unsupported parameter: 'max_tokens' is not supported with this model. "
            "Use 'max_completion_tokens' instead.",
            code="unsupported_parameter",
            param="max_tokens",
        )
    temperature = body.get("temperature")
    if temperature is not None and temperature != 1:
        return Fail(
            400,
            f"Unsupported value: 'temperature' does not support {json.dumps(temperature)} with "
            "this model. Only the default (1) value is supported.",
            code="unsupported_value",
            param="temperature",
        )
    return None


def _spend_reasoning(reply: Reply, request: ChatRequest, reasoning_tokens: int) -> Reply:
    """``reply`` as a reasoning model gives it: its hidden reasoning first, the answer in what
    is left of ``max_completion_tokens`` (cut off at it, or empty, with ``length``)."""
    words = reply.content.split()
    cap = request.body.get("max_completion_tokens")
    answer_room = len(words) if not isinstance(cap, int) else max(0, cap - reasoning_tokens)
    spent = min(reasoning_tokens, cap) if isinstance(cap, int) else reasoning_tokens
    if answer_room >= len(words):
        return replace(reply, completion_tokens=spent + len(words), reasoning_tokens=spent)
    return replace(
        reply,
        content=" ".join(words[:answer_room]),
        completion_tokens=spent + answer_room,
        finish_reason="length",
        reasoning_tokens=spent,
    )


def _words(text: object) -> int:
    return len(str(text).split())


def _completion(reply: Reply, request: ChatRequest, number: int) -> dict[str, Any]:
    prompt_tokens = reply.prompt_tokens
    if prompt_tokens is None:
        prompt_tokens = sum(_words(m.get("content", "")) for m in request.messages)
    completion_tokens = reply.completion_tokens
    if completion_tokens is None:
        completion_tokens = _words(reply.content)
    return {
        "id": f"chatcmpl-scripted-{number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": reply.model or request.model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply.content}
                | ({} if reply.reasoning is None else {"reasoning_content": reply.reasoning}),
                "finish_reason": reply.finish_reason,
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        }
        | (
            {}
            if reply.reasoning_tokens is None
            else {"completion_tokens_details": {"reasoning_tokens": reply.reasoning_tokens}}
        ),
    }
