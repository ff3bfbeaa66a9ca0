"""Regular expressions compiled when first used, not when their module is imported.

Gathering holds several hundred patterns at module level; compiling them all costs a
process that imports the dream most of a second even when it never gathers (``compact``,
``review`` of nothing new, the MCP server answering recall). ``lazyre.compile`` takes
what ``re.compile`` takes and returns an object with a compiled pattern's interface
(``search``, ``match``, ``sub``, ``finditer``, ``groups``, ...) that compiles on the first
use of any of them; ``pattern`` is there from the start, so patterns built from other
patterns' text stay lazy too. After that first use each method is the compiled
pattern's own, stored on the object, so a pattern in a hot loop costs what ``re``'s does.
The module-level ``re`` functions (``re.sub(pattern, ...)``) do not take these objects:
call the pattern's method instead.
"""

from __future__ import annotations

import re
from typing import Any, cast

__all__ = ["compile"]


def compile(pattern: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]:
    """A pattern that ``re.compile(pattern, flags)`` makes on its first use."""
    # Typed as the pattern it stands for: it answers every attribute a pattern has.
    return cast("re.Pattern[str]", _LazyPattern(pattern, flags))


class _LazyPattern:
    """Stands for ``re.compile(pattern, flags)`` until an attribute of it is first read."""

    def __init__(self, pattern: str, flags: int | re.RegexFlag) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        # Called only for what the object does not hold yet: compile, then keep the
        # compiled pattern's attribute on the object so later reads skip this method.
        if name.startswith("__"):
            raise AttributeError(name)
        compiled = self._compiled()
        value = getattr(compiled, name)
        setattr(self, name, value)
        return value

    def _compiled(self) -> re.Pattern[str]:
        found: re.Pattern[str] | None = self.__dict__.get("_pattern")
        if found is None:
            found = re.compile(self.pattern, self._flags)
            self.__dict__["_pattern"] = found
        return found

    def __repr__(self) -> str:
        return repr(self._compiled())

    def __copy__(self) -> _LazyPattern:
        return self  # immutable, as ``re.Pattern`` is

    def __deepcopy__(self, memo: object) -> _LazyPattern:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_LazyPattern, (self.pattern, self._flags))
