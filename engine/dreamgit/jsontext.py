"""A value as JSON text on one line, non-ASCII kept as it is.

May import: nothing of the package.

``json.dumps(value, ensure_ascii=False)`` builds a new encoder for each call (it does for
any option), and so does an encoder object's ``encode``: it makes the C encoder anew each
time, with a dictionary to catch circular values. The kept readings and word sets, the
duplicate finder's slot keys and the run record's long lists encode some 700,000 small
values in a first dream over 100,000 memories, where that making was half of each call
(1.5 s of CPU). The C encoder made once writes the same text (the same separators, the
same error for a value JSON cannot hold); it does not look for circles, which no value
the engine writes has.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

__all__ = ["as_json"]

_ENCODER = json.JSONEncoder(ensure_ascii=False)


def _made_once() -> Callable[[Any], str]:
    """``json.dumps(value, ensure_ascii=False)``, with the C encoder made once (the
    encoder's own ``encode`` where Python has no C encoder)."""
    if c_make_encoder is None:  # pragma: no cover - CPython builds have it
        return _ENCODER.encode
    chunks = c_make_encoder(
        None,  # no markers: no check for circles
        _ENCODER.default,
        encode_basestring,
        None,  # no indent
        _ENCODER.key_separator,
        _ENCODER.item_separator,
        _ENCODER.sort_keys,
        _ENCODER.skipkeys,
        _ENCODER.allow_nan,
    )

    def as_json(value: Any) -> str:
        return "".join(chunks(value, 0))

    return as_json


#: ``json.dumps(value, ensure_ascii=False)``, with one encoder made once.
as_json = _made_once()
