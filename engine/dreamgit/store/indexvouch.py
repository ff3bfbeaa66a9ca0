"""Which index content was last found to stage exactly a set of committed files.

A status in a work tree first checks that git's index stages the commit's files under
the agent's paths (``store/leanworktree.py``): at 10,000 memories that is the memories'
blob ids listed from the derived store and compared with the index's, ~30 ms of a
process that otherwise answers from kept views. The verdict depends on two things only:
the index's content, which its checksum names (the reader verifies it, so equal
checksums are equal content), and the committed files, which the caller names by a key
(the tree and the other files). One line in the cache folder keeps the last pair found
equal; a later status with the same index and key need not compare again. It is a
cache: a missing, damaged or other line only means comparing again. Nothing in the
work tree is judged from it (every file is still looked at).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["vouch", "vouched"]


def _path(git_dir: Path) -> Path:
    return git_dir / "dreamgit" / "cache" / "index-vouched"


def _line(checksum: bytes, key: str) -> str:
    return f"{checksum.hex()} {key}\n"


def vouched(git_dir: Path, checksum: bytes, key: str) -> bool:
    """Whether the index whose checksum is ``checksum`` was found to stage exactly the
    files ``key`` names."""
    if not checksum.strip(b"\0"):
        return False  # git's index.skipHash writes no checksum: nothing names the content
    try:
        return _path(git_dir).read_text(encoding="ascii") == _line(checksum, key)
    except (OSError, UnicodeDecodeError):
        return False


def vouch(git_dir: Path, checksum: bytes, key: str) -> None:
    """Keep that the index with ``checksum`` stages exactly the files ``key`` names
    (quiet when the cache folder cannot be written: it costs only time)."""
    if not checksum.strip(b"\0"):
        return
    path = _path(git_dir)
    aside = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        aside.write_text(_line(checksum, key), encoding="ascii")
        os.replace(aside, path)  # a reader sees the old line or the new one, never half
    except OSError:
        with contextlib.suppress(OSError):
            aside.unlink(missing_ok=True)
