"""An amount said without its noun keeps the thing the sentence named, so a newer value
retires it.

Through the installed command: "I'm trying to reach 90% branch coverage on my parser
module, and I've currently reached 70% after my first test run" was two memories, the
second with no subject ("has currently reached 70% after …"), which no later coverage
could retire. Kept as one sentence, the newer "… which has recently improved to 82%"
retires it; an amount that names its own noun ("reached 70 users") is its own memory.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clikit import active, dreamgit

FIRST = (
    "User: I'm trying to reach 90% branch coverage on my parser module, and I've currently "
    "reached 70% after my first test run on May 3, 2026. Can you help me write more tests?\n\n"
    "Assistant: Sure, start with the error paths.\n"
)
LATER = (
    "User: I'm trying to push the branch coverage for my parser module further, which has "
    "recently improved to 82%. Can you help me test the edge cases?\n\n"
    "Assistant: Sure.\n"
)


@pytest.mark.slow
def test_a_newer_amount_retires_one_said_without_its_noun(tmp_path: Path) -> None:
    """After the later session no active memory holds 70%, one holds 82%."""
    repo = tmp_path / "mem"
    dreamgit(repo, "2026-05-04T09:00:00Z", "init", str(repo))
    dreamgit(repo, "2026-05-04T10:00:00Z", "log", stdin=FIRST)
    dreamgit(repo, "2026-05-05T09:00:00Z", "run", "--force")
    assert [m for m in active(repo, "2026-05-05T09:00:00Z") if "70%" in m["text"]]
    dreamgit(repo, "2026-05-11T10:00:00Z", "log", stdin=LATER)
    dreamgit(repo, "2026-05-12T09:00:00Z", "run", "--force")
    texts = [m["text"] for m in active(repo, "2026-05-12T09:00:00Z")]
    assert not [t for t in texts if "70%" in t]
    assert [t for t in texts if "82%" in t]
