"""Main checked out in a work tree: the agent's hand edits, and files that follow main.

Where main is checked out, an agent edits memory files in place. Before dreamgit
writes, those edits are committed (credentials found in them are redacted in the
files too, unless the agent changed them meanwhile); after it writes, the files are
brought from the commit they last showed, which a marker in the git directory
remembers, to the new tip, so that a hand edit is never overwritten.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import datetime

from dreamgit.store.committer import Committer
from dreamgit.store.secrets import findings_trailers, scrub

__all__ = ["Checkout"]


class Checkout(Committer):
    """Writing where main is checked out: agent edits committed first, the files following."""

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
            os.replace(tmp, target)
            if moved != path:  # a file named with a credential: committed under its new name
                source.unlink(missing_ok=True)

    def _follow_worktree(self, *, fallback: str | None) -> None:
        """Bring the work tree from the commit it last showed (or ``fallback``) to the tip."""
        marker = self.store.git_dir / "dreamgit" / "worktree-shown"
        try:
            shown: str | None = marker.read_text(encoding="ascii").strip()
            self.store.tree_id(shown)
        except (OSError, KeyError, ValueError):  # no marker yet, or its commit is gone
            shown = fallback
        tip = self.tip()
        if tip is None or shown == tip:
            return
        self.store.sync_worktree(shown, tip)
        self._mark_shown(tip)

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

    def preview_agent_edits(self, now: datetime) -> str | None:
        """Main's tip with the uncommitted agent edits on top, as an unreferenced commit.

        ``review`` plans against this, so it shows what ``run`` (which commits
        the edits first) will do, while moving no ref and touching no file.
        """
        tip = self.tip()
        if self.store.checked_out_branch() != self.branch:
            return tip
        edits = self.store.worktree_edits(self.format.agent_paths)
        if not edits:
            return tip
        # Even unreferenced, the preview's blobs stay in the object store: scrubbed too
        # (redacted where ``run`` would refuse: the plan then shows what would be left).
        mode = self.secrets_mode()
        edits, _found = scrub(edits, "redact" if mode == "refuse" else mode)
        tree = self.store.build_tree(tip, edits)
        return self.store.commit_unreferenced(
            parents=[tip] if tip else [],
            tree=tree,
            message="preview: uncommitted agent edits",
            who=self.identity(),
            when=now,
        )

    def _commit_agent_edits(self, now: datetime) -> None:
        edits = self.store.worktree_edits(self.format.agent_paths)
        if not edits:
            return
        scrubbed, found = scrub(edits, self.secrets_mode(), taken=self._taken_at(self.tip()))
        moves = {f.path: f.path for f in found if not f.moved_to and f.path in edits}
        moves.update({f.path: f.moved_to for f in found if f.moved_to})
        self._redact_worktree(edits, scrubbed, moves)
        edits = scrubbed
        listing = "\n".join(f"  {p}" for p in sorted(edits))
        message = (
            f"agent edits: {len(edits)} file(s) changed by hand\n\n{listing}\n\n"
            f"Dream-Op: agent-edits\n{findings_trailers(found)}"
        ).rstrip("\n")
        committed = self._retry(self._commit_step(message, lambda _tip: edits, now=now))
        if committed is not None:
            # The files already show this commit: the next sync starts from it, or the
            # edited files would look changed by hand again and be left in place.
            self._mark_shown(committed)
