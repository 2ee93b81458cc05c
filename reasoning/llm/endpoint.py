"""What an endpoint says about itself (models, context length, tokenizer) and what was learned
about it (the structured-output mode it accepts, a context length from an error).

Facts are kept per base URL for the life of the process, so every client of one endpoint asks
once. Probes are plain HTTP calls that fail quietly: a server without a route just tells nothing.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from reasoning.llm.budget import estimate_tokens

StructuredMode = Literal["json_schema", "json_object", "off"]
# The order ``auto`` tries modes in, and the order a rejected mode degrades along.
MODE_ORDER: tuple[StructuredMode, ...] = ("json_schema", "json_object", "off")

DEFAULT_PROBE_TIMEOUT_S = 10.0
_COUNT_CACHE = 4096
# Model-list fields that give the serving context length (vLLM's, and generic spellings).
_CONTEXT_FIELDS = ("max_model_len", "context_length", "context_window", "n_ctx")


# What a probe returns when the server did not answer at all: nothing is learned from it.
UNANSWERED = object()


def next_mode(mode: StructuredMode) -> StructuredMode:
    """The mode to try after ``mode`` was rejected (``off`` stays ``off``)."""
    return MODE_ORDER[min(MODE_ORDER.index(mode) + 1, len(MODE_ORDER) - 1)]


@dataclass
class EndpointFacts:
    """What is known about one endpoint; None means not known (yet)."""

    mode: StructuredMode | None = None
    proven: StructuredMode | None = None
    """The best structured-output mode the endpoint has answered in."""
    context_tokens: int | None = None
    context_probed: bool = False
    models: tuple[str, ...] | None = None
    tokenizer: Literal["extras", "tokenize", "none"] | None = None
    counts: OrderedDict[str, int] = field(default_factory=OrderedDict)
    refused: dict[str, frozenset[str]] = field(default_factory=dict)
    """Model -> the request parameters the endpoint refused for it (``request.RequestShape``)."""
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


_FACTS: dict[str, EndpointFacts] = {}
_LOCK = threading.Lock()


def facts_for(base_url: str) -> EndpointFacts:
    """The shared record of what is known about ``base_url``."""
    with _LOCK:
        return _FACTS.setdefault(base_url.rstrip("/"), EndpointFacts())


class EndpointProbe:
    """HTTP look-ups at an OpenAI-compatible endpoint and its server's own routes."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        model: str = "",
        timeout_s: float = DEFAULT_PROBE_TIMEOUT_S,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.root = self.base_url.removesuffix("/v1")
        self.facts = facts_for(self.base_url)
        self._api_key = api_key
        self._model = model
        self._timeout_s = timeout_s
        self._lock = self.facts.lock
        self._deadline = threading.local()

    @contextmanager
    def until(self, deadline: float) -> Iterator[None]:
        """Within the block, in this thread, probes end by ``deadline`` (a ``time.monotonic``
        value): each waits at most the time left, and none is sent once it has passed, so the
        look-ups a call makes fit inside the call's own time limit."""
        previous = getattr(self._deadline, "at", None)
        self._deadline.at = deadline
        try:
            yield
        finally:
            self._deadline.at = previous

    def models(self) -> tuple[str, ...]:
        """The model ids the server lists at ``/models``: empty when it lists none, or when it
        did not answer (then it is asked again next time)."""
        with self._lock:
            if self.facts.models is None:
                self._read_models()
            return self.facts.models or ()

    def context_tokens(self) -> int | None:
        """The serving context length: learned, listed with the model, or in llama.cpp's /props."""
        with self._lock:
            if self.facts.context_tokens is None and not self.facts.context_probed:
                self.facts.context_probed = True
                if self.facts.models is None:
                    self._read_models()
                if self.facts.context_tokens is None:
                    self.facts.context_tokens = _props_context(self._get(f"{self.root}/props"))
            return self.facts.context_tokens

    def learn_context(self, tokens: int) -> None:
        """Remember a context length the server stated (in an error, say)."""
        with self._lock:
            self.facts.context_tokens = tokens

    def learn_mode(self, mode: StructuredMode, degraded: bool) -> None:
        """Remember that the endpoint answered in ``mode``; after a rejection of a better mode
        (``degraded``), the endpoint is asked in ``mode`` from now on, unless it has answered in
        a better one before (then the rejection was of one schema, not of the mode)."""
        with self._lock:
            facts = self.facts
            if degraded and (
                facts.proven is None or MODE_ORDER.index(facts.proven) >= MODE_ORDER.index(mode)
            ):
                facts.mode = mode
            if facts.proven is None or MODE_ORDER.index(mode) < MODE_ORDER.index(facts.proven):
                facts.proven = mode

    def refused(self, model: str) -> frozenset[str]:
        """The request parameters the endpoint refused for ``model`` so far."""
        with self._lock:
            return self.facts.refused.get(model, frozenset())

    def learn_refused(self, model: str, parameter: str) -> None:
        """Remember that the endpoint refused ``parameter`` for ``model``."""
        with self._lock:
            self.facts.refused[model] = self.facts.refused.get(model, frozenset()) | {parameter}

    def count(self, text: str) -> int:
        """Tokens in ``text`` by the server's tokenizer, or the conservative estimate."""
        if not text:
            return 0
        facts = self.facts
        with self._lock:
            cached = facts.counts.get(text)
            if cached is not None:
                facts.counts.move_to_end(text)
                return cached
            tokens = self._server_count(text)
            if tokens is None:
                return estimate_tokens(text)
            facts.counts[text] = tokens
            if len(facts.counts) > _COUNT_CACHE:
                facts.counts.popitem(last=False)
            return tokens

    def _server_count(self, text: str) -> int | None:
        facts = self.facts
        if facts.tokenizer in (None, "extras"):
            answer = self._post(f"{self.root}/extras/tokenize/count", {"input": text})
            if answer is UNANSWERED:
                return None
            tokens = _int_field(answer, "count")
            if tokens is not None:
                facts.tokenizer = "extras"
                return tokens
        if facts.tokenizer in (None, "tokenize"):
            body = {"content": text, "prompt": text, "add_special": False}
            if self._model:
                body["model"] = self._model
            answer = self._post(f"{self.root}/tokenize", body)
            if answer is UNANSWERED:
                return None
            tokens = _int_field(answer, "count")
            if (
                tokens is None
                and isinstance(answer, dict)
                and isinstance(answer.get("tokens"), list)
            ):
                tokens = len(answer["tokens"])
            if tokens is not None:
                facts.tokenizer = "tokenize"
                return tokens
        facts.tokenizer = "none"
        return None

    def _read_models(self) -> None:
        answer = self._get(f"{self.base_url}/models")
        if answer is UNANSWERED:
            return
        data = answer.get("data") if isinstance(answer, dict) else None
        entries = [d for d in data if isinstance(d, dict)] if isinstance(data, list) else []
        self.facts.models = tuple(str(d["id"]) for d in entries if isinstance(d.get("id"), str))
        chosen = [d for d in entries if d.get("id") == self._model] or entries[:1]
        for entry in chosen:
            for name in _CONTEXT_FIELDS:
                value = _int_field(entry, name)
                if value is not None and self.facts.context_tokens is None:
                    self.facts.context_tokens = value

    def _get(self, url: str) -> object:
        return self._call(urllib.request.Request(url, headers=self._headers()))

    def _post(self, url: str, body: dict[str, Any]) -> object:
        headers = {**self._headers(), "Content-Type": "application/json"}
        data = json.dumps(body).encode()
        return self._call(urllib.request.Request(url, data=data, headers=headers, method="POST"))

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}

    def _call(self, request: urllib.request.Request) -> object:
        """The JSON answer; None when the route is missing or answers no JSON; ``UNANSWERED``
        when the server could not be reached or did not answer in time."""
        timeout = self._timeout_s
        deadline: float | None = getattr(self._deadline, "at", None)
        if deadline is not None:
            timeout = min(timeout, deadline - time.monotonic())
            if timeout <= 0:
                return UNANSWERED
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError:
            return None
        except OSError:
            return UNANSWERED
        except ValueError:
            return None


def _int_field(value: object, name: str) -> int | None:
    if not isinstance(value, dict):
        return None
    found = value.get(name)
    return found if isinstance(found, int) and not isinstance(found, bool) and found > 0 else None


def _props_context(props: object) -> int | None:
    """llama.cpp's ``/props``: ``default_generation_settings.n_ctx``."""
    if not isinstance(props, dict):
        return None
    return _int_field(props.get("default_generation_settings"), "n_ctx")
