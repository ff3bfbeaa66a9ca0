"""DREAMS.md: one readable section per run, newest first, one section per run id."""

from __future__ import annotations

import json
from typing import Any

from dreamgit.dream.diary import prepend_entry, render_diary_entry
from dreamgit.dream.index import GENERATED_MARKER

RUN = "20261122T030000Z-4f2a"


def record(**changes: Any) -> dict[str, Any]:
    """A merged run with two adds, a merge and a deferred add."""
    base: dict[str, Any] = {
        "run_id": RUN,
        "branch": f"dream/{RUN}",
        "now": "2026-11-22T03:00:00Z",
        "merged": True,
        "skipped": False,
        "reason": None,
        "memories_before": 41,
        "memories_after": 42,
        "sessions": ["s-20261121-a1b2", "s-20261121-c3d4"],
        "counts": {"merge": 1, "add": 2},
        "ops": [
            {
                "n": 1,
                "op": "add",
                "phase": "gather",
                "rule": "extract-explicit",
                "memories": ["m-7f3k2q9d"],
                "commit": "0123456789abcdef0123",
                "summary": "Prefers pytest over unittest",
                "before": [],
                "after": [{"id": "m-7f3k2q9d", "text": "Prefers pytest."}],
            },
            {
                "n": 2,
                "op": "add",
                "phase": "gather",
                "rule": "extract-explicit",
                "memories": ["m-aaaa1111"],
                "commit": "1111111111111111",
                "summary": "Uses FastAPI",
            },
            {
                "n": 3,
                "op": "merge",
                "phase": "consolidate",
                "rule": "merge-near-duplicates",
                "memories": ["m-7f3k2q9d", "m-c81d0e2a"],
                "commit": "2222222222222222",
                "summary": "2 memories into m-7f3k2q9d",
            },
        ],
        "deferred": [
            {
                "op": "add",
                "rule": "extract-explicit",
                "memories": ["m-bbbb2222"],
                "reason": "max_adds_per_run (2) reached",
            }
        ],
        "decisions": [{"proposal": 1}, {"proposal": 2}],
    }
    base.update(changes)
    return base


def test_entry_lists_status_counts_and_one_line_per_operation() -> None:
    """A merged run shows its time, id, counts, each op with rule and ids, and deferrals."""
    assert render_diary_entry(record()) == (
        f"## 2026-11-22 03:00 UTC · run {RUN}\n"
        "\n"
        "Merged · 41 → 42 memories · 2 new sessions (`s-20261121-a1b2`, `s-20261121-c3d4`)"
        " · 3 operations: add 2, merge 1\n"
        "\n"
        "1. **add** `m-7f3k2q9d` — rule `extract-explicit` (gather):"
        " Prefers pytest over unittest · `0123456`\n"
        "2. **add** `m-aaaa1111` — rule `extract-explicit` (gather): Uses FastAPI · `1111111`\n"
        "3. **merge** `m-7f3k2q9d`, `m-c81d0e2a` — rule `merge-near-duplicates` (consolidate):"
        " 2 memories into m-7f3k2q9d · `2222222`\n"
        "\n"
        "Deferred to the next dream:\n"
        "- **add** `m-bbbb2222` — rule `extract-explicit`: max_adds_per_run (2) reached\n"
        "\n"
        f"2 decisions recorded in `.dreamgit/runs/{RUN}.json`.\n"
    )


def test_skipped_run_says_why() -> None:
    """A gated run is one heading and its reason."""
    entry = render_diary_entry(
        record(skipped=True, reason="1 new session; the gate needs 3", ops=[], counts={})
    )
    assert entry == (
        f"## 2026-11-22 03:00 UTC · run {RUN}\n\nSkipped: 1 new session; the gate needs 3\n"
    )


def test_unmerged_run_names_its_branch() -> None:
    """A --no-merge run points the reader at the branch to review."""
    entry = render_diary_entry(record(merged=False))
    assert f"Left on `dream/{RUN}` for review · 41 → 42 memories" in entry


def test_run_without_changes_says_so() -> None:
    """No ops and no branch: the status says there was nothing to change."""
    entry = render_diary_entry(
        record(merged=False, branch=None, ops=[], counts={}, deferred=[], decisions=[])
    )
    assert entry.splitlines()[2] == "Nothing to change · 41 → 42 memories · 2 new sessions " + (
        "(`s-20261121-a1b2`, `s-20261121-c3d4`)"
    )


def test_counts_are_derived_from_ops_when_the_record_has_none() -> None:
    """An older record without counts still gets its count line."""
    assert "3 operations: add 2, merge 1" in render_diary_entry(record(counts=None))


def test_minimal_record_renders() -> None:
    """A record with only a run id renders without errors."""
    assert render_diary_entry({"run_id": "r1"}) == "## run r1\n\nNothing to change\n"


def test_long_lists_and_multiline_summaries_stay_on_one_line() -> None:
    """Many ids are elided, summaries are flattened and shortened, backticks defused."""
    op = {
        "op": "remove",
        "rule": "expire",
        "memories": [f"m-{i}" for i in range(9)],
        "summary": "line one\nline `two` " + "x" * 300,
    }
    entry = render_diary_entry(record(ops=[op], counts={"remove": 1}))
    [line] = [ln for ln in entry.splitlines() if ln.startswith("1. ")]
    assert "`m-5` and 3 more — rule `expire`: line one line 'two' " in line
    assert line.endswith("…")
    assert len(line) < 300


def test_first_entry_creates_the_file_with_marker_and_title() -> None:
    """A missing DREAMS.md becomes the marker, the title, then the entry."""
    text = prepend_entry(None, "## run r1\n\nSkipped: x\n")
    assert text == (
        f"{GENERATED_MARKER}\n# Dreams\n\n"
        "Newest first. The full record of each run is in `.dreamgit/runs/<run-id>.json`.\n"
        "\n## run r1\n\nSkipped: x\n"
    )


def test_new_entries_go_on_top() -> None:
    """The newest run comes first, older ones follow in order."""
    text = prepend_entry(None, render_diary_entry({"run_id": "r1"}))
    text = prepend_entry(text, render_diary_entry({"run_id": "r2"}))
    text = prepend_entry(text, render_diary_entry({"run_id": "r3"}))
    headings = [ln for ln in text.splitlines() if ln.startswith("## ")]
    assert headings == ["## run r3", "## run r2", "## run r1"]
    assert text.count(GENERATED_MARKER) == 1
    assert "\n\n\n" not in text


def test_same_run_again_replaces_its_entry() -> None:
    """Re-recording a run id (a retried run) leaves one section for it."""
    first = prepend_entry(None, render_diary_entry(record()))
    other = prepend_entry(first, render_diary_entry({"run_id": "r-later"}))
    again = prepend_entry(other, render_diary_entry(record(memories_after=43)))
    assert again.count(f"· run {RUN}") == 1
    assert "41 → 43 memories" in again
    assert "41 → 42 memories" not in again


def test_prepending_is_byte_stable() -> None:
    """The same history and entry give the same bytes."""
    history = prepend_entry(None, render_diary_entry({"run_id": "r1"}))
    entry = render_diary_entry(record())
    assert prepend_entry(history, entry) == prepend_entry(history, entry)


def test_a_diary_dreamgit_did_not_write_is_kept_below() -> None:
    """Another tool's DREAMS.md (OpenClaw writes one) is kept whole under our entries."""
    foreign = "# My dreams\n\nLight phase: nothing.\n"
    text = prepend_entry(foreign, "## run r1\n\nSkipped: x\n")
    assert text.startswith(GENERATED_MARKER)
    assert text.endswith("## run r1\n\nSkipped: x\n\n# My dreams\n\nLight phase: nothing.\n")


def test_an_older_dreamgit_header_is_replaced_not_repeated() -> None:
    """A generated file with another preamble keeps only its entries."""
    old = f"{GENERATED_MARKER}\n# Dream diary\n\nOld intro.\n\n## run r1\n\nSkipped: x\n"
    text = prepend_entry(old, "## run r2\n\nSkipped: y\n")
    assert "Old intro" not in text
    assert [ln for ln in text.splitlines() if ln.startswith("## ")] == ["## run r2", "## run r1"]


def test_record_round_tripped_through_json_renders_the_same() -> None:
    """The diary reads the record as stored in .dreamgit/runs/<id>.json."""
    assert render_diary_entry(json.loads(json.dumps(record()))) == render_diary_entry(record())


def test_run_to_be_merged_says_merged_although_written_before_the_merge() -> None:
    """The entry is committed before the merge; a run asked to merge reads "Merged" on main."""
    entry = render_diary_entry(record(merged=False, merge_requested=True))
    assert entry.splitlines()[2].startswith("Merged · 41 → 42 memories")
    assert "for review" not in entry


def test_a_run_that_replaced_a_review_branch_says_so() -> None:
    """A run that took over an open dream branch names the branch it replaced."""
    entry = render_diary_entry(
        record(
            merged=False,
            merge_requested=False,
            replaced=[{"branch": "dream/20261121T030000Z-0a0a", "tip": "0" * 40}],
        )
    )
    assert (
        "replaces `dream/20261121T030000Z-0a0a` (its sessions are dreamed again here)"
    ) in entry.splitlines()[2]


def test_a_run_left_for_review_is_marked_merged_in_place() -> None:
    """mark_merged rewrites that run's status only; other entries and the rest stay."""
    from datetime import UTC, datetime

    from dreamgit.dream.diary import mark_merged

    older = render_diary_entry(record(run_id="20261121T030000Z-0000", now="2026-11-21T03:00:00Z"))
    left = render_diary_entry(record(merged=False))
    diary = prepend_entry(prepend_entry(None, older), left)
    marked = mark_merged(
        diary, RUN, how="fast-forward", when=datetime(2026, 11, 23, 9, 5, tzinfo=UTC)
    )
    assert marked == diary.replace(
        f"Left on `dream/{RUN}` for review · 41 → 42 memories",
        f"Merged 2026-11-23 09:05 UTC by `dreamgit merge` (fast-forward) after review on "
        f"`dream/{RUN}` · 41 → 42 memories",
    )
    assert marked != diary
    assert mark_merged(marked, RUN, how="fast-forward", when=datetime.now(UTC)) is None
    assert mark_merged(diary, "20261121T030000Z-0000", how="merge", when=datetime.now(UTC)) is None


def test_a_long_deferred_list_shows_its_first_items_and_counts_the_rest() -> None:
    """Twenty deferred operations a line, then one line counting the others by kind."""
    many = [
        {"op": "prune", "rule": "budget-total", "memories": [f"m-{k:08d}"], "reason": "full"}
        for k in range(1, 1503)
    ] + [{"op": "merge", "rule": "merge-near-duplicates", "memories": ["m-a", "m-b"]}]
    entry = render_diary_entry(record(deferred=many))
    lines = entry.splitlines()
    start = lines.index("Deferred to the next dream:")
    assert lines[start + 1] == "- **prune** `m-00000001` — rule `budget-total`: full"
    assert lines[start + 20] == "- **prune** `m-00000020` — rule `budget-total`: full"
    assert lines[start + 21] == (
        f"- … and 1,483 more (merge 1, prune 1,482): `.dreamgit/runs/{RUN}.json`"
    )
    assert lines[start + 22] == ""


def test_deferred_operations_counted_on_one_item_are_said_and_added_to_the_rest() -> None:
    """An item counting 9,500 prunes reads as such, and the line of the rest counts them all."""
    named = [
        {"op": "prune", "rule": "budget-total", "memories": [f"m-{k:08d}"], "reason": "full"}
        for k in range(1, 21)
    ]
    counted = {"op": "prune", "rule": "budget-total", "memories": [], "reason": "full"}
    entry = render_diary_entry(record(deferred=[{**counted, "more": 9500}]))
    assert "- **prune** 9,500 more — rule `budget-total`: full" in entry.splitlines()
    lines = render_diary_entry(record(deferred=[*named, {**counted, "more": 9500}])).splitlines()
    assert f"- … and 9,500 more (prune 9,500): `.dreamgit/runs/{RUN}.json`" in lines
