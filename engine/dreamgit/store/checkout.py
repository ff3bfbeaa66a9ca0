"""Main checked out in a work tree: the agent's hand edits, and files that follow main.

Where main is checked out, an agent edits memory files in place. Before dreamgit
writes, those edits are committed (credentials found in them are redacted in the
files too, unless the agent changed them meanwhile); after it writes, the files are
brought from the commit they last showed, which a marker in the git directory
remembers, to the new tip, so that a hand edit is never overwritten. An edited
memory file that does not read (bad front matter, a daily note named for no date)
is left out of that commit and reported; it waits in the work tree until fixed.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from datetime import datetime
from typing import TYPE_CHECKING

from dreamgit import trailers as tr
from dreamgit.errors import MemoryFileError, MemoryFileWarning
from dreamgit.gitstore.locks import exclusive
from dreamgit.gitstore.permissions import keep_permissions
from dreamgit.store import layout
from dreamgit.store.committer import Committer
from dreamgit.store.followed import commit_runs
from dreamgit.store.formats import Source

if TYPE_CHECKING:
    from dreamgit.store.secrets import Finding

__all__ = ["Checkout"]


class Checkout(Committer):
    """Writing where main is checked out: agent edits committed first, the files following."""

    #: Edited files the last look at the work tree left out because they do not read.
    left_out: list[MemoryFileError] = []  # noqa: RUF012 - replaced, never mutated
    #: Files a commit not dreamgit's changed on main while they kept their old content
    #: (git's stale index drops a file so): committed back as restored, not as edits.
    kept_from_git: frozenset[str] = frozenset()

    def _redact_worktree(
        self,
        read: Mapping[str, bytes | None],
        scrubbed: Mapping[str, bytes | None],
        moves: Mapping[str, str],
    ) -> None:
        """Write redacted agent files back in place, unless the agent changed them meanwhile.

        ``moves`` maps each file to where it was committed: itself, or for a file
        named with a credential its new name (the old file is removed).
        """
        workdir = self.store.workdir
        if workdir is None:
            return
        for path, moved in sorted(moves.items()):
            source = workdir / path
            target, new = workdir / moved, scrubbed.get(moved)
            try:
                if new is None or source.read_bytes() != read[path]:
                    continue
            except OSError:
                continue
            tmp = target.with_name(f".{target.name}.{os.getpid()}.redact")
            tmp.write_bytes(new)
            keep_permissions(tmp, source)  # an agent's executable stays one
            os.replace(tmp, target)
            if moved != path:  # a file named with a credential: committed under its new name
                source.unlink(missing_ok=True)

    def _follow_worktree(self, *, fallback: str | None) -> None:
        """Bring the work tree from the commit it last showed (or ``fallback``) to the tip.

        The files follow dreamgit's commits only, never git's own (see ``store.followed``).
        """
        marker = self.store.git_dir / "dreamgit" / "worktree-shown"
        try:
            shown: str | None = marker.read_text(encoding="ascii").strip()
            self.store.tree_id(shown)
        except (OSError, KeyError, ValueError):  # no marker yet, or its commit is gone
            shown = fallback
        tip = self.tip()
        if tip is None or shown == tip:
            return
        runs = commit_runs(self.store, shown, tip, ours=self.store.staged_here)
        with self._agent_locks():
            for old, new in runs.followed:
                self.store.sync_worktree(old, new)
        self.kept_from_git |= {
            path for old, new in runs.left for path in self.store.files_still_at(old, new)
        }
        self._mark_shown(tip)

    @contextmanager
    def _agent_locks(self) -> Iterator[None]:
        """Hold the lock files the agent takes while it writes its own files (Hermes)."""
        workdir, names = self.store.workdir, self.format.lock_files
        with ExitStack() as stack:
            if workdir is not None and names:
                self._exclude(names)
                for name in names:
                    stack.enter_context(exclusive(workdir / name))
            yield

    def _exclude(self, names: tuple[str, ...]) -> None:
        """List lock files in ``.git/info/exclude``, so ``git status`` never shows them."""
        exclude = self.store.git_dir / "info" / "exclude"
        try:
            listed = exclude.read_text(encoding="utf-8")
        except FileNotFoundError:
            listed = ""
        missing = [f"/{n}" for n in names if f"/{n}" not in listed.splitlines()]
        if missing:
            exclude.parent.mkdir(parents=True, exist_ok=True)
            head = listed if not listed or listed.endswith("\n") else listed + "\n"
            exclude.write_text(head + "\n".join(missing) + "\n", encoding="utf-8")

    def _mark_shown(self, commit: str) -> None:
        """Remember which commit the work tree's files show (the base of the next sync)."""
        marker = self.store.git_dir / "dreamgit" / "worktree-shown"
        marker.parent.mkdir(parents=True, exist_ok=True)
        tmp = marker.with_name(f"{marker.name}.{os.getpid()}.tmp")
        tmp.write_text(commit + "\n", encoding="ascii")
        os.replace(tmp, marker)

    def follow_rewrite(self, old_tip: str) -> None:
        """After history was rewritten: bring the work tree's files from ``old_tip`` to the tip.

        Call it with the writers' turn held, before anything looks for agent edits:
        files that still show ``old_tip`` would otherwise look changed by hand.
        """
        if self.store.checked_out_branch() != self.branch:
            return
        self._mark_shown(old_tip)
        self._follow_worktree(fallback=old_tip)

    def _worktree_edits(self) -> dict[str, bytes | None]:
        """The uncommitted agent edits as the work tree has them (the agent's locks aside)."""
        locks = self.format.lock_files
        return {
            p: d
            for p, d in self.store.worktree_edits(self.format.agent_paths).items()
            if p not in locks
        }

    def readable_edits(
        self, now: datetime, edits: Mapping[str, bytes | None] | None = None
    ) -> dict[str, bytes | None]:
        """The uncommitted agent edits (or ``edits``, already scanned for secrets), less
        the memory files the format cannot read.

        A file left out stays in the work tree as the agent wrote it, is named in
        :attr:`left_out` (with the line and the fix), and is looked at again by the
        next write: once fixed, it is committed like any other edit.
        """
        scanned = edits is not None
        edits = dict(self._worktree_edits() if edits is None else edits)
        self.left_out = self._unreadable(edits, now, scanned=scanned) if edits else []
        bad = {problem.path for problem in self.left_out}
        return {p: d for p, d in edits.items() if p not in bad}

    def _unreadable(
        self, edits: Mapping[str, bytes | None], now: datetime, *, scanned: bool
    ) -> list[MemoryFileError]:
        """The edited files that do not read: what committing them would break.

        ``scanned``: the edits were already scanned for secrets; else each is redacted
        before it is written to the object store for reading."""
        fmt = self.format
        if not any(d is not None and fmt.memory_path(p) for p, d in edits.items()):
            return []  # sessions only, or deletions: nothing a reader could trip on
        files = dict(self.store.files(self.tip()))
        # read from the object store: never an unscanned credential there
        scan = not scanned and self.secrets_mode() != "off"
        from dreamgit.store.secrets import redact_bytes  # at the call: readers never need it

        for path, data in edits.items():
            if data is None:
                files.pop(path, None)
            else:
                files[path] = self.store.write_blob(redact_bytes(data) if scan else data)
        if fmt.name == "dreamgit":
            ours = {p: b for p, b in files.items() if p.startswith(layout.MEMORIES)}
            broken = self._files.read(ours, now=now)[1]
        else:
            source = Source(files=files, read_blob=self.store.read, record=self._files.record)
            broken = fmt.scan(source, now=now)[1]
        return [
            problem
            for problem in broken
            if problem.path in edits and not isinstance(problem, MemoryFileWarning)
        ]

    def preview_agent_edits(self, now: datetime) -> str | None:
        """Main's tip with the uncommitted agent edits on top, as an unreferenced commit.

        ``review`` plans against this, so it shows what ``run`` (which commits
        the edits first) will do, while moving no ref and touching no file.
        """
        tip = self.tip()
        if self.store.checked_out_branch() != self.branch:
            return tip
        edits = self.readable_edits(now)
        if not edits:
            return tip
        # Even unreferenced, the preview's blobs stay in the object store: scrubbed too
        # (redacted where ``run`` would refuse: the plan then shows what would be left).
        from dreamgit.store.secrets import scrub  # at the call: readers never need it

        mode = self.secrets_mode()
        modes = self._edit_modes(edits)
        edits, found = scrub(edits, "redact" if mode == "refuse" else mode)
        tree = self.store.build_tree(tip, edits, _moved(modes, _moves(found, modes)))
        return self.store.commit_unreferenced(
            parents=[tip] if tip else [],
            tree=tree,
            message="preview: uncommitted agent edits",
            who=self.identity(),
            when=now,
        )

    def _edit_modes(self, edits: Mapping[str, bytes | None]) -> dict[str, bytes]:
        """The mode each written edit's work-tree file gives (``WorkTree.worktree_modes``):
        an agent's new executable is committed as one, as ``git add`` would stage it."""
        return self.store.worktree_modes(p for p, d in edits.items() if d is not None)

    def _commit_agent_edits(self, now: datetime) -> None:
        raw = self._worktree_edits()
        if not raw:
            self.left_out = []
            return
        modes = self._edit_modes(raw)  # before the redaction below moves any file
        from dreamgit.store.secrets import findings_trailers, scrub  # readers never need it

        # Scanned first: a file named with a credential is moved to a safe name, and only
        # then is it judged readable (its old name is no memory file path)
        scrubbed, found = scrub(raw, self.secrets_mode(), taken=self._taken_at(self.tip()))
        moves = _moves(found, raw)
        self._redact_worktree(raw, scrubbed, moves)
        edits = self.readable_edits(now, scrubbed)
        if not edits:
            return
        kept = self.kept_from_git & edits.keys()
        listing = "\n".join(f"  {p}" + (_KEPT if p in kept else "") for p in sorted(edits))
        message = (
            f"agent edits: {_edits_subject(len(edits), len(kept))}\n\n{listing}\n\n"
            + tr.trailers((tr.OP, "agent-edits"))
            + f"\n{findings_trailers(found)}"
        ).rstrip("\n")
        # The person who edited the files wrote them: their git identity is the author,
        # dreamgit only the committer (of files it only brings back, the author too).
        author = self.store.git_identity() if len(kept) < len(edits) else None
        modes = _moved(modes, moves)
        step = self._commit_step(message, lambda _tip: edits, now=now, author=author, modes=modes)
        committed = self._retry(step)
        self.kept_from_git = frozenset()
        if committed is not None:
            # The files already show this commit: the next sync starts from it, or the
            # edited files would look changed by hand again and be left in place.
            self._mark_shown(committed)


def _moved(modes: Mapping[str, bytes], moves: Mapping[str, str]) -> dict[str, bytes]:
    """``modes`` under the names their files are committed as (``moves``)."""
    return {moves.get(path, path): mode for path, mode in modes.items()}


def _moves(found: Collection[Finding], edits: Collection[str]) -> dict[str, str]:
    """Each of the ``edits`` the scan redacted, mapped to where it is committed: itself,
    or for a file named with a credential its new name."""
    moves = {f.path: f.path for f in found if not f.moved_to and f.path in edits}
    moves.update({f.path: f.moved_to for f in found if f.moved_to})
    return moves


#: How a file a commit not dreamgit's dropped from main, and the work tree kept, is listed.
_KEPT = "  (dropped from main by a commit git made from an outdated index; the file kept it)"


def _edits_subject(edited: int, kept: int) -> str:
    """The agent-edits commit's subject: files changed by hand, or brought back."""
    if not kept:
        return f"{edited} file(s) changed by hand"
    if kept == edited:
        return f"{kept} file(s) a git commit dropped from main, brought back"
    return f"{edited - kept} file(s) changed by hand, {kept} a git commit dropped brought back"
