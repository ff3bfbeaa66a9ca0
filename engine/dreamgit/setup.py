"""Creating a memory repository: git init if needed, then the first dreamgit commit."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from dreamgit import layout
from dreamgit.clock import utcnow
from dreamgit.errors import NotARepositoryError, UserError
from dreamgit.gitstore import GitStore
from dreamgit.yamlconfig import DEFAULT_CONFIG

if TYPE_CHECKING:
    from dreamgit.repo import MemoryRepo

__all__ = ["EMPTY_INDEX", "initialise"]

EMPTY_INDEX = (
    "<!-- dreamgit:generated — rewritten by every dream; edit memories/ instead -->\n"
    "# Memory\n\n_No memories yet._\n"
)


def initialise(
    cls: type[MemoryRepo], path: Path, *, bare: bool, now: datetime | None
) -> MemoryRepo:
    """Make ``path`` a memory repository with one commit ``init`` on main."""
    try:
        store = GitStore.open(path)
    except NotARepositoryError:
        store = GitStore.init(path, bare=bare)
    repo = cls(store)
    if repo.read_text(layout.CONFIG) is not None:
        raise UserError(
            f"{path} is already a dreamgit memory repository",
            hint="use it as it is; `dreamgit status` shows what it holds",
        )
    files: dict[str, bytes | None] = {layout.CONFIG: DEFAULT_CONFIG.encode("utf-8")}
    if repo.read_text(layout.INDEX) is None:
        files[layout.INDEX] = EMPTY_INDEX.encode("utf-8")
    message = "init: dreamgit memory repository\n\nDream-Op: init"
    repo.commit_main(message, lambda _tip: files, now=now or utcnow())
    return repo
