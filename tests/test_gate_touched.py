"""The test gate holds a run for what it did, not for the store growing around a memory."""

from __future__ import annotations

from dreamgit.report.gate import _the_runs_doing, _touched

_RECORD = {
    "ops": [
        {"op": "add", "after": [{"id": "m-new", "text": "Uses Zola for the docs."}]},
        {
            "op": "reinforce",
            "before": [{"id": "m-kept", "text": "Never rebase release branches."}],
            "after": [{"id": "m-kept", "text": "Never rebase release branches."}],
        },
        {
            "op": "supersede",
            "before": [
                {"id": "m-old", "text": "Deploys on Fridays."},
                {"id": "m-newer", "text": "Deploys on Thursdays."},
            ],
            "after": [{"id": "m-newer", "text": "Deploys on Thursdays."}],
        },
    ]
}


def test_only_memories_whose_text_changed_or_that_were_retired_are_touched() -> None:
    assert _touched(_RECORD) == {"m-old"}


def test_a_recallable_memory_the_run_left_alone_is_not_broken_by_it() -> None:
    touched = _touched(_RECORD)
    assert not _the_runs_doing("protected", "m-kept", touched)
    assert _the_runs_doing("protected", "m-old", touched)
    assert _the_runs_doing("written", None, touched)
    assert _the_runs_doing("supersession", "m-kept", touched)
