"""Each xdist worker imports its share of the test modules before collecting.

On a fresh checkout no test module has bytecode yet, and pytest rewrites the asserts of
each one it imports (parse, rewrite, compile: about 9 s of CPU for all of them) and keeps
the result in ``__pycache__``. Every worker collects every module, in the same order, so
on a fresh checkout each rewrote all of them at the same time. Imported first, a share a
worker (every Nth module) is rewritten by that worker alone; when collection reaches the
others, the other workers have kept theirs and it reads them. A module's import is what
collection does anyway: only the order changes. A warm checkout reads every module's
kept bytecode either way.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest


def import_share(folder: Path, worker: int, workers: int) -> list[str]:
    """Import every ``workers``-th test module of ``folder`` from the ``worker``-th on;
    the names imported. A module that fails to import is left to collection, which
    reports it as it always does."""
    names = sorted(path.stem for path in folder.glob("test_*.py"))
    imported = []
    if str(folder) not in sys.path:
        return imported  # pytest has not put the folder on the path: collection imports
    for name in names[worker::workers]:
        if name in sys.modules:
            continue
        try:
            importlib.import_module(name)
        except (Exception, pytest.skip.Exception):
            continue
        imported.append(name)
    return imported


def worker_share(config: pytest.Config) -> tuple[int, int] | None:
    """This xdist worker's number and the number of workers; None outside a worker."""
    found = getattr(config, "workerinput", None)
    if found is None:
        return None
    return int(found["workerid"].removeprefix("gw")), int(found["workercount"])
