"""Where things live in a memory repository (see DESIGN.md, "The memory repository")."""

from __future__ import annotations

__all__ = [
    "AGENT_PATHS",
    "CONFIG",
    "DIARY",
    "EMPTY_INDEX",
    "INDEX",
    "MAIN",
    "MEMORIES",
    "NOTES",
    "PROMPTS",
    "RUNS",
    "SESSIONS",
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
DREAM_BRANCH_PREFIX = "dream/"

#: Paths an agent writes by hand; uncommitted edits there are committed as "agent edits".
AGENT_PATHS: tuple[str, ...] = (MEMORIES, SESSIONS, NOTES, INDEX)

EMPTY_INDEX = (
    "<!-- dreamgit:generated — rewritten by every dream; edit memories/ instead -->\n"
    "# Memory\n\n_No memories yet._\n"
)
