"""The newer-value check compares again only the members a change can answer otherwise for.

The layout keeps what each member of a subject found (``update_layout``); a run compares
again the members new or changed, those with a memory in or out of the window before
them, and those that read a tied subject that moved (``update_reach``). Whatever moved, a
run over the kept layout finds what a scan from nothing finds: with a window of three
(so that members leave and join windows inside small subjects), in a subject of many
members one of which leaves or changes, and in the dream after an applied dream.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from callspy import first_arguments
from dreamgit.dream.consolidate import (
    update,
    update_layout,
    update_members,
    update_passes,
    update_reach,
)
from dreamgit.dream.consolidate.update import find_updates
from dreamgit.model import Memory
from dreamgit.store.repo import MemoryRepo
from dreamkit import MEMORIES, Seed, build_repo, forced_dream
from keptstates import forget_in_process_readings
from test_dream_updates_incremental import _kept, _memory, replayed_as_scanned


@pytest.mark.parametrize("seed", [5, 17, 23, 37, 43])
def test_runs_with_a_small_window_answer_as_a_scan_from_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """A window of three: memories added, changed and removed move members in and out of
    each other's windows, and every run over the kept layout finds the updates found
    afresh."""
    for module in (update_layout, update_members, update_passes, update_reach):
        monkeypatch.setattr(module, "WINDOW", 3)
    replayed_as_scanned(tmp_path, seed, runs=24)


#: What the user says, in turns: counts, places, tools and ages of one subject.
_SAID = [
    "The user has {n} plants.",
    "The user lives in {place}.",
    "The user uses {tool} for the billing service.",
    "The user is {age} years old.",
    "The user now has {n} plants.",
    "The user moved to {place}.",
    "The user switched from Flask to {tool}.",
    "The user reads {n} books a year.",
]


def _user(count: int) -> list[Memory]:
    """``count`` memories of the user, an hour apart."""
    places, tools = ["Oslo", "Porto", "Quito", "Riga"], ["Django", "Redis", "Postgres"]
    return [
        _memory(
            n,
            _SAID[n % len(_SAID)].format(
                n=n % 11 + 2, place=places[n % 4], tool=tools[n % 3], age=20 + n % 9
            ),
            n,
        )
        for n in range(1, count + 1)
    ]


@pytest.mark.parametrize("change", ["leaves", "changes", "joins"])
def test_a_member_leaving_changing_or_joining_a_subject_of_many(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    """160 memories of the user, one in the middle taken out, said otherwise, or one more
    at the end: the run finds what a scan from nothing finds, comparing again some of the
    user's members, not all of them."""
    before = _user(160)
    with _kept(tmp_path):
        find_updates(before)
    if change == "leaves":
        after = before[:80] + before[81:]
    elif change == "changes":
        after = [*before[:80], _memory(81, "The user lives in Lima.", 81), *before[81:]]
    else:
        after = [*before, _memory(161, "The user moved to Lima.", 161)]
    expected = find_updates(after)
    compared = first_arguments(monkeypatch, "_subject_updates", update)
    places: list[list[int] | None] = []
    real = update._subject_updates

    def spied(*args: object) -> object:
        places.append(args[3])  # type: ignore[arg-type]  # the places asked for
        return real(*args)  # type: ignore[arg-type]  # as the check calls it

    monkeypatch.setattr(update, "_subject_updates", spied)
    with _kept(tmp_path):
        assert find_updates(after) == expected
    assert frozenset({"user"}) in compared
    asked = places[compared.index(frozenset({"user"}))]
    assert asked is not None and 0 < len(asked) < len(after) // 2
    assert {u.reason for u in expected}  # the user's memories do supersede each other


#: A core fixture and memories of the user that newer ones change.
_APPLIED: tuple[Seed, ...] = (
    *MEMORIES,
    *(Seed(m.text, "life", hours=n) for n, m in enumerate(_user(48), start=1)),
)


def test_the_dream_after_an_applied_dream_is_the_dream_with_no_cache(tmp_path: Path) -> None:
    """After an applied dream, the next dream over the kept caches plans what it plans with
    every cache deleted: the same run id, operations, deferred work and tree."""
    kept = build_repo(tmp_path / "kept", bare=True, memories=_APPLIED)
    forget_in_process_readings()
    first = forced_dream(kept)
    assert any(op[2] == "supersede-newer-value" for op in first[0][1])
    cleared = tmp_path / "cleared"
    shutil.copytree(tmp_path / "kept", cleared)
    shutil.rmtree(cleared / "dreamgit" / "cache")
    forget_in_process_readings()
    over_kept = forced_dream(kept)
    forget_in_process_readings()
    assert forced_dream(MemoryRepo.open(str(cleared))) == over_kept
