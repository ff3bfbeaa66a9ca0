"""Content norms read chunk by chunk: always what tokenizing the whole text gives."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from dreamgit import textsim
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


#: Characters around a number: the ones the fast path allows and ones it must not.
_AROUND = st.text(alphabet="()[]\"'.,;:!?%$-/+#_aApPmMsSx \u2019\u00b2", max_size=3)


@given(_AROUND, st.from_regex(r"\d{1,7}", fullmatch=True), _AROUND, st.text(max_size=12))
@example("(", "4411", ").", "")
@example("", "7", "", "pm")
@example("", "10", "", " am")
@example("", "5", "%", "")
def test_a_number_read_at_once_reads_as_tokenize_reads_it(
    before: str, digits: str, after: str, rest: str
) -> None:
    """A chunk read by the number fast path, or any text around one: tokenize's norms."""
    for text in (before + digits + after, f"{before}{digits}{after} {rest}"):
        whole = [t.norm for t in tokenize(text) if not t.stop]
        assert content_norms(text) == whole


def test_an_unseen_number_is_read_at_once_and_not_kept() -> None:
    """A number seen once (a fact's own number) is not kept in the memo of chunks: at
    100,000 memories such numbers would fill it and crowd out the words that repeat."""
    text = "Ships the quarterly report (ticket 90817263)."
    assert content_norms(text) == [t.norm for t in tokenize(text) if not t.stop]
    assert "90817263)." not in textsim._CHUNK_NORMS
    assert "report" in textsim._CHUNK_NORMS
