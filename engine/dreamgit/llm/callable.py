"""An adapter around a Python callable ``(prompt: str, max_tokens: int) -> str``.

For embedding dreamgit in a program that already talks to a model its own way:
the conversation is flattened into one prompt string and the callable's answer
is the completion. The callable is given directly in the settings
(``{"function": fn}``) or, from a config file, as ``"package.module:attr"``.
Anything it raises is a provider failure (exit code 4).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dreamgit.errors import ConfigError, ProviderError
from dreamgit.llm.base import Completion, LLMAdapter, Message, check_settings

__all__ = ["CallableAdapter"]

PromptFunction = Callable[[str, int], str]


class CallableAdapter(LLMAdapter):
    """Completions from a Python function; settings: function, model."""

    name = "callable"

    def __init__(self, settings: Mapping[str, Any]) -> None:
        check_settings(self.name, settings, {"function", "model"})
        self.function = _resolve(settings.get("function"))
        default = getattr(self.function, "__qualname__", None) or "callable"
        model = settings.get("model", default)
        if not isinstance(model, str) or not model:
            raise ConfigError(f"llm.model: expected a non-empty string, got {model!r}")
        self.model = model

    def complete(self, messages: Sequence[Message], *, max_tokens: int) -> Completion:
        """Call the function with the flattened conversation."""
        prompt = flatten(messages)
        try:
            text = self.function(prompt, max_tokens)
        except Exception as exc:  # whatever the user's function raises is a provider failure
            raise ProviderError(
                f"callable: {self.model} raised {type(exc).__name__}: {exc}",
                hint="the function given as llm.function failed; dreamgit exits with code 4 "
                "so a scheduler can retry",
            ) from exc
        if not isinstance(text, str):
            raise ProviderError(
                f"callable: {self.model} returned {type(text).__name__}, not str",
                hint="the function must return the model's answer as a string",
            )
        return Completion(text=text, model=self.model)


def flatten(messages: Sequence[Message]) -> str:
    """One prompt from a conversation: system and user text, earlier answers labelled."""
    parts: list[str] = []
    for message in messages:
        if message.role == "assistant":
            parts.append(f"Your previous answer was:\n{message.content}")
        else:
            parts.append(message.content)
    return "\n\n".join(part.strip() for part in parts) + "\n"


def _resolve(value: object) -> PromptFunction:
    if isinstance(value, str):
        module_name, _, attr = value.partition(":")
        if not module_name or not attr:
            raise ConfigError(f"llm.function: {value!r} is not of the form package.module:function")
        try:
            found: object = importlib.import_module(module_name)
            for part in attr.split("."):
                found = getattr(found, part)
        except (ImportError, AttributeError) as exc:
            raise ConfigError(f"llm.function: cannot import {value!r}: {exc}") from None
        value = found
    if not callable(value):
        raise ConfigError(
            f"llm.function: expected a callable (prompt, max_tokens) -> str, got {value!r}",
            hint="give the function itself or its import path package.module:function",
        )
    function: PromptFunction = value
    return function
