"""Consolidation: near-duplicates found and merged, newer facts superseding older ones.

``frame`` reads a memory sentence as subject, relation and value (with the word
lists of ``verbs``), ``duplicates`` finds candidate pairs without comparing all
pairs, ``guards`` and ``signature`` refuse merges of facts that differ (numbers,
names, polarity, keys, subjects, relations, values), ``merge_text`` writes the
merged memory, ``supersede`` retires what a change statement replaced, ``update``
what a newer value of the same subject and relation replaced, ``phase`` plans the
consolidate operations of a run.

May import: ``dream``'s shared pieces (candidate, workset, limits), ``dream.gather``'s
lexicon, ``ruleset``, ``textsim`` and the kernel.
"""
