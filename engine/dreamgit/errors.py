"""The one exception tree of dreamgit.

Everything the library raises on purpose derives from :class:`DreamgitError`.
User-fixable errors carry an exit code and a hint; the command line turns them
into a message on stderr and that exit code. Anything else that escapes is an
internal error (exit 3, with a crash log). Core modules raise these and never
import click.
"""

from __future__ import annotations

import errno

__all__ = [
    "ConcurrentUpdateError",
    "ConfigError",
    "ConflictError",
    "DreamgitError",
    "DslError",
    "EnvironmentProblem",
    "InternalSignal",
    "LockedError",
    "MemoryFileError",
    "MemoryFileWarning",
    "NotARepositoryError",
    "NotFoundError",
    "PatternError",
    "ProposalFormatError",
    "ProviderError",
    "RuleError",
    "RuleFileError",
    "SecretFoundError",
    "StaleTipError",
    "TemplateError",
    "TestsBrokeError",
    "UserError",
    "environment_problem",
]


class DreamgitError(Exception):
    """Root of every error dreamgit raises on purpose."""

    exit_code: int = 3

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def render(self) -> str:
        """The full text shown to a user: message, then the hint on its own line."""
        if self.hint:
            return f"{self.message}\nhint: {self.hint}"
        return self.message


class UserError(DreamgitError):
    """Something the user can fix: bad input, a missing file, a wrong id."""

    exit_code = 1


class NotARepositoryError(UserError):
    """The path given is not a git repository (or not a dreamgit one)."""


class NotFoundError(UserError):
    """A memory, session, run or revision that does not exist."""


class ConfigError(UserError):
    """`.dreamgit/config.yaml` is unreadable or holds a wrong value."""


class MemoryFileError(UserError):
    """A memory or session file that cannot be read; it is reported and left as it was."""

    def __init__(
        self, path: str, message: str, *, line: int | None = None, hint: str | None = None
    ) -> None:
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {message}", hint=hint)
        self.path = path
        self.line = line
        self.reason = message


class MemoryFileWarning(MemoryFileError):
    """A problem in a memory folder that leaves every memory readable (an index line
    pointing at a file that is gone): reported with its fix, never a reason to stop."""


class SourceError(UserError):
    """An error at a position in a source text, shown with the line and a caret."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        source_line: str | None = None,
        caret_width: int = 1,
        hint: str | None = None,
    ) -> None:
        self.file = file
        self.line = line
        self.column = column
        self.source_line = source_line
        self.caret_width = max(1, caret_width)
        self.reason = message
        super().__init__(self._format(message), hint=hint)

    def _format(self, message: str) -> str:
        where = ":".join(
            str(part) for part in (self.file, self.line, self.column) if part is not None
        )
        head = f"{where}: {message}" if where else message
        if self.source_line is None or self.column is None:
            return head
        caret = " " * (self.column - 1) + "^" * self.caret_width
        return f"{head}\n    {self.source_line}\n    {caret}"


class DslError(SourceError):
    """An expression of the rule language that does not parse or type-check."""


class RuleError(SourceError):
    """A rule set that is invalid: schema, names, extends, or an expression in it."""


class TemplateError(UserError):
    """A prompt or summary template that does not render, or tried to escape its sandbox."""


class SecretFoundError(UserError):
    """Text about to be committed holds a credential, and the config says refuse."""


class ConflictError(UserError):
    """A merge or revert that would conflict; nothing was changed."""

    def __init__(self, message: str, *, paths: list[str], hint: str | None = None) -> None:
        listing = "".join(f"\n  {p}" for p in paths)
        super().__init__(f"{message}{listing}", hint=hint)
        self.paths = paths


class ConcurrentUpdateError(UserError):
    """A branch kept moving under us and the bounded retries ran out."""


class ProviderError(DreamgitError):
    """The LLM provider failed (time-out, 5xx, 429 past the retries); a scheduler may retry."""

    exit_code = 4


class TestsBrokeError(DreamgitError):
    """A dream broke memory tests that passed on main: it was left for review, not merged."""

    __test__ = False  # pytest: not a test class
    exit_code = 5


class EnvironmentProblem(UserError):
    """The disk is full, or the repository's files cannot be written: the user's to fix."""


class InternalSignal(DreamgitError):
    """Raised and caught inside the library (a moved tip, a held lock, a refused redirect).

    One that escapes to the command line is a bug: it gets the crash log an unexpected
    exception gets, not the one-line message of a user error.
    """


class StaleTipError(InternalSignal):
    """The branch moved since its tip was read: re-read, rebuild, retry."""


class LockedError(InternalSignal):
    """A git lock file is in the way of a ref move; ``lock`` is its path when git named it.

    The store raises it where libgit2 reports a lock, so callers wait and retry by
    type; :func:`dreamgit.gitstore.locks.retry_on_lock` turns the last one into a
    :class:`ConcurrentUpdateError`.
    """

    def __init__(self, message: str, *, lock: str | None = None) -> None:
        super().__init__(message)
        self.lock = lock


class RuleFileError(UserError):
    """A rule file that cannot be read; the message says why, never what it holds."""


class PatternError(DreamgitError, ValueError):
    """A rule pattern that does not compile, or uses what a linear-time engine cannot run."""


class ProposalFormatError(DreamgitError, ValueError):
    """A model's answer that does not follow the schema; the message says where and why."""


#: (errno values, words an error from libgit2 says instead, what it is, what to do).
_PROBLEMS = (
    (
        (errno.ENOSPC, errno.EDQUOT),
        ("no space left on device", "disk quota exceeded"),
        "no space left on the device",
        "free space on the disk that holds the repository (or raise the quota), "
        "then run the command again; main was not changed",
    ),
    (
        (errno.EROFS,),
        ("read-only file system",),
        "the file system is read-only",
        "mount the repository's disk read-write, then run the command again; main was not changed",
    ),
    (
        (errno.EACCES, errno.EPERM),
        ("permission denied", "operation not permitted"),
        "permission denied",
        "make the git directory (objects/, refs/, index) writable by this user, "
        "then run the command again; main was not changed",
    ),
)


def environment_problem(exc: BaseException) -> EnvironmentProblem | None:
    """A full disk or a read-only / unwritable repository as a user error; None otherwise.

    An ``OSError`` says so by its errno; libgit2 only in its message, which names the
    file it could not write.
    """
    code = getattr(exc, "errno", None)
    text = str(exc)
    lowered = text.lower()
    for codes, words, what, hint in _PROBLEMS:
        if code in codes or (not isinstance(exc, OSError) and any(w in lowered for w in words)):
            if isinstance(exc, OSError):
                detail = f"cannot write {exc.filename}" if exc.filename else str(exc.strerror)
            else:
                detail = text.strip().rstrip(".")
            return EnvironmentProblem(f"{what}: {detail}", hint=hint)
    return None
