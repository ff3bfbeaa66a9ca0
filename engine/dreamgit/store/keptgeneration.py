"""How many times a kept answer's database was saved: its generation, in its ``meta`` table.

A kept answer (``keptpairs.py``, ``keptcontained.py``) is saved as the difference from
what the run loaded, and that is right only onto the database as it was loaded. Each
save counts itself in the ``meta`` table; a save that finds another count than the one
it loaded knows another process saved in between, and writes its whole answer instead.
"""

from __future__ import annotations

import sqlite3

__all__ = ["bump_generation", "generation"]


def generation(db: sqlite3.Connection) -> int:
    """The saves counted in ``db`` (0 before the first)."""
    row = db.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
    return int(row[0]) if row is not None else 0


def bump_generation(db: sqlite3.Connection) -> None:
    """Count one more save in ``db`` (inside the save's transaction)."""
    db.execute("INSERT OR REPLACE INTO meta VALUES ('generation', ?)", (str(generation(db) + 1),))
