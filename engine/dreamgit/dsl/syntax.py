"""A parsed expression as plain objects the compiler reads, free of lark.

The parser turns lark's tree into these (:func:`dreamgit.dsl.parser.parse`): a
:class:`Node` per rule (its name, children and span in the text) and a
:class:`Leaf` per token (its text, terminal name and span). They pickle small and
unpickle without importing lark, so a process that finds an expression's tree in
the cache (:mod:`dreamgit.dsl.treecache`) compiles it without loading the parser
at all (lark's import alone is ~40 ms; parsing the default rules' expressions
~80 ms).
"""

from __future__ import annotations

from typing import Any

__all__ = ["Leaf", "Node"]


class Leaf(str):
    """One token: its text, its terminal's name and where it stands in the expression."""

    type: str
    start_pos: int
    end_pos: int

    def __new__(cls, value: str, type_: str, start: int, end: int) -> Leaf:
        leaf = super().__new__(cls, value)
        leaf.type, leaf.start_pos, leaf.end_pos = type_, start, end
        return leaf

    def __reduce__(self) -> tuple[Any, ...]:
        return (Leaf, (str(self), self.type, self.start_pos, self.end_pos))


class Node:
    """One rule's match: its name (``data``), its children and its span in the text."""

    __slots__ = ("children", "data", "end", "start")

    def __init__(self, data: str, children: list[Node | Leaf | None], start: int, end: int) -> None:
        #: The children in order; None where an optional part (``[...]``) was absent.
        self.data = data
        self.children = children
        self.start = start
        self.end = end

    def __reduce__(self) -> tuple[Any, ...]:
        return (Node, (self.data, self.children, self.start, self.end))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and (
            (self.data, self.children, self.start, self.end)
            == (other.data, other.children, other.start, other.end)
        )

    def __hash__(self) -> int:
        return hash((self.data, self.start, self.end))

    def __repr__(self) -> str:
        return f"Node({self.data!r}, {self.children!r}, {self.start}, {self.end})"
