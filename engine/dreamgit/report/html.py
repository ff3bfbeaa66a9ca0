"""The report as one self-contained HTML page: inline CSS and SVG, no script, no network.

The page (``page.html.j2``, autoescaped) reads well on a phone (one column, fluid
charts, tables that scroll sideways), follows the reader's dark mode, and is
accessible: headings for each part, a title on each chart that screen readers
announce, its numbers in a table, colours with enough contrast in both modes, and
word diffs marked with brackets (``[+…]``, ``[-…]``) as well as colour.
"""

from __future__ import annotations

from jinja2 import Environment, PackageLoader, select_autoescape

from dreamgit.report.build import Report
from dreamgit.report.charts import report_charts

__all__ = ["render_html"]

_ENV = Environment(
    loader=PackageLoader("dreamgit.report", "."),
    autoescape=select_autoescape(["html", "j2"]),
    trim_blocks=True,
    lstrip_blocks=True,
)


def render_html(report: Report) -> str:
    """The HTML page of ``report``."""
    charts = report_charts(report.points, report.budget_chars, report.recalled)
    page = _ENV.get_template("page.html.j2")
    return page.render(report=report, run=report.run, tests=report.tests, charts=charts)
