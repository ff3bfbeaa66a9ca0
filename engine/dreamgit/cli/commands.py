"""The command table: each command's module and its one-line summary, known without importing it.

``dreamgit --help`` lists every command with a summary; reading those from the
commands themselves would import every command module and, through them, the
whole engine (about a second). The summaries are kept here instead, and
``tests/test_cli_startup.py`` checks that each is the first paragraph of its
command's help, so they cannot drift apart.

May import: nothing of the package.
"""

from __future__ import annotations

__all__ = ["COMMANDS"]

#: Every command: ``module:attribute`` that defines it (imported only when it runs) and
#: the first paragraph of its help, as ``dreamgit --help`` lists it.
COMMANDS: dict[str, tuple[str, str]] = {
    "init": (
        "dreamgit.cli.cmd_memory:init",
        "Create a memory repository, or adopt the files a folder holds (git init if needed).",
    ),
    "log": (
        "dreamgit.cli.cmd_log:log",
        "Record a session transcript (TEXT, --file, or stdin); prints its id.",
    ),
    "add": (
        "dreamgit.cli.cmd_memory:add",
        "Add a memory by hand; prints its id.",
    ),
    "show": (
        "dreamgit.cli.cmd_memory:show",
        "Show one memory (now, as of a time, or its whole lineage).",
    ),
    "memories": (
        "dreamgit.cli.cmd_memory:memories",
        "List active memories (now, or as of a time).",
    ),
    "topics": (
        "dreamgit.cli.cmd_memory:topics",
        "List topics with their number of memories.",
    ),
    "forget": (
        "dreamgit.cli.cmd_memory:forget",
        "Remove memories from the active set, by id or by pattern, in one commit"
        " (history keeps them: see restore).",
    ),
    "restore": (
        "dreamgit.cli.cmd_restore:restore",
        "Bring back a forgotten, pruned or superseded memory from history.",
    ),
    "status": (
        "dreamgit.cli.cmd_memory:status",
        "Counts, topics, pending sessions, last run, and whether a dream is due.",
    ),
    "run": (
        "dreamgit.cli.cmd_dream:run",
        "Run a dream cycle on dream/<run-id>, merged into main unless --no-merge.",
    ),
    "review": (
        "dreamgit.cli.cmd_dream:review",
        "Show the operations run would apply; writes nothing.",
    ),
    "compact": (
        "dreamgit.cli.cmd_dream:compact",
        "Consolidate and prune only (no gathering from sessions).",
    ),
    "merge": (
        "dreamgit.cli.cmd_git:merge",
        "Merge a reviewed dream branch into main (three-way if main moved), then delete it.",
    ),
    "discard": (
        "dreamgit.cli.cmd_git:discard",
        "Drop an unmerged dream branch; its sessions become pending again.",
    ),
    "revert": (
        "dreamgit.cli.cmd_git:revert",
        "Undo a merged run (or one of its operations) with revert commits on main.",
    ),
    "diff": (
        "dreamgit.cli.cmd_git:diff",
        "Compare memories between two runs or revisions (RUN: after it; RUN^: before it).",
    ),
    "history": (
        "dreamgit.cli.cmd_git:history",
        "List dream runs with their date, operations and status; or one run's operations.",
    ),
    "redact": (
        "dreamgit.cli.cmd_redact:redact",
        "Rewrite history so a text (--match) or memory ID is gone from every managed branch.",
    ),
    "rules": (
        "dreamgit.cli.cmd_rules:rules",
        "Check, show and explain the rules a dream runs with.",
    ),
    "prompts": (
        "dreamgit.cli.cmd_prompts:prompts",
        "List the prompt templates, or render one with this repository's data.",
    ),
    "install-cron": (
        "dreamgit.cli.cmd_cron:install_cron",
        "Run `dreamgit run` on this repository from your crontab (idempotent),"
        " after logging the agent sessions --log-from and the config's `log:` list name.",
    ),
    "install-hooks": (
        "dreamgit.cli.cmd_hooks:install_hooks",
        "Install Claude Code hooks: SessionStart briefs from memory, SessionEnd logs the session.",
    ),
    "hook": (
        "dreamgit.cli.cmd_hooks:hook",
        "Run one installed hook: the hook's JSON input on stdin, as Claude Code gives it.",
    ),
    "export": (
        "dreamgit.cli.cmd_transfer:export",
        "Write the active memories as JSON, JSON Lines, Markdown, or an agent's files.",
    ),
    "import": (
        "dreamgit.cli.cmd_transfer:import_",
        "Add the memories of an export (or another agent's folder) to this repository.",
    ),
    "demo": (
        "dreamgit.cli.cmd_demo:demo",
        "Create a demo memory repository (default ./dreamgit-demo) and run a dream on it.",
    ),
    "recall": (
        "dreamgit.cli.cmd_recall:recall",
        "The active memories that answer QUERY, best first (leaves a recall signal).",
    ),
    "promote": (
        "dreamgit.cli.cmd_recall:promote",
        "Promote short-term memories that recalls proved useful (OpenClaw's deep phase).",
    ),
    "mcp": (
        "dreamgit.cli.cmd_recall:mcp",
        "Serve this memory to MCP clients over stdio (recall, remember, forget, …).",
    ),
    "test": (
        "dreamgit.cli.cmd_test:test",
        "Run the memory tests (.dreamgit/tests.yaml and derived ones) through recall.",
    ),
    "report": (
        "dreamgit.cli.cmd_report:report",
        "Report a dream run (default: the newest): what it did, its tests, the memory over time.",
    ),
}
