"""Errors of the expression language, with the place in the expression they point at.

An :class:`ExpressionError` is a :class:`~dreamgit.errors.DslError` that also keeps
the offset and width of the offending part of the expression, so the rule-set
loader can move the caret into the YAML file the expression came from. This module
also holds the "did you mean" helper every unknown-name message uses.
"""

from __future__ import annotations

from collections.abc import Iterable

from dreamgit.errors import DslError

__all__ = ["ExpressionError", "did_you_mean"]


class ExpressionError(DslError):
    """A mistake at ``offset`` (0-based, ``width`` characters) of an expression's text."""

    def __init__(
        self, message: str, text: str, offset: int, width: int = 1, *, hint: str | None = None
    ) -> None:
        offset = max(0, min(offset, len(text)))
        line_start = text.rfind("\n", 0, offset) + 1
        line_end = text.find("\n", offset)
        line_end = len(text) if line_end < 0 else line_end
        width = max(1, min(width, max(1, line_end - offset)))
        self.text = text
        self.offset = offset
        self.width = width
        super().__init__(
            message,
            line=text.count("\n", 0, offset) + 1,
            column=offset - line_start + 1,
            source_line=text[line_start:line_end],
            caret_width=width,
            hint=hint,
        )


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the closest candidate, or an empty string."""
    import difflib  # only a mistake needs it: not loaded by every command that reads rules

    close = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""
