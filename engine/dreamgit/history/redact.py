"""Redaction from history: a text, or one memory in every version, gone from every commit.

git keeps every state memory was ever in; that is the point, except for the one
thing history must not keep. ``redact`` rewrites every commit reachable from the
branches dreamgit manages (main, ``dream/*``, revert branches, ``refs/dreamgit/*``):
in each file and commit message the text (or every line of every version of the
memory) becomes ``[REDACTED]``, a memory's own files are removed, and the rest of
each commit — other files, author, committer, times, trailers — stays as it was.

The rewrite writes new objects only; the refs then move in one compare-and-swap
transaction, so a writer that moved a branch meanwhile makes the redaction fail
and change nothing, and a process killed midway leaves the old history whole.
What it cannot reach — clones, remotes, pull requests, this repository's reflog
until it is expired — is said plainly in the report.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from dreamgit import faults
from dreamgit import trailers as tr
from dreamgit.clock import format_time
from dreamgit.dsl.regexsafe import PatternError, compile_pattern
from dreamgit.errors import ConcurrentUpdateError, MemoryFileError, NotFoundError, UserError
from dreamgit.gitstore import EMPTY_TREE, StaleTipError
from dreamgit.history.redact_leftovers import (
    PATH_LIKE,
    Unmanaged,
    drop_derived_copies,
    unmanaged_refs,
)
from dreamgit.ids import memory_id
from dreamgit.store import layout
from dreamgit.store.memoryfile import decode_text, parse_memory_record
from dreamgit.store.repo import MemoryRepo

__all__ = ["REDACTED", "Redaction", "collect_garbage", "redact"]

REDACTED = "[REDACTED]"


class Pattern(Protocol):
    """What redaction needs of a compiled pattern (Python's ``re``, or RE2 for ``--regex``)."""

    def sub(self, repl: str, string: str, /) -> str: ...

    def search(self, string: str, /) -> object: ...


#: What the text becomes in a file or folder name (and in a path that names one).
PATH_REDACTED = "redacted"
REDACTIONS = ".dreamgit/redactions/"
#: Refs besides the repository's own branch whose history dreamgit writes.
MANAGED = ("refs/heads/dream/", "refs/heads/dreamgit-revert/", "refs/dreamgit/")
#: Shorter lines of a memory are too likely to stand in other text by chance.
MIN_LINE = 12


@dataclass(frozen=True)
class Touched:
    """One commit that brought the text in: in the files it added or changed, or its message."""

    commit: str
    new: str | None
    files: tuple[str, ...]
    message: bool


@dataclass
class Redaction:
    """What a redaction changed (or, with ``dry_run``, would change); never the text itself."""

    rule: str
    dry_run: bool
    touched: list[Touched] = field(default_factory=list)
    rewritten: int = 0
    #: Every rewritten commit, old → new (empty on a dry run).
    pairs: dict[str, str] = field(default_factory=dict)
    refs: dict[str, tuple[str, str]] = field(default_factory=dict)
    record: str | None = None
    #: Refs dreamgit does not move that still reach the old history.
    unmanaged: list[Unmanaged] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The report as ``redact --json`` prints it."""
        return {
            "rule": self.rule,
            "dry_run": self.dry_run,
            "commits": [
                {"commit": t.commit, "new": t.new, "files": list(t.files), "message": t.message}
                for t in self.touched
            ],
            "rewritten": self.rewritten,
            "refs": {name: {"old": old, "new": new} for name, (old, new) in self.refs.items()},
            "record": self.record,
            "unmanaged": [{"ref": u.ref, "command": u.command} for u in self.unmanaged],
        }


def redact(
    repo: MemoryRepo,
    *,
    now: datetime,
    match: str | None = None,
    regex: bool = False,
    memory: str | None = None,
    dry_run: bool = False,
    case_sensitive: bool = False,
) -> Redaction:
    """Take ``match`` (a text, or with ``regex`` a pattern) or memory ``memory`` out of history.

    Matching ignores case unless ``case_sensitive``: a slug lower-cases what it is made
    from. File and folder names that hold the text are renamed too.
    """
    repo.require_initialised()
    if (match is None) == (memory is None):
        raise UserError(
            "redact needs either a memory id or --match TEXT, not both",
            hint="`dreamgit redact m-…` or `dreamgit redact --match 'text'`",
        )
    with repo.writers_turn():
        refs = _managed_refs(repo)
        order = _oldest_first(repo, refs.values())
        pattern: Pattern
        if memory is not None:
            rule = "memory"
            versions, pattern = _memory_versions(repo, order, memory)
        else:
            assert match is not None
            rule = "regex" if regex else "match"
            versions = frozenset()
            pattern = _pattern(match, regex=regex, case_sensitive=case_sensitive)
        report = Redaction(rule=rule, dry_run=dry_run)
        mapped = _rewrite(repo, order, pattern, versions, report)
        report.refs = {
            name: (old, mapped[old]) for name, old in refs.items() if mapped.get(old, old) != old
        }
        changed = {old for old, new in mapped.items() if new != old}
        report.unmanaged = unmanaged_refs(repo, refs, set(order), changed)
        if dry_run or not report.refs:
            return report
        faults.checkpoint("redact-before-refs")
        try:
            repo.store.move_refs(report.refs, message=f"dreamgit redact ({rule})")
        except StaleTipError as exc:
            raise ConcurrentUpdateError(
                f"{exc} moved while the redaction was being written; nothing was changed",
                hint="run the same redact again: it rewrites what is there now",
            ) from None
        main = refs.get(f"refs/heads/{repo.branch}")
        if main is not None:
            repo.follow_rewrite(main)
        drop_derived_copies(repo, lambda text: _sub(pattern, text))
    report.record = _record(repo, report, now)
    return report


def collect_garbage(repo: MemoryRepo) -> None:
    """Expire the reflog and prune, so the old objects leave this repository's disk now."""
    git = shutil.which("git")
    if git is None:
        raise UserError(
            "--gc needs the git program, which is not on PATH",
            hint="run `git reflog expire --expire=now --all && git gc --prune=now` yourself",
        )
    where = ["--git-dir", str(repo.store.git_dir)]
    for args in (["reflog", "expire", "--expire=now", "--all"], ["gc", "--quiet", "--prune=now"]):
        result = subprocess.run([git, *where, *args], capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise UserError(
                f"git {args[0]} failed: {result.stderr.strip()}",
                hint="the redaction itself is done; run the command again later",
            )


def _managed_refs(repo: MemoryRepo) -> dict[str, str]:
    refs = {}
    tip = repo.tip()
    if tip is not None:
        refs[f"refs/heads/{repo.branch}"] = tip
    for prefix in MANAGED:
        refs.update(repo.store.refs(prefix))
    return refs


def _oldest_first(repo: MemoryRepo, tips: Iterable[str]) -> list[str]:
    """Every commit reachable from ``tips``, each after all of its parents."""
    seen: set[str] = set()
    order: list[str] = []
    for tip in sorted(set(tips)):
        stack: list[tuple[str, bool]] = [(tip, False)]
        while stack:
            commit, expanded = stack.pop()
            if expanded:
                order.append(commit)
                continue
            if commit in seen:
                continue
            seen.add(commit)
            stack.append((commit, True))
            parents = repo.store.commit_info(commit).parents
            stack.extend((p, False) for p in reversed(parents) if p not in seen)
    return order


def _pattern(text: str, *, regex: bool, case_sensitive: bool) -> Pattern:
    if not text.strip():
        raise UserError("--match needs some text", hint="give the text (or --regex pattern)")
    flags = "" if case_sensitive else "(?i)"
    if not regex:
        return re.compile(flags + re.escape(text))
    try:  # on RE2, like every pattern a user gives: linear time, no runaway backtracking
        compiled: Pattern = compile_pattern(flags + text)
        return compiled
    except (re.error, PatternError) as exc:
        raise UserError(
            f"--match is not a valid regular expression: {exc}",
            hint="check the pattern, or drop --regex to match the text literally",
        ) from None


def _memory_versions(
    repo: MemoryRepo, order: list[str], wanted: str
) -> tuple[frozenset[str], re.Pattern[str]]:
    """Every blob that was a version of memory ``wanted``, and a pattern for each line it said."""
    store = repo.store
    versions: set[str] = set()
    lines: set[str] = set()
    seen_trees: set[str] = set()
    checked: set[str] = set()
    for commit in order:
        for path, blob in store.tree_files(store.tree_id(commit), seen_trees):
            if blob in checked or not path.startswith(layout.MEMORIES):
                continue
            checked.add(blob)
            data = store.read(blob)
            try:
                record = parse_memory_record(decode_text(data, path=path), path=path)
                ident = str(record["id"] or "") or memory_id("path", path)
                said = [str(record.get(k) or "") for k in ("text", "name", "description")]
            except MemoryFileError:
                ident, said = memory_id("path", path), [data.decode("utf-8", errors="replace")]
            if ident != wanted:
                continue
            versions.add(blob)
            # Its name lives on in paths, subjects and index links: topic/slug and slug.
            slug_path = path.removeprefix(layout.MEMORIES).removesuffix(".md")
            said += [slug_path, slug_path.rsplit("/", 1)[-1]]
            lines.update(
                line.strip()
                for text in said
                for line in text.splitlines()
                if len(line.strip()) >= MIN_LINE
            )
    if not versions:
        raise NotFoundError(
            f"memory {wanted} was never in this repository's history",
            hint="`dreamgit memories` lists ids; `git log --all` shows everything git has",
        )
    alternatives = sorted(lines, key=len, reverse=True)
    pattern = "|".join(re.escape(line) for line in alternatives) or r"(?!)"
    return frozenset(versions), re.compile(f"(?i){pattern}")


def _rewrite(
    repo: MemoryRepo,
    order: list[str],
    pattern: Pattern,
    remove: frozenset[str],  # blobs that are versions of a memory being redacted
    report: Redaction,
) -> dict[str, str]:
    """Rewrite ``order`` oldest first; old commit → new commit (itself where untouched).

    Each distinct folder is listed once and each distinct blob read once, so the cost
    follows how much the history holds, not commits times files.
    """
    store = repo.store
    swap: dict[str, str | None] = {}  # blob → its redacted blob, or None (removed)
    checked: set[str] = set()
    seen_trees: set[str] = set()
    memo: dict[str, tuple[str | None, bool]] = {}  # folder → (its rewrite, changed)
    holds: dict[str, bool] = {}  # folder → holds a blob to swap (dry runs write nothing)
    mapped: dict[str, str] = {}
    names: dict[str, bool] = {}  # folder → a name under it holds the text

    def rename(name: str) -> str:
        return pattern.sub(PATH_REDACTED, name)

    for commit in order:
        tree = store.tree_id(commit)
        brought: list[str] = []
        for path, blob in store.tree_files(tree, seen_trees):
            if blob in checked:
                continue
            checked.add(blob)
            if blob in remove:
                swap[blob] = None
            else:
                new = _replace(store.read(blob), lambda text: _sub(pattern, text))
                if new is False:
                    continue
                assert isinstance(new, bytes)
                swap[blob] = store.write_blob(new) if not report.dry_run else blob
            brought.append(path)
        renamed = store.tree_names(tree, lambda name: pattern.search(name) is not None, names)
        info = store.commit_info(commit)
        message = pattern.sub(REDACTED, info.message)
        if brought or message != info.message:
            report.touched.append(
                Touched(commit, None, tuple(sorted(brought)), message != info.message)
            )
        parents = [mapped.get(p, p) for p in info.parents]
        if report.dry_run:
            changed = renamed or store.tree_holds(tree, swap, holds)
            new_tree: str | None = f"changed:{tree}" if changed else tree
        else:
            new_tree = store.rewrite_tree(tree, swap, memo, rename)
        if new_tree == tree and message == info.message and parents == list(info.parents):
            mapped[commit] = commit
            continue
        report.rewritten += 1
        if report.dry_run:
            mapped[commit] = f"rewritten:{commit}"
            continue
        mapped[commit] = store.recommit(
            commit, parents=parents, tree=new_tree or EMPTY_TREE, message=message
        )
        report.pairs[commit] = mapped[commit]
    report.touched = [
        Touched(t.commit, mapped.get(t.commit) if not report.dry_run else None, t.files, t.message)
        for t in report.touched
    ]
    return mapped


def _replace(data: bytes, sub: Callable[[str], str]) -> bytes | bool:
    """``data`` with every match redacted, or False when nothing matched.

    Bytes that are not UTF-8 are searched too, and kept byte for byte around a match.
    """
    text = data.decode("utf-8", errors="surrogateescape")
    new = sub(text)
    return False if new == text else new.encode("utf-8", errors="surrogateescape")


def _sub(pattern: Pattern, text: str) -> str:
    """``text`` redacted; inside a path (an index link) the text becomes a name a path may hold."""
    text = PATH_LIKE.sub(lambda m: pattern.sub(PATH_REDACTED, m.group(0)), text)
    return pattern.sub(REDACTED, text)


def _record(repo: MemoryRepo, report: Redaction, now: datetime) -> str:
    """Commit what was done (rule, time, counts; never the text) on the branch."""
    stamp = format_time(now).replace(":", "").replace("-", "")
    path = f"{REDACTIONS}{stamp}.json"
    data = {
        "rule": report.rule,
        "time": format_time(now),
        "commits_with_text": len(report.touched),
        "commits_rewritten": report.rewritten,
        "refs": sorted(report.refs),
    }
    body = (json.dumps(data, indent=2) + "\n").encode("utf-8")
    message = (
        f"redact: {report.rule} removed from {len(report.touched)} commit(s)\n\n"
        + tr.trailers((tr.OP, "redact"), (tr.RULE, f"redact-{report.rule}"))
        + "\n"
    )
    repo.commit_main(message, lambda _tip: {path: body}, now=now)
    return path
