"""GrowingTree: a tree written again and again gives the trees a fresh build gives."""

from __future__ import annotations

import random
import zlib
from pathlib import Path

from dreamgit.gitstore import EMPTY_TREE, GitStore, Identity
from dreamgit.gitstore.plainobjects import PLAIN_TREE_BYTES
from gitcheck import NOW, fsck, git

WHO = Identity("Agent Smith", "agent@example.com")

#: Changes a dream's commits make and the odd ones a person's may: a new folder, a file
#: in a big folder, a folder emptied (it goes) and filled again, a file where a folder
#: was and a folder where a file was, everything removed.
STEPS: list[dict[str, bytes | None]] = [
    {"memories/tools/a.md": b"a\n", "memories/tools/b.md": b"b\n", "MEMORY.md": b"i\n"},
    {"memories/people/c.md": b"c\n"},
    {"memories/tools/a.md": b"a2\n", "DREAMS.md": b"d\n"},
    {"memories/people/c.md": None},
    {"memories/people/d.md": b"d\n", "memories/tools/b.md": None},
    {"memories/tools": b"a file now\n"},
    {"memories/tools": None, "memories/tools/e.md": b"e\n"},
    {"notes/2026/11/27.md": b"n\n", ".dreamgit/runs/r.json": b"{}\n"},
    {"memories/people": b"file\n", "memories/people/f.md": b"f\n"},
    {"notes/2026/11/27.md": None},
    {"nothing/there.md": None},
]


def _commit(store: GitStore, tip: str | None, tree: str) -> str:
    return store.commit(
        "main", parents=[tip] if tip else [], tree=tree, message="step\n", who=WHO, when=NOW
    )


def test_each_write_gives_the_tree_a_fresh_build_gives(tmp_path: Path) -> None:
    """Writes on one growing tree make, step by step, the trees built anew from each commit."""
    store = GitStore.init(tmp_path / "r", bare=True)
    growing = store.growing_tree(None)
    tip: str | None = None
    for changes in STEPS:
        fresh = store.build_tree(tip, changes)
        assert growing.write(changes) == fresh
        tip = _commit(store, tip, fresh)
    fsck(tmp_path / "r")
    listing = git(tmp_path / "r", "ls-tree", "-r", "--name-only", "main").split()
    assert listing == [
        ".dreamgit/runs/r.json",
        "DREAMS.md",
        "MEMORY.md",
        "memories/people/d.md",
        "memories/people/f.md",
        "memories/tools/e.md",
    ]


def test_a_tree_emptied_of_every_file_is_the_empty_tree(tmp_path: Path) -> None:
    """Removing the last files leaves git's empty tree, and files written after come back."""
    store = GitStore.init(tmp_path / "r", bare=True)
    growing = store.growing_tree(None)
    first = growing.write({"a/b.md": b"b\n", "c.md": b"c\n"})
    assert growing.write({"a/b.md": None, "c.md": None}) == EMPTY_TREE
    assert growing.write({"a/b.md": b"b\n", "c.md": b"c\n"}) == first


def test_random_changes_on_a_store_give_the_fresh_trees(tmp_path: Path) -> None:
    """Many random writes, removals and renames over a started store match fresh builds."""
    store = GitStore.init(tmp_path / "r", bare=True)
    rng = random.Random(27)
    start = {f"memories/t{k % 4}/m{k}.md": f"{k}\n".encode() for k in range(60)}
    tip = _commit(store, None, store.build_tree(None, start))
    growing = store.growing_tree(tip)
    paths = [*sorted(start), "memories/t9/new.md", "MEMORY.md", "memories/t1"]
    for step in range(40):
        changes = {
            path: (None if rng.random() < 0.4 else f"{step} {path}\n".encode())
            for path in rng.sample(paths, rng.randint(1, 4))
        }
        if "memories/t1" in changes and any(p.startswith("memories/t1/") for p in changes):
            del changes["memories/t1"]  # a file and a folder of one name in one write
        fresh = store.build_tree(tip, changes)
        assert growing.write(changes) == fresh, changes
        tip = _commit(store, tip, fresh)
    fsck(tmp_path / "r")


def test_a_big_folder_is_stored_uncompressed_and_git_reads_it(tmp_path: Path) -> None:
    """A folder past PLAIN_TREE_BYTES is a loose object stored, not deflated, that git checks."""
    store = GitStore.init(tmp_path / "r", bare=True)
    many = {f"memories/big/memory-number-{k:04d}.md": f"{k}\n".encode() for k in range(900)}
    tip = _commit(store, None, store.build_tree(None, many))
    growing = store.growing_tree(tip)
    tree = growing.write({"memories/big/one-more.md": b"more\n"})
    tip = _commit(store, tip, tree)
    big = git(tmp_path / "r", "rev-parse", "main:memories/big").strip()
    size = int(git(tmp_path / "r", "cat-file", "-s", big))
    assert size >= PLAIN_TREE_BYTES
    stored = (tmp_path / "r" / "objects" / big[:2] / big[2:]).read_bytes()
    assert zlib.decompress(stored).startswith(b"tree %d\0" % size)
    assert len(stored) > size  # stored blocks: nothing deflated
    assert len(git(tmp_path / "r", "ls-tree", "main:memories/big").splitlines()) == 901
    fsck(tmp_path / "r")
