"""Named crash points, so tests can kill a dream exactly where it hurts most.

``checkpoint(name)`` does nothing unless ``$DREAMGIT_FAULT`` names that point;
then the process kills itself with SIGKILL, as a power cut or an OOM kill
would. The crash-safety tests use it to show that ``main`` is never left half
updated; it costs one dictionary lookup otherwise. ``pause:<name>:<file>`` instead holds
the process at that point (having created ``<file>.reached``) until ``<file>``
exists, so a test can make another writer act at exactly that moment.
``enospc:<name>`` and ``erofs:<name>`` make the write at a point fail as a full disk
or a read-only mount would.
"""

from __future__ import annotations

import errno
import os
import signal
import time
from pathlib import Path

__all__ = ["checkpoint"]


#: ``enospc:<name>`` and ``erofs:<name>``: the write at that point fails as on a full
#: disk or a read-only mount (an OSError naming the file, as the kernel's would).
_WRITE_FAULTS = {"enospc": errno.ENOSPC, "erofs": errno.EROFS}


def checkpoint(name: str, *, path: str | os.PathLike[str] | None = None) -> None:
    """Die here, at once and without cleanup, if ``$DREAMGIT_FAULT`` is ``name``.

    At a write (``path`` given), ``enospc:<name>`` / ``erofs:<name>`` make it fail instead.
    """
    fault = os.environ.get("DREAMGIT_FAULT")
    if fault is None:
        return
    kind, _, point = fault.partition(":")
    if path is not None and point == name and kind in _WRITE_FAULTS:
        code = _WRITE_FAULTS[kind]
        raise OSError(code, os.strerror(code), os.fspath(path))
    if fault == name:
        os.kill(os.getpid(), signal.SIGKILL)
    elif fault is not None and fault.startswith(f"pause:{name}:"):
        go = Path(fault.removeprefix(f"pause:{name}:"))
        go.with_name(go.name + ".reached").touch()
        for _ in range(6000):  # at most a minute: a test that forgot to let go fails
            if go.exists():
                return
            time.sleep(0.01)
