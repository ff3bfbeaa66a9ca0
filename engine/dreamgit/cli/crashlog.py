"""The crash log an internal error leaves: versions, the command line and the traceback.

The root group (``cli/app.py``) writes one for an error it did not expect, and so does a
command line answered without click (``cli/addrun.py``). Only a crash imports this.
"""

from __future__ import annotations

import os
import sys
import traceback
from datetime import datetime
from pathlib import Path

from dreamgit.version import __version__

__all__ = ["write_crash_log"]


def write_crash_log(exc: BaseException) -> Path:
    """Write the versions, the command line and the traceback of ``exc`` to a new file
    under the user's state folder; its path."""

    stamp = datetime.now().strftime("%Y%m%dT%H%M%S")
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    folder = Path(state) / "dreamgit" / "crash"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"crash-{stamp}-{os.getpid()}.log"
    versions = _versions()
    body = "".join(traceback.format_exception(exc))
    path.write_text(f"{versions}\nargv: {sys.argv!r}\n\n{body}", encoding="utf-8")
    return path


def _versions() -> str:
    import importlib.metadata  # only a crash needs it: not paid at every start
    import platform

    parts = [f"dreamgit {__version__}", f"python {platform.python_version()}"]
    # Distribution metadata, not `module.__version__` (deprecated in click 8.2+).
    for name in ("pygit2", "lark", "ruamel.yaml", "jinja2", "click", "deepdiff"):
        try:
            parts.append(f"{name} {importlib.metadata.version(name)}")
        except Exception:
            parts.append(f"{name} ?")
    return ", ".join(parts)
