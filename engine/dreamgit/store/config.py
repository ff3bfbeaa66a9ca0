"""Reading ``.dreamgit/config.yaml`` as plain data (the rule-set loader checks its rules).

The settings outside the rules (``author``, ``llm``) are read here; a file that
is not valid YAML is a ConfigError with its line.
"""

from __future__ import annotations

from typing import Any

from dreamgit.errors import ConfigError, MemoryFileError
from dreamgit.store import frontmatter
from dreamgit.store.layout import CONFIG

__all__ = ["DEFAULT_CONFIG", "read_config"]

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
    try:
        doc = frontmatter.parse(f"---\n{body}---\n", path=CONFIG)
    except MemoryFileError as exc:
        # The parser may blame the closing fence we added; point at the file's last line.
        line = min(exc.line - 1, body.count("\n")) if exc.line else None
        where = f"{CONFIG}:{line}" if line else CONFIG
        reason = exc.reason.replace("front matter", "the configuration")
        raise ConfigError(f"{where}: {reason}", hint="fix the YAML syntax") from None
    return doc.meta
