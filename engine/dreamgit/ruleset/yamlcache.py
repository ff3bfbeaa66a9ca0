"""Rule files' YAML parsed once and kept between processes, by the hash of their text.

ruamel's round-trip loader (the one that keeps the lines and columns errors point at)
takes about 0.1 s over ``rules/default.yaml``, in every process that loads the rules
(``add`` and ``status`` as well as a dream); unpickling its result takes a millisecond.
The pickle is kept in the user's cache folder (:mod:`dreamgit.usercache`, beside lark's
parser tables) under the SHA-256 of the text and the versions of ruamel and Python.
Only documents that parsed are kept, so every error is found and worded as before; a
missing, damaged or unreadable file is parsed again and rewritten. At most
:data:`_KEEP` files are kept (the least recently written go first).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from pathlib import Path
from typing import Any

import ruamel.yaml
from ruamel.yaml import YAML

from dreamgit.usercache import user_cache_folder

__all__ = ["load_rules_yaml"]

#: Parsed rule files kept (each distinct text is one; a few tens of KB each).
_KEEP = 16
_PREFIX = "rules-yaml-"


def load_rules_yaml(text: str) -> Any:
    """``YAML(typ="rt").load(text)``, from the cache when this text was parsed before.

    Raises what ruamel raises for text that does not parse (never cached).
    """
    folder = user_cache_folder()
    if folder is None:
        return YAML(typ="rt").load(text)
    file = folder / _name(text)
    try:
        return pickle.loads(file.read_bytes())
    except Exception:
        pass
    doc = YAML(typ="rt").load(text)
    _save(file, doc)
    return doc


def _name(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:40]
    py = f"{sys.version_info[0]}{sys.version_info[1]}"
    return f"{_PREFIX}{digest}-ruamel{ruamel.yaml.__version__}-py{py}.pickle"


def _save(file: Path, doc: Any) -> None:
    """Write ``doc`` atomically and drop the oldest files past :data:`_KEEP`."""
    tmp = file.with_name(f"{file.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, file)
        kept = sorted(file.parent.glob(f"{_PREFIX}*.pickle"), key=lambda p: p.stat().st_mtime)
        for old in kept[:-_KEEP]:
            old.unlink(missing_ok=True)
    except (OSError, pickle.PicklingError):
        tmp.unlink(missing_ok=True)  # a cache that cannot be written costs only time
