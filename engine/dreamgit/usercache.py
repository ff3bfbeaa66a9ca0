"""The user's cache folder for what dreamgit builds from its own files and keeps
between processes (lark's parser tables, parsed rule files, langid.py's unpacked
model): ``$XDG_CACHE_HOME/dreamgit``, else ``~/.cache/dreamgit``. Everything kept there
is a cache: deleting it changes no answer, and a home that cannot be written only costs
the time of building again.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path

__all__ = ["read_kept", "user_cache_folder", "write_kept"]


def user_cache_folder() -> Path | None:
    """The folder, made if missing, or None when it cannot be made."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    folder = Path(base) / "dreamgit"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


def read_kept(file: Path | None) -> dict[object, object]:
    """The dict pickled in ``file``; {} when there is none or it cannot be read as one."""
    if file is None:
        return {}
    try:
        found = pickle.loads(file.read_bytes())
    except Exception:  # a damaged or foreign file is a cache miss, never an error
        return {}
    return found if isinstance(found, dict) else {}


def write_kept(file: Path, kept: dict[object, object], limit: int) -> None:
    """``kept`` pickled into ``file`` at once (a temporary file replaced), the first added
    dropped beyond ``limit``; a file that cannot be written costs only time."""
    while len(kept) > limit:
        kept.pop(next(iter(kept)))
    tmp = file.with_name(f"{file.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(pickle.dumps(kept, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, file)
    except (OSError, pickle.PicklingError):
        tmp.unlink(missing_ok=True)
