"""The pull-request summary of a dream run, rendered from its run record."""

from __future__ import annotations

from typing import Any

import pytest

from dreamgit.errors import TemplateError
from dreamgit.history.summary import render_summary
from llm_support import check_golden


def _record() -> dict[str, Any]:
    return {
        "run_id": "20261122T030000Z-4f2a",
        "branch": "dream/20261122T030000Z-4f2a",
        "now": "2026-11-22T03:00:00Z",
        "merged": False,
        "skipped": False,
        "reason": "",
        "memories_before": 12,
        "memories_after": 11,
        "sessions": ["s-20261121-a1b2c3", "s-20261121-d4e5f6"],
        "counts": {"merge": 1, "add": 1},
        "ops": [
            {
                "op": "add",
                "phase": "gather",
                "rule": "llm-gather",
                "memories": ["m-fastapi1"],
                "commit": "0123456789abcdef0123456789abcdef01234567",
                "summary": "add: m-fastapi1 (projects)",
                "before": [],
                "after": [{"id": "m-fastapi1", "text": "Uses FastAPI for the api service."}],
            },
            {
                "op": "merge",
                "phase": "consolidate",
                "rule": "merge-near-duplicates",
                "memories": ["m-pytest01", "m-pytest02"],
                "commit": "89abcdef0123456789abcdef0123456789abcdef",
                "summary": "merge: 2 memories into m-pytest01",
                "before": [
                    {"id": "m-pytest01", "text": "Prefers pytest over unittest."},
                    {"id": "m-pytest02", "text": "Likes pytest better\nthan unittest."},
                ],
                "after": [{"id": "m-pytest01", "text": "Prefers pytest over unittest."}],
            },
        ],
        "deferred": [
            {
                "op": "prune",
                "rule": "expire-low",
                "memories": ["m-old00001"],
                "reason": "max_changes_per_run (2) reached",
            },
            {
                "op": "consolidate",
                "rule": "llm",
                "memories": [],
                "reason": "the run's LLM budget is spent",
            },
        ],
        "decisions": [
            {
                "proposal": {"op": "add", "text": "Uses FastAPI for the api service."},
                "accepted": True,
                "reason": "confidence 0.95 ≥ add_min 0.88",
            },
            {
                "proposal": {"op": "remove", "ids": ["m-core0001"]},
                "accepted": False,
                "reason": "m-core0001 is protected (core or a protected topic): "
                "never changed by a dream",
            },
        ],
    }


def test_summary_of_a_run_matches_its_golden_file() -> None:
    """Counts, each operation with rule and before/after text, deferred work and decisions."""
    check_golden("summary/run.md", render_summary(_record()))


def test_summary_of_a_merged_run_without_operations() -> None:
    """A run that changed nothing says so."""
    record = {**_record(), "merged": True, "counts": {}, "ops": [], "deferred": [], "decisions": []}
    check_golden("summary/empty.md", render_summary(record))


def test_summary_of_a_skipped_run_gives_the_reason() -> None:
    """A gated run renders its reason and nothing else."""
    text = render_summary(
        {
            "run_id": "r-1",
            "skipped": True,
            "now": "2026-11-22T03:00:00Z",
            "reason": "gate: 1 new session, 3 needed",
        }
    )
    assert text == (
        "## Dream run r-1\n\nSkipped at 2026-11-22T03:00:00Z: gate: 1 new session, 3 needed\n"
    )


def test_memory_text_cannot_break_the_markdown_layout() -> None:
    """Every line of a before/after text is block-quoted, so a heading in it stays inside."""
    record = _record()
    record["ops"][0]["after"] = [{"id": "m-x", "text": "line\n## Fake heading\n"}]
    text = render_summary(record)
    assert "> ## Fake heading" in text
    assert "\n## Fake heading" not in text


def test_summary_override_from_the_repository_is_used() -> None:
    """.dreamgit/prompts/summary.md.j2 replaces the bundled layout."""
    overrides = {"summary.md.j2": "{{ record.run_id }}: {{ record.ops | length }} ops"}
    assert render_summary(_record(), overrides=overrides) == "20261122T030000Z-4f2a: 2 ops\n"


def test_misspelt_field_in_an_override_is_a_template_error() -> None:
    """Defaults fill optional fields, but a name the record never has still fails loudly."""
    overrides = {"summary.md.j2": "{{ record.run_idd }}"}
    with pytest.raises(TemplateError) as info:
        render_summary(_record(), overrides=overrides)
    assert info.value.message == (
        ".dreamgit/prompts/summary.md.j2:1: undefined variable: "
        "'dict object' has no attribute 'run_idd'"
    )


def test_review_record_with_llm_operation_renders_without_branch_or_commits() -> None:
    """A dry run has no branch and no commits; an LLM operation names its model."""
    record = {
        **_record(),
        "run_id": None,
        "branch": None,
        "applied": False,
        "deferred": [],
        "decisions": [],
        "counts": {"add": 1},
    }
    record["ops"] = [{**record["ops"][0], "commit": None, "source": "llm", "model": "gpt-4o-mini"}]
    check_golden("summary/review.md", render_summary(record))


def test_skipped_record_as_the_dream_cycle_writes_it() -> None:
    """A gated run has no run id; the heading stays clean."""
    record = {
        "run_id": None,
        "branch": None,
        "now": "2026-11-22T03:00:00Z",
        "applied": False,
        "merged": False,
        "skipped": True,
        "reason": "gate: 1 new session, 3 needed",
        "memories_before": 4,
        "memories_after": 4,
        "sessions": [],
        "counts": {},
        "ops": [],
        "deferred": [],
        "decisions": [],
        "broken": [],
    }
    assert render_summary(record) == (
        "## Dream run\n\nSkipped at 2026-11-22T03:00:00Z: gate: 1 new session, 3 needed\n"
    )


def test_summary_counts_the_deferred_operations_an_item_stands_for() -> None:
    """An item counting 7 more prunes adds 7 to the heading and says so on its line."""
    counted = {"op": "prune", "rule": "budget-total", "memories": [], "reason": "full", "more": 7}
    record = _record()
    listed = len(record["deferred"])
    text = render_summary({**record, "deferred": [*record["deferred"], counted]})
    assert f"### Deferred ({listed + 7})" in text.splitlines()
    assert "- prune · rule `budget-total` · 7 more: full" in text.splitlines()
