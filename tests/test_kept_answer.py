"""A merge pass's kept answer: loaded once, when first asked for; the last pass's replaces it."""

from __future__ import annotations

from dreamgit.dream.consolidate.kept_answer import KeptAnswer


def test_the_kept_answer_is_loaded_once_and_only_when_asked() -> None:
    loads: list[str] = []

    def load() -> str:
        loads.append("kept")
        return "kept"

    memo = KeptAnswer(load)
    assert loads == [] and not memo.ran
    assert memo.last == memo.kept == "kept"
    assert loads == ["kept"]


def test_a_pass_replaces_the_last_answer_and_says_it_ran() -> None:
    memo = KeptAnswer(lambda: "kept")
    memo.last = "first pass"
    memo.last = "second pass"
    assert memo.ran and memo.last == "second pass" and memo.kept == "kept"
