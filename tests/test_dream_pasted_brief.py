"""A brief pasted into an Aider turn leaves no memory as the user's; their own words do.

Through the installed command, on a real repository: an Aider chat history whose user
turn is a pasted agent brief (headings, short rule lines, "you MUST"), with a sentence
of the user's before and after it. After a dream, none of the brief's rules is a memory,
and the preference the user said after it is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clikit import active, dreamgit
from gitcheck import fsck

BRIEF_LINES = [
    "I am starting the cleanup today and I prefer short commit messages.",
    "",
    "# Rules for the cleanup helper",
    "",
    "## Where to work",
    "- Folder: the scratch checkout only",
    "- Branch: one per ticket, named after it",
    "- You MUST format the code before each commit.",
    "",
    "Boundaries",
    "1. Never rebase the release branch.",
    "2. Run only the tests of the files you touch; we share the runners.",
    "3. Ask before you add a library.",
    "",
    "## When you finish",
    "- Report: ten lines at most",
    "- Include: commits, tests, timings",
    "",
    "My favourite editor is Helix, by the way.",
]
HISTORY = (
    "\n# aider chat started at 2026-02-03 09:15:00\n\n"
    + "\n".join(f"#### {line}".rstrip() for line in BRIEF_LINES)
    + "\n\nUnderstood, I will follow the rules.\n"
)


@pytest.mark.slow
def test_a_pasted_brief_in_an_aider_history_leaves_only_the_users_own_words(
    tmp_path: Path,
) -> None:
    """None of the brief's rules becomes a memory; the user's words around it do."""
    repo = tmp_path / "mem"
    dreamgit(repo, "2026-02-03T09:00:00Z", "init", str(repo))
    history = tmp_path / ".aider.chat.history.md"
    history.write_text(HISTORY, encoding="utf-8")
    dreamgit(repo, "2026-02-03T10:00:00Z", "log", "--file", str(history))
    dreamgit(repo, "2026-02-04T09:00:00Z", "run", "--force")
    texts = " ".join(m["text"] for m in active(repo, "2026-02-04T09:00:00Z"))
    for rule in ("format the code", "rebase", "runners", "library", "ten lines", "scratch"):
        assert rule not in texts
    assert "Helix" in texts
    assert "short commit messages" in texts
    fsck(repo)
