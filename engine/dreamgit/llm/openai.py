"""The OpenAI-compatible chat-completions adapter: OpenAI, Ollama, vLLM, LM Studio, LiteLLM.

All of them accept ``POST {base_url}/chat/completions`` with ``model``,
``messages`` and ``max_tokens`` and answer ``choices[0].message.content``, so one
adapter serves them by changing ``base_url``. The API key is read from the
environment variable named by ``api_key_env`` (default ``OPENAI_API_KEY``); a
local server such as Ollama needs none, so a missing key is an error only for
the OpenAI endpoint itself. Temperature defaults to 0 so answers repeat.
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

__all__ = ["OpenAIAdapter"]

DEFAULT_BASE_URL = "https://api.openai.com/v1"
_SETTINGS = {
    "model",
    "base_url",
    "api_key_env",
    "timeout",
    "retries",
    "temperature",
    "max_tokens_param",
    "extra_body",
}


class OpenAIAdapter(LLMAdapter):
    """Chat completions over HTTP; settings: model, base_url, api_key_env, timeout, retries, ..."""

    name = "openai"

    def __init__(self, settings: Mapping[str, Any], *, client: HttpClient | None = None) -> None:
        check_settings(self.name, settings, _SETTINGS)
        self.model = setting_str(self.name, settings, "model", None)
        self.base_url = setting_str(self.name, settings, "base_url", DEFAULT_BASE_URL).rstrip("/")
        self.key_env = setting_str(self.name, settings, "api_key_env", "OPENAI_API_KEY")
        # Newer OpenAI models take max_completion_tokens; local servers take max_tokens.
        self.max_tokens_param = setting_str(self.name, settings, "max_tokens_param", "max_tokens")
        temperature = settings.get("temperature", 0)
        if isinstance(temperature, bool) or not isinstance(temperature, int | float):
            raise ConfigError(f"llm.temperature: expected a number, got {temperature!r}")
        self.temperature = float(temperature)
        extra = settings.get("extra_body", {})
        if not isinstance(extra, Mapping):
            raise ConfigError(f"llm.extra_body: expected a mapping, got {extra!r}")
        self.extra_body = dict(extra)
        self.client = client or HttpClient(
            "openai",
            timeout=setting_number(settings, "timeout", 60.0),
            retries=setting_int(settings, "retries", 4),
            key_hint=f"${self.key_env}",
        )

    def _headers(self) -> dict[str, str]:
        key = os.environ.get(self.key_env, "").strip()
        if key:
            return {"Authorization": f"Bearer {key}"}
        if self.base_url == DEFAULT_BASE_URL:
            raise ConfigError(
                f"${self.key_env} is not set: the OpenAI API needs a key",
                hint=f"export {self.key_env}=..., or set llm.base_url for a local server "
                "such as Ollama (http://localhost:11434/v1)",
            )
        return {}

    def complete(self, messages: Sequence[Message], *, max_tokens: int) -> Completion:
        """POST the conversation to ``/chat/completions`` and return the first choice."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [m.to_dict() for m in messages],
            self.max_tokens_param: max_tokens,
            "temperature": self.temperature,
            **self.extra_body,
        }
        url = f"{self.base_url}/chat/completions"
        reply = self.client.post_json(url, body, self._headers())
        try:
            text = reply["choices"][0]["message"]["content"]
            usage = reply.get("usage") or {}
            prompt_tokens = int(usage.get("prompt_tokens") or 0)
            completion_tokens = int(usage.get("completion_tokens") or 0)
        except (KeyError, IndexError, TypeError, ValueError):
            raise ProviderError(
                f"openai: {url} answered without choices[0].message.content",
                hint="check that llm.base_url serves the OpenAI chat-completions API",
            ) from None
        return Completion(
            text=text if isinstance(text, str) else "",
            model=str(reply.get("model") or self.model),
            input_tokens=prompt_tokens,
            output_tokens=completion_tokens,
        )
