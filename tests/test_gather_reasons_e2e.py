"""The run record tells a statement left over the gather budget from a repeat, end to end.

One reason for both ("over the budget, or repeats what memory holds") cannot say
whether a statement was crowded out or already known. A run with a small gather budget,
through the installed ``dreamgit`` command, records each reason in its own words.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from clikit import RepositoryTemplates, dreamgit, initialized, prepared

DAY = "2026-11-12T09:00:00Z"
NIGHT = "2026-11-12T23:00:00Z"
OVER_BUDGET = "over the run's gather budget (gather_chars_ratio): more salient statements took it"
REPEATS = "repeats what memory holds (gather_min_novelty): most of its words are known"


def test_a_statement_over_the_budget_and_a_repeat_have_their_own_reasons(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """Each rejected statement names its own cause: the budget, or what memory holds."""
    repo = tmp_path / "mem"
    initialized(templates, repo, DAY)
    config = repo / ".dreamgit" / "config.yaml"
    config.write_text(
        config.read_text(encoding="utf-8")
        + "\nbudgets:\n  gather_min_chars: 60\n  gather_chars_ratio: 0.01\n",
        encoding="utf-8",
    )
    git = ["git", "-C", str(repo), "-c", "user.name=Test", "-c", "user.email=test@example.org"]
    subprocess.run([*git, "commit", "-qam", "a small gather budget"], check=True)
    prepared(repo, DAY, "log", stdin="User: My cousin Aurel lives in Turku with his three dogs.\n")
    prepared(repo, DAY, "run", "--force")
    prepared(
        repo,
        NIGHT,
        "log",
        stdin="User: My cousin Aurel lives in Turku with his dogs.\n"
        "User: I work at Pinecrest Labs as a data engineer.\n"
        "User: My neighbour Oskar plays the bassoon in a brass band.\n"
        "Assistant: Noted.\n",
    )
    record = json.loads(dreamgit(repo, NIGHT, "run", "--force", "--json"))
    reasons = {d["candidate"]: d["reason"] for d in record["decisions"] if d["phase"] == "gather"}
    repeated = [text for text, reason in reasons.items() if "Aurel" in text]
    assert repeated and all(reasons[text] == REPEATS for text in repeated), reasons
    crowded = [text for text, reason in reasons.items() if "Oskar" in text]
    assert crowded and all(reasons[text] == OVER_BUDGET for text in crowded), reasons
