"""The GitHub workflow that runs scheduled dreams in a memory repository.

``dreamgit init --github`` puts ``.github/workflows/dream.yml`` into the memory
repository. The workflow is a checkout and one ``uses:`` of dreamgit's composite
action (``.github/actions/dream`` in dreamgit's own repository), which installs
dreamgit from the ref it was pinned at, dreams on a branch and opens a pull request.
The reference defaults to the release tag of the dreamgit that writes the file, so
the nightly dream runs the same version the user has locally; pass a commit SHA for
a stricter pin, or ``./path`` for an action vendored into the memory repository.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from dreamgit.errors import UserError
from dreamgit.version import __version__

if TYPE_CHECKING:
    from dreamgit.store.repo import MemoryRepo

__all__ = ["DEFAULT_ACTION", "WORKFLOW_PATH", "add_workflow", "workflow_text", "write_workflow"]

#: Where dreamgit's source (and so its action) lives on GitHub.
ACTION_REPOSITORY = "dreamgit/dreamgit"
DEFAULT_ACTION = f"{ACTION_REPOSITORY}/.github/actions/dream@v{__version__}"
WORKFLOW_PATH = ".github/workflows/dream.yml"

_PLACEHOLDER = "__DREAMGIT_ACTION__"
_FORCE_LINE = "          force: ${{ inputs.force == true }}\n"
_FOLDER = re.compile(r"^[A-Za-z0-9._/-]+$")
_ACTION = re.compile(
    r"^(?:\./[A-Za-z0-9._/-]+"
    r"|[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+(?:/[A-Za-z0-9._/-]+)?@[A-Za-z0-9._/-]+)$"
)
_ACTION_HINT = (
    "write OWNER/REPO/.github/actions/dream@REF (a release tag or a commit SHA), "
    "or ./PATH for an action inside the memory repository"
)


def workflow_text(action: str = DEFAULT_ACTION, log_from: Sequence[tuple[str, str]] = ()) -> str:
    """The workflow file, its ``uses:`` pointing at ``action``, logging ``log_from`` first.

    ``log_from`` holds ``(agent, folder)`` pairs, folders relative to the repository.
    """
    if not _ACTION.match(action) or ".." in action.split("@", 1)[0].split("/"):
        raise UserError(f"{action!r} is not a GitHub action reference", hint=_ACTION_HINT)
    template = resources.files("dreamgit.github_templates").joinpath("dream.yml")
    text = template.read_text(encoding="utf-8").replace(_PLACEHOLDER, action)
    if log_from:
        lines = "".join(f"            {agent} {_folder(folder)}\n" for agent, folder in log_from)
        text = text.replace(_FORCE_LINE, f"{_FORCE_LINE}          log-from: |\n{lines}", 1)
    return text


def _folder(folder: str) -> str:
    """A session folder as the action reads it: one word, inside the repository."""
    parts = PurePosixPath(folder).parts
    if not folder or not _FOLDER.match(folder) or folder.startswith("/") or ".." in parts:
        raise UserError(
            f"--log-from folder {folder!r} is not a path inside the memory repository",
            hint="give the folder the sessions are committed to, relative to the repository, "
            "e.g. sessions/claude",
        )
    return folder


def write_workflow(
    target_dir: Path, *, action: str = DEFAULT_ACTION, log_from: Sequence[tuple[str, str]] = ()
) -> Path:
    """Write the workflow under the work tree ``target_dir``; returns the file's path.

    Writing the same text again is a no-op; a different file already there (one the
    user edited) is never overwritten.
    """
    text = workflow_text(action, log_from)
    path = target_dir / WORKFLOW_PATH
    if path.exists():
        if path.read_text(encoding="utf-8") == text:
            return path
        raise _exists(str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def add_workflow(
    repo: MemoryRepo,
    *,
    now: datetime,
    action: str = DEFAULT_ACTION,
    log_from: Sequence[tuple[str, str]] = (),
) -> str | None:
    """Commit the workflow on the main branch (bare repositories too); the commit or None.

    None when the same workflow is already committed; a different one is left alone.
    """
    data = workflow_text(action, log_from).encode("utf-8")

    def build(tip: str | None) -> dict[str, bytes | None]:
        existing = repo.read_text(WORKFLOW_PATH, at=tip) if tip else None
        if existing is None:
            return {WORKFLOW_PATH: data}
        if existing.encode("utf-8") == data:
            return {}
        raise _exists(WORKFLOW_PATH)

    message = f"add {WORKFLOW_PATH}: scheduled dreams as pull requests"
    return repo.commit_main(message, build, now=now)


def _exists(where: str) -> UserError:
    return UserError(
        f"{where} already exists and differs from dreamgit's workflow; it was left as it is",
        hint="move it away and run again to get the current workflow, or edit it by hand",
    )
