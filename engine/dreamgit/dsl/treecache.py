"""Parsed expressions kept between processes, so a process that finds them needs no lark.

Every process that loads rules compiles the same few dozen expressions (the recall
weight, promotion signals, prune rules); parsing them with lark costs ~80 ms and
importing lark ~40 ms more, in every ``recall`` an agent's hook runs. The parse trees
(:mod:`dreamgit.dsl.syntax`, no lark in them) are kept in one pickle in the user's
cache folder (:mod:`dreamgit.usercache`), by expression text, in a file named for
dreamgit's version, the grammar's hash and Python's version, so a new release or
grammar never reads an older tree. Compiling a tree into closures still happens in
each process (a millisecond): closures cannot be kept, and checking names against the
schema at each load keeps every error as it was. Only text that parsed is kept, so a
syntax error is always found and worded by the parser; a missing, damaged or
unreadable file is ignored and written again. At most :data:`_KEEP` trees are kept.
"""

from __future__ import annotations

import sys
import zlib
from pathlib import Path

from dreamgit.dsl.syntax import Node
from dreamgit.packagefiles import package_files
from dreamgit.usercache import read_kept, user_cache_folder, write_kept
from dreamgit.version import __version__

__all__ = ["parsed"]

#: Expression trees kept (the bundled rules hold about 60; a repository's config adds some).
_KEEP = 1000
#: Bumped when :mod:`dreamgit.dsl.syntax` or the conversion from lark changes.
_FORMAT = "1"

_loaded: dict[str, Node] | None = None


def parsed(text: str) -> Node:
    """The tree of ``text``: from the cache when it parsed before, else parsed (and kept).

    Raises what the parser raises for text that does not parse (never kept).
    """
    global _loaded
    # Kept as a plain str: rule files read by ruamel's round-trip loader hand over block
    # scalars as its str subclasses, and a key of such a class in the pickle would make
    # every process that reads the cache import ruamel (a cached recall included).
    text = str(text)
    if _loaded is None:
        _loaded = _read(_file())
    found = _loaded.get(text)
    if found is not None:
        return found
    from dreamgit.dsl.parser import parse  # imports lark: only when a tree is missing

    tree = parse(text)
    _loaded[text] = tree
    _save(_file(), text, tree)
    return tree


def _file() -> Path | None:
    folder = user_cache_folder()
    if folder is None:
        return None
    grammar = package_files("dreamgit.dsl").joinpath("grammar.lark").read_bytes()
    # Checksums, not hashlib: its import (OpenSSL) would cost every recall ~4 ms.
    digest = f"{zlib.crc32(grammar):08x}{zlib.adler32(grammar):08x}"
    py = f"{sys.version_info[0]}{sys.version_info[1]}"
    return folder / f"expressions-{__version__}-{digest}-f{_FORMAT}-py{py}.pickle"


def _read(file: Path | None) -> dict[str, Node]:
    """The kept trees; {} when there are none or the file cannot be read as ours."""
    found = read_kept(file)
    return {k: v for k, v in found.items() if type(k) is str and isinstance(v, Node)}


def _save(file: Path | None, text: str, tree: Node) -> None:
    """Add one tree to the file (re-read first: another process may have added others)."""
    if file is None:
        return
    kept: dict[object, object] = {}
    kept.update(_read(file))
    kept.pop(text, None)
    kept[text] = tree
    write_kept(file, kept, _KEEP)
