"""What the newer-value check read and found, kept between runs: the block that keeps it.

The newer-value check (``update.py``) reads what each memory says to compare
(``update_readings``) and lays out the memories by subject with what each member's
comparison found (``update_layout``); over 100,000 memories a run changes a few hundred
of them. Inside :func:`keeping_updates` (the dream's plan opens it) both are taken from
the git directory (``update-readings.sqlite3``, ``update-layout.sqlite3``, tagged with a
fingerprint of the consolidation and framing code) and saved when the block ends, so a
run reads only the new and changed memories and compares again only the members whose
comparison they can change. Outside it every memory is read and compared afresh. Same
answers either way.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from dreamgit.dream.consolidate.update_kept import keeping_layout
from dreamgit.dream.consolidate.update_readings import keeping_readings

__all__ = ["keeping_updates"]


@contextmanager
def keeping_updates(git_dir: Path) -> Iterator[None]:
    """Take what each memory says to compare (``update_readings``) and the check's layout
    (``update_kept``) from those kept in ``git_dir``; save the new ones at the end."""
    with keeping_readings(git_dir), keeping_layout(git_dir):
        yield
