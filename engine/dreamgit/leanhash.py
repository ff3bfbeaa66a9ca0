"""SHA-1 (git's object ids) and SHA-256 (memory and session ids) without hashlib's import.

Importing hashlib loads OpenSSL (~4 ms of the CPU of a ``dreamgit add`` that hashes a
handful of objects and makes one id); CPython's own ``_sha1`` and ``_sha2`` (``_sha256``
before Python 3.12) give the same digests. An interpreter built without them gets
hashlib's.

May import: nothing of dreamgit's (the kernel).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__all__ = ["sha1", "sha256"]

if TYPE_CHECKING:
    from hashlib import sha1, sha256
else:
    try:
        from _sha1 import sha1
    except ImportError:  # built without it
        from hashlib import sha1
    try:
        from _sha2 import sha256  # Python 3.12 and later
    except ImportError:
        try:
            from _sha256 import sha256
        except ImportError:  # built without it
            from hashlib import sha256
