"""Extraction: what gathering and consolidation both read in a statement, below both.

``candidate`` is a statement found in a session (text, topic, key, kind, session and
date) before it becomes a memory; ``extractor`` is the one interface that turns a
session's turns into candidates (the English rules, the model); ``lexicon`` holds the
tool names and their aliases, ``names`` a person's name in a sentence; ``frame`` reads a
sentence (its tokens from ``frame_tokens``) as subject, relation and value with the word
lists of ``verbs``, ``signature`` and ``guards`` tell facts that differ (numbers, names,
polarity, subjects, relations, values), ``duplicates`` finds near-duplicate pairs without
comparing all pairs (``pairable`` leaves out first what could pair with none of a few new
ones, asking which texts hold a word through ``holders``). ``dream.gather`` and
``dream.consolidate`` both import these and never each other.

May import: ``store``, ``textsim`` and the kernel; never ``dream``.
"""
