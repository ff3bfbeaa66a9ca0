"""What ``dreamgit status`` prints, as lines, without click.

The report comes from :func:`dreamgit.dream.status.repo_status`; this module words it
for people (or as JSON) and names the problems to warn about. Both the click command
(``cmd_memory.status``) and the plain command line (``cli/statusrun.py``) print these
lines, so the two cannot drift apart.

May import: the library; never click.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from dreamgit.clock import parse_time
from dreamgit.model import plural

__all__ = ["StatusOutput", "status_output"]

#: (lines for stdout, problems to warn about on stderr).
StatusOutput = tuple[list[str], list[str]]


def status_output(path: Path, now: datetime, *, as_json: bool) -> StatusOutput:
    """The status of the repository at ``path`` at ``now``: what to print, and the
    problems to warn about first. A bare repository whose status of HEAD's commit was
    kept is answered without git (``dream/leanstatus.py``); else git is read."""
    from dreamgit.dream.leanstatus import lean_status

    report = lean_status(path, now)
    if report is None:
        from dreamgit.dream.status import repo_status  # opens git and loads the rules
        from dreamgit.store.repo import MemoryRepo

        report = repo_status(MemoryRepo.open(path), now=now)
    problems = list(report["problems"])
    if as_json:
        return [json.dumps(report, indent=2, ensure_ascii=False, sort_keys=False)], problems
    return _lines(report, now), problems


def _lines(report: dict[str, Any], now: datetime) -> list[str]:
    lines = [f"memories:         {report['memories']} in {len(report['topics'])} topic(s)"]
    uncommitted = report["uncommitted"]
    if uncommitted["memories"] or uncommitted["sessions"]:
        files = " and ".join(
            plural(n, f"{kind} file")
            for kind, n in (
                ("memory", uncommitted["memories"]),
                ("session", uncommitted["sessions"]),
            )
            if n
        )
        them = "it" if uncommitted["memories"] + uncommitted["sessions"] == 1 else "them"
        lines.append(
            f"uncommitted:      {files} in the work tree, not counted here; the next dreamgit "
            f"command that writes (add, log, forget, run…) commits {them} as agent edits"
        )
    held = f", {report['held_sessions']} held for review" if report["held_sessions"] else ""
    lines.append(
        f"sessions:         {report['sessions']} ({report['pending_sessions']} pending{held})"
    )
    lines.append(f"last dream:       {_last_dream(report['last_run'], now)}")
    lines.append(f"dream due:        {'yes' if report['due'] else 'no'} — {report['reason']}")
    health = report["health"]
    if health["score"] is not None:
        parts = ", ".join(f"{k} {v:.2f}" for k, v in health["parts"].items())
        lines.append(f"health:           {health['score']:.2f} ({parts})")
    tracking = report["recall_tracking"]
    if tracking["in_use"]:
        lines.append(
            f"recall tracking:  in use — {tracking['memories_recalled']} memories recalled, "
            f"{tracking['signals_waiting']} signal(s) waiting for a dream"
        )
    else:
        lines.append("recall tracking:  not in use — prune rules reading recall.* are off")
    for name in report["awaiting_review"]:
        run_id = name.removeprefix("dream/")
        lines.append(
            f"awaiting review:  {name} (accept: dreamgit merge {run_id}; "
            f"drop: dreamgit discard {run_id})"
        )
    for refused in report["refused"]:
        lines.append(f"refused dream:    {refused['branch']} (merge refused: {refused['reason']})")
    lines += [f"dreaming now:     {name}" for name in report["running"]]
    lines += [
        f"abandoned dream:  {name} (a run that did not finish; main was not changed)"
        for name in report["abandoned"]
    ]
    return lines


def _last_dream(last_run: str | None, now: datetime) -> str:
    """When the last dream ran; a time ahead of the clock is named as such."""
    if last_run is None:
        return "never"
    if parse_time(last_run) > now:
        return f"{last_run} (in the future: is this machine's clock behind?)"
    return last_run
