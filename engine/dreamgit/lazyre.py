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

Compiling is parsing, once per machine. A dream that gathers compiles some 230 of these
patterns; ``re`` parses each and turns it into the matcher's code, 0.15-0.25 s of every
such process, while making the pattern object from that code costs a hundredth of it.
:func:`compile_kept` keeps the code (plain integers), the flags and the group names of
each pattern compiled, in one pickle in the user's cache folder
(:mod:`dreamgit.usercache`), named for Python's exact version and its matcher's, and
makes the pattern from them with the matcher's own constructor (``_sre.compile``, which
checks the code it is given): the object ``re.compile`` gives, without the parsing.
What a process compiles anew is added to the file once, when the process ends. A
missing, damaged or foreign file is a cache miss, and a Python whose ``re`` internals
are not the ones known here compiles with ``re``: either way the same pattern, slower.
"""

from __future__ import annotations

import atexit
import functools
import importlib
import re
import sys
from pathlib import Path
from typing import Any, cast

from dreamgit.usercache import read_kept, user_cache_folder, write_kept

__all__ = ["compile", "compile_kept"]

#: Patterns kept at most (gathering and extraction hold a few hundred).
_KEEP = 4000

#: What ``_sre.compile`` takes besides the pattern: flags, code, groups, the group
#: index and its inverse.
Parts = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]

_kept: dict[tuple[str, int], Parts] | None = None
_added: dict[tuple[str, int], Parts] = {}


def compile_kept(pattern: str, flags: int) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, from the parts kept for it when there are some."""
    global _kept
    flags = int(flags)
    internals = _internals()
    if internals is None or flags & re.DEBUG:
        return re.compile(pattern, flags)
    sre, parse, code_of = internals
    if _kept is None:
        _kept = _read(_file())
    key = (pattern, flags)
    parts = _kept.get(key)
    if parts is not None:
        try:
            found: re.Pattern[str] = sre.compile(pattern, *parts)
            return found
        except (RuntimeError, TypeError, ValueError):  # code the matcher refuses
            del _kept[key]
    parts = _parts(pattern, flags, parse, code_of)
    if not _added:
        atexit.register(_save)
    _kept[key] = _added[key] = parts
    compiled: re.Pattern[str] = sre.compile(pattern, *parts)
    return compiled


@functools.cache
def _internals() -> tuple[Any, Any, Any] | None:
    """``_sre``, the parser and the code generator, or None on a Python without them
    (looked up once a process, not once a pattern)."""
    try:
        sre = importlib.import_module("_sre")
        return sre, re._parser.parse, re._compiler._code  # type: ignore[attr-defined]
    except (ImportError, AttributeError):
        return None


def _parts(pattern: str, flags: int, parse: Any, code_of: Any) -> Parts:
    """What ``re._compiler.compile`` hands ``_sre.compile``, as plain values."""
    tree = parse(pattern, flags)
    code = [int(c) for c in code_of(tree, flags)]
    index: dict[str, int] = dict(tree.state.groupdict)
    names: list[str | None] = [None] * tree.state.groups
    for name, i in index.items():
        names[i] = name
    return (flags | tree.state.flags, code, tree.state.groups - 1, index, tuple(names))


def _file() -> Path | None:
    folder = user_cache_folder()
    if folder is None:
        return None
    internals = _internals()
    if internals is None:
        return None
    version = "".join(str(v) for v in sys.version_info[:3])
    return folder / f"patterns-{sys.implementation.name}{version}-sre{internals[0].MAGIC}.pickle"


def _read(file: Path | None) -> dict[tuple[str, int], Parts]:
    """The kept parts; {} when there are none or the file cannot be read as ours."""
    found = read_kept(file)
    return {k: v for k, v in found.items() if _is_key(k) and _is_parts(v)}  # type: ignore[misc]


def _is_key(key: object) -> bool:
    return type(key) is tuple and len(key) == 2 and type(key[0]) is str and type(key[1]) is int


def _is_parts(parts: object) -> bool:
    if type(parts) is not tuple or len(parts) != 5:
        return False
    flags, code, groups, index, names = parts
    return (
        type(flags) is int
        and type(code) is list
        and type(groups) is int
        and type(index) is dict
        and type(names) is tuple
    )


def _save() -> None:
    """Add the parts made in this process to the file (re-read first: another process may
    have added others); the oldest go beyond :data:`_KEEP`."""
    file = _file()
    if file is None or not _added:
        return
    kept: dict[object, object] = {}
    kept.update(_read(file))
    kept.update(_added)
    _added.clear()
    write_kept(file, kept, _KEEP)


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
            found = compile_kept(self.pattern, self._flags)
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
