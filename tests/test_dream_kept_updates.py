"""A dream's newer-value check takes what unchanged memories say and found from a kept run.

``update-readings.sqlite3`` in the git directory keeps what each memory's text says to
compare (its frames, a promotion), so a later run reads only new and changed memories
(``update_readings``), and the check's layout (``update-layout.sqlite3``, its own tests)
what each subject's comparison found, so a later run compares only the subjects a new or
changed memory joined. Whatever state the kept readings are in (filled by a review,
missing, damaged, written by other code, holding rows it cannot read), a dream gives the
same operations, run id and trees as on a fresh repository.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from callspy import first_arguments
from dreamgit.dream.consolidate import update, update_frames
from dreamgit.dream.consolidate.frame_memo import FrameCodec
from dreamgit.dream.consolidate.kept_frame import EAGER
from dreamgit.dream.consolidate.update import find_updates
from dreamgit.dream.consolidate.update_memo import keeping_updates
from dreamgit.dream.consolidate.update_readings import _ReadingCodec
from dreamgit.extract.frame import Frame
from dreamgit.model import Memory
from dreamkit import MEMORIES, Seed
from keptstates import STATE_IDS, Prepare, reading_states, same_dream_as_fresh

#: The fixture's memories and values that newer memories of the same subject change.
UPDATES: tuple[Seed, ...] = (
    *MEMORIES,
    Seed("The staging cluster runs Kubernetes 1.27.", "work"),
    Seed("The staging cluster runs Kubernetes 1.29.", "work", hours=2),
    Seed("The user's sister lives in Ghent.", "people"),
    Seed("The user's sister lives in Utrecht.", "people", hours=2),
)
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


#: The kept readings' states: "other code" read every memory as saying nothing to compare;
#: unreadable rows hold a frame list of the wrong shape.
READING_STATES = reading_states(
    "update-readings", rows=4, wrong="[[], null, []]", unreadable='[[["not a frame"]], null, []]'
)


@pytest.mark.parametrize("prepare", READING_STATES, ids=[f"readings-{s}" for s in STATE_IDS])
def test_a_dream_gives_the_same_operations_and_trees_whatever_the_kept_readings(
    tmp_path: Path, prepare: Prepare
) -> None:
    """Kept, damaged, foreign, unreadable or removed readings: the dream of a fresh
    repository."""
    rules = same_dream_as_fresh(tmp_path, UPDATES, prepare)
    assert rules.count("supersede-newer-value") >= 2


def _memory(n: int, text: str, hours: int) -> Memory:
    when = T0 + timedelta(hours=hours)
    return Memory(
        id=f"m-upd{n:05d}", topic="work", slug=f"s{n}", text=text, created=when, updated=when
    )


STORE = [
    _memory(1, "The staging cluster runs Kubernetes 1.27.", 0),
    _memory(2, "The staging cluster runs Kubernetes 1.29.", 2),
    _memory(3, "The user's sister lives in Ghent.", 0),
    _memory(4, "The user's sister lives in Utrecht.", 2),
]


def test_a_second_block_takes_unchanged_subjects_from_the_kept_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A later process compares no subject whose memories are unchanged, and finds the same."""
    with keeping_updates(tmp_path):
        first = find_updates(STORE)
    assert {(u.old, u.new) for u in first} == {
        ("m-upd00001", "m-upd00002"),
        ("m-upd00003", "m-upd00004"),
    }

    compared: list[frozenset[str]] = []
    real = update._subject_updates

    def counting(subject: frozenset[str], *rest: Any) -> Any:
        compared.append(subject)
        return real(subject, *rest)

    monkeypatch.setattr(update, "_subject_updates", counting)
    with keeping_updates(tmp_path):
        assert find_updates(STORE) == first
    assert compared == []
    changed = [*STORE[:3], _memory(4, "The user's sister lives in Leiden.", 2)]
    with keeping_updates(tmp_path):
        again = find_updates(changed)
    assert len(compared) == 1  # only the sister's subject, whose newer memory changed
    assert [u.reason for u in again if u.old == "m-upd00003"] != [
        u.reason for u in first if u.old == "m-upd00003"
    ]


def test_a_second_block_reads_only_new_and_changed_memories(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A later process takes an unchanged memory's frames and promotion from the kept
    readings, and finds the same updates as reading every memory afresh."""
    promoted = [
        _memory(5, "Ana works as a junior engineer at the lab.", 0),
        _memory(6, "Ana got promoted to senior engineer.", 2),
    ]
    store = [*STORE, *promoted]
    fresh = find_updates(store)
    assert ("m-upd00005", "m-upd00006") in {(u.old, u.new) for u in fresh}
    with keeping_updates(tmp_path):
        assert find_updates(store) == fresh

    read = first_arguments(monkeypatch, "_reading", update_frames)
    with keeping_updates(tmp_path):
        assert find_updates(store) == fresh
    assert read == []
    changed = [*store[:3], _memory(4, "The user's sister lives in Leiden.", 2), *promoted]
    expected = find_updates(changed)  # outside a block: every memory read afresh
    assert len(read) == len(changed)
    read.clear()
    with keeping_updates(tmp_path):
        assert find_updates(changed) == expected
    assert read == ["The user's sister lives in Leiden."]


def test_a_kept_frame_is_decoded_whole_only_when_a_field_past_its_subject_is_read(
    tmp_path: Path,
) -> None:
    """Read back from the kept readings, a frame holds its subject and flags; its other
    fields are decoded when first read, and then equal those of a frame read afresh."""
    fresh, _promoted = update_frames.frames_by_subject(STORE)
    with keeping_updates(tmp_path):
        update_frames.frames_by_subject(STORE)
    with keeping_updates(tmp_path):
        kept, _promoted = update_frames.frames_by_subject(STORE)
        assert kept.keys() == fresh.keys()
        frames = [frame for group in kept.values() for _memory, frame in group]
        assert frames and all("head" not in vars(f) and f.subject for f in frames)
        for subject, group in kept.items():
            assert [f for _m, f in group] == [f for _m, f in fresh[subject]]
            assert [hash(f) for _m, f in group] == [hash(f) for _m, f in fresh[subject]]
        assert all(vars(f)["head"] == f.head for f in frames)


def test_only_the_subjects_a_changed_memory_joined_have_their_kept_frames_decoded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Unchanged subjects' frames stay undecoded through the whole check."""
    with keeping_updates(tmp_path):
        find_updates(STORE)
    decoded: list[str] = []
    real = FrameCodec.decode

    def counting(codec: FrameCodec, text: str) -> Any:
        frame = real(codec, text)
        decoded.append(" ".join(sorted(getattr(frame, "subject", ()))))
        return frame

    monkeypatch.setattr(FrameCodec, "decode", counting)
    with keeping_updates(tmp_path):
        find_updates(STORE)
    assert decoded == []
    changed = [*STORE[:3], _memory(4, "The user's sister lives in Leiden.", 2)]
    with keeping_updates(tmp_path):
        find_updates(changed)
    assert decoded and set(decoded) == {"sister user"}


def test_a_kept_frame_whose_fields_cannot_be_decoded_is_read_afresh(tmp_path: Path) -> None:
    """A kept reading whose grouping fields read back but whose frames' other fields do not
    gives the updates of a fresh read."""
    changed = [*STORE[:3], _memory(4, "The user's sister lives in Leiden.", 2)]
    expected = find_updates(changed)
    with keeping_updates(tmp_path):
        find_updates(STORE)
    path = tmp_path / "dreamgit" / "cache" / "update-readings.sqlite3"
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT text, value FROM readings").fetchall()
        for text, value in rows:
            head, *bodies = value.split("\n")
            broken = "\n".join([head, *("[1, 2]" for _body in bodies)])
            db.execute("UPDATE readings SET value = ? WHERE text = ?", (broken, text))
    assert len(rows) >= 4
    with keeping_updates(tmp_path):
        assert find_updates(changed) == expected


def test_a_kept_reading_holds_each_eager_field_of_its_frames_as_read() -> None:
    """A frame's subject, flags, tool left, place moved from and span, kept with its
    reading, read back as they were before its body is decoded."""
    codec = _ReadingCodec(FrameCodec())
    texts = [
        "The user uses Notion (switched from Confluence).",
        "The user no longer lives in Lisbon (moved there from Berlin).",
        "The user is away from 3 to 9 June, so now Ana runs the standup.",
    ]
    said: list[Frame] = []
    for text in texts:
        reading = update_frames.read_memory(Memory("m-1", "facts", "fact", text, T0, T0))
        kept, _sentence, _role = codec.decode(codec.encode(reading))
        assert len(kept) == len(reading[0])
        for frame, back in zip(reading[0], kept, strict=True):
            assert {n: vars(back)[n] for n in EAGER} == {n: getattr(frame, n) for n in EAGER}
        said.extend(reading[0])
    # every eager field is set in some frame: a field kept in another's place shows
    assert any(f.left for f in said) and any(f.moved_from for f in said)
    assert any(f.period for f in said) and any(f.negated for f in said)
    assert any(f.change for f in said)
