"""Answers cached on disk, so re-running a reviewed dream asks the model nothing.

The key is the sha256 of the adapter name, the model, the exact messages sent
(the rendered prompt, and the repair turn when there is one) and ``max_tokens``:
the same question gets the same answer, and any change to a template, a memory
or the model asks again. Entries are small JSON files written atomically (a
temporary file renamed into place), so a crash or two concurrent runs never
leave half an answer; an unreadable entry is treated as absent.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from dreamgit.llm.base import Completion, Message
from dreamgit.store.secrets import redact_text, redact_value

__all__ = ["AnswerCache"]

_VERSION = 1


class AnswerCache:
    """A folder of cached completions, chosen by the caller (``<git dir>/dreamgit/llm-cache``)."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)

    @staticmethod
    def key(adapter: str, model: str, messages: Sequence[Message], max_tokens: int) -> str:
        """The cache key of one request."""
        material = json.dumps(
            {
                "v": _VERSION,
                "adapter": adapter,
                "model": model,
                "messages": [m.to_dict() for m in messages],
                "max_tokens": max_tokens,
            },
            ensure_ascii=False,
            sort_keys=True,
        )
        return hashlib.sha256(material.encode("utf-8")).hexdigest()

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key[2:]}.json"

    def get(self, key: str) -> Completion | None:
        """The cached completion for ``key``, or None."""
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
            return Completion(
                text=str(data["text"]),
                model=str(data["model"]),
                input_tokens=int(data.get("input_tokens", 0)),
                output_tokens=int(data.get("output_tokens", 0)),
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, completion: Completion) -> None:
        """Store a completion under ``key``, atomically."""
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        body = json.dumps(
            {
                "v": _VERSION,
                # Nothing secret is kept in the git directory: a model that echoed a
                # credential is cached redacted (what a commit would have made of it).
                "text": _redacted(completion.text),
                "model": completion.model,
                "input_tokens": completion.input_tokens,
                "output_tokens": completion.output_tokens,
            },
            ensure_ascii=False,
        )
        handle, temp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(body)
            os.replace(temp, path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise


def _redacted(text: str) -> str:
    """An answer with credentials redacted; JSON is redacted value by value, so it still parses."""
    try:
        data = json.loads(text)
    except ValueError:
        return redact_text(text)[0]
    clean = redact_value(data)
    return text if clean == data else json.dumps(clean, ensure_ascii=False)
