"""Typed short forms are read as the words they stand for, and nothing else changes."""

from __future__ import annotations

import pytest

from dreamgit.dream.gather.informal import spelled_out


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("pls always use uv", "please always use uv"),
        ("we dont ship on fridays, thats the rule", "we don't ship on fridays, that's the rule"),
        ("Didnt I say so? Im sure ive said it", "Didn't I say so? I'm sure I've said it"),
        ("ok lets rename it", "ok let's rename it"),
        ("Lets keep it short", "Let's keep it short"),
        ("its still failing", "it's still failing"),
        ("pls always answer in bullet points, thx", "please always answer in bullet points"),
        ("Keep replies short - thank you so much!\nNext line", "Keep replies short\nNext line"),
    ],
)
def test_a_short_form_is_spelled_out(typed: str, read: str) -> None:
    assert spelled_out(typed) == read


@pytest.mark.parametrize(
    "text",
    [
        "read @dont-panic.md and docs/thats.txt",
        "the flag lets you skip the cache",
        "its colour is teal",
        "the import path is @im/cli",
        "Thanks to the cache, the build takes a minute",
        "please thank the reviewers in the notes",
    ],
)
def test_names_paths_and_the_other_readings_stay_as_written(text: str) -> None:
    assert spelled_out(text) == text
