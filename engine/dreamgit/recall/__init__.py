"""Recall: ranking memories for a query (``search``, ``index``), the signals recalls leave
and their folding into counters (``fold``; the spool itself is ``store/signals.py``),
promotion by those signals (``promotion``), forgetting by pattern (``forgetting``) and
the rule-set sections they read (``settings``).

May import: ``store``, ``ruleset``, ``dsl``, ``textsim`` and the kernel; never ``dream``,
``history`` or ``llm``.
"""
