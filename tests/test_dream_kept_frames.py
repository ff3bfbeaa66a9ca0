"""A dream frames its memories through frames kept between runs, with the same answers.

A dream frames every active memory (the newer-value and count checks); ``frames.sqlite3``
in the git directory keeps each sentence's frame, so a later run frames only new and
changed memories. Whatever state that cache is in (filled by a review, missing, damaged,
written by other code, holding rows it cannot read), a dream gives the same
operations, the same run id and the same trees as a dream on a fresh repository.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from dreamgit.dream.consolidate.frame_memo import FrameCodec, frame_codec, keeping_frames
from dreamgit.extract.frame import KEEPER, Frame, FrameKeeper, parse_frame
from dreamgit.store.keptframes import code_fingerprint
from dreamkit import DREAM_AT, MEMORIES, Seed, build_repo
from keptstates import STATE_IDS, Prepare, reading_states, same_dream_as_fresh

#: The fixture's memories and newer values of two subjects' relations, each said later.
VALUES: tuple[Seed, ...] = (
    *MEMORIES,
    Seed("Ana lives in Lisbon.", "people"),
    Seed("Ana lives in Porto now.", "people", hours=2),
    Seed("The billing service is written in Ruby.", "work"),
    Seed("The billing service is written in Go now.", "work", hours=2),
)


#: The cache's states before the dream (``keptstates``): a frame of every memory after a
#: review; "other code" framed nothing anywhere; unreadable rows of another shape.
STATES = reading_states("frames", rows=4, wrong="null", unreadable=json.dumps([[[1, 2]], None, []]))


@pytest.mark.parametrize("prepare", STATES, ids=STATE_IDS)
def test_a_dream_gives_the_same_operations_and_trees_whatever_the_kept_readings(
    tmp_path: Path, prepare: Prepare
) -> None:
    """Kept, damaged, foreign, unreadable or removed readings: the dream of a fresh repository."""
    rules = same_dream_as_fresh(tmp_path, VALUES, prepare)
    assert "supersede-newer-value" in rules


def _keeper() -> FrameKeeper:
    keeper = KEEPER.get()
    assert keeper is not None
    return keeper


def test_a_kept_frame_is_read_back_without_framing_the_sentence_again(tmp_path: Path) -> None:
    """A second block (a later process) reads each memory's frame from the database."""
    texts = [
        m.text
        for m in build_repo(tmp_path / "mem", bare=True, memories=VALUES).memories(now=DREAM_AT)
    ]
    parse_frame.cache_clear()  # as in a fresh process
    with keeping_frames(tmp_path):
        first = [parse_frame(t) for t in texts]
    assert any(f is not None for f in first) and None in [*first, parse_frame("no verb")]
    asked: list[str] = []

    def framing(text: str) -> Frame | None:
        asked.append(text)
        raise AssertionError(f"framed again: {text}")

    with keeping_frames(tmp_path):
        assert [_keeper()(t, framing) for t in texts] == first
    assert asked == []


def test_a_new_sentence_is_framed_once_and_kept_for_the_next_block(tmp_path: Path) -> None:
    """A sentence not kept yet is framed, then found kept by the next block; nothing is
    kept outside a block."""
    said = "Raj got promoted to Staff Engineer."
    asked: list[str] = []

    def framing(text: str) -> Frame | None:
        asked.append(text)
        return parse_frame.__wrapped__(text)

    assert KEEPER.get() is None
    with keeping_frames(tmp_path):
        framed = _keeper()(said, framing)
    with keeping_frames(tmp_path):
        assert _keeper()(said, framing) == framed is not None
    assert asked == [said]


def test_a_kept_frame_is_let_go_once_read_and_framed_anew_when_asked_again(
    tmp_path: Path,
) -> None:
    """Within a block a kept frame is decoded once and not held after: asked again, the
    sentence is framed anew (the same frame), and the database keeps it once, as before."""
    said = "The billing service is written in Go now."
    with keeping_frames(tmp_path):
        kept = _keeper()(said, parse_frame.__wrapped__)
    asked: list[str] = []

    def framing(text: str) -> Frame | None:
        asked.append(text)
        return parse_frame.__wrapped__(text)

    with keeping_frames(tmp_path):
        assert _keeper()(said, framing) == kept is not None
        assert asked == []
        assert _keeper()(said, framing) == kept
        assert asked == [said]
    with keeping_frames(tmp_path):
        assert _keeper()(said, framing) == kept
    assert asked == [said]


def test_the_code_fingerprint_changes_with_the_source_that_reads(tmp_path: Path) -> None:
    """Editing a file of the reading code gives another fingerprint; other files do not."""
    (tmp_path / "extract").mkdir()
    parser = tmp_path / "extract" / "frame.py"
    parser.write_text("WORDS = 1\n")
    (tmp_path / "cli.py").write_text("X = 1\n")
    before = code_fingerprint.__wrapped__(tmp_path, ("extract",))
    (tmp_path / "cli.py").write_text("X = 2\n")
    assert code_fingerprint.__wrapped__(tmp_path, ("extract",)) == before
    parser.write_text("WORDS = 2\n")
    assert code_fingerprint.__wrapped__(tmp_path, ("extract",)) != before


def test_a_kept_frame_reads_back_equal_field_by_field() -> None:
    """Sets, phrases, a rejected side, numbers and dates come back as they were framed."""
    codec = frame_codec()
    assert codec is not None
    for text in (
        "The user's team is on Python 3.11, not 3.12.",
        "Ana moved to Porto on 3 June 2025 with her two kids.",
        "Prefers pytest over unittest for Python tests.",
        "Uses Notion for the roadmap (switched from Confluence) now.",
        "no verb",
    ):
        frame = parse_frame.__wrapped__(text)
        back = codec.decode(codec.encode(frame))
        assert back == frame and (frame is None or hash(back) == hash(frame))
        assert back is None or all(
            type(getattr(back, f)) is type(getattr(frame, f)) for f in vars(frame)
        )


def test_a_frame_encoded_again_is_the_same_text_whatever_was_encoded_between() -> None:
    """A memory's sentence is encoded for the kept frames and again for its kept reading:
    the second time gives the text the first made (as a fresh codec would), also after
    other frames, a changed copy of it, or more than the codec keeps in between."""
    codec = frame_codec()
    assert codec is not None
    texts = [f"The user's service {k} listens on port {5000 + k}." for k in range(20)]
    frames = [parse_frame.__wrapped__(text) for text in texts]
    first = [codec.encode(frame) for frame in frames]
    changed = replace(frames[0], change=True)
    assert codec.encode(changed) != codec.encode(frames[0]) == first[0]
    assert [codec.encode(frame) for frame in reversed(frames)] == first[::-1]
    fresh = FrameCodec()
    assert first == [fresh.encode(frame) for frame in frames]
    assert codec.encode(None) == fresh.encode(None) == "null"


def test_kept_frames_read_back_share_their_empty_sets_and_words() -> None:
    """Frames read back hold one empty set for every empty field and one string for each
    word, whichever frame it is in (a dream holds a frame of every memory)."""
    codec = frame_codec()
    assert codec is not None
    texts = ("Ana moved to Porto on 3 June 2025.", "Ana lives in Porto with her two kids.")
    one, two = (codec.decode(codec.encode(parse_frame.__wrapped__(t))) for t in texts)
    assert one is not None and two is not None
    assert one.left is two.left is two.moved_from and not one.left
    porto = next(w for w in one.names if w.lower() == "porto")
    assert porto is next(w for w in two.names if w == porto)
    assert next(iter(one.subject)) is next(iter(two.subject))


def test_kept_frames_read_back_in_a_block_share_their_equal_sets_until_it_ends(
    tmp_path: Path,
) -> None:
    """Within a frames block, two frames read back with the same subject and names hold
    one set of each; a block opened later shares nothing with the frames read before."""
    codec = frame_codec()
    assert codec is not None
    texts = ("Ana lives in Porto with her kids.", "Ana works in Porto on weekdays.")
    kept = [codec.encode(parse_frame.__wrapped__(t)) for t in texts]
    with keeping_frames(tmp_path):
        one, two = (codec.decode(k) for k in kept)
        assert one is not None and two is not None
        assert one.subject is two.subject and one.names is two.names and one.names
    with keeping_frames(tmp_path):
        again = codec.decode(kept[0])
    assert again is not None and again.subject == one.subject
    assert again.subject is not one.subject


def test_a_git_directory_where_nothing_can_be_kept_frames_every_sentence_afresh(
    tmp_path: Path,
) -> None:
    """A cache folder that cannot be made (a file in its way): the same frames, no error."""
    (tmp_path / "dreamgit").write_text("in the way\n")
    said = "Ana lives in Porto now."
    with keeping_frames(tmp_path):
        assert _keeper()(said, parse_frame.__wrapped__) == parse_frame.__wrapped__(said)
    assert (tmp_path / "dreamgit").read_text() == "in the way\n"


def test_every_sentence_of_a_100000_memory_store_is_framed_once_in_a_process() -> None:
    """Two walks over 100,000 sentences (the newer-value check, then the duplicate
    guards): the second takes every frame from the process's cache, none from the keeper."""
    asked: list[str] = []

    def keeper(text: str, _read: Callable[[str], Frame | None]) -> Frame | None:
        asked.append(text)
        return None

    sentences = [f"Sentence number {k} of the store." for k in range(100_000)]
    parse_frame.cache_clear()
    token = KEEPER.set(keeper)
    try:
        for _walk in range(2):
            for text in sentences:
                parse_frame(text)
    finally:
        KEEPER.reset(token)
        parse_frame.cache_clear()
    assert len(asked) == len(sentences)
