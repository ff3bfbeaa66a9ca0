"""The memory repository: everything that reads or writes git and the files in it.

Owns ``gitstore`` (the only package that imports pygit2: compare-and-swap commits, ref
transactions, work-tree sync), ``repo`` (``MemoryRepo``: the memory set of a branch, agent
edits, writers taking turns; joined from ``reader``, ``committer``, ``checkout`` and
``recallflush``), ``locks``, the file formats (``frontmatter``, ``memoryfile``,
``sessionfile``), the parse cache, where things live (``layout``), the config file and
the single-memory operations behind ``add``/``forget``/``restore``/``log``.

May import: the kernel (errors, clock, ids, model, faults, version) and ``textsim`` (the
recall index's tokenizer, in derived.py), nothing above them.
"""
