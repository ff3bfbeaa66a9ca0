"""LLM assistance for the dream cycle: adapters, the proposal contract, asking and caching.

The LLM only proposes. ``ask.ask`` renders a prompt, answers it from the cache
or an adapter, and parses the answer strictly into proposals;
``proposals.validate_proposals`` then accepts or rejects each one by the rules.
Adapters are plugins found through the ``dreamgit.llm`` entry-point group
(``registry.get_adapter``); the built-in ones are registered the same way.

May import: ``templating``, ``store`` (to redact what it caches) and the kernel.
"""

from __future__ import annotations
