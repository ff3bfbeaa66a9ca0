"""A memory repository where a dream supersedes a value a memory test expects.

Ada's editor is Neovim, a core memory holds her name, and three sessions say she
switched to Helix: the dream that reads them supersedes the Neovim memory, so a
test expecting "uses Neovim" passes on main and fails on the dream branch.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from dreamgit.store.repo import MemoryRepo
from dreamkit import DREAM_AT, T0, Seed, build_repo

__all__ = ["EDITOR_QUERY", "LATER", "SWITCH", "editor_repo"]

EDITOR_QUERY = "which editor does Ada use"
#: The session that says the editor changed (logged three times, a day apart).
SWITCH = "User: I switched my editor from Neovim to Helix last week, Helix is my editor now."
#: A time after the fixture's dream, for a second one.
LATER = DREAM_AT + timedelta(days=1)

_SEEDS = (
    Seed("The user's name is Ada Lovelace.", "identity", priority="core"),
    Seed("Ada uses Neovim as her editor.", "tools", hours=1),
    Seed("Ada prefers tea over coffee in the morning.", "preferences", hours=2),
)


def editor_repo(root: Path, *, config: str | None = None, bare: bool = True) -> MemoryRepo:
    """The repository described above, at ``root``, before any dream."""
    assert T0 < DREAM_AT
    return build_repo(root, bare=bare, memories=_SEEDS, sessions=[SWITCH] * 3, config=config)
