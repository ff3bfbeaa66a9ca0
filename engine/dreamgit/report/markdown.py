"""The report as Markdown: a dream pull request's body, charts as Mermaid GitHub renders.

It is the run's summary (``history.summary``, a template a repository may override)
followed by what the report adds: the memory tests (each broken one named), the
word diff of each operation with its evidence, ``MEMORY.md`` in characters and
estimated tokens, and the memory over time as Mermaid ``xychart-beta`` and ``pie``
charts, each with its numbers in a table below. ``run --summary`` writes it and the
GitHub Action posts it as the pull request's body.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from dreamgit.history.summary import render_summary
from dreamgit.report.build import OpView, Report, build_report
from dreamgit.report.series import RunPoint
from dreamgit.store.repo import MemoryRepo

__all__ = ["render_markdown", "run_summary"]


def run_summary(repo: MemoryRepo, record: Mapping[str, Any], *, now: datetime) -> str:
    """The pull-request body for a fresh run record (``run --summary``)."""
    if not record.get("run_id") or not record.get("applied", True):
        return render_summary(record)
    return render_markdown(build_report(repo, str(record["run_id"]), now=now), record)


def render_markdown(report: Report, record: Mapping[str, Any] | None = None) -> str:
    """The Markdown body of ``report``; ``record`` (default: the run's) heads it."""
    if record is None:
        record = report.run.record if report.run else {"skipped": True, "reason": "no run yet"}
    parts = [render_summary(record).rstrip()]
    parts += _tests(report)
    parts += _index(report)
    parts += _diffs(report)
    parts += _over_time(report.points, report.budget_chars)
    return "\n\n".join(parts) + "\n"


def _tests(report: Report) -> list[str]:
    tests = report.tests
    if not tests:
        return ["### Memory tests", "This run recorded no memory tests."]
    line = (
        f"{tests.get('passed', 0)} passed, {tests.get('failed', 0)} failed, "
        f"{tests.get('new', 0)} new · gate: {tests.get('gate', '?')}"
    )
    out = ["### Memory tests", line]
    broken = tests.get("broken") or []
    if broken:
        held = " It was left for review, not merged." if tests.get("held") else ""
        out.append(f"**This run broke {len(broken)} test(s) that pass on main.**{held}")
        out.append("\n".join(f"- ❌ `{_code(b['name'])}`: {_text(b['why'])}" for b in broken))
    return out


def _index(report: Report) -> list[str]:
    if report.run is None:
        return []
    (c0, t0), (c1, t1) = report.index_before, report.index_after
    return [
        "### MEMORY.md",
        f"{c0} → {c1} characters (budget {report.budget_chars}) · "
        f"about {t0} → {t1} tokens (UTF-8 bytes ÷ 4)",
    ]


def _diffs(report: Report) -> list[str]:
    changed = [op for ops in report.groups.values() for op in ops if op.diff]
    if not changed:
        return []
    out = ["### What changed, word by word"]
    for kind, ops in report.groups.items():
        views = [op for op in ops if op.diff]
        if views:
            out.append(f"#### {kind} ({len(views)})")
            out.append("\n".join(_op_line(op) for op in views))
    return out


def _op_line(op: OpView) -> str:
    words = " ".join(
        f"~~{_text(t)}~~" if tag == "del" else f"**{_text(t)}**" if tag == "ins" else _text(t)
        for tag, t in op.diff
    )
    line = f"- {op.n}. `{_code(op.rule)}`: {words}"
    for session, text in op.evidence:
        line += f"\n  > `{_code(session)}`: {_text(text)}"
    return line


def _over_time(points: list[RunPoint], budget: int) -> list[str]:
    if not points:
        return []
    labels = [p.label for p in points]
    out = [f"### The memory over time (last {len(points)} runs)"]
    out.append(
        _xychart(
            "Active memories per run",
            labels,
            "memories",
            bars=[sum(p.topics.values()) or (p.memories_after or 0) for p in points],
        )
    )
    latest = points[-1].topics
    if latest:
        out.append(_pie("Active memories per topic (latest run)", latest))
    out.append(
        _xychart(
            "MEMORY.md characters against the budget",
            labels,
            "characters",
            bars=[p.index_chars for p in points],
            line=[budget] * len(points),
        )
    )
    out.append(
        _xychart(
            "Operations per run",
            labels,
            "operations",
            bars=[sum(p.counts.values()) for p in points],
        )
    )
    if any(p.health is not None for p in points):
        out.append(
            _xychart(
                "Memory health per run",
                labels,
                "health",
                line=[round(p.health or 0.0, 3) for p in points],
                top=1,
            )
        )
    out.append(_table(points))
    return out


def _xychart(
    title: str,
    labels: list[str],
    axis: str,
    *,
    bars: list[int] | None = None,
    line: Iterable[float] | None = None,
    top: float | None = None,
) -> str:
    values = [*(bars or []), *(line or [])]
    peak = top if top is not None else max([1, *values])
    rows = [
        "```mermaid",
        "xychart-beta",
        f'    title "{_quoted(title)}"',
        "    x-axis [" + ", ".join(f'"{_quoted(label)}"' for label in labels) + "]",
        f'    y-axis "{_quoted(axis)}" 0 --> {peak}',
    ]
    if bars is not None:
        rows.append(f"    bar [{', '.join(str(v) for v in bars)}]")
    if line is not None:
        rows.append(f"    line [{', '.join(str(v) for v in line)}]")
    rows.append("```")
    return "\n".join(rows)


def _pie(title: str, values: Mapping[str, int]) -> str:
    rows = ["```mermaid", f"pie title {_quoted(title)}"]
    rows += [f'    "{_quoted(k)}" : {v}' for k, v in sorted(values.items()) if v > 0]
    rows.append("```")
    return "\n".join(rows)


def _table(points: list[RunPoint]) -> str:
    head = "| run | date | memories | MEMORY.md chars | est. tokens | operations | health | tests |"
    rows = [head, "|---|---|---:|---:|---:|---:|---:|---|"]
    for p in points:
        tests = f"{p.tests.get('passed', 0)} ✓ {p.tests.get('failed', 0)} ✗" if p.tests else "-"
        health = "-" if p.health is None else f"{p.health:.2f}"
        rows.append(
            f"| `{p.run_id}` | {p.date} | {p.memories_after} | {p.index_chars} | "
            f"{p.index_tokens} | {sum(p.counts.values())} | {health} | {tests} |"
        )
    return "\n".join(rows)


def _quoted(text: str) -> str:
    return " ".join(text.replace('"', "'").split())


def _code(text: str) -> str:
    return " ".join(str(text).replace("`", "'").split())


def _text(text: str) -> str:
    """Text on one line with Markdown's markers escaped, so it cannot style or link."""
    line = " ".join(str(text).split())
    for mark in ("\\", "*", "_", "~", "`", "[", "]", "<", ">", "#", "|"):
        line = line.replace(mark, "\\" + mark)
    return line
