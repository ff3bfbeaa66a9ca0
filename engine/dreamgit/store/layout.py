"""Where things live in a memory repository (see DESIGN.md, "The memory repository")."""

from __future__ import annotations

__all__ = [
    "AGENT_PATHS",
    "CONFIG",
    "DIARY",
    "EMPTY_INDEX",
    "INDEX",
    "LOGGED",
    "MAIN",
    "MEMORIES",
    "NOTES",
    "PROMPTS",
    "RECALL_COUNTERS",
    "RECALL_SIGNALS",
    "REVERT_SCRATCH",
    "RUNS",
    "SESSIONS",
    "hooks_note",
]

MAIN = "main"
INDEX = "MEMORY.md"
DIARY = "DREAMS.md"
MEMORIES = "memories/"
SESSIONS = "sessions/"
NOTES = "notes/"
CONFIG = ".dreamgit/config.yaml"
RUNS = ".dreamgit/runs/"
PROMPTS = ".dreamgit/prompts/"
#: Recall signals committed from the local spool, waiting for a dream to fold them.
RECALL_SIGNALS = ".dreamgit/recalls/"
#: A revert's private scratch branches: ``dreamgit-revert/<run-id>``.
REVERT_SCRATCH = "dreamgit-revert/"
#: Each memory's recall counters, as the dreams folded them.
RECALL_COUNTERS = ".dreamgit/recall-counters.json"
#: How far each agent session file was logged (byte offset, last record id), per agent.
LOGGED = ".dreamgit/logged.json"
DREAM_BRANCH_PREFIX = "dream/"

#: Paths an agent writes by hand; uncommitted edits there are committed as "agent edits".
AGENT_PATHS: tuple[str, ...] = (MEMORIES, SESSIONS, NOTES, INDEX)

EMPTY_INDEX = (
    "<!-- dreamgit:generated — rewritten by every dream; edit memories/ instead -->\n"
    "# Memory\n\n_No memories yet._\n"
)


def hooks_note(hooks: list[str]) -> str:
    """What dreamgit says of the repository's commit hooks its commits did not run."""
    names = " and ".join(hooks)
    return (
        f"this repository's {names} hook(s) did not run on dreamgit's commits: dreamgit "
        "builds each commit in memory (as `git commit-tree` does), never from git's index, "
        "which those hooks check; run your checks on the new commits yourself, or set "
        "`hooks: quiet` in .dreamgit/config.yaml to stop this note"
    )
