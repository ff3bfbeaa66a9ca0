"""The newer-value check's layout as kept between runs (``update_layout`` moves it).

:class:`Layout` is what the check read and found, by memory and subject, in a shape JSON
holds; :func:`keeping_layout` takes it from the git directory (``store/keptlayout.py``,
tagged with a fingerprint of the framing and consolidation code) when first asked, and
puts the run's back when the block ends, if the run changed it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from dreamgit.dream.consolidate.update_readings import FOUND_BY
from dreamgit.store.keptframes import code_fingerprint
from dreamgit.store.keptlayout import KeptLayout

__all__ = ["Entry", "Layout", "LayoutKeeper", "keeping_layout", "layout_keeper"]

#: One member of a subject: [memory key, the place of the frame in its reading, its kind:
#: the index of its relation in :attr:`Layout.relations` times 64 plus its flags].
Entry = list[Any]

#: The layout's shape; a kept one of another version is not read.
_VERSION = 3
_PACKAGE = Path(__file__).resolve().parents[2]


@dataclass
class Layout:
    """What the check read and found, by memory key and subject key (JSON-ready)."""

    #: memory key → [digest, created (ISO), each frame's subject, a promotion's subject]
    members: dict[str, list[Any]] = field(default_factory=dict)
    #: subject → its frames as [memory key, place], in time order
    groups: dict[str, list[Entry]] = field(default_factory=dict)
    #: subject → the subjects of one more word (what it owns is theirs)
    sup: dict[str, list[str]] = field(default_factory=dict)
    #: subject → each member's updates as the newer memory (by "key\x1fplace", in the
    #: members' order; members that found none and subjects that found none: no entry)
    found: dict[str, dict[str, list[list[str]]]] = field(default_factory=dict)
    #: each relation its members' kinds name ("head\x1fparticle" → its index)
    relations: dict[str, int] = field(default_factory=dict)
    #: subject → the endings the tool in use replaced there
    endings: dict[str, list[list[str]]] = field(default_factory=dict)
    #: subject → its frames that move a date, and what they moved
    movers: dict[str, list[Entry]] = field(default_factory=dict)
    moved: dict[str, list[list[str]]] = field(default_factory=dict)
    #: memory key → what its promotion retired, for every memory that tells of one
    promoted: dict[str, list[list[str]]] = field(default_factory=dict)
    #: "it" subject → its frames that change a count
    pronouns: dict[str, list[Entry]] = field(default_factory=dict)
    #: the count check's layout (``count_layout``)
    counts: dict[str, Any] = field(default_factory=dict)

    def encode(self) -> dict[str, str]:
        """The layout as JSON texts, one a part (each field, and ``v`` its version), all
        ASCII: texts of one byte a character (over 100,000 memories 20 MB in all, where
        the names' few other characters made it 42). A part at a time: no text of the
        whole layout is made, which the encoder built twice over while the layout's
        objects were alive, and the save copied whole (each 20 MB, the peak of a dream
        after an applied one)."""
        parts = {"v": str(_VERSION)}
        for f in fields(self):
            parts[f.name] = json.dumps(getattr(self, f.name))
        return parts

    @classmethod
    def decode(cls, parts: dict[str, str]) -> Layout | None:
        """A kept layout from its parts, each taken out of ``parts`` when read (its text
        let go as its objects are made), or None when it has another shape."""
        if parts.get("v") != str(_VERSION):
            return None
        values: dict[str, Any] = {}
        for name in [f.name for f in fields(cls)]:
            try:
                values[name] = json.loads(parts.pop(name))
            except (KeyError, ValueError):
                return None
            if not isinstance(values[name], dict):
                return None
        return cls(**values)

    def share(self) -> None:
        """One object for each memory key, subject key and kind, where JSON made one for
        every place it is written: the members' keys again in their subjects' entries,
        the subjects' keys again in each member's subjects (~16 MB over 100,000
        memories, held through the check)."""
        keys = {key: key for key in self.members}
        subjects = {key: key for key in self.groups}
        kinds: dict[int, int] = {}
        for member in self.members.values():
            member[2] = [subjects.get(s, s) for s in member[2]]
        for entries in self.groups.values():
            for entry in entries:
                entry[0] = keys.get(entry[0], entry[0])
                entry[2] = kinds.setdefault(entry[2], entry[2])


class LayoutKeeper:
    """The layout kept for one repository: loaded when asked, saved when replaced.

    A layout given back is held as its JSON texts, not as the objects the run moved: over
    100,000 memories those are 104 MB, held from the check to the end of the plan (the
    dream's peak), the texts 20 MB. A layout given back unchanged is not held at all: it
    is the one kept, loaded again if asked for again."""

    def __init__(self, kept: KeptLayout) -> None:
        self._kept = kept
        #: the layout of this run as JSON texts by part, when it changed the kept one
        self._parts: dict[str, str] | None = None

    def take(self) -> Layout | None:
        """The kept layout, or the one given back since (None when there is none); it is
        the caller's to change."""
        parts = dict(self._parts) if self._parts is not None else self._kept.load()
        return None if parts is None else Layout.decode(parts)

    def give(self, layout: Layout, *, changed: bool) -> None:
        """The layout of this run (``changed``: other than the one taken, so saved)."""
        if changed:
            self._parts = layout.encode()

    def save(self) -> None:
        if self._parts is not None:
            self._kept.save(self._parts)


_KEEPER: ContextVar[LayoutKeeper | None] = ContextVar("dreamgit_update_layout", default=None)


@contextmanager
def keeping_layout(git_dir: Path) -> Iterator[None]:
    """Take the check's layout from the one kept in ``git_dir``, and keep the new one at
    the end (every run from an empty layout when the code cannot be read to fingerprint)."""
    try:
        fingerprint = code_fingerprint(_PACKAGE, FOUND_BY)
    except OSError:
        yield
        return
    keeper = LayoutKeeper(KeptLayout(git_dir, fingerprint=fingerprint))
    token = _KEEPER.set(keeper)
    try:
        yield
        keeper.save()
    finally:
        _KEEPER.reset(token)


def layout_keeper() -> LayoutKeeper | None:
    """The keeper of the layout inside :func:`keeping_layout` (else None)."""
    return _KEEPER.get()
