"""The reflect phase: what recurs across days, proposed with its evidence (REM sleep).

After consolidation a dream looks across the last days rather than at one session:
concepts several memories keep returning to become **themes** in the day's notes
(``notes/YYYY-MM-DD.md``, a ``## Reflections`` block), a statement reinforced on
several days from more than one session is marked a **lasting truth**, a candidate
for promotion, and a correction repeated on several days becomes a proposed
**lesson**, a staged ``instruction`` memory citing the corrections. Everything is read
from the structure the dream already has (each memory's sightings, its frame, recall
signals) and gated by the ``reflect:`` rules; nothing enters ``MEMORY.md`` before the
promotion rules let it.

May import: ``dream``'s shared pieces (workset, session notes), ``dream.gather``'s
transcript reader and the user's known name (who speaks in a session), ``extract``'s
frame and verbs (to read a correction and a concept), ``store``, ``dsl``, ``textsim`` and
the kernel; never anything above ``dream``.
"""

from __future__ import annotations

from dreamgit.dream.reflect.phase import plan_reflect

__all__ = ["plan_reflect"]
