"""The lean store: libgit2's answers and objects from git's own files, or libgit2 itself.

Each case is a real repository; the lean store's trees, commits and reads are compared
with a ``GitStore``'s on a copy, and ``git fsck --strict`` checks what it wrote.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dreamgit.errors import StaleTipError
from dreamgit.gitstore import GitStore, Identity
from dreamgit.store import leantrees
from dreamgit.store.leancommits import read_commit, write_commit
from dreamgit.store.leandoubt import Doubt
from dreamgit.store.leanobjects import read_object
from dreamgit.store.leanrefmove import move_branch
from dreamgit.store.leanstore import LeanStore, lean_store

WHO = Identity("Lean Tester", "lean@example.com")
WHEN = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)
    return done.stdout.decode().strip()


def _lean(path: Path) -> LeanStore:
    store = lean_store(path)
    assert isinstance(store, LeanStore)
    return store


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path]:
    """Two copies of a bare repository with nested files, every object loose."""
    first = tmp_path / "lean.git"
    store = GitStore.init(first, bare=True)
    files: dict[str, bytes | None] = {
        "MEMORY.md": b"# index\n",
        "memories/tools/a.md": b"alpha\n",
        "memories/tools/b.md": "béta\n".encode(),
        "memories/people/c.md": b"gamma\n",
        "memories/people-x/d.md": b"delta\n",
        "sessions/2026/11/s.md": b"session\n",
    }
    tree = store.build_tree(None, files)
    store.commit("main", parents=[], tree=tree, message="start", who=WHO, when=WHEN)
    shutil.copytree(first, tmp_path / "full.git")
    return first, tmp_path / "full.git"


def _random_changes(rng: random.Random, known: list[str]) -> dict[str, bytes | None]:
    folders = ["memories/tools", "memories/people", "memories/people-x", "memories/new", "x"]
    changes: dict[str, bytes | None] = {}
    for _ in range(rng.randint(1, 4)):
        if known and rng.random() < 0.3:
            changes[rng.choice(known)] = None
        else:
            name = f"{rng.choice(folders)}/{rng.choice('abcdefgh')}{rng.choice(['.md', '-1.md'])}"
            changes[name] = f"text {rng.random()}\n".encode()
    if rng.random() < 0.1:
        changes["memories/people"] = b"a file where a folder was\n"
    return changes


def test_random_writes_give_libgit2s_trees_and_commits(pair: tuple[Path, Path]) -> None:
    """Many random adds and removals: the same tree and commit ids as libgit2's, nothing
    handed to libgit2 while every object is loose, and git finds nothing wrong."""
    lean, full = _lean(pair[0]), GitStore.open(pair[1])
    rng = random.Random(27)
    for step in range(40):
        tip = full.tip("main")
        assert lean.tip("main") == tip
        changes = _random_changes(rng, list(full.files(tip)))
        tree = lean.build_tree(tip, changes)
        assert tree == full.build_tree(tip, changes)
        when = WHEN + timedelta(minutes=step)
        message = f"add: step {step}\n\nwith a body ünïcode"
        made = lean.commit("main", parents=[tip], tree=tree, message=message, who=WHO, when=when)
        assert made == full.commit(
            "main", parents=[tip], tree=tree, message=message, who=WHO, when=when
        )
    assert lean._full is None
    assert _git(pair[0], "rev-parse", "main") == _git(pair[1], "rev-parse", "main")
    subprocess.run(["git", "-C", str(pair[0]), "fsck", "--strict"], check=True)


def test_a_file_written_in_place_of_an_executable_keeps_its_mode(
    pair: tuple[Path, Path],
) -> None:
    """An executable rewritten stays 100755, a file written anew is 100644, and a mode a
    file gives is taken: the same tree as libgit2's store writes."""
    full = GitStore.open(pair[1])
    tip = full.tip("main")
    script = "memories/tools/run.sh"
    blob = full.write_blob(b"echo one\n")
    env = {**os.environ, "GIT_INDEX_FILE": str(pair[1] / "scratch-index")}
    for args in (
        ["read-tree", tip],
        ["update-index", "--add", "--cacheinfo", f"100755,{blob},{script}"],
    ):
        subprocess.run(["git", "-C", str(pair[1]), *args], check=True, env=env)
    made = subprocess.run(
        ["git", "-C", str(pair[1]), "write-tree"], check=True, env=env, capture_output=True
    )
    tree = made.stdout.decode().strip()
    base = full.commit("main", parents=[tip], tree=tree, message="script", who=WHO, when=WHEN)
    shutil.rmtree(pair[0])
    shutil.copytree(pair[1], pair[0])  # the script's objects in both
    lean = _lean(pair[0])
    changes: dict[str, bytes | None] = {script: b"echo two\n", "memories/tools/z.md": b"z\n"}
    written = lean.build_tree(base, changes)
    assert written == full.build_tree(base, changes)
    listed = _git(pair[0], "ls-tree", "-r", written, "memories/tools").splitlines()
    assert [line.split()[0] for line in listed if line.endswith(("run.sh", "z.md"))] == [
        "100755",
        "100644",
    ]
    # modes a work tree's files give: one for a new file, one over the replaced mode
    modes = {"memories/tools/new.sh": b"100755", script: b"100644"}
    changes = {"memories/tools/new.sh": b"echo new\n", script: b"echo three\n"}
    written = lean.build_tree(base, changes, modes)
    assert written == full.build_tree(base, changes, modes)
    listed = _git(pair[0], "ls-tree", "-r", written, "memories/tools").splitlines()
    assert [line.split()[0] for line in listed if line.endswith(".sh")] == ["100755", "100644"]


def _reads(store: GitStore | LeanStore, old: str, new: str) -> list[object]:
    tip = store.tip("main")
    return [
        tip,
        store.tree_id(tip),
        store.head_branch(),
        store.branches("dream/"),
        [store.entry_id(tip, p) for p in ("memories", "memories/tools/a.md", "nope", "x/y")],
        [store.read_path(tip, p) for p in ("memories/tools/b.md", "memories", "absent.md")],
        store.files(tip, "memories/"),
        store.files(tip, "memories/people"),
        store.commit_info(new),
        store.tree_changes(store.tree_id(old), store.tree_id(new), "at/"),
        store.read(store.entry_id(tip, "MEMORY.md") or ""),
    ]


def _forget_objects() -> None:
    for kept in (read_object, read_commit, leantrees._entries):
        kept.cache_clear()


def _second_commit(repo: Path) -> tuple[str, str]:
    full = GitStore.open(repo)
    old = full.tip("main") or ""
    changes = {"memories/tools/a.md": None, "memories/people/e.md": b"eps\n"}
    tree = full.build_tree(old, changes)
    new = full.commit("main", parents=[old], tree=tree, message="second", who=WHO, when=WHEN)
    _git(repo, "branch", "dream/run-1", old)
    return old, new


def test_reads_agree_with_libgit2_loose_and_packed(pair: tuple[Path, Path]) -> None:
    """Every read gives libgit2's answer from loose objects without it, and again once
    git has packed objects and refs (through libgit2 then)."""
    old, new = _second_commit(pair[0])
    lean = _lean(pair[0])
    assert _reads(lean, old, new) == _reads(GitStore.open(pair[0]), old, new)
    assert lean._full is None
    _git(pair[0], "gc", "-q")
    assert not list((pair[0] / "objects").glob("??/*"))
    _forget_objects()  # as a new process: nothing kept from the loose objects
    packed = _lean(pair[0])
    assert _reads(packed, old, new) == _reads(GitStore.open(pair[0]), old, new)
    assert packed._full is None


def test_a_commit_on_packed_objects_and_refs_lands_as_git_reads_it(
    pair: tuple[Path, Path],
) -> None:
    """After `git gc` the trees are read from the pack, the branch from packed-refs and
    moved by a loose ref, all without libgit2: git sees the new commit and finds nothing
    wrong."""
    _git(pair[0], "gc", "-q")
    _forget_objects()
    lean = _lean(pair[0])
    tip = lean.tip("main")
    assert tip is not None and not (pair[0] / "refs" / "heads" / "main").exists()
    tree = lean.build_tree(tip, {"memories/tools/z.md": b"zed\n"})
    made = lean.commit("main", parents=[tip], tree=tree, message="after gc", who=WHO, when=WHEN)
    assert _git(pair[0], "rev-parse", "main") == made
    assert _git(pair[0], "show", "main:memories/tools/z.md") == "zed"
    subprocess.run(["git", "-C", str(pair[0]), "fsck", "--strict"], check=True)
    assert lean._full is None


def test_every_packed_object_reads_as_libgit2_reads_it(tmp_path: Path) -> None:
    """Similar files packed by `git gc --aggressive` (deltas on deltas, against bases by
    offset): every object reads with libgit2's kind and bytes."""
    store = GitStore.init(tmp_path / "deltas.git", bare=True)
    tip = None
    rng = random.Random(5)
    words = [f"word{k}" for k in range(40)]
    for step in range(12):
        changes: dict[str, bytes | None] = {
            f"memories/t{k % 3}/m{k}.md": " ".join(rng.choices(words, k=300)).encode()
            for k in range(step, step + 6)
        }
        tree = store.build_tree(tip, changes)
        tip = store.commit(
            "main", parents=[tip] if tip else [], tree=tree, message=f"s{step}", who=WHO, when=WHEN
        )
    _git(tmp_path / "deltas.git", "gc", "-q", "--aggressive")
    _forget_objects()
    listed = _git(tmp_path / "deltas.git", "cat-file", "--batch-all-objects", "--batch-check")
    kinds = {b"blob": "blob", b"tree": "tree", b"commit": "commit"}
    (idx,) = (tmp_path / "deltas.git" / "objects" / "pack").glob("*.idx")
    verified = _git(tmp_path / "deltas.git", "verify-pack", "-v", str(idx))
    assert any(len(line.split()) == 7 for line in verified.splitlines())  # deltas there
    for line in listed.splitlines():
        object_id, kind, _size = line.split()
        found_kind, body = read_object(tmp_path / "deltas.git", object_id)
        shown = subprocess.run(
            ["git", "-C", str(tmp_path / "deltas.git"), "cat-file", kind, object_id],
            check=True,
            capture_output=True,
        ).stdout
        assert (kinds[found_kind], body) == (kind, shown)
    assert not list((tmp_path / "deltas.git" / "objects").glob("??/*"))


def test_a_packed_ref_is_read_and_moved_without_libgit2(pair: tuple[Path, Path]) -> None:
    _git(pair[0], "pack-refs", "--all")
    lean = _lean(pair[0])
    tip = lean.tip("main")
    assert tip == _git(pair[0], "rev-parse", "main")
    tree = lean.build_tree(tip, {"MEMORY.md": b"# new index\n"})
    made = lean.commit("main", parents=[tip], tree=tree, message="m", who=WHO, when=WHEN)
    assert _git(pair[0], "rev-parse", "main") == made
    assert lean._full is None


def test_a_branch_moved_by_git_is_never_overwritten(pair: tuple[Path, Path]) -> None:
    """A plain `git commit` lands between the read of the tip and the write: the lean
    commit is refused as stale and git's commit stays."""
    lean = _lean(pair[0])
    tip = lean.tip("main") or ""
    tree = lean.build_tree(tip, {"memories/tools/q.md": b"q\n"})
    theirs = _git(
        pair[0],
        "-c",
        "user.name=G",
        "-c",
        "user.email=g@example.com",
        "commit-tree",
        "-p",
        tip,
        "-m",
        "by git",
        lean.tree_id(tip),
    )
    _git(pair[0], "update-ref", "refs/heads/main", theirs, tip)
    with pytest.raises(StaleTipError):
        lean.commit("main", parents=[tip], tree=tree, message="late", who=WHO, when=WHEN)
    assert _git(pair[0], "rev-parse", "main") == theirs
    assert not (pair[0] / "refs" / "heads" / "main.lock").exists()


def test_a_leftover_lock_is_left_to_libgit2(pair: tuple[Path, Path]) -> None:
    """A lock file a crashed writer left: the lean move doubts and changes nothing (the
    full path waits for it and breaks it when it is stale)."""
    lock = pair[0] / "refs" / "heads" / "main.lock"
    lock.write_text("", encoding="ascii")
    tip = _git(pair[0], "rev-parse", "main")
    with pytest.raises(Doubt):
        move_branch(pair[0], "main", expected=tip, new="0" * 40)
    assert lock.exists() and _git(pair[0], "rev-parse", "main") == tip


def test_a_kept_reflog_is_left_to_libgit2(pair: tuple[Path, Path]) -> None:
    """Where git keeps reflogs the branch is moved by libgit2, which writes the line."""
    _git(pair[0], "config", "core.logAllRefUpdates", "always")
    lean, tip = _lean(pair[0]), _git(pair[0], "rev-parse", "main")
    tree = lean.build_tree(tip, {"memories/tools/r.md": b"r\n"})
    made = lean.commit("main", parents=[tip], tree=tree, message="logged", who=WHO, when=WHEN)
    assert lean._full is not None
    assert made in (pair[0] / "logs" / "refs" / "heads" / "main").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", [" Lean", "Lean.", "<Lean>", "Le\nan"])
def test_an_identity_libgit2_would_trim_or_refuse_is_its_own(name: str, tmp_path: Path) -> None:
    with pytest.raises(Doubt):
        write_commit(
            tmp_path,
            tree="4b825dc642cb6eb9a060e54bf8d69288fbee4904",
            parents=[],
            message="m",
            committer=Identity(name, "a@b.c"),
            author=WHO,
            when=WHEN,
        )


def test_only_plain_bare_repositories_get_one(tmp_path: Path, pair: tuple[Path, Path]) -> None:
    """A work tree, a linked work tree, a detached HEAD, an include: the full store."""
    work = tmp_path / "work"
    _git(tmp_path, "clone", "-q", str(pair[0]), str(work))
    assert lean_store(work) is None and lean_store(work / ".git") is None
    _git(pair[1], "worktree", "add", "-q", str(tmp_path / "linked"), "main")
    assert lean_store(tmp_path / "linked") is None
    detached = tmp_path / "detached.git"
    shutil.copytree(pair[0], detached)
    (detached / "HEAD").write_text(_git(detached, "rev-parse", "main") + "\n", encoding="ascii")
    assert lean_store(detached) is None
    _git(pair[0], "config", "include.path", str(tmp_path / "more.config"))
    assert lean_store(pair[0]) is None


def test_dreamgit_add_writes_without_pygit2_as_libgit2_would(pair: tuple[Path, Path]) -> None:
    """`dreamgit add` as a process in a bare repository never imports pygit2, and leaves
    the commits the full path leaves for the same adds; git finds nothing wrong."""
    for repo in pair:
        subprocess.run(
            ["dreamgit", "--repo", str(repo), "--now", "2026-11-20T09:00:00Z", "init"],
            check=True,
            capture_output=True,
        )
    watch = (
        "import sys; from dreamgit.cli import main\n"
        "try:\n    main()\nfinally:\n    assert 'pygit2' not in sys.modules, 'pygit2 imported'\n"
    )
    for k, text in enumerate(["Tabs win over spaces here", "The café opens at nine"]):
        args = ["--now", f"2026-11-20T10:0{k}:00Z", "add", text, "--topic", "prefs"]
        subprocess.run(
            [sys.executable, "-c", watch, *args],
            check=True,
            capture_output=True,
            env={**_env(), "DREAMGIT_REPO": str(pair[0])},
        )
        subprocess.run(  # the full path: told its objects are elsewhere (the same place)
            ["dreamgit", "--repo", str(pair[1]), *args],
            check=True,
            capture_output=True,
            env={**_env(), "GIT_OBJECT_DIRECTORY": str(pair[1] / "objects")},
        )
    assert _git(pair[0], "rev-parse", "main") == _git(pair[1], "rev-parse", "main")
    subprocess.run(["git", "-C", str(pair[0]), "fsck", "--strict"], check=True)


def _env() -> dict[str, str]:
    return dict(os.environ)


def test_the_configuration_is_read_once_per_store(
    tmp_path: Path, pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user's configuration read when the store opened answers its later questions (an
    add asks three); a store opened after a change sees it, and doubts."""
    user = tmp_path / "user.gitconfig"
    user.write_text("[user]\n\tname = A\n", encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(user))
    store = _lean(pair[0])
    assert store.commit_hooks() == []
    user.write_text("[core]\n\thooksPath = elsewhere\n", encoding="utf-8")
    assert not store.config_mentions(("hookspath",), everywhere=True)
    assert _lean(pair[0]).config_mentions(("hookspath",), everywhere=True)
    assert not _lean(pair[0]).config_mentions(("hookspath",), everywhere=False)
