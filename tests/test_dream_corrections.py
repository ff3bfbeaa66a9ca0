"""A correction ("…, not X") retires the older memory whose value X is, and no other.

Everything goes through the installed command as a process, on a real repository: memories
added on one day, newer ones on another, then `dreamgit run`. A request that ends "…, not a
feature branch" corrects where its own work happens; an older wish whose long value names
branches in passing stays active, and so does advice about a size when a later request
uses one library "instead of jQuery to cut the bundle size".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clikit import active, dreamgit, prepared
from gitcheck import fsck

#: An older wish that names branches in passing, and a later request that rejects one.
NAMING = (
    "The user wants branches to be named after the ticket, so a full branch name looks like "
    '"feature/ABC-12-short-title", similar to the commit prefix they chose.'
)
TAGGING = (
    "The user wants the agent to make sure every release tag is cut from the main line, "
    "not a feature branch."
)
#: Advice about a size, and a later request that rejects a library to cut that size.
SIZE_ADVICE = "The user has been told that keeping bundle sizes under 150KB is important."
PICKER = (
    "The user is trying to build the date picker with plain JS instead of jQuery to cut the "
    "bundle size, but it misbehaves."
)
#: A correction of the older value itself.
EDITOR_BEFORE = "The user's editor is VS Code."
EDITOR_AFTER = "The user's editor is Neovim, not VS Code."


@pytest.mark.slow
def test_a_correction_retires_the_value_it_rejects_and_not_a_wish_that_names_it_in_passing(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "mem"
    prepared(repo, "2026-03-02T09:00:00Z", "init", str(repo))
    for text in (NAMING, SIZE_ADVICE, EDITOR_BEFORE):
        prepared(repo, "2026-03-02T10:00:00Z", "add", text, "--topic", "preferences")
    for text in (TAGGING, PICKER, EDITOR_AFTER):
        prepared(repo, "2026-03-09T10:00:00Z", "add", text, "--topic", "preferences")
    out = dreamgit(repo, "2026-03-10T03:00:00Z", "run", "--force")
    assert out.count("supersede-newer-value") == 1
    texts = [m["text"] for m in active(repo, "2026-03-10T04:00:00Z")]
    assert EDITOR_BEFORE not in texts
    assert {NAMING, TAGGING, SIZE_ADVICE, PICKER, EDITOR_AFTER} <= set(texts)
    fsck(repo)
