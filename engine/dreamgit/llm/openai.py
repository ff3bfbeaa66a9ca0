"""The OpenAI-compatible chat-completions adapter: OpenAI, Ollama, vLLM, LM Studio, LiteLLM.

All of them accept ``POST {base_url}/chat/completions`` with ``model``,
``messages`` and ``max_tokens`` and answer ``choices[0].message.content``, so one
adapter serves them by changing ``base_url``. The API key is read from the
environment variable named by ``api_key_env`` (default ``OPENAI_API_KEY``); a
local server such as Ollama needs none, so a missing key is an error only for
the OpenAI endpoint itself. Temperature defaults to 0 so answers repeat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dreamgit.errors import ConfigError, ProviderError
from dreamgit.llm.base import Completion, Message, setting_str
from dreamgit.llm.http import HttpClient
from dreamgit.llm.httpadapter import HttpAdapter

__all__ = ["OpenAIAdapter"]

DEFAULT_BASE_URL = "https://api.openai.com/v1"


class OpenAIAdapter(HttpAdapter):
    """Chat completions over HTTP; settings: model, base_url, api_key_env, timeout, retries, ..."""

    name = "openai"
    provider = "OpenAI"
    default_base_url = DEFAULT_BASE_URL
    default_key_env = "OPENAI_API_KEY"
    extra_settings = frozenset({"max_tokens_param", "extra_body"})

    def __init__(self, settings: Mapping[str, Any], *, client: HttpClient | None = None) -> None:
        super().__init__(settings, client=client)
        # Newer OpenAI models take max_completion_tokens; local servers take max_tokens.
        self.max_tokens_param = setting_str(self.name, settings, "max_tokens_param", "max_tokens")
        extra = settings.get("extra_body", {})
        if not isinstance(extra, Mapping):
            raise ConfigError(f"llm.extra_body: expected a mapping, got {extra!r}")
        self.extra_body = dict(extra)

    def _headers(self) -> dict[str, str]:
        key = self.api_key(
            hint=f"export {self.key_env}=..., or set llm.base_url for a local server "
            "such as Ollama (http://localhost:11434/v1)"
        )
        return {"Authorization": f"Bearer {key}"} if key else {}

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
