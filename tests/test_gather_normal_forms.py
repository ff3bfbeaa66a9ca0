"""Tests for dreamgit.dream.gather.normal_forms: every known text's normalized form at once."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dreamgit.dream.gather.compact import normalized
from dreamgit.dream.gather.normal_forms import normal_forms

#: Texts of every shape the joined reading must get right: leads, the joining character,
#: letters that lower to ASCII ("İ", the Kelvin sign), a final sigma, nothing to read.
AWKWARD = [
    "The user's cat is called Miso.",
    "The user prefers tea over coffee",
    "Robin' s bike is red",
    "Robin's sister lives in Oslo.",
    "Robin moved to Porto in 2021",
    "Likes ΟΔΟΣ and İzmir; 5 \u212aelvin.",
    "two\x00parts held in one text",
    "",
    " -- ",
    "Uses  uv,   not pip!",
]


def test_the_forms_of_awkward_texts_are_their_normalized_forms() -> None:
    """Leads, the joining character and non-ASCII letters read as one text at a time."""
    assert normal_forms(AWKWARD, ("Robin",)) == {normalized(t, ("Robin",)) for t in AWKWARD}


def test_texts_without_a_lead_are_read_together_alike() -> None:
    """Plain texts (the joined reading alone) give the forms one call per text gives."""
    plain = [t for t in AWKWARD if not t.startswith(("The user", "Robin")) and "\x00" not in t]
    assert normal_forms(plain, ("Robin",)) == {normalized(t, ("Robin",)) for t in plain}


def test_no_texts_have_no_forms() -> None:
    """An empty store says nothing (not the empty form)."""
    assert normal_forms([], ("Robin",)) == set()


#: A text: pieces of any characters, leads and letters that lower to ASCII, in any order.
_TEXTS = st.lists(
    st.one_of(st.text(), st.sampled_from(["The user ", "Kim's ", "İ", "\u212a", "\x00", " "])),
    max_size=6,
).map("".join)


@given(st.lists(_TEXTS), st.sampled_from([None, "Kim", "Kim Lee"]))
def test_any_texts_have_the_forms_one_call_per_text_gives(
    texts: list[str], name: str | None
) -> None:
    """Whatever the texts and the user's name, the same set as ``normalized`` of each."""
    assert normal_forms(texts, (name,)) == {normalized(t, (name,)) for t in texts}
