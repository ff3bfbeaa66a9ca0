"""One folder of a tree held as git writes it: its entries in git's order, as raw bytes.

A tree builder sorts its entries again on every write; a dream writes a topic folder of
thousands of memories once per operation, so the folder here keeps its entries sorted
as they change (a few per write) and its tree object is the entries joined. Git orders
entries by name, a folder's name read with a ``/`` after it; each entry is kept as the
bytes the tree object holds (``mode name\\0`` and the 20-byte id), so an entry read
from the tree it started from is written back as it was.
"""

from __future__ import annotations

import re
from bisect import bisect_left

__all__ = ["EXECUTABLE", "FILE", "FOLDER", "TreeFolder", "written_mode"]

#: The modes a written entry gets, as a tree object spells them.
FILE = b"100644"
EXECUTABLE = b"100755"
FOLDER = b"40000"

_OID_SIZE = 20


def written_mode(replaced: bytes | None, found: bytes | None = None) -> bytes:
    """The mode of a file written in place of an entry of mode ``replaced`` (None: nothing
    there): ``found`` when the change was read from a file that has one (an agent's file
    in the work tree, as ``git add`` takes it), else an executable's when it replaces one
    (a script an agent keeps with its memories, rewritten by dreamgit), else a plain
    file's."""
    if found is not None:
        return found
    return EXECUTABLE if replaced == EXECUTABLE else FILE


#: One entry of a tree object: ``mode name\0`` and the 20-byte id (the whole, mode, name).
_ENTRY = re.compile(rb"((\d+) ([^\0]*)\0.{20})", re.DOTALL)
#: Names a tree builder refuses (case-insensitively for ``.git``): written here, they
#: would make a tree git cannot check out.
_REFUSED = {"", ".", ".."}


class TreeFolder:
    """The entries of one folder, sorted as git sorts them; starts as ``raw`` (a tree's bytes)."""

    def __init__(self, raw: bytes = b"") -> None:
        #: Sort keys (the name, ``/`` after a folder's) and the entries' bytes, in step.
        self._keys: list[bytes] = []
        self._entries: list[bytes] = []
        #: Name -> (sort key, mode, id) of every entry.
        self._by_name: dict[str, tuple[bytes, bytes, bytes]] = {}
        # One pass of the regex engine over the whole tree (a topic folder of 30,000
        # entries read a few slices at a time in Python cost a third more).
        found = _ENTRY.findall(raw)
        if sum(len(entry) for entry, _mode, _name in found) != len(raw):
            raise ValueError("not a tree object's entries")
        for entry, mode, name in found:
            key = name + b"/" if mode == FOLDER else name
            self._keys.append(key)
            self._entries.append(entry)
            self._by_name[name.decode("utf-8", "surrogateescape")] = (key, mode, entry[-_OID_SIZE:])

    def __len__(self) -> int:
        return len(self._keys)

    def get(self, name: str) -> tuple[bytes, bytes] | None:
        """``(mode, raw id)`` of the entry ``name``, or None."""
        found = self._by_name.get(name)
        return None if found is None else found[1:]

    def set(self, name: str, mode: bytes, oid: bytes) -> None:
        """Put ``name`` (``mode``, 20-byte ``oid``) in the folder, in place of what was there."""
        if name in _REFUSED or name.lower() == ".git" or "/" in name or "\0" in name:
            raise ValueError(f"not a name a tree may hold: {name!r}")
        self.remove(name)
        raw_name = name.encode("utf-8", "surrogateescape")
        key = raw_name + b"/" if mode == FOLDER else raw_name
        at = bisect_left(self._keys, key)
        self._keys.insert(at, key)
        self._entries.insert(at, b"%s %s\0%s" % (mode, raw_name, oid))
        self._by_name[name] = (key, mode, oid)

    def remove(self, name: str) -> None:
        """Take ``name`` out of the folder (nothing when it is not there)."""
        found = self._by_name.pop(name, None)
        if found is not None:
            at = bisect_left(self._keys, found[0])
            del self._keys[at]
            del self._entries[at]

    def raw(self) -> bytes:
        """The folder's tree object, as git stores it."""
        return b"".join(self._entries)
