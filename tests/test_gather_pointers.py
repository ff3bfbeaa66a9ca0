"""What a clause points at or announces (dream/gather/pointers.py), through gathering.

"Here's a pic I took when I volunteered last month" tells what the speaker did;
"Something awesome happened!" only announces the next sentence. Sessions written
for this test, a chat between Noor and Emil on Friday 9 March 2029.
"""

from __future__ import annotations

import pytest

from chatkit import said_by_noor
from dreamgit.dream.gather.pointers import announces_only, shown


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "Here's a pic I took when I volunteered at the food bank last month.",
            "Noor showed a pic they took when they volunteered at the food bank in February 2029.",
        ),
        (
            "Check out my new vintage camera that I bought in Lisbon!",
            "Noor showed their new vintage camera that they bought in Lisbon.",
        ),
    ],
)
def test_what_someone_shows_of_theirs_is_what_they_did(line: str, expected: str) -> None:
    assert said_by_noor(line) == [expected]


@pytest.mark.parametrize(
    "line",
    ["Here's the poster.", "Look at this photo!", "Check out this cool pic I snapped last week."],
)
def test_a_pointer_at_nothing_of_the_speakers_is_no_memory(line: str) -> None:
    assert shown(line) == line
    assert said_by_noor(line) == []


@pytest.mark.parametrize(
    "line",
    [
        "something exciting happened to me",
        "lots of cool stuff happening lately",
        "i tackled something new yesterday",
        "last weekend i did something new that had an impact on me",
    ],
)
def test_news_announced_but_not_told_is_no_memory(line: str) -> None:
    assert announces_only(line)
    assert said_by_noor(line[0].upper() + line[1:] + "!") == []


def test_what_happened_told_with_something_is_a_memory() -> None:
    """ "Something" beside what happened is no announcement."""
    assert not announces_only("i found something special at the flea market in porto")
    assert said_by_noor("I found something special at the flea market in Porto!") == [
        "Noor found something special at the flea market in Porto."
    ]
