"""``dreamgit report``: a run as an HTML page with charts, or as its pull-request body."""

from __future__ import annotations

from pathlib import Path

import click

from dreamgit.cli.opening import open_repo
from dreamgit.cli.render import emit_json, json_option
from dreamgit.cli.state import CliState, pass_state

__all__ = ["report"]


@click.command()
@click.argument("run_id", required=False, metavar="[RUN]")
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write one self-contained HTML page (inline SVG charts, no script) to FILE.",
)
@click.option("--markdown", is_flag=True, help="Print the Markdown pull-request body.")
@click.option("--runs", type=int, default=30, show_default=True, help="Chart the last N runs.")
@json_option
@pass_state
def report(
    state: CliState,
    run_id: str | None,
    html_file: Path | None,
    markdown: bool,
    runs: int,
    as_json: bool,
) -> None:
    """Report a dream run (default: the newest): what it did, its tests, the memory over time."""
    from dreamgit.report.build import build_report

    if sum((html_file is not None, markdown, as_json)) > 1:
        raise click.UsageError("give one of --html FILE, --markdown and --json")
    built = build_report(open_repo(state), run_id, now=state.now(), runs=runs)
    if html_file is not None:
        from dreamgit.report.html import render_html

        html_file.write_text(render_html(built), encoding="utf-8")
        click.echo(f"wrote {html_file}")
    elif markdown:
        from dreamgit.report.markdown import render_markdown

        click.echo(render_markdown(built), nl=False)
    elif as_json:
        emit_json(
            {
                "run_id": built.run.run_id if built.run else None,
                "index_before": dict(zip(("chars", "tokens"), built.index_before, strict=True)),
                "index_after": dict(zip(("chars", "tokens"), built.index_after, strict=True)),
                "budget_chars": built.budget_chars,
                "tests": built.tests,
                "runs": [p.to_json() for p in built.points],
            }
        )
    else:
        from dreamgit.report.markdown import render_markdown

        click.echo(render_markdown(built), nl=False)
