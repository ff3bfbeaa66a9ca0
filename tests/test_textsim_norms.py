"""Content norms read chunk by chunk: always what tokenizing the whole text gives."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from dreamgit.textsim import content_norms, tokenize

#: Pieces that tokenize reads across whitespace or by their neighbours, and plain ones.
_PIECES = st.sampled_from(
    [
        "10", "am", "10am", "7:30", "p.m.", "PM", "Note:", "note", ":", "FYI:", "heads-up:",
        "twenty", "five", "twenty-five", "and", "one", "hundred", "first", "$5", "5%", "GB",
        "5GB", "v3.11", "don't", "can't", "PRs", "Postgres", "prefers", "deploys", "x.y",
        "a.", "end.", "(fact", "42).", "#tags", "C++", "naïve", "3½", "Zoë's", "已经", ";",
        "...", "-", "'", "e.g.", "user", "1,000", "Fridays",
    ]
)  # fmt: skip
_SPACE = st.sampled_from([" ", " ", "  ", "\n", "\t", "\u00a0", "\u2003", ""])


@given(st.lists(st.tuples(_PIECES, _SPACE), max_size=12), st.text(max_size=20))
@example([("Note", " "), (":", " "), ("tabs", " ")], "")
@example([("7", " "), ("pm", " ")], "")
@example([("twenty", " "), ("five", " ")], "")
def test_content_norms_are_the_norms_of_the_whole_texts_tokens(
    pieces: list[tuple[str, str]], noise: str
) -> None:
    """Times across a space, labels, spelled numbers and any text: the same norms."""
    text = "".join(piece + space for piece, space in pieces) + noise
    whole = [t.norm for t in tokenize(text) if not t.stop]
    assert content_norms(text) == whole
    assert content_norms(text) == whole  # read again through the memo
