"""SHA-1 for git's object ids, without hashlib's import.

Importing hashlib loads OpenSSL (~4 ms of the CPU of a ``dreamgit add`` that hashes a
handful of objects); CPython's own ``_sha1`` gives the same digests. An interpreter
built without it gets hashlib's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__all__ = ["sha1"]

if TYPE_CHECKING:
    from hashlib import sha1
else:
    try:
        from _sha1 import sha1
    except ImportError:  # built without it
        from hashlib import sha1
