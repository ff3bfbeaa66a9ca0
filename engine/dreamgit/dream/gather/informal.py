"""Informal English spellings, read as the words they stand for before the rules see them.

The English rules know "please" ("Please always use uv" is how the user wants the agent
to work); typed in a hurry it is "pls" or "plz", and the same request read as a bare
statement became a fact about the user. Only whole words are respelled, their first
letter's case kept; nothing else of the text changes.
"""

from __future__ import annotations

import re

__all__ = ["spelled_out"]

#: Short forms and the word each stands for.
_FULL = {"pls": "please", "plz": "please", "plse": "please", "pleez": "please"}
_SHORT = re.compile(r"\b(?:" + "|".join(_FULL) + r")\b", re.IGNORECASE)


def _full(match: re.Match[str]) -> str:
    word = _FULL[match.group().lower()]
    return word.capitalize() if match.group()[0].isupper() else word


def spelled_out(text: str) -> str:
    """``text`` with its informal short forms written out ("pls" → "please")."""
    return _SHORT.sub(_full, text)
