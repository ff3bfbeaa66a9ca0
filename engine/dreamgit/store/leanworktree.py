"""Whether a work tree's files under the agent's paths are the committed ones, without libgit2.

The lean status (``dream/leanstatus.py``) answers for a repository with a work tree only
when the full path would count no uncommitted edit there. That holds when three things
do, each checked as git's own status checks them and each a doubt otherwise: the index
stages exactly the committed files under those paths (same paths, same blob ids); every
such file is the staged one, by its ``stat`` data where that still matches its index
entry (the change time to the nanosecond, which every write moves and no one sets back,
size, inode, type and executable bit; not racily clean, changed as the index was
written) and else by hashing its content as git does (dreamgit's own writes stage files
without ``stat`` data), unless git might filter the content (line endings, attributes)
or there are too many; and no other file lies under those paths (an untracked one may
be an edit, or ignored: the full path tells; each folder's listing is counted against
the staged files and folders). A symbolic link, a file that cannot be read, a mode git
would not stage: a doubt. The last two are asked of git's own status first when git is
installed and cannot clean content differently from libgit2 (``store/gitstatus.py``:
about half the CPU at 10,000 files); with an index of version 2 that stages no
attributes file, git's comparison of the index with HEAD stands for the first too and
the index is not parsed here. The files are looked at here when git cannot say.
Nothing is written but, in the cache folder, which index content was last found to
stage exactly the committed files (``store/indexvouch.py``): the next status with that
index compares no blob ids.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from pathlib import Path
from typing import NamedTuple

from dreamgit.store.gitindex import IndexContent, IndexEntry, index_content, parse_index
from dreamgit.store.gitstatus import clean_by_git, start_git_status
from dreamgit.store.indexvouch import vouch, vouched

__all__ = ["Committed", "committed_in_work_tree", "start_work_tree_check"]

_EXECUTABLE = 0o100755
_REGULAR = 0o100644
_BILLION = 1_000_000_000
_LOW32 = 0xFFFFFFFF
#: The file type and the owner's executable bit: what git's mode keeps of ``st_mode``.
_KIND_AND_EXEC = 0o170100
#: More files than this whose ``stat`` data changed: the full path reads them.
_MAX_HASHED = 2000


class Committed(NamedTuple):
    """The commit's files under the agent's paths, as :func:`committed_in_work_tree`
    asks for them: ``files()`` gives path → blob id (None when it cannot say), asked
    only when the index is not one already found to stage exactly the files ``key``
    names (a name for them: the tree and the other files; ``store/indexvouch.py``);
    ``id_bytes`` is 20 in a SHA-1 repository, 32 in a SHA-256 one; ``commit`` is the
    commit HEAD was found at (git's status must compare the index with that one)."""

    key: str
    id_bytes: int
    files: Callable[[], Mapping[str, str] | None]
    commit: str


def committed_in_work_tree(
    git_dir: Path, workdir: Path, prefixes: tuple[str, ...], committed: Committed
) -> bool:
    """Whether every file under ``prefixes`` (``memories/`` a folder, ``MEMORY.md`` a
    file) in ``workdir`` holds what ``committed`` (the commit's files under those
    prefixes) says, and no other file is there."""
    return start_work_tree_check(git_dir, workdir, prefixes, committed)()


def start_work_tree_check(
    git_dir: Path, workdir: Path, prefixes: tuple[str, ...], committed: Committed
) -> Callable[[], bool]:
    """What :func:`committed_in_work_tree` says, to be asked for later: when git's status
    alone may judge, git is started now and looks at the files in its own process while
    the caller works; the call returned waits for it (and must be made, once git was
    started: it reads git's output). Else the files are looked at when it is called."""
    content = index_content(git_dir, committed.id_bytes)
    if content is None:
        return lambda: False
    if not _git_may_judge(git_dir, content):
        return lambda: _judged_here(git_dir, workdir, prefixes, committed, content, False)
    # git compares the index with HEAD (the commit) and the files with the index: its
    # ~10,000 entries need not be read here.
    started = start_git_status(git_dir, workdir, prefixes, committed.commit)

    def answer() -> bool:
        by_git = None if started is None else started.answer()
        if by_git is not None:
            return by_git
        return _judged_here(git_dir, workdir, prefixes, committed, content, True)

    return answer


def _judged_here(
    git_dir: Path,
    workdir: Path,
    prefixes: tuple[str, ...],
    committed: Committed,
    content: IndexContent,
    asked: bool,
) -> bool:
    """:func:`committed_in_work_tree`'s answer from the index parsed here (``asked``:
    git's status was asked already and could not say)."""
    index = parse_index(content, committed.id_bytes)
    if index is None:
        return False
    wanted = tuple(prefix.encode() for prefix in prefixes)
    staged = {path: entry for path, entry in index.entries.items() if path.startswith(wanted)}
    if not _stages(git_dir, index.checksum, staged, committed):
        return False  # staged is not committed: a change someone staged
    if any(entry.mode not in (_EXECUTABLE, _REGULAR) for entry in staged.values()):
        return False  # a link or a submodule: not a file to compare
    filters = _filters_possible(git_dir, staged)
    if not filters and not asked:  # else git's status may clean content libgit2 would not
        by_git = clean_by_git(git_dir, workdir, prefixes, committed.commit)
        if by_git is not None:
            return by_git
    root = os.fsencode(workdir)
    if not all(_nothing_else(root, prefix, staged) for prefix in wanted):
        return False
    unsure = _unsure(root, staged, index.written_ns)
    if unsure is None:
        return False
    if unsure and (len(unsure) > _MAX_HASHED or filters):
        return False
    return all(_holds(os.path.join(root, path), entry) for path, entry in unsure)


def _git_may_judge(git_dir: Path, content: IndexContent) -> bool:
    """Whether git's status alone may judge the work tree against this index: one of
    version 2 (no entry in it can be skip-worktree or intent-to-add, which git and
    libgit2 read apart), with no attributes file staged anywhere (the bytes of such a
    path are nowhere in it) and no configuration that may clean content."""
    return (
        content.version == 2
        and b".gitattributes\0" not in content.body
        and not _filters_possible(git_dir, ())
    )


def _stages(
    git_dir: Path, checksum: bytes, staged: Mapping[bytes, IndexEntry], committed: Committed
) -> bool:
    """Whether ``staged`` (the index's entries under the prefixes) are exactly the
    committed files: as found before for this index and key, else compared (and, when
    equal, kept for the next status)."""
    if vouched(git_dir, checksum, committed.key):
        return True
    files = committed.files()
    if files is None:
        return False
    if {path.decode("utf-8", "replace"): e.object_id.hex() for path, e in staged.items()} != (
        files
    ):
        return False
    vouch(git_dir, checksum, committed.key)
    return True


def _nothing_else(root: bytes, prefix: bytes, staged: Mapping[bytes, IndexEntry]) -> bool:
    """Whether the folder ``prefix`` holds nothing but the staged files under it and the
    folders on their paths (anything else, untracked or ignored, is for the full path
    to judge), counted folder by folder: each staged file is looked at on its own
    (:func:`_unsure`), so equal counts leave no room for another name. A prefix that is
    a file (no final ``/``) must be staged or absent."""
    if not prefix.endswith(b"/"):
        return prefix in staged or not os.path.lexists(os.path.join(root, prefix))
    inside = [path for path in staged if path.startswith(prefix)]
    folders = _folders(inside)
    top = prefix.rstrip(b"/")
    if not folders:
        return not os.path.lexists(os.path.join(root, top))
    listed = 0
    for folder in folders:
        where = os.path.join(root, folder.rstrip(b"/"))
        if os.path.islink(where):
            return False  # the folder leads elsewhere: what git makes of it, the full path says
        try:
            listed += len(os.listdir(where))
        except OSError:
            return False
    # Every folder but the top one is a name in its parent's listing.
    return listed == len(inside) + len(folders) - 1


def _folders(paths: Iterable[bytes]) -> set[bytes]:
    """Every folder (``a/``, ``a/b/``) on the paths of ``paths``."""
    found: set[bytes] = set()
    for parent in {path.rpartition(b"/")[0] for path in paths}:
        while parent and parent + b"/" not in found:
            found.add(parent + b"/")
            parent = parent.rpartition(b"/")[0]
    return found


def _unsure(
    root: bytes, staged: Mapping[bytes, IndexEntry], written_ns: int
) -> list[tuple[bytes, IndexEntry]] | None:
    """The staged files whose ``stat`` data alone does not say they are unchanged (to be
    hashed): changed data, or changed as the index was written (racily clean: same data,
    other content). None when one is missing or cannot be read.

    Built by comprehensions, not a loop with a call per file: they run over every memory
    at every status."""
    paths = list(staged)
    try:
        folder = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return None
    try:
        # Relative to the work tree's descriptor: no path joined in Python per file.
        found = list(map(partial(os.stat, dir_fd=folder, follow_symlinks=False), paths))
    except OSError:
        return None  # deleted, or not readable
    finally:
        os.close(folder)
    # Every write, rename, chmod and chown moves the inode's ctime, which no one can set
    # back (a modification time can be): a file whose ctime is the one staged, and older
    # than the index (else racily clean: changed as the index was written), is unchanged.
    return [
        (path, entry)
        for path, st, entry in zip(paths, found, staged.values(), strict=True)
        if st.st_ctime_ns >= written_ns
        or st.st_ctime_ns != entry.ctime_s * _BILLION + entry.ctime_ns
        or st.st_size & _LOW32 != entry.size
        or st.st_ino & _LOW32 != entry.ino
        or st.st_mode & _KIND_AND_EXEC != entry.mode & _KIND_AND_EXEC
    ]


def _filters_possible(git_dir: Path, staged: Iterable[bytes]) -> bool:
    """Whether git might clean a file's content before hashing it (line endings, a
    filter), by the repository's attributes or any configuration git reads (the
    repository's, the user's, the system's): then its raw bytes are not what the full
    path compares."""
    if any(path.endswith(b".gitattributes") for path in staged):
        return True
    attributes = [git_dir / "info" / "attributes", git_dir.parent / ".gitattributes"]
    if any(path.exists() for path in [*attributes, _user_config_dir() / "attributes"]):
        return True
    for config in _configs(git_dir):
        try:
            text = config.read_text(encoding="utf-8").lower()
        except FileNotFoundError:
            continue
        except (OSError, UnicodeDecodeError):
            return True
        if any(word in text for word in ("autocrlf", "eol", "filter", "attributesfile")):
            return True
    return False


def _user_config_dir() -> Path:
    """Where git looks for the user's ``config`` and ``attributes`` besides ``~``."""
    xdg = os.environ.get("XDG_CONFIG_HOME")
    return (Path(xdg) if xdg else Path.home() / ".config") / "git"


def _configs(git_dir: Path) -> list[Path]:
    """The configuration files git reads for this repository, as far as they matter:
    the repository's, the user's (``~/.gitconfig``, the XDG one, or ``GIT_CONFIG_GLOBAL``)
    and the system's (``/etc/gitconfig`` or ``GIT_CONFIG_SYSTEM``)."""
    found = [git_dir / "config"]
    given = os.environ.get("GIT_CONFIG_GLOBAL")
    found += [Path(given)] if given else [Path.home() / ".gitconfig", _user_config_dir() / "config"]
    found.append(Path(os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"))
    return found


def _holds(path: bytes, entry: IndexEntry) -> bool:
    """Whether ``path`` is a plain file, executable as staged, holding the blob
    ``entry`` stages, as git hashes it."""
    try:
        found = os.lstat(path)
        if not stat.S_ISREG(found.st_mode) or bool(found.st_mode & 0o100) != (
            entry.mode == _EXECUTABLE
        ):
            return False  # a link, a folder where a file was, a changed executable bit
        with open(path, "rb") as file:
            data = file.read()
    except OSError:
        return False
    object_id = entry.object_id
    digest = hashlib.sha1 if len(object_id) == 20 else hashlib.sha256
    return digest(b"blob %d\0" % len(data) + data).digest() == object_id
