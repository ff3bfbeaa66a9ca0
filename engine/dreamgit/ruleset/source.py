"""One rule file's text, and errors that point into it with a line, a column and a caret.

The loader reads YAML with ruamel's round-trip mode, which records where every key
and value starts. An expression's own error (from the DSL) knows its offset inside
the expression; :meth:`Source.expression_error` maps that offset back into the YAML
text — through quotes, escapes and folded block scalars — so the caret lands under
the offending characters of the file, not of a copy of the expression.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from dreamgit.dsl import ExpressionError
from dreamgit.errors import RuleError

__all__ = ["Location", "Source"]

# How far the alignment may skip over quotes, escapes and indentation between two
# characters of an expression before it gives up and points at the value's start.
_MAX_GAP = 120


@dataclass(frozen=True)
class Location:
    """Where something was written: file name, 1-based line and column."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class Source:
    """The text of one rule file and the errors found in it so far."""

    def __init__(self, filename: str, text: str) -> None:
        self.filename = filename
        self.text = text
        self.lines = text.splitlines()
        self._starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self._starts.append(i + 1)
        self.errors: list[RuleError] = []

    def copy(self) -> Source:
        """The same text with its own, independent list of errors."""
        twin = object.__new__(Source)
        twin.__dict__.update(self.__dict__)
        twin.errors = list(self.errors)
        return twin

    def location(self, line0: int, col0: int) -> Location:
        """The location of a 0-based (line, column) position."""
        return Location(self.filename, line0 + 1, col0 + 1)

    def report(
        self, message: str, pos: tuple[int, int], width: int = 1, *, hint: str | None = None
    ) -> RuleError:
        """Record (and return) an error at a 0-based (line, column) of this file."""
        line0, col0 = pos
        source_line = self.lines[line0] if 0 <= line0 < len(self.lines) else None
        if source_line is not None:
            width = max(1, min(width, len(source_line) - col0))
        error = RuleError(
            message,
            file=self.filename,
            line=line0 + 1,
            column=col0 + 1,
            source_line=source_line,
            caret_width=width,
            hint=hint,
        )
        self.errors.append(error)
        return error

    def report_in_value(
        self,
        where: str,
        exc: ExpressionError,
        value_pos: tuple[int, int],
    ) -> RuleError:
        """Record an expression's error, with the caret under its part of the YAML value."""
        message = f"{where}: {exc.reason}"
        found = self._align(value_pos, exc.text, exc.offset, exc.width)
        if found is None:
            # The value is written in a way the alignment cannot follow: point at it.
            return self.report(message, value_pos, hint=exc.hint)
        line0, col0, width = found
        return self.report(message, (line0, col0), width, hint=exc.hint)

    def _align(
        self, value_pos: tuple[int, int], expr: str, offset: int, width: int
    ) -> tuple[int, int, int] | None:
        line0, col0 = value_pos
        if line0 >= len(self._starts):
            return None
        p = self._starts[line0] + col0
        text = self.text
        if p < len(text) and text[p] in "|>":
            p = text.find("\n", p) + 1
            if p == 0:
                return None
        elif p < len(text) and text[p] in "\"'":
            p += 1
        positions: list[int] = []
        for ch in expr[: offset + width]:
            if ch.isspace():
                positions.append(p)
                while p < len(text) and text[p].isspace():
                    p += 1
                continue
            q = p
            while q < len(text) and text[q] != ch and q - p < _MAX_GAP:
                q += 1
            if q >= len(text) or text[q] != ch:
                return None
            positions.append(q)
            p = q + 1
        start = positions[offset] if offset < len(positions) else p
        end = positions[-1] + 1 if positions and offset < len(positions) else start + 1
        line = bisect.bisect_right(self._starts, start) - 1
        col = start - self._starts[line]
        line_end = text.find("\n", start)
        line_end = len(text) if line_end < 0 else line_end
        return line, col, max(1, min(end, line_end) - start)
