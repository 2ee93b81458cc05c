"""Where the LLM endpoint is and how to talk to it, read from arguments or the environment."""

from __future__ import annotations

from pathlib import Path
from typing import Literal, Self
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_MAX_TOKENS = 512

StructuredSetting = Literal["auto", "json_schema", "json_object", "off"]
TokenSetting = Literal["auto", "max_tokens", "max_completion_tokens"]


class LLMSettings(BaseSettings):
    """Endpoint, model, sampling, structured-output, context, retry, price and record/replay
    settings for chat calls.

    Every field can be given as ``GUMSHOE_LLM_<FIELD>`` in the environment (``none`` for None);
    the endpoint and key also fall back to ``OPENAI_BASE_URL`` and ``OPENAI_API_KEY``. Any
    OpenAI-compatible server works (OpenAI, vLLM, llama.cpp server, Ollama).
    """

    model_config = SettingsConfigDict(
        env_prefix="GUMSHOE_LLM_",
        extra="forbid",
        populate_by_name=True,
        frozen=True,
        env_parse_none_str="none",
    )

    base_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("base_url", "GUMSHOE_LLM_BASE_URL", "OPENAI_BASE_URL"),
        description="OpenAI-compatible endpoint ending in /v1; None means the OpenAI API.",
    )
    api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("api_key", "GUMSHOE_LLM_API_KEY", "OPENAI_API_KEY"),
        description="Bearer key; local servers usually need none.",
    )
    model: str = Field(
        default="",
        description="Model name; empty means the first model the server lists at /v1/models.",
    )
    temperature: float | None = Field(
        default=0.7,
        ge=0.0,
        le=2.0,
        description="Sampling temperature; None sends none (the model's default). OpenAI's "
        "reasoning models take none, so none is sent to them.",
    )
    reasoning_effort: Literal["low", "medium", "high"] | None = Field(
        default=None,
        description="Sent as the request's reasoning_effort (servers of reasoning models take "
        "it); None sends nothing.",
    )
    max_tokens: int | None = Field(
        default=DEFAULT_MAX_TOKENS,
        gt=0,
        description="Reply length cap for answers that set none; None leaves it to the server.",
    )
    token_parameter: TokenSetting = Field(
        default="auto",
        description="The request field the reply cap is sent in: auto sends "
        "max_completion_tokens to OpenAI's reasoning models (o1, o3, o4-mini, gpt-5, ...) and "
        "max_tokens to others, and switches when the endpoint refuses the one it sent.",
    )
    structured: StructuredSetting = Field(
        default="auto",
        description="How answers with a schema are asked for: auto finds out per endpoint.",
    )
    context_tokens: int | None = Field(
        default=None,
        gt=0,
        description="The endpoint's context length; None asks the server where it says.",
    )
    request_timeout_s: float = Field(default=60.0, gt=0.0)
    max_retries: int = Field(default=4, ge=0, description="Retries after the first attempt.")
    backoff_base_s: float = Field(default=0.5, ge=0.0)
    backoff_cap_s: float = Field(default=30.0, ge=0.0)
    price_input_per_1k: float | None = Field(default=None, ge=0.0)
    price_output_per_1k: float | None = Field(default=None, ge=0.0)
    price_table: Path | None = Field(
        default=None,
        description="JSON file of per-model prices that extends the built-in table.",
    )
    record_path: Path | None = None
    replay_path: Path | None = None

    @field_validator("base_url")
    @classmethod
    def _an_http_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL such as http://localhost:8000/v1: {value!r}")
        try:
            parts.port  # noqa: B018 - raises on a port that is not a number
        except ValueError:
            raise ValueError(f"the port of {value!r} is not a number") from None
        return value

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.backoff_cap_s < self.backoff_base_s:
            raise ValueError("backoff_cap_s must be at least backoff_base_s")
        if self.record_path is not None and self.replay_path is not None:
            raise ValueError("record_path and replay_path cannot both be set")
        return self

    @property
    def configured(self) -> bool:
        """True when an endpoint or an API key is given, so real calls can be attempted."""
        return bool(self.base_url) or (
            self.api_key is not None and bool(self.api_key.get_secret_value())
        )

    @property
    def endpoint(self) -> str:
        """The base URL calls go to, for messages and logs."""
        return self.base_url or DEFAULT_BASE_URL
