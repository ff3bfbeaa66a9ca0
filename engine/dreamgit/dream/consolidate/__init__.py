"""Consolidation: near-duplicates found and merged, newer facts superseding older ones.

Near-duplicate pairs, frames and merge guards come from ``dreamgit.extract`` (shared
with gathering); ``merge_text`` writes the merged memory, ``supersede`` retires what a
change statement replaced, ``update`` what a newer value of the same subject and
relation replaced, ``phase`` plans the consolidate operations of a run.

May import: ``dream``'s shared pieces (workset, limits, vet, session_notes),
``extract``, ``ruleset``, ``dsl``, ``textsim`` and the kernel; never ``dream.gather``
(an import-linter contract checks it).
"""
