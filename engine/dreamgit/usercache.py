"""The user's cache folder for what dreamgit builds from its own files and keeps
between processes (lark's parser tables, parsed rule files, langid.py's unpacked
model): ``$XDG_CACHE_HOME/dreamgit``, else ``~/.cache/dreamgit``. Everything kept there
is a cache: deleting it changes no answer, and a home that cannot be written only costs
the time of building again.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["user_cache_folder"]


def user_cache_folder() -> Path | None:
    """The folder, made if missing, or None when it cannot be made."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    folder = Path(base) / "dreamgit"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder
