"""``redact`` takes the text out of everything dreamgit wrote: names, subjects, caches, any case.

Through the installed command, after an add, a hand-written file that is not UTF-8,
a logged session and a dream (set-up steps that run in this process, ``clikit.prepared``):
the text (in any case) is in no object reachable from a ref dreamgit manages, no path,
no commit message and no cache in the git directory; the refs it does not manage are
named with the command that removes them, and once those ran, no object at all holds it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from clikit import prepared

NOW = "2026-11-20T10:00:00Z"


def run(repo: Path, *args: str) -> str:
    found = shutil.which("dreamgit", path=str(Path(sys.executable).parent))
    command = [found] if found else [sys.executable, "-m", "dreamgit"]
    env = dict(os.environ, DREAMGIT_REPO=str(repo))
    done = subprocess.run(
        [*command, "--now", NOW, *args], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def set_up(repo: Path, *args: str) -> str:
    """A set-up step, the command's own code in this process: not what a test proves."""
    return prepared(repo, NOW, *args)


def git(repo: Path, *args: str, data: bytes | None = None) -> bytes:
    return subprocess.run(
        ["git", "-C", str(repo), *args], input=data, capture_output=True, check=True
    ).stdout


def managed_text(repo: Path) -> str:
    """Every object, path and message reachable from main and the dream branches."""
    refs = git(repo, "for-each-ref", "--format=%(refname)", "refs/heads/main", "refs/heads/dream")
    listing = git(repo, "rev-list", "--objects", *refs.decode().split())
    ids = "\n".join(line.split(" ", 1)[0] for line in listing.decode().splitlines()) + "\n"
    objects = git(repo, "cat-file", "--batch", data=ids.encode())
    return (listing + objects).decode("utf-8", errors="replace").lower()


def all_objects(repo: Path) -> str:
    found = git(repo, "cat-file", "--batch-all-objects", "--batch")
    return found.decode("utf-8", errors="replace").lower()


def cache_text(repo: Path) -> str:
    files = [p for p in (repo / ".git" / "dreamgit").rglob("*") if p.is_file()]
    return "".join(p.read_bytes().decode("utf-8", errors="replace") for p in files).lower()


def make_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "mem"
    set_up(repo, "init", str(repo))
    git(repo, "config", "user.name", "Person")
    git(repo, "config", "user.email", "person@example.com")
    return repo


def test_redact_match_ignores_case_renames_paths_and_names_the_refs_it_leaves(
    tmp_path: Path,
) -> None:
    """Zanzibar7Q leaves file names, subjects, index, diary, records and caches; tags are named."""
    repo = make_repo(tmp_path)
    set_up(repo, "add", "The shed door code is Zanzibar7Q since spring", "--topic", "home")
    hand = repo / "memories" / "home" / "latin1.md"
    hand.write_bytes("Caf\xe9 note: the code ZANZIBAR7Q opens it.\n".encode("latin-1"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "hand note about zanzibar7q")
    git(repo, "tag", "before-redact")
    git(repo, "branch", "side")
    git(repo, "notes", "add", "-m", "zanzibar7q noted", "HEAD")
    set_up(repo, "log", "User: the code for the shed is Zanzibar7Q, remember it.")
    set_up(repo, "run", "--force")
    assert "zanzibar7q" in managed_text(repo)

    out = run(repo, "redact", "--match", "zanzibar7q", "--gc")

    assert "zanzibar7q" not in managed_text(repo)
    assert "zanzibar7q" not in cache_text(repo)
    tree = git(repo, "ls-tree", "-r", "--name-only", "main").decode()
    assert "memories/home/shed-door-code-redacted-since-spring.md" in tree
    assert b"Caf\xe9 note: the code [REDACTED] opens it." in git(
        repo, "show", "main:memories/home/latin1.md"
    )
    for ref, command in (
        ("refs/tags/before-redact", "git tag -d before-redact"),
        ("refs/heads/side", "git branch -D side"),
        ("refs/notes/commits", "git update-ref -d refs/notes/commits"),
    ):
        assert (
            f"- {ref} is not dreamgit's to move and reaches the old history:\n  `{command}`;\n"
        ) in out
    git(repo, "tag", "-d", "before-redact")
    git(repo, "branch", "-D", "side")
    git(repo, "update-ref", "-d", "refs/notes/commits")
    git(repo, "reflog", "expire", "--expire=now", "--all")
    git(repo, "gc", "-q", "--prune=now")
    assert "zanzibar7q" not in all_objects(repo)


def test_redact_case_sensitive_keeps_other_cases(tmp_path: Path) -> None:
    """--case-sensitive opts out: only the exact spelling goes."""
    repo = make_repo(tmp_path)
    set_up(repo, "add", "Codes: Zanzibar7Q and zanzibar7q are different", "--topic", "home")
    run(repo, "redact", "--match", "Zanzibar7Q", "--case-sensitive")
    text = managed_text(repo)
    shown = git(repo, "grep", "-h", "Codes", "main", "--", "memories").decode()
    assert "Codes: [REDACTED] and zanzibar7q are different" in shown and "zanzibar7q" in text


def test_redact_memory_takes_its_slug_out_of_subjects_links_and_caches(tmp_path: Path) -> None:
    """A memory's name lives on in its path, the add subject and the index link: all go."""
    repo = make_repo(tmp_path)
    ident = set_up(
        repo, "add", "Patient Harriet Okonkwo has HIV diagnosis from 2019", "--topic", "health"
    ).strip()
    set_up(repo, "add", "Likes green tea in the morning", "--topic", "food")
    set_up(repo, "memories")  # fills the parse cache
    run(repo, "redact", ident, "--gc")
    text = managed_text(repo) + all_objects(repo) + cache_text(repo)
    for said in ("harriet okonkwo", "harriet-okonkwo", "hiv diagnosis", "hiv-diagnosis"):
        assert said not in text
    assert "likes green tea" in text
