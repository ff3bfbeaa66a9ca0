"""Gathering: session transcripts → turns → candidate statements → new memories.

``transcript`` splits a session into turns, ``extract`` walks them and its helpers
(``pattern_memories``, ``statement_memories``, ``said_in_passing``, ``said_before``;
``common``, ``identity``, ``patterns``, ``phrasing``, ``tools``) find the statements
worth keeping (the English rules), ``phase`` plans the gather operations of a run. Candidates, the
tool lexicon and near-duplicate pairs come from ``dreamgit.extract``.

May import: the rest of ``dream`` below the run (workset, limits, session_notes),
``extract``, ``llm``, ``ruleset``, ``store``, ``dsl``, ``textsim`` and the kernel; never
``dream.consolidate`` (an import-linter contract checks it).
"""
