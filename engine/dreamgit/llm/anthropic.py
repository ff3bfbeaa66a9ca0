"""The Anthropic messages adapter.

``POST {base_url}/v1/messages`` with the ``x-api-key`` and ``anthropic-version``
headers; system messages go in the top-level ``system`` field and the answer is
the concatenated ``text`` blocks of ``content``. The key is read from the
environment variable named by ``api_key_env`` (default ``ANTHROPIC_API_KEY``);
it may be absent only when ``base_url`` points at a proxy of your own.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from dreamgit.errors import ConfigError, ProviderError
from dreamgit.llm.base import (
    Completion,
    LLMAdapter,
    Message,
    check_settings,
    setting_int,
    setting_number,
    setting_str,
)
from dreamgit.llm.http import HttpClient

__all__ = ["AnthropicAdapter"]

DEFAULT_BASE_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"
_SETTINGS = {"model", "base_url", "api_key_env", "timeout", "retries", "temperature"}


class AnthropicAdapter(LLMAdapter):
    """Anthropic messages over HTTP; settings: model, base_url, api_key_env, timeout, retries."""

    name = "anthropic"

    def __init__(self, settings: Mapping[str, Any], *, client: HttpClient | None = None) -> None:
        check_settings(self.name, settings, _SETTINGS)
        self.model = setting_str(self.name, settings, "model", None)
        self.base_url = setting_str(self.name, settings, "base_url", DEFAULT_BASE_URL).rstrip("/")
        self.key_env = setting_str(self.name, settings, "api_key_env", "ANTHROPIC_API_KEY")
        temperature = settings.get("temperature", 0)
        if isinstance(temperature, bool) or not isinstance(temperature, int | float):
            raise ConfigError(f"llm.temperature: expected a number, got {temperature!r}")
        self.temperature = float(temperature)
        self.client = client or HttpClient(
            "anthropic",
            timeout=setting_number(settings, "timeout", 60.0),
            retries=setting_int(settings, "retries", 4),
            key_hint=f"${self.key_env}",
        )

    def _headers(self) -> dict[str, str]:
        headers = {"anthropic-version": API_VERSION}
        key = os.environ.get(self.key_env, "").strip()
        if key:
            headers["x-api-key"] = key
        elif self.base_url == DEFAULT_BASE_URL:
            raise ConfigError(
                f"${self.key_env} is not set: the Anthropic API needs a key",
                hint=f"export {self.key_env}=...",
            )
        return headers

    def complete(self, messages: Sequence[Message], *, max_tokens: int) -> Completion:
        """POST the conversation to ``/v1/messages`` and return the text of the answer."""
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": max_tokens,
            "temperature": self.temperature,
            "messages": [m.to_dict() for m in messages if m.role != "system"],
        }
        if system:
            body["system"] = system
        url = f"{self.base_url}/v1/messages"
        reply = self.client.post_json(url, body, self._headers())
        try:
            blocks = reply["content"]
            text = "".join(b["text"] for b in blocks if b.get("type") == "text")
            usage = reply.get("usage") or {}
            input_tokens = int(usage.get("input_tokens") or 0)
            output_tokens = int(usage.get("output_tokens") or 0)
        except (KeyError, TypeError, ValueError, AttributeError):
            raise ProviderError(
                f"anthropic: {url} answered without text content blocks",
                hint="check that llm.base_url serves the Anthropic messages API",
            ) from None
        return Completion(
            text=text,
            model=str(reply.get("model") or self.model),
            input_tokens=input_tokens,
            output_tokens=output_tokens,
        )
