"""A correction said of "it" names what it corrects: the memory kept says what moved.

Everything goes through the installed command as a process, on real repositories: a
statement in the morning's session, "correction: it moved to …" in the evening's, one
dream. The older value leaves, and the newer memory names its subject as the older one
wrote it, not "it"; a statement about something else stays as it was.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clikit import active, dreamgit, prepared
from gitcheck import fsck


def _day(repo: Path, *said: str) -> list[str]:
    """``said`` logged as sessions of one day, hours apart, then a dream the next night;
    the active memories' texts."""
    prepared(repo, "2026-06-02T08:00:00Z", "init", str(repo))
    for hour, turn in enumerate(said, start=9):
        prepared(repo, f"2026-06-02T{hour:02d}:00:00Z", "log", f"User: {turn}")
    dreamgit(repo, "2026-06-03T03:00:00Z", "run", "--force")
    return [m["text"] for m in active(repo, "2026-06-03T04:00:00Z")]


@pytest.mark.slow
def test_a_correction_of_it_names_the_subject_it_corrects_and_retires_the_old_port(
    tmp_path: Path,
) -> None:
    """ "correction: it moved to port 9305 last night" after "the search index listens on
    port 9201" leaves one memory, which says the search index moved."""
    repo = tmp_path / "mem"
    texts = _day(
        repo,
        "The search index listens on port 9201.",
        "correction: it moved to port 9305 last night",
    )
    ports = [t for t in texts if "port" in t]
    assert ports == [
        "The user says the search index moved to port 9305 on the night of 1 June 2026."
    ]
    fsck(repo)


@pytest.mark.slow
def test_a_correction_of_it_leaves_an_earlier_other_thing_and_another_noun_alone(
    tmp_path: Path,
) -> None:
    """ "it" is the thing last said with that noun: the metrics exporter's port moves, the
    search index's stays; a room number said of "it" changes no port at all."""
    repo = tmp_path / "mem"
    texts = _day(
        repo,
        "The search index listens on port 9201.",
        "The metrics exporter listens on port 9100.",
        "Correction: it moved to port 9188 today.",
        "The standup happens in room 12.",
        "Correction: it moved to room 14 today.",
    )
    assert "The user says the search index listens on port 9201." in texts
    assert [t for t in texts if "metrics exporter" in t] == [
        "The user says the metrics exporter moved to port 9188 on 2 June 2026."
    ]
    assert not any("9100" in t for t in texts)
    assert not any(t.startswith("The user says it moved to port") for t in texts)
    fsck(repo)


@pytest.mark.slow
def test_corrections_said_of_it_and_this_are_decided_alike_in_every_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two corrections of one port, one said of "it" and one of "this", the same hour:
    the dream keeps the same memories whatever the process's string hashes (the stand-ins
    are read in one order, not a set's)."""
    said = (
        "The search index listens on port 9201.",
        "Correction: it moved to port 9305 today. Correction: this moved to port 9400 today.",
    )
    kept = []
    for seed in ("0", "1", "3"):
        monkeypatch.setenv("PYTHONHASHSEED", seed)
        kept.append(sorted(_day(tmp_path / f"mem-{seed}", *said)))
    assert kept[0] == kept[1] == kept[2]
    assert not any("9201" in t for t in kept[0])
