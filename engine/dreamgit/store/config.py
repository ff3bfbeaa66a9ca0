"""Reading ``.dreamgit/config.yaml`` as plain data (the rule-set loader checks its rules).

The settings outside the rules (``author``, ``llm``) are read here; a file that
is not valid YAML is a ConfigError with its line. A file of plain ``key: value`` lines
between whole-line comments and blank lines (the one ``init`` writes, with its settings
filled in) is read without YAML (``store/plainfront.py``): importing ruamel costs ~25 ms
of a process that adds one memory. Anything more (rule lists, quotes, a comment after a
value) goes to the YAML parser, which gives the same mapping for the plain ones.
"""

from __future__ import annotations

import re
from typing import Any

from dreamgit.errors import ConfigError, MemoryFileError
from dreamgit.store.layout import CONFIG
from dreamgit.store.plainfront import read_plain

__all__ = ["DEFAULT_CONFIG", "identity_problem", "read_config"]

# Git writes "name <email>" on one header line: a line break ends the header early,
# and angle brackets end the name or the address.
_BAD_IDENTITY = re.compile(r"[\x00-\x1f\x7f<>]")

DEFAULT_CONFIG = """\
# dreamgit settings for this memory repository.
# Rules: start from a bundled rule set and change only what you need.
# `dreamgit rules show` prints the effective rules; `dreamgit rules check` checks this file.
extends: default

# Switch bundled rules off by name:
# disable: [expire-low]

# Override a bundled rule by name, or add your own:
# prune:
#   - name: expire-ephemeral
#     when: "priority == ephemeral and age > 48h"

# Who dream commits are by (default: $GIT_AUTHOR_NAME/$GIT_AUTHOR_EMAIL, else dreamgit):
# author: {name: My Agent, email: agent@example.com}
"""


def read_config(text: str | None) -> dict[str, Any]:
    """Parse the configuration text; None (no file) gives {}."""
    if text is None or not text.strip():
        return {}
    body = text if text.endswith("\n") else text + "\n"
    plain = _plain_config(body)
    if plain is not None:
        _check_author(plain.get("author"), body)
        return plain
    from dreamgit.store import frontmatter  # ruamel: only for what is not plain

    try:
        doc = frontmatter.parse(f"---\n{body}---\n", path=CONFIG)
    except MemoryFileError as exc:
        # The parser may blame the closing fence we added; point at the file's last line.
        line = min(exc.line - 1, body.count("\n")) if exc.line else None
        where = f"{CONFIG}:{line}" if line else CONFIG
        reason = exc.reason.replace("front matter", "the configuration")
        raise ConfigError(f"{where}: {reason}", hint="fix the YAML syntax") from None
    _check_author(doc.meta.get("author"), body)
    return doc.meta


def _plain_config(body: str) -> dict[str, Any] | None:
    """The mapping of a configuration of plain lines, whole-line comments (``#`` in the
    first column: a comment wherever YAML allows it, and no plain line continues past
    one) and blank lines; None when it holds anything else, or nothing."""
    kept = [line for line in body.split("\n") if line.strip(" ") and line[0] != "#"]
    return read_plain("\n".join(kept)) if kept else None


def identity_problem(key: str, value: object) -> str | None:
    """What is wrong with ``author.<key>`` as part of a git identity (None when fine)."""
    if not isinstance(value, str):
        return None  # the rules loader reports the type, with its position
    if not value.strip():
        return f"author.{key}: must not be empty"
    bad = _BAD_IDENTITY.search(value)
    if bad is not None:
        return (
            f"author.{key}: {bad.group()!r} cannot be part of a git identity"
            " (no line breaks, control characters, < or >)"
        )
    return None


def _check_author(author: object, text: str) -> None:
    if not isinstance(author, dict):
        return
    for key in ("name", "email"):
        problem = identity_problem(key, author.get(key)) if key in author else None
        if problem is not None:
            line, col = _value_position(text, ("author", key))
            raise ConfigError(
                f"{CONFIG}:{line}:{col}: {problem}",
                hint="write the name and the email address each on one line, e.g."
                " author: {name: My Agent, email: agent@example.com}",
            )


def _value_position(text: str, keys: tuple[str, ...]) -> tuple[int, int]:
    """1-based line and column of the value at ``keys`` in the YAML ``text`` ((1, 1) if lost)."""
    from ruamel.yaml.error import YAMLError
    from ruamel.yaml.nodes import MappingNode

    from dreamgit.store import frontmatter

    try:
        node = frontmatter.compose(text)
    except YAMLError:  # pragma: no cover - the text has just been parsed
        return 1, 1
    for key in keys:
        if not isinstance(node, MappingNode):
            return 1, 1
        found = [v for k, v in node.value if getattr(k, "value", None) == key]
        if not found:
            return 1, 1
        node = found[0]
    return int(node.start_mark.line) + 1, int(node.start_mark.column) + 1
