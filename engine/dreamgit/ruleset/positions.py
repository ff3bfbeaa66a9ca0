"""Where a key of a rule file's mapping was written, merge keys (``<<:``) included.

ruamel.yaml records a line and column for each key a mapping spells itself; a key
taken in by a YAML merge (``<<: *base`` or ``<<: {...}``) has them only in the
mapping it came from. Errors about such a key point where it was written.
"""

from __future__ import annotations

from ruamel.yaml.comments import CommentedMap

__all__ = ["key_at", "value_at"]


def _written_in(mapping: CommentedMap, key: object) -> CommentedMap | None:
    """The mapping whose text spells ``key``: ``mapping`` itself or one merged into it."""
    if key in mapping.lc.data:
        return mapping
    for merged in mapping.merge:
        if isinstance(merged, CommentedMap) and key in merged:
            return _written_in(merged, key)
    return None


def key_at(mapping: CommentedMap, key: object) -> tuple[int, int]:
    """The line and column (from 0) of ``key`` in the file, else of ``mapping``."""
    held = _written_in(mapping, key)
    return held.lc.key(key) if held is not None else (mapping.lc.line, mapping.lc.col)


def value_at(mapping: CommentedMap, key: object) -> tuple[int, int]:
    """The line and column (from 0) of ``key``'s value in the file, else of ``mapping``."""
    held = _written_in(mapping, key)
    return held.lc.value(key) if held is not None else (mapping.lc.line, mapping.lc.col)
