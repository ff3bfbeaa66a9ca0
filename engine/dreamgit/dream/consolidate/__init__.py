"""Consolidation: near-duplicates found and merged, newer facts superseding older ones.

``duplicates`` finds candidate pairs without comparing all pairs, ``guards`` and
``signature`` refuse merges of facts that differ (numbers, names, polarity, keys),
``merge_text`` writes the merged memory, ``supersede`` retires what a newer fact
replaced, ``phase`` plans the consolidate operations of a run.

May import: ``dream``'s shared pieces (candidate, workset, limits), ``dream.gather``'s
lexicon, ``ruleset``, ``textsim`` and the kernel.
"""
