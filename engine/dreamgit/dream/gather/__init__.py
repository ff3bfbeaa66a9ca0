"""Gathering: session transcripts → turns → candidate statements → new memories.

``transcript`` splits a session into turns, ``extract`` and its helpers (``common``,
``identity``, ``lexicon``, ``patterns``, ``phrasing``, ``tools``) find the statements worth
keeping, ``phase`` plans the gather operations of a run.

May import: the rest of ``dream`` below the run (candidate, workset, limits, consolidate),
``llm``, ``history``, ``ruleset``, ``store`` and the kernel.
"""
