"""Markdown files with YAML front matter: split, fast scan, and careful rewrite.

Reading uses ruamel's C safe loader (YAML 1.2, like the round-trip writer, so
the read and write paths agree). Rewriting uses the round-trip loader only for
the file being rewritten, so comments, key order and unknown keys survive; the
body bytes are never touched. Files without front matter, empty front matter,
CRLF line endings and a byte-order mark are all accepted.
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MantissaNoDotYAML1_1Warning, MarkedYAMLError, YAMLError
from ruamel.yaml.events import AliasEvent
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode
from ruamel.yaml.timestamp import TimeStamp
from ruamel.yaml.util import load_yaml_guess_indent

from dreamgit.errors import MemoryFileError
from dreamgit.store.plainfront import document, read_plain, write_plain

try:  # The C loader comes with ruamel.yaml[oldlibyaml]; the pure one is ~3x slower.
    from ruamel.yaml.cyaml import CSafeLoader as _FastLoader

    HAVE_C_LOADER = True
except ImportError:  # pragma: no cover - depends on the installation
    from ruamel.yaml.loader import SafeLoader as _FastLoader  # type: ignore[assignment]

    HAVE_C_LOADER = False

__all__ = [
    "HAVE_C_LOADER",
    "Document",
    "check_no_aliases",
    "compose",
    "dump_new",
    "parse",
    "rewrite",
    "styled",
]

_OPEN = re.compile(r"\A(?:\ufeff)?---[ \t]*\r?\n")
_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$", re.MULTILINE)


@dataclass(frozen=True)
class Document:
    """A file split into its front matter (parsed) and its body (verbatim)."""

    meta: dict[str, Any]
    body: str
    #: The raw front-matter text, or None when the file has none.
    raw_meta: str | None
    #: Everything before the body: the opening fence, the front matter, the closing fence.
    head: str


def _split(text: str) -> tuple[str | None, str, str]:
    opened = _OPEN.match(text)
    if opened is None:
        return None, text.removeprefix("\ufeff"), ""
    closed = _CLOSE.search(text, opened.end())
    if closed is None:
        raise ValueError("front matter opened with --- is never closed")
    end = closed.end()
    if text[end : end + 1] == "\n":
        end += 1
    return text[opened.end() : closed.start()], text[end:], text[:end]


def parse(text: str, *, path: str) -> Document:
    """Split and parse a file; a broken file raises MemoryFileError with its line."""
    try:
        raw, body, head = _split(text)
    except ValueError as exc:
        raise MemoryFileError(
            path, str(exc), line=1, hint="close the front matter with a line holding only ---"
        ) from None
    if raw is None or not raw.strip():
        return Document({}, body, raw, head)
    plain = read_plain(raw)  # the shape dreamgit writes, read ~50x faster than by YAML
    if plain is not None:
        return Document(plain, body, raw, head)
    check_no_aliases(raw, path=path, line_offset=2)
    loader = _FastLoader(raw)
    try:
        with warnings.catch_warnings():
            # `1e5` is a fine YAML 1.2 float; ruamel would print a YAML 1.1 lecture on stderr.
            warnings.simplefilter("ignore", MantissaNoDotYAML1_1Warning)
            data = loader.get_single_data()
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 2 if mark is not None else 1  # +1 for 1-based, +1 for the fence
        problem = exc.problem or exc.context or "invalid YAML"
        raise MemoryFileError(
            path, f"front matter is not valid YAML: {problem}", line=line, hint=_YAML_HINT
        ) from None
    except YAMLError as exc:
        raise MemoryFileError(
            path, f"front matter is not valid YAML: {exc}", line=1, hint=_YAML_HINT
        ) from None
    except (ValueError, OverflowError) as exc:
        # The constructor checks values after parsing (`2026-13-45` looks like a date).
        raise MemoryFileError(
            path,
            f"front matter is not valid YAML: {exc}",
            line=_failing_line(raw),
            hint=_YAML_HINT,
        ) from None
    finally:
        loader.dispose()
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise MemoryFileError(
            path,
            f"front matter must be a mapping of keys to values, not a {type(data).__name__}",
            line=2,
            hint=_YAML_HINT,
        )
    return Document(data, body, raw, head)


def check_no_aliases(raw: str, *, path: str, line_offset: int = 1) -> None:
    """Raise MemoryFileError at the first YAML alias (``*name``) in ``raw``.

    An alias makes its anchor's value appear again; nested ones multiply ("a billion
    laughs": a 1 KB file expanding to gigabytes), so files dreamgit reads use none.
    Only the parser's events are read, nothing is built. Syntax errors pass here: the
    caller's own parse reports them in its words. ``line_offset`` is added to the
    0-based line (2 for front matter: 1-based, and the opening fence).
    """
    if "*" not in raw:  # no alias without an asterisk: the common case costs one scan
        return
    loader = _FastLoader(raw)
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, AliasEvent):
                raise MemoryFileError(
                    path,
                    "YAML aliases (*name) are not allowed: each one repeats a value, and"
                    " nested ones can make a small file expand without bound",
                    line=int(event.start_mark.line) + line_offset,
                    hint="write the value out where the alias stands",
                )
    except YAMLError:
        return
    finally:
        loader.dispose()


def compose(raw: str) -> Any:
    """The node tree of a YAML text (positions, nothing constructed); YAMLError if invalid."""
    loader = _FastLoader(raw)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def _failing_line(raw: str) -> int:
    """The file line of the first value that cannot be constructed (1 if none is found)."""
    loader = _FastLoader(raw)
    try:
        stack = [loader.get_single_node()]
        while stack:
            node = stack.pop()
            if isinstance(node, ScalarNode):
                try:
                    loader.construct_object(node, deep=True)
                except (ValueError, OverflowError, YAMLError):
                    return int(node.start_mark.line) + 2
            elif isinstance(node, SequenceNode):
                stack.extend(reversed(node.value))
            elif isinstance(node, MappingNode):
                stack.extend(n for pair in reversed(node.value) for n in reversed(pair))
    finally:
        loader.dispose()
    return 1


_YAML_HINT = "fix the YAML between the --- lines (or restore the file with `git checkout`)"


def _represent_time(representer: Any, value: datetime) -> Any:
    # Plain `2026-11-20T10:04:00Z`, as people write it, rather than ruamel's `... +00:00`.
    moment = value if value.tzinfo else value.replace(tzinfo=UTC)
    text = moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return representer.represent_scalar("tag:yaml.org,2002:timestamp", text)


def _round_trip() -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096
    for kind in (datetime, TimeStamp):
        yaml.representer.add_representer(kind, _represent_time)
    # Equal times would otherwise be written once and aliased (`&id001`).
    yaml.representer.ignore_aliases = lambda _data: True
    return yaml


def dump_new(meta: Mapping[str, Any], body: str) -> str:
    """Write a new file: mappings in block style, lists in flow style (``tags: [a, b]``)."""
    # The plain shape (nearly every memory) is written without the dumper, ~50x faster.
    front = write_plain(meta)
    return document(_dump_by_yaml(meta) if front is None else front, body)


def _dump_by_yaml(meta: Mapping[str, Any]) -> str:
    yaml = _round_trip()
    out = io.StringIO()
    yaml.dump(styled(meta), out)
    return out.getvalue()


def styled(value: Any) -> Any:
    """Plain values as ruamel nodes: block mappings and flow lists."""
    if isinstance(value, Mapping):
        mapping = CommentedMap((k, styled(v)) for k, v in value.items())
        mapping.fa.set_block_style()
        return mapping
    if isinstance(value, list | tuple):
        seq = CommentedSeq(styled(v) for v in value)
        seq.fa.set_flow_style()
        return seq
    return value


def _mapping_indent(raw: str) -> int:
    """How far nested mappings are indented in ``raw`` (2 when nothing is nested)."""
    parent: int | None = None
    for line in raw.splitlines():
        content = line.split(" #", 1)[0].rstrip()
        if not content.strip() or content.lstrip().startswith("#"):
            continue
        depth = len(content) - len(content.lstrip(" "))
        if parent is not None and depth > parent and not content.lstrip().startswith("-"):
            return depth - parent
        parent = depth if content.endswith(":") else None
    return 2


def rewrite(text: str, *, path: str, edit: Callable[[Any], None], body: str | None = None) -> str:
    """Rewrite one file's front matter in place with ``edit``; comments and unknown keys stay.

    ``edit`` receives the round-trip mapping and changes it. The body is kept
    byte for byte unless a new ``body`` is given.
    """
    raw, old_body, _ = _split(text)
    new_body = old_body if body is None else body
    if new_body and not new_body.endswith("\n"):
        new_body += "\n"
    front = None if raw is None else _rewrite_plain(raw, edit)
    if front is not None:
        return f"---\n{front}---\n{new_body}"
    yaml = _round_trip()
    if raw is None or not raw.strip():
        data: Any = yaml.load("{}")
        data.fa.set_block_style()
    else:
        check_no_aliases(raw, path=path, line_offset=2)
        try:
            data, seq_indent, block_seq_indent = load_yaml_guess_indent(raw, yaml=yaml)
        except (YAMLError, ValueError, OverflowError) as exc:
            raise MemoryFileError(
                path, f"front matter is not valid YAML: {exc}", hint=_YAML_HINT
            ) from None
        # Keep each file's own style. ruamel guesses the block lists (`- a` flush or
        # indented under its key: `sequence` is where an item's text starts, `offset`
        # where its dash is); it cannot tell nested mappings apart, so measure those.
        mapping = _mapping_indent(raw)
        if block_seq_indent is None or seq_indent is None:
            yaml.indent(mapping=mapping, sequence=mapping, offset=0)
        else:
            yaml.indent(mapping=mapping, sequence=seq_indent, offset=block_seq_indent)
    edit(data)
    out = io.StringIO()
    yaml.dump(data, out)
    return f"---\n{out.getvalue()}---\n{new_body}"


def _rewrite_plain(raw: str, edit: Callable[[Any], None]) -> str | None:
    """``raw`` edited without the round-trip parser, when it is front matter exactly as
    :func:`write_plain` writes it (a plain mapping keeps its keys' order as the round-trip
    one does, and the result is plain too); None otherwise."""
    data = read_plain(raw)
    if data is None or write_plain(data) != raw:
        return None
    edit(data)
    return write_plain(data)
