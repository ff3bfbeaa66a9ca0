"""What git remembers about dreams: run records, the list of runs, diffs of memory state,
merging a reviewed run into main, reverting a run or one operation, pushing, summaries,
and the ``Dream-*`` trailers every dreamgit commit carries.

May import: ``store``, ``gitstore``, ``templating``, ``dsl`` and the kernel; never ``dream``.
"""
