"""A crontab entry that dreams nightly on one repository, installed idempotently.

The entry is two lines: a marker comment ``# dreamgit:<absolute repo path>`` and the
job under it. Installing again finds the marker and replaces the job instead of adding
a second one, so changing the schedule is just installing again; every other line of
the crontab is left exactly as it was. Cron runs with a bare environment, so the job
names everything absolutely: it changes into the repository, calls the dreamgit that
installed it (first logging the agents' session folders given with ``--log-from`` or
in the config's ``log:`` list, then dreaming), and appends its output to a log beside
the repository's git data. The
text transformations are pure; only :func:`read_crontab` and :func:`write_crontab`
touch the system, through the ``crontab`` program.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from dreamgit.errors import ConfigError, UserError

__all__ = [
    "LOG_ORIGINS",
    "configured_sources",
    "crontab_line",
    "default_log_path",
    "dream_command",
    "install",
    "marker",
    "nightly_command",
    "read_crontab",
    "uninstall",
    "validate_schedule",
    "write_crontab",
]

_FIELDS = (
    ("minute", 0, 59),
    ("hour", 0, 23),
    ("day-of-month", 1, 31),
    ("month", 1, 12),
    ("day-of-week", 0, 7),
)
_NAMES = {
    "month": ("jan feb mar apr may jun jul aug sep oct nov dec", 1),
    "day-of-week": ("sun mon tue wed thu fri sat", 0),
}
_MACROS = ("@hourly", "@daily", "@midnight", "@weekly", "@monthly", "@yearly", "@annually")
_HINT = 'write five fields, e.g. "17 3 * * *" for 03:17 every day, or a macro such as @daily'
_TERM = re.compile(r"^(?:\*|([0-9a-z]+)(?:-([0-9a-z]+))?)(?:/([0-9]+))?$")


def marker(repo: Path) -> str:
    """The comment line that marks this repository's entry."""
    return f"# dreamgit:{_absolute(repo)}"


def crontab_line(*, schedule: str, repo: Path, command: str, log: Path | None = None) -> str:
    """The entry for ``repo``: the marker line, then the job (no trailing newline).

    ``command`` is shell text run inside the repository (see :func:`dream_command`);
    its output is appended to ``log`` (default: :func:`default_log_path`).
    """
    when = validate_schedule(schedule)
    root = _absolute(repo)
    log_path = log if log is not None else default_log_path(root, env=os.environ)
    job = f"cd {shlex.quote(str(root))} && {command} >> {shlex.quote(str(log_path))} 2>&1"
    if "\n" in job or "\r" in job:
        raise UserError("a crontab entry must be one line; the path or command holds a newline")
    # cron turns an unescaped % into a newline (the job's stdin); \% is a literal %.
    return f"{marker(root)}\n{when} {job.replace('%', chr(92) + '%')}"


def dream_command(repo: Path, *, argv0: str | None = None) -> str:
    """Shell text that runs ``dreamgit --repo <repo> run`` with this very dreamgit.

    The installed ``dreamgit`` script when that is what runs now, else the current
    interpreter with ``-m dreamgit``: both absolute, since cron's PATH is minimal.
    """
    return shlex.join([*_program(argv0), "--repo", str(_absolute(repo)), "run"])


def _program(argv0: str | None) -> list[str]:
    """This very dreamgit, named absolutely (cron's PATH is minimal)."""
    script = Path(argv0 if argv0 is not None else sys.argv[0])
    if script.name in ("dreamgit", "dreamgit.exe") and script.exists():
        # Absolute but not resolved: a pipx-style symlink outlives the venv it points into.
        return [os.path.abspath(script)]
    return [str(Path(sys.executable).absolute()), "-m", "dreamgit"]


#: The agents whose session folders ``log --from`` reads.
LOG_ORIGINS = ("claude-code",)


def nightly_command(
    repo: Path, sources: Sequence[tuple[str, str]], *, argv0: str | None = None
) -> str:
    """Shell text that logs each ``(origin, folder)`` of ``sources``, then dreams.

    A failed log step does not stop the dream (what was logged before is worth a
    dream); both write to the same log, one after the other.
    """
    dream = dream_command(repo, argv0=argv0)
    if not sources:
        return dream
    steps = []
    for origin, folder in sources:
        if origin not in LOG_ORIGINS:
            raise UserError(
                f"cannot log sessions from {origin!r}",
                hint="log from one of: " + ", ".join(LOG_ORIGINS),
            )
        where = str(Path(folder).expanduser().absolute())
        repo_path = str(_absolute(repo))
        steps.append(
            shlex.join([*_program(argv0), "--repo", repo_path, "log", "--from", origin, where])
        )
    return "{ " + "; ".join([*steps, dream]) + "; }"


def configured_sources(config: Mapping[str, object]) -> list[tuple[str, str]]:
    """The ``log:`` list of the config: ``[{from: claude-code, path: FOLDER}, …]``."""
    entries = config.get("log") or []
    if not isinstance(entries, list):
        raise ConfigError(
            ".dreamgit/config.yaml: log must be a list of {from: ORIGIN, path: FOLDER}",
            hint="e.g. log: [{from: claude-code, path: ~/.claude/projects/-home-me-app}]",
        )
    found = []
    for number, entry in enumerate(entries, start=1):
        if not (
            isinstance(entry, dict)
            and isinstance(entry.get("from"), str)
            and isinstance(entry.get("path"), str)
        ):
            raise ConfigError(
                f".dreamgit/config.yaml: log item {number} needs from: and path:",
                hint="e.g. - {from: claude-code, path: ~/.claude/projects/-home-me-app}",
            )
        found.append((entry["from"], entry["path"]))
    return found


def default_log_path(repo: Path, *, env: Mapping[str, str]) -> Path:
    """``<git dir>/dreamgit-cron.log``, or under the XDG state dir when there is none.

    The git dir keeps the log next to the repository yet out of every commit; a
    ``.git`` file (a linked worktree) or a directory that is no repository yet falls
    back to ``$XDG_STATE_HOME/dreamgit/cron-<repo name>.log``.
    """
    root = _absolute(repo)
    if (root / ".git").is_dir():
        return root / ".git" / "dreamgit-cron.log"
    if (root / "HEAD").is_file() and (root / "objects").is_dir():
        return root / "dreamgit-cron.log"  # a bare repository
    state = env.get("XDG_STATE_HOME") or str(
        Path(env.get("HOME", "~")).expanduser() / ".local" / "state"
    )
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", root.name) or "root"
    return Path(state) / "dreamgit" / f"cron-{name}.log"


def validate_schedule(schedule: str) -> str:
    """The schedule with its whitespace normalised, or a UserError naming the bad field."""
    text = " ".join(schedule.split())
    if text.startswith("@"):
        if text.lower() in _MACROS:
            return text.lower()
        raise UserError(f"schedule {schedule!r}: unknown macro {text!r}", hint=_HINT)
    fields = text.split(" ") if text else []
    if len(fields) != 5:
        raise UserError(
            f"schedule {schedule!r} has {len(fields)} fields; cron needs 5: "
            "minute hour day-of-month month day-of-week",
            hint=_HINT,
        )
    for value, (name, low, high) in zip(fields, _FIELDS, strict=True):
        for term in value.lower().split(","):
            problem = _check_term(term, name, low, high)
            if problem:
                raise UserError(f"schedule {schedule!r}: {name} {problem}", hint=_HINT)
    return text


def _check_term(term: str, name: str, low: int, high: int) -> str | None:
    """Why one comma-separated term of a field is wrong, or None when it is fine."""
    match = _TERM.match(term)
    if not match:
        return f"{term!r} is not a number, a range, a list or a step"
    start, end, step = match.groups()
    numbers: list[int] = []
    for part in (start, end):
        if part is None:
            continue
        number = _number(part, name)
        if number is None:
            return f"{part!r} is not a number or a name"
        if not low <= number <= high:
            return f"{number} is out of range {low}-{high}"
        numbers.append(number)
    if len(numbers) == 2 and numbers[0] > numbers[1]:
        return f"range {term!r} runs backwards"
    if step is not None and int(step) == 0:
        return f"step in {term!r} must be at least 1"
    return None


def _number(part: str, field: str) -> int | None:
    if part.isdigit():
        return int(part)
    names, first = _NAMES.get(field, ("", 0))
    words = names.split()
    return words.index(part) + first if part in words else None


def install(line: str, *, crontab_text: str) -> tuple[str, bool]:
    """``crontab_text`` with the entry ``line`` in place of this repository's old one.

    Returns the new text and whether it differs. Without an old entry the new one is
    appended; duplicates of the marker (from hand edits) are removed.
    """
    head, _, job = line.partition("\n")
    if not head.startswith("# dreamgit:") or not job or "\n" in job:
        raise ValueError("install() takes an entry made by crontab_line()")
    kept, found = _without(crontab_text, head)
    if found is None:
        if kept and kept[-1].strip():
            kept.append("")  # a blank line sets our entry apart from the user's
        kept += [head, job]
    else:
        kept[found:found] = [head, job]
    return _changed(crontab_text, kept)


def uninstall(repo: Path, *, crontab_text: str) -> tuple[str, bool]:
    """``crontab_text`` without this repository's entry; whether anything was removed."""
    kept, _ = _without(crontab_text, marker(repo))
    return _changed(crontab_text, kept)


def _without(text: str, head: str) -> tuple[list[str], int | None]:
    """The crontab's lines minus every entry under ``head``; where the first one was."""
    lines = text.splitlines()
    kept: list[str] = []
    found: int | None = None
    skip_job = False
    for current in lines:
        if current.strip() == head:
            found = len(kept) if found is None else found
            skip_job = True
            continue
        if skip_job and _is_job(current):
            skip_job = False
            continue  # the job that belonged to our marker
        skip_job = skip_job and not current.strip()
        kept.append(current)
    return kept, found


def _is_job(line: str) -> bool:
    """A schedule line, as opposed to a comment, a blank or a ``NAME=value`` setting."""
    return line.lstrip()[:1] in tuple("0123456789*@")


def _changed(old: str, lines: list[str]) -> tuple[str, bool]:
    new = "\n".join(lines).rstrip("\n")
    new = new + "\n" if new else ""
    return new, new != old


def read_crontab(*, program: str = "crontab") -> str:
    """The current user's crontab; empty when there is none yet."""
    try:
        done = subprocess.run(
            [program, "-l"], capture_output=True, text=True, check=False, timeout=30
        )
    except FileNotFoundError:
        raise _missing(program) from None
    if done.returncode == 0:
        return done.stdout
    if "no crontab" in done.stderr.lower():
        return ""
    raise UserError(f"`{program} -l` failed: {done.stderr.strip() or done.returncode}")


def write_crontab(text: str, *, program: str = "crontab") -> None:
    """Replace the current user's crontab with ``text``."""
    try:
        done = subprocess.run(
            [program, "-"], input=text, capture_output=True, text=True, check=False, timeout=30
        )
    except FileNotFoundError:
        raise _missing(program) from None
    if done.returncode != 0:
        raise UserError(f"`{program} -` failed: {done.stderr.strip() or done.returncode}")


def _missing(program: str) -> UserError:
    return UserError(
        f"the {program!r} program was not found, so no crontab can be installed",
        hint="install cron (e.g. `apt install cron`), or add the line from "
        "`dreamgit install-cron --print` to your scheduler yourself",
    )


def _absolute(repo: Path) -> Path:
    """The canonical path, so ``~/mem`` and a symlink to it share one marker."""
    return repo.expanduser().resolve()
