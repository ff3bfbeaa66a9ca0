"""What every LLM adapter provides: messages in, one completion out.

An adapter turns a short conversation (system, user and assistant messages)
into the provider's request and the reply into a :class:`Completion`. Adapters
are constructed from a settings mapping (the ``llm`` section of
``.dreamgit/config.yaml``) by the registry, raise
:class:`~dreamgit.errors.ProviderError` when the provider fails, and never
read or write memories themselves.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from dreamgit.errors import ConfigError

__all__ = ["Completion", "LLMAdapter", "Message"]

Role = Literal["system", "user", "assistant"]

#: Settings every adapter accepts besides its own: the caller's, not the provider's.
COMMON_SETTINGS = frozenset({"adapter", "max_tokens"})


@dataclass(frozen=True)
class Message:
    """One message of the conversation sent to a model."""

    role: Role
    content: str

    def to_dict(self) -> dict[str, str]:
        """The message as ``{"role": …, "content": …}``, the shape most APIs take."""
        return {"role": self.role, "content": self.content}


@dataclass(frozen=True)
class Completion:
    """A model's answer: its text, the model that wrote it and the tokens it cost."""

    text: str
    model: str
    input_tokens: int = 0
    output_tokens: int = 0


class LLMAdapter(ABC):
    """A provider of completions: subclasses set ``name`` and ``model``, implement ``complete``."""

    #: The adapter's registered name (``openai``, ``anthropic``, ...); part of the cache key.
    name: str = ""
    #: The model asked, as configured; part of the cache key and the Dream-Model trailer.
    model: str = ""

    @abstractmethod
    def complete(self, messages: Sequence[Message], *, max_tokens: int) -> Completion:
        """Send the conversation and return the answer; raise ProviderError on failure."""


def check_settings(adapter: str, settings: Mapping[str, Any], known: set[str]) -> None:
    """Refuse settings an adapter does not know, so a typo is not silently ignored."""
    unknown = sorted(set(settings) - known - COMMON_SETTINGS)
    if unknown:
        allowed = ", ".join(sorted(known | COMMON_SETTINGS))
        raise ConfigError(
            f"llm.{unknown[0]}: unknown setting for adapter {adapter!r}",
            hint=f"the {adapter} adapter takes: {allowed}",
        )


def setting_str(adapter: str, settings: Mapping[str, Any], key: str, default: str | None) -> str:
    """A string setting, or ``default``; a missing required one is a ConfigError."""
    value = settings.get(key, default)
    if value is None:
        raise ConfigError(
            f"llm.{key}: the {adapter} adapter needs a {key}",
            hint=f"set llm.{key} in .dreamgit/config.yaml",
        )
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"llm.{key}: expected a non-empty string, got {value!r}")
    return value.strip()


def setting_number(settings: Mapping[str, Any], key: str, default: float) -> float:
    """A positive number setting (time-outs, back-off), or ``default``."""
    value = settings.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ConfigError(f"llm.{key}: expected a positive number, got {value!r}")
    return float(value)


def setting_int(settings: Mapping[str, Any], key: str, default: int) -> int:
    """A non-negative whole-number setting (retries), or ``default``."""
    value = settings.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(f"llm.{key}: expected a whole number ≥ 0, got {value!r}")
    return value
