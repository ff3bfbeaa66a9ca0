"""Shared helpers for the memory-format tests: folders built from each agent's documented shape.

Nothing here is an agent's real memory: every file is written from the shapes
the formats document (front matter keys, separators, file names), with made-up
facts. Real git repositories and the real command line are the judges.
"""

from __future__ import annotations

import hashlib
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

#: When the folders' facts are written, and when the dreams run.
T0 = datetime(2026, 11, 10, 9, 0, tzinfo=UTC)
LATER = T0 + timedelta(days=3)


def git(path: Path, *args: str) -> str:
    """Run the real git binary in ``path`` and return its stdout; fail loudly."""
    done = subprocess.run(
        ["git", "-C", str(path), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, f"git {' '.join(args)}:\n{done.stdout}{done.stderr}"
    return done.stdout


def write(root: Path, files: dict[str, bytes]) -> None:
    """Write ``files`` (relative path → bytes) under ``root``."""
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def tree_bytes(path: Path, rev: str) -> dict[str, str]:
    """Every file at ``rev`` → a hash of its bytes, as git stores them."""
    found = {}
    for line in git(path, "ls-tree", "-r", rev).splitlines():
        meta, rel = line.split("\t", 1)
        blob = meta.split()[2]
        data = subprocess.run(
            ["git", "-C", str(path), "cat-file", "blob", blob], capture_output=True, check=True
        ).stdout
        found[rel] = hashlib.sha256(data).hexdigest()
    return found


def hashed(files: dict[str, bytes]) -> dict[str, str]:
    """``files`` with each content replaced by a hash of its bytes."""
    return {rel: hashlib.sha256(data).hexdigest() for rel, data in files.items()}


# -- Claude Code ----------------------------------------------------------------------------


def claude_file(name: str, description: str, kind: str, body: str, *, old: bool = False) -> bytes:
    """A topic file in Claude Code's shape (``old``: the top-level ``type`` of older versions)."""
    kind_line = f"type: {kind}\n" if old else f"metadata:\n  type: {kind}\n"
    return f"---\nname: {name}\ndescription: {description}\n{kind_line}---\n{body}\n".encode()


CLAUDE_FILES: dict[str, bytes] = {
    "prefer-pnpm.md": claude_file(
        "prefer-pnpm",
        "User wants pnpm, never npm, in every JS project",
        "feedback",
        "Always use pnpm for installs and scripts in every JavaScript project.\n"
        "**Why:** the npm lockfile churn broke CI.",
    ),
    "pnpm-only.md": claude_file(
        "pnpm-only",
        "pnpm for every JS project",
        "feedback",
        "Always use pnpm for installs and scripts in every JavaScript project.\n"
        "**Why:** npm lockfile churn broke CI.",
    ),
    "staging-deploy.md": claude_file(
        "Staging deploy",
        "deploy takes ~4 min, needs VPN",
        "project",
        "The staging deploy takes about four minutes and needs the VPN.",
        old=True,
    ),
    # Windows line endings and a key dreamgit does not know: kept byte for byte.
    "api-errors.md": (
        b"---\r\nname: api-errors\r\ndescription: RFC 7807 bodies everywhere\r\n"
        b"metadata:\r\n  type: reference\r\nowner: platform-team\r\n---\r\n"
        b"Every API error body follows RFC 7807.\r\n"
    ),
    "MEMORY.md": (
        "# Memory index\n\n"
        "- [Prefer pnpm](prefer-pnpm.md) — pnpm only; npm breaks lockfile CI\n"
        "- [pnpm only](pnpm-only.md) — pnpm for every JS project\n"
        "- [Staging deploy](staging-deploy.md) — deploy takes ~4 min, needs VPN\n"
        "- [API errors](api-errors.md) — RFC 7807 bodies everywhere\n"
        "\nKeep this file short.\n"
    ).encode(),
}


def claude_folder_on_master(root: Path) -> dict[str, bytes]:
    """The first trial: a Claude Code memory folder made a git repository on ``master``.

    Two files are committed, the rest are untracked, and one committed file has
    an uncommitted edit, so adoption has every case to take in.
    """
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "master")
    write(root, {k: CLAUDE_FILES[k] for k in ("prefer-pnpm.md",)})
    write(root, {"MEMORY.md": b"- [Prefer pnpm](prefer-pnpm.md) \xe2\x80\x94 pnpm only\n"})
    git(root, "add", "prefer-pnpm.md", "MEMORY.md")
    git(root, "commit", "-q", "-m", "my memory")
    write(root, CLAUDE_FILES)
    return dict(CLAUDE_FILES)


# -- Hermes ---------------------------------------------------------------------------------

HERMES_FILES: dict[str, bytes] = {
    "MEMORY.md": (
        "User's project is a Rust web service at ~/code/myapi (Axum + SQLx)\n§\n"
        "This machine runs Ubuntu 22.04; Docker and Podman are installed\n§\n"
        "The staging server restarts every night after the backup job.\n§\n"
        "CI uses `just ci`; never run `cargo test` without `--workspace`\n"
        "(the workspace has three crates)\n§\n"
        "The staging server restarts every night after the backup job finishes."
    ).encode(),
    "USER.md": (
        "Name: Marco; works from Lisbon\n§\nPrefers short answers with no emojis\n"
    ).encode(),
}


def hermes_folder(root: Path) -> dict[str, bytes]:
    """The second trial: ``~/.hermes/memories`` as Hermes leaves it, not a git repository."""
    root.mkdir(parents=True, exist_ok=True)
    write(root, HERMES_FILES)
    return dict(HERMES_FILES)


# -- OpenClaw -------------------------------------------------------------------------------

OPENCLAW_MEMORY = (
    "# Long-term memory\n\n"
    "## About Marco\n"
    "- Marco lives in Lisbon and works on home automation.\n"
    "- Prefers short answers in English.\n\n"
    "## Home network\n"
    "The router is a Mikrotik hEX; the IoT devices sit on VLAN 30.\n"
)


def openclaw_workspace(root: Path) -> dict[str, bytes]:
    """The third trial: a workspace with a curated MEMORY.md and a week of daily notes."""
    files = {
        "MEMORY.md": OPENCLAW_MEMORY.encode(),
        "AGENTS.md": b"# Agents\n\nBe brief.\n",
    }
    for day in range(4, 11):
        files[f"memory/2026-11-{day:02d}.md"] = (
            f"## 09:{day:02d} - Standup\n- Reviewed the backlog for day {day}.\n"
        ).encode()
    files["memory/2026-11-09.md"] += b"## 14:00 - Decisions\n- I prefer pnpm over npm for JS.\n"
    root.mkdir(parents=True, exist_ok=True)
    write(root, files)
    return files
