"""Every write path, every made-up secret format: afterwards no object, reply or cache holds one.

One repository takes all of ``secretkit.SECRETS`` through add (text and key), log
(text, summary), log --from claude-code, a hand-written file committed by plain git
and then dreamed, a file named with a credential, MCP remember and log_session, a
scripted model's accepted and rejected proposals, run --summary and export; then
every object in the git directory (``git cat-file --batch-all-objects``), the
outputs, the MCP replies and dreamgit's caches are searched, in any case.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from secretkit import LOOK_ALIKES, SECRETS, needles

pytestmark = pytest.mark.slow

NOW = "2026-11-20T10:00:00Z"
LATER = "2026-11-21T10:00:00Z"
ALL = "\n".join(s.sentence for s in SECRETS)
#: What a person sees of each secret, lower-cased: no part of it may survive anywhere.
NEEDLES = sorted({part.lower() for s in SECRETS for part in needles(s)})


def _command() -> list[str]:
    found = shutil.which("dreamgit", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "dreamgit"]


def run(repo: Path, *args: str, now: str = NOW, code: int = 0) -> subprocess.CompletedProcess[str]:
    """The installed command on ``repo``; its exit code must be ``code``."""
    env = dict(os.environ, DREAMGIT_REPO=str(repo))
    done = subprocess.run(
        [*_command(), "--now", now, *args], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == code, (args[:2], done.stderr[-2000:])
    return done


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    ).stdout


def leaks(text: str) -> list[str]:
    """The needles found in ``text``, in any case."""
    low = text.lower()
    return [n for n in NEEDLES if n in low]


def _mcp(repo: Path) -> list[str]:
    """remember and log_session every secret over the real MCP client; the replies' text."""
    from mcp.client.session import ClientSession  # the SDK only where a server is driven
    from mcp.client.stdio import StdioServerParameters, stdio_client

    args = ["--repo", str(repo), "--now", NOW, "mcp"]
    command = _command()
    params = StdioServerParameters(command=command[0], args=[*command[1:], *args])
    replies: list[str] = []

    async def main() -> None:
        with open(repo.parent / "server.log", "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as streams,
                ClientSession(*streams) as session,
            ):
                await session.initialize()
                for call, arguments in (
                    ("remember", {"text": "Over MCP:\n" + ALL, "topic": "mcp"}),
                    ("log_session", {"text": ALL, "summary": SECRETS[5].sentence}),
                ):
                    result = await session.call_tool(call, arguments)
                    assert not result.is_error, result.content
                    replies.extend(str(getattr(c, "text", "")) for c in result.content)

    anyio.run(main)
    return replies


def _claude_sessions(folder: Path) -> None:
    folder.mkdir(parents=True)
    ident = "0b8f6a52-0000-4000-8000-00000000abcd"
    events = [
        {
            "type": "user",
            "sessionId": ident,
            "timestamp": "2026-11-19T09:00:00Z",
            "message": {"role": "user", "content": ALL},
        }
    ]
    (folder / f"{ident}.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))


def _scripted(session: str) -> dict[str, Any]:
    """A model that proposes one memory holding secrets (kept) and one it must not (refused)."""

    def proposal(text: str, confidence: float) -> dict[str, Any]:
        return {
            "op": "add",
            "text": text,
            "topic": "llm",
            "type": "user",
            "confidence": confidence,
            "sources": [session],
            "reason": f"the session says {SECRETS[7].value}",
        }

    chunks, chunk = [], ""
    for secret in SECRETS:  # a proposal's text is at most 2000 characters
        if len(chunk) + len(secret.sentence) > 1800:
            chunks.append(chunk)
            chunk = ""
        chunk += secret.sentence + "\n"
    kept = proposal(SECRETS[5].sentence, 0.95)
    first = {"proposals": [kept, *(proposal(c, 0.01) for c in [*chunks, chunk])]}
    return {
        "adapter": "scripted",
        "model": "m",
        "responses": [json.dumps(first)] + [json.dumps({"proposals": []})] * 40,
    }


def _objects(repo: Path) -> dict[str, str]:
    """Every object in the git directory, reachable or not: id → its bytes as text."""
    data = subprocess.run(
        ["git", "-C", str(repo), "cat-file", "--batch-all-objects", "--batch"],
        capture_output=True,
        check=True,
    ).stdout
    out: dict[str, str] = {}
    at = 0
    while at < len(data):
        end = data.index(b"\n", at)
        ident, _kind, size = data[at:end].decode().split()
        body = data[end + 1 : end + 1 + int(size)]
        out[ident] = body.decode("utf-8", errors="replace")
        at = end + 1 + int(size) + 1
    return out


def test_no_secret_survives_any_write_path_and_look_alikes_are_kept(tmp_path: Path) -> None:
    """60+ formats through every door; then 0 hits in objects, outputs, replies and caches."""
    repo = tmp_path / "mem"
    outputs: list[str] = []
    run(repo, "init", str(repo))
    git(repo, "config", "user.name", "Person")
    git(repo, "config", "user.email", "person@example.com")

    # add: the text, a key; a topic or tag holding a credential is refused unrepeated.
    outputs.append(run(repo, "add", "Added by hand:\n" + ALL, "--topic", "ops").stdout)
    kept = run(repo, "add", "\n".join(LOOK_ALIKES), "--topic", "plain").stdout.strip()
    key = SECRETS[5].value
    outputs.append(run(repo, "add", "The deploy slot.", "--topic", "keys", "--key", key).stdout)
    lowercase = next(s.value for s in SECRETS if s.kind == "databricks-token")
    for args in (
        ["add", "A note.", "--topic", "ops", "--topic", lowercase],
        ["add", "A note.", "--topic", "ops", "--tag", lowercase],
        ["log", "A session.", "--tag", lowercase],
    ):
        refused = run(repo, *args, code=1)
        assert "looks like a credential (databricks-token); nothing was committed" in (
            refused.stderr
        )
        outputs.append(refused.stderr)
    # Each kind's slug: a memory that starts with the secret.
    for secret in (SECRETS[0], SECRETS[-8]):
        outputs.append(run(repo, "add", secret.sentence, "--topic", "slugs").stdout)

    # log: text, --summary; log --from claude-code.
    outputs.append(run(repo, "log", ALL, "--summary", SECRETS[2].sentence).stdout)
    _claude_sessions(tmp_path / "claude")
    outputs.append(run(repo, "log", "--from", "claude-code", str(tmp_path / "claude")).stdout)

    # MCP remember and log_session, through the official client.
    replies = _mcp(repo)

    # A file named with a credential, left for dreamgit to commit as an agent edit.
    named = SECRETS[0].value
    (repo / "memories" / "ops" / f"{named}.md").write_text("Written by the agent.\n")
    # A hand-written file committed by plain git: its own objects are the person's.
    (repo / "memories" / "hand").mkdir()
    # Half the formats: the caches may mirror the person's blob, never the other half.
    by_hand = [s.sentence for s in SECRETS[::2]]
    (repo / "memories" / "hand" / "notes.md").write_text("Kept by hand:\n" + "\n".join(by_hand))
    git(repo, "add", "memories/hand/notes.md")
    git(repo, "commit", "-q", "-m", "hand notes")
    theirs = git(repo, "rev-parse", "HEAD:memories/hand/notes.md").strip()

    # A dream without a model, then one with a scripted model on a new session.
    summary = tmp_path / "summary.md"
    outputs.append(run(repo, "run", "--force", "--summary", str(summary)).stdout)
    session = run(repo, "log", "Secrets again:\n" + ALL, now=LATER).stdout.strip()
    config = repo / ".dreamgit" / "config.yaml"
    config.write_text(config.read_text() + "llm: " + json.dumps(_scripted(session)) + "\n")
    git(repo, "commit", "-q", "-am", "use the scripted model")
    script = git(repo, "rev-parse", "HEAD:.dreamgit/config.yaml").strip()
    done = run(repo, "run", "--force", "--json", "--summary", str(summary), now=LATER)
    outputs.append(done.stdout)
    record = json.loads(done.stdout)
    accepted = [d for d in record["decisions"] if d.get("accepted")]
    rejected = [d for d in record["decisions"] if not d.get("accepted")]
    assert accepted and rejected, record["decisions"]
    outputs.append(summary.read_text())

    # export, to stdout and to a folder.
    outputs.append(run(repo, "export", "--format", "json", now=LATER).stdout)
    run(repo, "export", "--format", "claude-code", "--out", str(tmp_path / "out"), now=LATER)
    outputs.extend(p.read_text() for p in (tmp_path / "out").rglob("*") if p.is_file())
    outputs.extend(str(p) for p in (tmp_path / "out").rglob("*"))

    # Every object but the person's own, every output and reply, dreamgit's caches.
    found: dict[str, list[str]] = {}
    for ident, body in _objects(repo).items():
        if ident not in (theirs, script) and (hit := leaks(body)):
            found.setdefault(f"object {ident[:10]}", []).extend(hit)
    for name, texts in (("outputs", outputs), ("mcp replies", replies)):
        for text in texts:
            found.setdefault(name, []).extend(leaks(text))
    mirrored = set(leaks("\n".join(by_hand)))
    for path in (repo / ".git").rglob("*"):
        if path.is_file() and "objects" not in path.parts:
            text = path.read_bytes().decode("utf-8", errors="replace")
            found.setdefault(f"git dir: {path.name}", []).extend(
                hit for hit in leaks(text) if hit not in mirrored
            )
    assert {where: hits[:1] for where, hits in found.items() if hits} == {}

    # The file named with a key is there under a safe name; every look-alike is kept.
    tree = git(repo, "ls-tree", "-r", "--name-only", "HEAD")
    assert "memories/ops/redacted-aws-key.md" in tree
    messages = git(repo, "log", "--format=%B", "main")
    assert "Dream-Redacted: memories/ops/redacted-aws-key.md (file name, aws-key)" in messages
    stored = json.loads(run(repo, "show", kept, "--json", now=LATER).stdout)["text"]
    assert [line for line in LOOK_ALIKES if line not in stored] == []
