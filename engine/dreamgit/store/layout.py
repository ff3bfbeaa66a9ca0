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
