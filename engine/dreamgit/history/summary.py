"""The Markdown summary of a dream run: the body of its pull request.

A run record (the dict ``run --json`` prints) is rendered through the
``summary`` template, which a repository may override in
``.dreamgit/prompts/summary.md.j2``. Optional parts of the record are filled
with empty defaults here, so a record from a skipped run or an older version
renders too, while a misspelt field in an override still fails loudly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dreamgit.store.secrets import redact_text
from dreamgit.templating import render

__all__ = ["render_summary"]

_RECORD_DEFAULTS: dict[str, Any] = {
    "run_id": None,
    "branch": None,
    "now": "",
    # Records without the flag come from runs that wrote their branch.
    "applied": True,
    "merged": False,
    "skipped": False,
    "reason": "",
    "memories_before": 0,
    "memories_after": 0,
    "sessions": [],
    "counts": {},
    "ops": [],
    "deferred": [],
    "decisions": [],
}
_OP_DEFAULTS: dict[str, Any] = {
    "phase": "",
    "rule": "",
    "memories": [],
    "commit": None,
    "summary": "",
    "source": "rules",
    "model": None,
    "before": [],
    "after": [],
}
_DEFERRED_DEFAULTS: dict[str, Any] = {"op": "", "rule": "", "memories": [], "reason": "", "more": 0}


def render_summary(record: Mapping[str, Any], *, overrides: Mapping[str, str] | None = None) -> str:
    """Render the pull-request body for a run record; ``overrides`` as in ``templating.render``."""
    full = {**_RECORD_DEFAULTS, **record}
    full["ops"] = [
        {**_OP_DEFAULTS, "n": index, **op} for index, op in enumerate(full["ops"], start=1)
    ]
    full["deferred"] = [{**_DEFERRED_DEFAULTS, **item} for item in full["deferred"]]
    text = render("summary", {"record": full}, overrides=overrides)
    # Blank lines left by template blocks are collapsed so the Markdown stays tidy.
    lines: list[str] = []
    for line in text.splitlines():
        if line.strip() or (lines and lines[-1].strip()):
            lines.append(line.rstrip())
    # The record was redacted when it was made; an override may print more of it, or a
    # record from before redaction: the body is scanned as a whole once more.
    return redact_text("\n".join(lines).strip() + "\n")[0]
