"""The Anthropic messages adapter.

``POST {base_url}/v1/messages`` with the ``x-api-key`` and ``anthropic-version``
headers; system messages go in the top-level ``system`` field and the answer is
the concatenated ``text`` blocks of ``content``. The key is read from the
environment variable named by ``api_key_env`` (default ``ANTHROPIC_API_KEY``);
it may be absent only when ``base_url`` points at a proxy of your own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dreamgit.errors import ProviderError
from dreamgit.llm.base import Completion, Message
from dreamgit.llm.httpadapter import HttpAdapter

__all__ = ["AnthropicAdapter"]

DEFAULT_BASE_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"


class AnthropicAdapter(HttpAdapter):
    """Anthropic messages over HTTP; settings: model, base_url, api_key_env, timeout, retries."""

    name = "anthropic"
    provider = "Anthropic"
    default_base_url = DEFAULT_BASE_URL
    default_key_env = "ANTHROPIC_API_KEY"

    def _headers(self) -> dict[str, str]:
        headers = {"anthropic-version": API_VERSION}
        key = self.api_key(hint=f"export {self.key_env}=...")
        if key:
            headers["x-api-key"] = key
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
