"""A value as compact JSON text on one line, non-ASCII kept as it is.

May import: nothing of the package.

``json.dumps(value, ensure_ascii=False)`` builds a new encoder for each call (it does for
any option); the kept readings and word sets, the duplicate finder's slot keys and the run
record's long lists encode hundreds of thousands of small values in a dream over 100,000
memories. One encoder, made once, writes the same text.
"""

from __future__ import annotations

import json

__all__ = ["as_json"]

#: ``json.dumps(value, ensure_ascii=False)``, with one encoder made once.
as_json = json.JSONEncoder(ensure_ascii=False).encode
