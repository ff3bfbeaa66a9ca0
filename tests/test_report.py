"""`dreamgit report`: the run's page (HTML) and pull-request body (Markdown), their numbers
checked against `history --json`, the Markdown parsed as GitHub would read it."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from dreamgit.store.repo import MemoryRepo
from dreamkit import invoke, iso
from memtestkit import editor_repo
from reportkit import demo_after_runs


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[MemoryRepo, str]:
    """The demo repository after four dreams (tests/reportkit.py) and a time after them."""
    repo, when = demo_after_runs(tmp_path_factory.mktemp("report") / "demo")
    return repo, iso(when)


def _run(repo: MemoryRepo, now: str, *args: str) -> str:
    result = invoke(repo, *args, now=_when(now))
    assert result.exit_code == 0, result.output
    return result.stdout


def _when(now: str) -> Any:
    from dreamgit.clock import parse_time

    return parse_time(now, what="now")


def _history(repo: MemoryRepo, now: str) -> list[dict[str, Any]]:
    """`history --json`, oldest run first (as the charts run)."""
    runs: list[dict[str, Any]] = json.loads(_run(repo, now, "history", "--json"))
    return list(reversed(runs))


# -- Markdown ---------------------------------------------------------------------------

_XY = {
    "title": re.compile(r'^    title "[^"]+"$'),
    "x-axis": re.compile(r'^    x-axis \[("[^"]*"(, "[^"]*")*)\]$'),
    "y-axis": re.compile(r'^    y-axis "[^"]+" 0 --> [0-9.]+$'),
    "bar": re.compile(r"^    bar \[([0-9.]+(, [0-9.]+)*)\]$"),
    "line": re.compile(r"^    line \[([0-9.]+(, [0-9.]+)*)\]$"),
}
_PIE_ENTRY = re.compile(r'^    "[^"]+" : [0-9]+$')


def _mermaid_charts(markdown: str) -> dict[str, dict[str, list[str]]]:
    """Each Mermaid block of ``markdown`` by title, checked line by line against the
    ``xychart-beta`` and ``pie`` syntax GitHub's Mermaid reads; series as lists."""
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    charts: dict[str, dict[str, list[str]]] = {}
    for token in tokens:
        if token.type != "fence" or token.info.strip() != "mermaid":
            continue
        lines = token.content.rstrip("\n").split("\n")
        if lines[0].startswith("pie title "):
            assert all(_PIE_ENTRY.match(line) for line in lines[1:]), lines
            charts[lines[0].removeprefix("pie title ")] = {"pie": lines[1:]}
            continue
        assert lines[0] == "xychart-beta", lines
        chart: dict[str, list[str]] = {}
        for line in lines[1:]:
            kind = line.split()[0]
            match = _XY[kind].match(line)
            assert match, line
            if kind in ("x-axis", "bar", "line"):
                chart[kind] = [v.strip().strip('"') for v in match.group(1).split(", ")]
        title = lines[1].split('"')[1]
        assert len(chart["x-axis"]) == len(chart.get("bar") or chart["line"]), lines
        charts[title] = chart
    return charts


def test_markdown_charts_are_valid_mermaid_with_the_numbers_of_history(
    demo: tuple[MemoryRepo, str],
) -> None:
    """Every chart parses as Mermaid; memories and operations per run are history's."""
    repo, now = demo
    body = _run(repo, now, "report", "--markdown")
    charts = _mermaid_charts(body)
    history = _history(repo, now)
    assert set(charts) >= {
        "Active memories per run",
        "Active memories per topic (latest run)",
        "MEMORY.md characters against the budget",
        "Operations per run",
        "Memory health per run",
    }
    memories = [str(run["memories_after"]) for run in history]
    assert charts["Active memories per run"]["bar"] == memories
    operations = [str(sum(run["counts"].values())) for run in history]
    assert charts["Operations per run"]["bar"] == operations
    assert charts["MEMORY.md characters against the budget"]["line"] == ["8000"] * len(history)


def test_markdown_is_the_summary_then_tests_diffs_and_a_table(
    demo: tuple[MemoryRepo, str],
) -> None:
    """The body opens with the run's summary and adds tests, word diffs and a GFM table."""
    repo, now = demo
    newest = _history(repo, now)[-1]["run_id"]
    body = _run(repo, now, "report", "--markdown")
    assert body.startswith(f"## Dream run {newest}\n")
    assert "### Memory tests\n\n5 passed, 0 failed, 0 new · gate: block" in body
    assert "### What changed, word by word" in body
    assert "> `s-" in body  # a session line as evidence
    html = MarkdownIt("commonmark").enable("table").render(body)
    assert html.count("<table>") == 2  # the summary's counts and the runs


def test_word_diff_strikes_the_old_value_and_marks_the_new(tmp_path: Path) -> None:
    """A supersession reads ~~old~~ … new, the session line that said so quoted under it."""
    repo = editor_repo(tmp_path / "mem")
    _run(repo, "2026-11-16T09:00:00Z", "run")
    body = _run(repo, "2026-11-16T10:00:00Z", "report", "--markdown")
    assert "~~Ada uses Neovim as her editor.~~" in body
    assert "> `s-" in body and "Helix is my editor now." in body


# -- HTML -------------------------------------------------------------------------------


class _Page(HTMLParser):
    """What the checks read from the page: tags, attributes, chart titles, table cells."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.titles: dict[str, str] = {}
        self.tables: dict[str, list[list[str]]] = {}
        self.headings: list[str] = []
        self._title: str | None = None
        self._table: str | None = None
        self._cell: list[str] | None = None
        self._heading: list[str] | None = None
        self.style = ""
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.tags.append((tag, found))
        if tag == "title" and found.get("id"):
            self._title = str(found["id"])
            self.titles[self._title] = ""
        elif tag == "table":
            self._table = str(found.get("data-chart"))
            self.tables[self._table] = []
        elif tag == "tr" and self._table:
            self.tables[self._table].append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag in ("h1", "h2", "h3"):
            self._heading = []
        elif tag == "style":
            self._in_style = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._title = None
        elif tag == "table":
            self._table = None
        elif tag in ("td", "th") and self._cell is not None and self._table:
            self.tables[self._table][-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag in ("h1", "h2", "h3") and self._heading is not None:
            self.headings.append(f"{tag}:{''.join(self._heading).strip()}")
            self._heading = None
        elif tag == "style":
            self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._title:
            self.titles[self._title] += data
        if self._cell is not None:
            self._cell.append(data)
        if self._heading is not None:
            self._heading.append(data)
        if self._in_style:
            self.style += data


def _page(repo: MemoryRepo, now: str, path: Path) -> tuple[str, _Page]:
    out = _run(repo, now, "report", "--html", str(path))
    assert out == f"wrote {path}\n"
    text = path.read_text(encoding="utf-8")
    page = _Page()
    page.feed(text)
    return text, page


def test_html_is_one_self_contained_page_without_script_or_network(
    demo: tuple[MemoryRepo, str], tmp_path: Path
) -> None:
    """No script, no stylesheet or image to fetch, no URL but SVG's namespace."""
    repo, now = demo
    text, page = _page(repo, now, tmp_path / "r.html")
    tags = {tag for tag, _ in page.tags}
    assert "script" not in tags and "link" not in tags and "img" not in tags
    for _tag, attrs in page.tags:
        for name in ("src", "href", "xlink:href"):
            assert not str(attrs.get(name) or "").startswith(("http", "//")), attrs
    urls = set(re.findall(r"https?://[^\s\"')]+", text))
    assert urls <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}
    assert "@import" not in page.style and "url(" not in page.style


def test_html_reads_on_a_phone_in_dark_mode_with_titled_charts_and_headings(
    demo: tuple[MemoryRepo, str], tmp_path: Path
) -> None:
    """A viewport, a dark scheme, headings for each part, and every chart an image named
    by its title."""
    repo, now = demo
    _text, page = _page(repo, now, tmp_path / "r.html")
    metas = [a for t, a in page.tags if t == "meta"]
    assert {"name": "viewport", "content": "width=device-width, initial-scale=1"} in metas
    assert "@media (prefers-color-scheme: dark)" in page.style
    assert [h for h in page.headings if h.startswith("h2:")] == [
        "h2:Memory tests",
        "h2:What the run did",
        "h2:The memory over time (last 4 runs)",
    ]
    svgs = [a for t, a in page.tags if t == "svg"]
    assert len(svgs) == 6
    for svg in svgs:
        assert svg["role"] == "img"
        assert page.titles[str(svg["aria-labelledby"])].strip()
    assert page.titles["chart-recalled-title"] == "Most recalled memories"


def test_html_tables_hold_the_numbers_of_history(
    demo: tuple[MemoryRepo, str], tmp_path: Path
) -> None:
    """Each run's operations and active memories in the page are `history --json`'s."""
    repo, now = demo
    _text, page = _page(repo, now, tmp_path / "r.html")
    history = _history(repo, now)
    kinds = page.tables["operations"][0][1:]
    for row, run in zip(page.tables["operations"][1:], history, strict=True):
        assert row[0] == run["run_id"]
        assert dict(zip(kinds, map(int, row[1:]), strict=True)) == {
            k: run["counts"].get(k, 0) for k in kinds
        }
    for row, run in zip(page.tables["topics"][1:], history, strict=True):
        assert (row[0], int(row[1])) == (run["run_id"], run["memories_after"])
    tests = [row[1:] for row in page.tables["tests"][1:]]
    assert tests == [["-", "-"], ["5", "0"], ["5", "0"], ["5", "0"]]


def test_the_same_repository_gives_the_same_page(
    demo: tuple[MemoryRepo, str], tmp_path: Path
) -> None:
    """No random ids or dates in the charts: two renderings are byte for byte equal."""
    repo, now = demo
    first, _ = _page(repo, now, tmp_path / "a.html")
    second, _ = _page(repo, now, tmp_path / "b.html")
    assert first == second


# -- the command ------------------------------------------------------------------------


def test_report_refuses_two_outputs_and_a_zero_run_window(
    demo: tuple[MemoryRepo, str], tmp_path: Path
) -> None:
    """One output at a time; `--runs` must be at least 1; an unknown run is named."""
    repo, _now = demo
    both = invoke(repo, "report", "--markdown", "--html", str(tmp_path / "x.html"))
    assert both.exit_code == 2
    assert "give one of --html FILE, --markdown and --json" in both.output
    zero = invoke(repo, "report", "--runs", "0")
    assert zero.exit_code == 1 and "error: --runs must be at least 1, not 0" in zero.stderr
    unknown = invoke(repo, "report", "no-such-run")
    assert unknown.exit_code == 1 and "no run 'no-such-run'" in unknown.stderr


def test_report_of_a_repository_without_runs_says_so(tmp_path: Path) -> None:
    """Before the first dream the page says no dream has run, and draws no chart."""
    repo = editor_repo(tmp_path / "mem")
    _text, page = _page(repo, "2026-11-10T10:00:00Z", tmp_path / "r.html")
    assert not [t for t, _ in page.tags if t == "svg"]
    assert "No dream has run yet." in (tmp_path / "r.html").read_text(encoding="utf-8")
