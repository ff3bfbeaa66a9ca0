"""Where ``extends:`` may read rule files from: one repository (or one folder), nothing else.

A rule file names the file it extends by a path relative to itself. The path is
resolved inside a root (a repository's tree at one commit, or a folder on disk)
and refused, without being read, when it leads outside: an absolute path, ``..``
past the root, or a symbolic link out of the folder. So a rule set can never make
dreamgit read (and show in an error) a file from elsewhere on the machine, and the
same config resolves the same way whatever the current directory.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from dreamgit.errors import RuleFileError

__all__ = ["FolderFiles", "RuleFile", "RuleFileError", "RuleFiles", "TreeFiles"]


@dataclass(frozen=True)
class RuleFile:
    """One rule file found: its identity (for cycles), its name in messages and its text."""

    identity: str
    name: str
    text: str
    #: Its location, which paths it gives are relative to.
    where: str


class RuleFiles:
    """The files ``extends:`` may name; subclasses say where they live."""

    def identity(self, where: str) -> str:
        """The identity of the file at ``where`` (the top file's, before anything is read)."""
        raise NotImplementedError

    def find(self, target: str, relative_to: str) -> RuleFile:
        """The file ``target`` names from the file at ``relative_to``, or RuleFileError."""
        raise NotImplementedError


_OUTSIDE = "is outside the repository: a rule set extends a bundled set or a file in it"


class TreeFiles(RuleFiles):
    """Files of a repository at one commit; paths are relative to the repository's root."""

    def __init__(self, read: Callable[[str], str | None]) -> None:
        self._read = read

    def identity(self, where: str) -> str:
        return f"repo:{posixpath.normpath(where)}"

    def find(self, target: str, relative_to: str) -> RuleFile:
        if PurePosixPath(target).is_absolute() or "\\" in target:
            raise RuleFileError(f"'{target}' {_OUTSIDE}")
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(relative_to), target))
        if joined == ".." or joined.startswith("../"):
            raise RuleFileError(f"'{target}' {_OUTSIDE}")
        text = self._read(joined)
        if text is None:
            raise RuleFileError(f"cannot read '{target}': no such file in the repository")
        return RuleFile(self.identity(joined), joined, text, joined)


class FolderFiles(RuleFiles):
    """Files under one folder on disk (a rule file checked outside any repository)."""

    def __init__(self, root: Path) -> None:
        self._root = root.resolve()

    def identity(self, where: str) -> str:
        return f"file:{Path(where).resolve()}"

    def find(self, target: str, relative_to: str) -> RuleFile:
        path = Path(target) if Path(target).is_absolute() else Path(relative_to).parent / target
        # Follow symbolic links before deciding: a link inside may point outside.
        if not path.resolve().is_relative_to(self._root):
            raise RuleFileError(f"'{target}' {_OUTSIDE}")
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise RuleFileError(f"cannot read '{target}': no such file") from None
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise RuleFileError(f"cannot read '{target}': {reason}") from None
        return RuleFile(self.identity(str(path)), str(path), text, str(path))
