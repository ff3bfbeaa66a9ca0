"""The newer-value check over kept caches answers as a scan from nothing, run after run.

A dream keeps what the newer-value and count checks read and found (``update_readings``,
``update_memo``, ``count_memo``, ``frame_memo``) and takes from it what no new or changed
memory touches. Over random sequences of added, changed and removed memories, each run
with the caches of the runs before gives the updates of :func:`find_updates` with nothing
kept; and a memory whose count changes are kept is not framed again.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from callspy import first_arguments
from dreamgit.dream.consolidate import count_said, counts
from dreamgit.dream.consolidate.count_memo import keeping_counts
from dreamgit.dream.consolidate.frame_memo import keeping_frames
from dreamgit.dream.consolidate.update import find_updates
from dreamgit.dream.consolidate.update_memo import keeping_updates
from dreamgit.model import Memory

_T0 = datetime(2026, 5, 4, 8, tzinfo=UTC)

_PEOPLE = ["Lena", "Omar", "The user", "The user's brother"]
_THINGS = ["plugins", "workers", "novels", "tabs"]
_PLACES = ["Oslo", "Porto", "Quito", "Riga"]
_TOOLS = ["Flask", "Django", "Redis", "Postgres"]
_PROJECTS = ["the harbor app", "the kiln project", "the atlas site"]


def _sentence(rng: random.Random) -> str:
    """One statement of the shapes the check compares: counts, places, tools, dates."""
    who, n = rng.choice(_PEOPLE), rng.randint(2, 40)
    shapes = [
        f"{who} has {n} {rng.choice(_THINGS)}.",
        f"{who} now has {n} {rng.choice(_THINGS)}.",
        f"{who} installed {n} {rng.choice(_THINGS)} for the editor.",
        f"{who} lives in {rng.choice(_PLACES)}.",
        f"{who} moved to {rng.choice(_PLACES)}.",
        f"{who} uses {rng.choice(_TOOLS)} for the billing service.",
        f"{who} switched from {rng.choice(_TOOLS)} to {rng.choice(_TOOLS)}.",
        f"{who} no longer uses {rng.choice(_TOOLS)}.",
        f"The launch of {rng.choice(_PROJECTS)} is on {n % 27 + 1} June.",
        f"The launch of {rng.choice(_PROJECTS)} moved to {n % 27 + 1} July.",
        f"The page size of {rng.choice(_PROJECTS)} is {n * 10}.",
        f"{who} is {n + 20} years old.",
    ]
    return rng.choice(shapes)


def _memory(n: int, text: str, hours: int) -> Memory:
    when = _T0 + timedelta(hours=hours)
    return Memory(
        id=f"m-inc{n:05d}", topic="life", slug=f"s{n}", text=text, created=when, updated=when
    )


@contextmanager
def _kept(git_dir: Path) -> Iterator[None]:
    """The caches a dream's plan opens for the newer-value and count checks."""
    with ExitStack() as stack:
        stack.enter_context(keeping_frames(git_dir))
        stack.enter_context(keeping_counts(git_dir))
        stack.enter_context(keeping_updates(git_dir))
        yield


def _step(rng: random.Random, store: dict[str, Memory], serial: list[int]) -> None:
    """Add, change or remove a few memories."""
    for _k in range(rng.randint(1, 6)):
        roll = rng.random()
        if roll < 0.55 or len(store) < 4:
            serial[0] += 1
            memory = _memory(serial[0], _sentence(rng), rng.randint(0, 400))
            store[memory.id] = memory
        elif roll < 0.8:
            old = store[rng.choice(sorted(store))]
            n = int(old.id.removeprefix("m-inc"))
            store[old.id] = _memory(n, _sentence(rng), rng.randint(0, 400))
        else:
            del store[rng.choice(sorted(store))]


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_runs_over_kept_caches_answer_as_a_scan_from_nothing(tmp_path: Path, seed: int) -> None:
    """Each run's updates with the caches of the runs before are those found afresh."""
    rng = random.Random(seed)
    store: dict[str, Memory] = {}
    serial = [0]
    found_any = False
    for _run in range(12):
        _step(rng, store, serial)
        memories = sorted(store.values(), key=lambda m: m.id)
        fresh = find_updates(memories)
        with _kept(tmp_path):
            assert find_updates(memories) == fresh
        found_any = found_any or bool(fresh)
    assert found_any  # the sequences do hold newer values


def test_a_memory_whose_count_changes_are_kept_is_not_framed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A later run takes what every unchanged memory's counts change from the kept answers
    without framing its sentence; a new memory's neighbours are framed to compare."""
    store = [
        _memory(1, "Lena has 9 plugins in the editor.", 0),
        _memory(2, "Lena installed 14 plugins in the editor.", 2),
        _memory(3, "Omar's reading list has 30 novels.", 1),
    ]
    with _kept(tmp_path):
        first = [(a.id, b.id) for a, b, _why in counts.count_changes(store)]
    assert first == [("m-inc00001", "m-inc00002")]

    framed = first_arguments(monkeypatch, "parse_frame", count_said, counts)
    with _kept(tmp_path):
        again = [(a.id, b.id) for a, b, _why in counts.count_changes(store)]
    assert again == first
    assert framed == []
    added = [*store, _memory(4, "Omar's reading list has 34 novels.", 3)]
    with _kept(tmp_path):
        later = [(a.id, b.id) for a, b, _why in counts.count_changes(added)]
    assert later == [*first, ("m-inc00003", "m-inc00004")]
    assert not any("plugins" in fact for fact in framed)  # Lena's are not compared anew
