"""A deterministic built-in adapter for tests and demos.

It answers from a script instead of a model: the ``responses`` setting (a list
of strings, or JSON values that are serialised) or a JSON ``file`` holding such
a list (or ``{"responses": [...]}``), answered in order. Without a script it
answers ``{"proposals": []}`` to everything, which makes an LLM-enabled run
behave like the deterministic one. Every request is kept in ``requests`` so a
test can see exactly what a model would have been sent.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dreamgit.errors import ConfigError, ProviderError
from dreamgit.llm.base import Completion, LLMAdapter, Message, check_settings

__all__ = ["ScriptedAdapter", "ScriptedRequest"]

EMPTY_ANSWER = '{"proposals": []}'


@dataclass(frozen=True)
class ScriptedRequest:
    """One request the scripted adapter received."""

    messages: tuple[Message, ...]
    max_tokens: int


class ScriptedAdapter(LLMAdapter):
    """Canned answers in order; settings: responses or file, model."""

    name = "scripted"

    def __init__(self, settings: Mapping[str, Any]) -> None:
        check_settings(self.name, settings, {"responses", "file", "model"})
        model = settings.get("model", "scripted")
        if not isinstance(model, str) or not model:
            raise ConfigError(f"llm.model: expected a non-empty string, got {model!r}")
        self.model = model
        self.script: list[str] | None = _script(settings)
        self.requests: list[ScriptedRequest] = []

    def complete(self, messages: Sequence[Message], *, max_tokens: int) -> Completion:
        """Record the request and give the next answer of the script."""
        self.requests.append(ScriptedRequest(tuple(messages), max_tokens))
        if self.script is None:
            text = EMPTY_ANSWER
        else:
            index = len(self.requests) - 1
            if index >= len(self.script):
                raise ProviderError(
                    f"scripted: the script has {len(self.script)} answers and request "
                    f"{index + 1} came",
                    hint="add answers to llm.responses (or the llm.file script)",
                )
            text = self.script[index]
        sent = sum(len(m.content) for m in messages)
        return Completion(text=text, model=self.model, input_tokens=sent, output_tokens=len(text))


def _script(settings: Mapping[str, Any]) -> list[str] | None:
    if "responses" in settings and "file" in settings:
        raise ConfigError("llm.responses and llm.file: give one script, not both")
    raw: object
    if "file" in settings:
        path = Path(str(settings["file"]))
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"llm.file: cannot read {path}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise ConfigError(f"llm.file: {path}:{exc.lineno}: not JSON: {exc.msg}") from None
        if isinstance(raw, dict) and "responses" in raw:
            raw = raw["responses"]
    elif "responses" in settings:
        raw = settings["responses"]
    else:
        return None
    if not isinstance(raw, list):
        raise ConfigError("llm.responses: expected a list of answers")
    return [item if isinstance(item, str) else json.dumps(item) for item in raw]
