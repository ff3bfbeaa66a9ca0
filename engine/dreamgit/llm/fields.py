"""The check of each field of a model's proposal: its type, its range, its length.

:mod:`dreamgit.llm.proposals` parses an answer and hands each field to the check
named for it here; a field that fails raises :class:`ProposalFormatError` with
where it is (``proposals[2].text``) and what was expected, precise enough to send
back in the repair request.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from dreamgit.model import MEMORY_TYPES, PRIORITIES

__all__ = ["FIELD_CHECKS", "ProposalFormatError", "kind_of"]

_TOPIC = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}\Z")
_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/-]{0,99}\Z")
MAX_TEXT = 2000
MAX_REASON = 1000
MAX_QUOTE = 500


class ProposalFormatError(ValueError):
    """An answer that does not follow the schema; the message says where and why."""


def kind_of(value: object) -> str:
    """What a JSON value is, in words ("an object", "null", ...), for messages."""
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    for typ, name in names.items():
        if isinstance(value, typ):
            return name
    return "a number" if isinstance(value, int | float) else type(value).__name__


def _text(limit: int) -> Callable[[object, str], str]:
    def check(value: object, where: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise ProposalFormatError(f"{where}: expected a non-empty string, got {_show(value)}")
        if len(value) > limit:
            raise ProposalFormatError(f"{where}: {len(value)} characters; at most {limit}")
        return value.strip()

    return check


def _pattern(regex: re.Pattern[str], what: str) -> Callable[[object, str], str]:
    def check(value: object, where: str) -> str:
        if not isinstance(value, str) or not regex.match(value):
            raise ProposalFormatError(f"{where}: expected {what}, got {_show(value)}")
        return value

    return check


def _choice(options: Sequence[str]) -> Callable[[object, str], str]:
    def check(value: object, where: str) -> str:
        if value not in options:
            raise ProposalFormatError(
                f"{where}: expected one of {', '.join(options)}, got {_show(value)}"
            )
        return str(value)

    return check


def _score(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ProposalFormatError(f"{where}: expected a number from 0 to 1, got {_show(value)}")
    if isinstance(value, float) and math.isnan(value):
        raise ProposalFormatError(f"{where}: expected a number from 0 to 1, got NaN")
    return float(value)


def _id_list(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise ProposalFormatError(f"{where}: expected a non-empty list of ids, got {_show(value)}")
    out: list[str] = []
    for position, item in enumerate(value):
        if not isinstance(item, str) or not item.strip() or len(item) > 100:
            raise ProposalFormatError(f"{where}[{position}]: expected an id, got {_show(item)}")
        if item in out:
            raise ProposalFormatError(f"{where}: {item} is listed twice")
        out.append(item)
    return tuple(out)


def _one_id(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 100:
        raise ProposalFormatError(f"{where}: expected an id, got {_show(value)}")
    return value


def _show(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


FIELD_CHECKS: dict[str, Callable[[object, str], Any]] = {
    "ids": _id_list,
    "sources": _id_list,
    "by": _one_id,
    "text": _text(MAX_TEXT),
    "quote": _text(MAX_QUOTE),
    "reason": _text(MAX_REASON),
    "topic": _pattern(_TOPIC, "a topic name such as preferences ([a-z0-9][a-z0-9_-]*)"),
    "key": _pattern(_KEY, "a key such as python.test-runner"),
    "type": _choice(MEMORY_TYPES),
    "priority": _choice(PRIORITIES),
    "confidence": _score,
    "supersession_confidence": _score,
}
