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

#: One member of a subject: (memory key, the place of the frame in its reading).
Entry = list[Any]

#: The layout's shape; a kept one of another version is not read.
_VERSION = 1
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
    #: subject → the updates its comparison found (none: no entry)
    found: dict[str, list[list[str]]] = field(default_factory=dict)
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

    def encode(self) -> str:
        parts = {f.name: getattr(self, f.name) for f in fields(self)}  # no copy, as asdict
        return json.dumps({"v": _VERSION, **parts}, ensure_ascii=False)

    @classmethod
    def decode(cls, text: str) -> Layout | None:
        """A kept layout, or None when it has another shape."""
        try:
            values = json.loads(text)
        except ValueError:
            return None
        names = [f.name for f in fields(cls)]
        if not isinstance(values, dict) or values.get("v") != _VERSION:
            return None
        if not all(isinstance(values.get(name), dict) for name in names):
            return None
        return cls(**{name: values[name] for name in names})


class LayoutKeeper:
    """The layout kept for one repository: loaded when first asked, saved when replaced."""

    def __init__(self, kept: KeptLayout) -> None:
        self._kept = kept
        self._layout: Layout | None = None
        self._loaded = False
        self._changed = False

    def take(self) -> Layout | None:
        """The kept layout (None when there is none); it is the caller's to change."""
        if not self._loaded:
            self._loaded = True
            text = self._kept.load()
            self._layout = None if text is None else Layout.decode(text)
        layout, self._layout = self._layout, None
        return layout

    def give(self, layout: Layout, *, changed: bool) -> None:
        """The layout of this run (``changed``: other than the one taken, so saved)."""
        self._layout = layout
        self._changed = self._changed or changed

    def save(self) -> None:
        if self._changed and self._layout is not None:
            self._kept.save(self._layout.encode())


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
