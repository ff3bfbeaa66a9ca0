"""The memory repository, porcelain over git: memories, sessions and what is done with them.

Built on ``gitstore``, the plumbing below it (the only pygit2 importer: objects, refs,
locks, the work tree), which never imports this package. Owns ``repo`` (``MemoryRepo``: the
memory set of a branch, agent edits, writers taking turns; joined from ``reader``,
``committer``, ``checkout`` and ``recallflush``), the file formats (``frontmatter``,
``memoryfile`` for one memory file, ``memorycache`` for reading many through caches keyed by
blob id, ``sessionfile``), the derived-state store, where things live (``layout``), the
config file, the single-memory operations behind ``add``/``forget``/``restore``/``log``
(``operations``, ``restoring``, ``versions``), other agents' formats (``formats``),
adoption, transfer, the credential scan and the recall spool (``signals``, ``recallflush``).

May import: ``gitstore`` (the plumbing below it: git objects, refs, locks, the work tree),
``textsim`` (the recall index's tokenizer, in derived.py) and the kernel; never the layers
above.
"""
