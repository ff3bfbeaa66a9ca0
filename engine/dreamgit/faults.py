"""Named crash points, so tests can kill a dream exactly where it hurts most.

``checkpoint(name)`` does nothing unless ``$DREAMGIT_FAULT`` names that point;
then the process kills itself with SIGKILL, as a power cut or an OOM kill
would. The crash-safety tests use it to show that ``main`` is never left half
updated; it costs one dictionary lookup otherwise.
"""

from __future__ import annotations

import os
import signal

__all__ = ["checkpoint"]


def checkpoint(name: str) -> None:
    """Die here, at once and without cleanup, if ``$DREAMGIT_FAULT`` is ``name``."""
    if os.environ.get("DREAMGIT_FAULT") == name:
        os.kill(os.getpid(), signal.SIGKILL)
