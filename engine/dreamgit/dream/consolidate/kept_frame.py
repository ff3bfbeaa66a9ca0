"""A kept frame read back in two steps: what grouping needs now, the rest when first asked.

The newer-value check (``update.py``) groups every active memory's frames by subject and
then compares only the subjects a new or changed memory joined; the frames of the other
subjects are looked at by a few passes for a flag or two (a change, a negation) and
otherwise only counted and passed along. Decoding each kept frame whole (its twenty-odd
fields, each set built and shared) was most of reading a kept reading back, over
100,000 memories several seconds and a frame's sets held to the end of the check. A
:class:`KeptFrame` holds the fields those passes read of every frame (its subject, the
change and negation flags, and the defaulted fields) and the rest as its JSON text,
decoded by ``frame_memo``'s codec the first time another field is asked for; where that
text cannot be read back, the frame is read afresh from its memory's text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from dreamgit.extract.frame import Frame

__all__ = ["EAGER", "KeptFrame"]

#: Fields a kept frame holds from the start: the subject it is grouped by, the flags every
#: frame is filtered by, and the fields with a default (which a class attribute answers).
EAGER = ("subject", "change", "negated", "left", "moved_from", "period")

_NAMES = tuple(f.name for f in fields(Frame))
_LAZY = frozenset(_NAMES) - frozenset(EAGER)


class KeptFrame(Frame):
    """A frame whose fields but :data:`EAGER` are decoded from ``body`` when first read.

    ``decode`` turns the body into the whole frame; ``again`` reads it afresh (from the
    memory's text) where the body cannot be decoded. Equal to, and hashed as, any frame
    with the same fields.
    """

    def __init__(self, eager: dict[str, Any], body: str, decode: Callable[[str], Frame]) -> None:
        self.__dict__.update(eager)
        self.__dict__["_body"] = (body, decode, None)

    def recover_with(self, again: Callable[[], Frame]) -> None:
        """Where the body cannot be decoded, take the frame ``again()`` gives."""
        body, decode, _again = self.__dict__["_body"]
        self.__dict__["_body"] = (body, decode, again)

    def __getattr__(self, name: str) -> Any:
        # only for the fields not held yet (and names no frame has)
        if name not in _LAZY or "_body" not in self.__dict__:
            raise AttributeError(name)
        body, decode, again = self.__dict__.pop("_body")
        try:
            whole = decode(body)
        except (ValueError, TypeError):
            if again is None:
                raise
            whole = again()
        self.__dict__.update((n, getattr(whole, n)) for n in _NAMES)
        return self.__dict__[name]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Frame):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in _NAMES)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in _NAMES))
