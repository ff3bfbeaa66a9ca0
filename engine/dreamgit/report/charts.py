"""The report's charts: server-side SVG drawn by pygal, each with its data as a table.

pygal (pure Python, no native code, one small dependency) draws SVG on the server,
so the page needs no script and no network to show a chart; its charts carry a
``<title>``, which we pair with ``role="img"`` and ``aria-labelledby`` so a screen
reader names each one. Text colours are CSS variables of the page (light and dark
mode follow the reader's setting); series use the Okabe-Ito palette, told apart
without colour vision. pygal's inline script, its comments (they hold the date)
and its random element ids are taken out, so the same data gives the same bytes.
Every chart also comes as a table of the same numbers: for readers, for tests.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pygal
from pygal.style import Style

from dreamgit.report.series import RunPoint

__all__ = ["Chart", "report_charts"]

#: Okabe-Ito: eight colours that stay distinct for common colour-vision deficiencies.
PALETTE = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
    "#999999",
)
#: Topics drawn one by one; the rest are summed as "other topics".
MAX_TOPICS = 7
_STYLE = Style(
    background="transparent",
    plot_background="transparent",
    foreground="var(--fg)",
    foreground_strong="var(--fg)",
    foreground_subtle="var(--grid)",
    opacity="0.9",
    opacity_hover="1",
    colors=PALETTE,
    font_family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    title_font_size=16,
    legend_font_size=14,
    label_font_size=13,
    major_label_font_size=13,
)
_SCRIPT = re.compile(r"<script\b.*?</script>", re.DOTALL)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_CHART_ID = re.compile(r"chart-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@dataclass(frozen=True)
class Chart:
    """One chart: an id, its title, the SVG, and its numbers as a table."""

    key: str
    title: str
    svg: str
    headers: list[str]
    rows: list[list[Any]]


def report_charts(
    points: list[RunPoint], budget_chars: int, recalled: list[tuple[str, str, int]]
) -> list[Chart]:
    """Every chart of the report, in reading order (none for an empty series)."""
    charts = []
    if points:
        charts += [
            _topics(points),
            _index(points, budget_chars),
            _operations(points),
            _health(points),
            _tests(points),
        ]
    if recalled:
        charts.append(_recalled(recalled))
    return charts


def _config(title: str, *, x_labels: Sequence[str] | None = None) -> dict[str, Any]:
    return {
        "title": title,
        "style": _STYLE,
        "js": [],
        "disable_xml_declaration": True,
        # Narrow, so the text stays legible when a phone shrinks the chart to its width.
        "width": 480,
        "height": 320,
        "legend_at_bottom": True,
        "legend_at_bottom_columns": 2,
        "x_label_rotation": 30 if x_labels and len(x_labels) > 3 else 0,
        "show_minor_x_labels": True,
        "truncate_label": 24,
        "print_values": False,
    }


def _finish(key: str, chart: Any, title: str, headers: list[str], rows: list[list[Any]]) -> Chart:
    svg = chart.render(is_unicode=True)
    svg = _COMMENT.sub("", _SCRIPT.sub("", svg))
    svg = _CHART_ID.sub(f"chart-{key}", svg)
    svg = svg.replace(
        "<svg ",
        f'<svg role="img" aria-labelledby="chart-{key}-title" ',
        1,
    ).replace("<title>", f'<title id="chart-{key}-title">', 1)
    return Chart(key, title, svg, headers, rows)


def _labels(points: list[RunPoint]) -> list[str]:
    return [p.label for p in points]


def _topics(points: list[RunPoint]) -> Chart:
    title = "Active memories per topic, per run"
    latest = points[-1].topics or {}
    every = sorted({t for p in points for t in p.topics})
    ranked = sorted(every, key=lambda t: (-latest.get(t, 0), t))
    named, rest = ranked[:MAX_TOPICS], ranked[MAX_TOPICS:]
    chart = pygal.StackedBar(**{**_config(title, x_labels=_labels(points)), "height": 400})
    chart.x_labels = _labels(points)
    for topic in named:
        chart.add(topic, [p.topics.get(topic, 0) for p in points])
    if rest:
        chart.add("other topics", [sum(p.topics.get(t, 0) for t in rest) for p in points])
    rows = [
        [p.run_id, sum(p.topics.values()), *[p.topics.get(t, 0) for t in named]] for p in points
    ]
    return _finish("topics", chart, title, ["run", "active", *named], rows)


def _index(points: list[RunPoint], budget: int) -> Chart:
    title = "MEMORY.md size against its budget"
    chart = pygal.Line(**_config(title, x_labels=_labels(points)), secondary_range=None)
    chart.x_labels = _labels(points)
    chart.add("characters", [p.index_chars for p in points])
    chart.add("budget (characters)", [budget] * len(points), stroke_style={"dasharray": "6,4"})
    chart.add("estimated tokens", [p.index_tokens for p in points], secondary=True)
    rows = [[p.run_id, p.index_chars, budget, p.index_tokens] for p in points]
    return _finish("index", chart, title, ["run", "characters", "budget", "estimated tokens"], rows)


def _operations(points: list[RunPoint]) -> Chart:
    title = "Operations per run, by kind"
    kinds = sorted({k for p in points for k in p.counts})
    chart = pygal.StackedBar(**_config(title, x_labels=_labels(points)))
    chart.x_labels = _labels(points)
    for kind in kinds:
        chart.add(kind, [p.counts.get(kind, 0) for p in points])
    rows = [[p.run_id, *[p.counts.get(k, 0) for k in kinds]] for p in points]
    return _finish("operations", chart, title, ["run", *kinds], rows)


def _health(points: list[RunPoint]) -> Chart:
    title = "Memory health per run (0 to 1)"
    chart = pygal.Line(**_config(title, x_labels=_labels(points)), range=(0, 1))
    chart.x_labels = _labels(points)
    chart.add("health", [p.health for p in points])
    rows = [[p.run_id, "-" if p.health is None else round(p.health, 3)] for p in points]
    return _finish("health", chart, title, ["run", "health"], rows)


def _tests(points: list[RunPoint]) -> Chart:
    title = "Memory tests per run: passed and failed"
    chart = pygal.StackedBar(**_config(title, x_labels=_labels(points)))
    chart.x_labels = _labels(points)
    chart.add("passed", [(p.tests or {}).get("passed", 0) for p in points])
    chart.add("failed", [(p.tests or {}).get("failed", 0) for p in points])
    rows = [
        [p.run_id, (p.tests or {}).get("passed", "-"), (p.tests or {}).get("failed", "-")]
        for p in points
    ]
    return _finish("tests", chart, title, ["run", "passed", "failed"], rows)


def _recalled(recalled: list[tuple[str, str, int]]) -> Chart:
    title = "Most recalled memories"
    chart = pygal.HorizontalBar(**_config(title), show_legend=False)
    chart.x_labels = [_short(text) for _, text, _ in recalled]
    chart.add("recalls", [count for _, _, count in recalled])
    top = max(count for _, _, count in recalled)
    chart.y_labels = list(range(0, top + 1, max(1, top // 5)))  # whole recalls, not 0.1s
    rows = [[ident, text, count] for ident, text, count in recalled]
    return _finish("recalled", chart, title, ["memory", "text", "recalls"], rows)


def _short(text: str, width: int = 40) -> str:
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1] + "…"
