"""The derived store's tables, and what a move and its readers share of them.

``store/derived.py`` opens the database with these tables and reads them;
``store/derivedmove.py`` fills them (and makes them again for another schema's database).
Both import them from here, so neither imports the other at import time (the move is
loaded only by a sync: a recall answered from the store never runs it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from dreamgit.store.derivedpostings import POSTINGS_TABLE

__all__ = ["DOC_INDEXES", "TABLES", "Changes", "Parsed", "said_key"]

#: The indexes of the docs table (made by the store's schema, and again after a build).
DOC_INDEXES = """
CREATE INDEX IF NOT EXISTS docs_by_id ON docs (id);
CREATE INDEX IF NOT EXISTS docs_by_said ON docs (said);
"""

#: The tables a move writes (dropped and made again for another schema's database). A
#: memory file's row has a number (``n``) its postings name it by, kept while it stays.
TABLES = f"""
CREATE TABLE IF NOT EXISTS docs (
    n INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, blob TEXT NOT NULL, id TEXT,
    record TEXT, len INTEGER NOT NULL, active INTEGER NOT NULL, said TEXT
);
{DOC_INDEXES}
CREATE TABLE IF NOT EXISTS facts (
    path TEXT NOT NULL, blob TEXT NOT NULL, kind TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY (path, kind)
) WITHOUT ROWID;
{POSTINGS_TABLE}
"""

#: A readable file's blob id and its parsed record as JSON text.
Parsed = tuple[str, str]
#: The memory files that differ from an old tree (path → new blob, None: gone), or None
#: when they cannot be told (the old tree is not in the repository).
Changes = Callable[[str], Mapping[str, str | None] | None]


def said_key(text: str) -> str:
    """What a text says, for telling a repeat: words only, case folded, no final stop."""
    return " ".join(text.casefold().split()).rstrip(".!")
