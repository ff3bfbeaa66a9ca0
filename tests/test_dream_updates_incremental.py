"""The newer-value check over kept caches answers as a scan from nothing, run after run.

A dream keeps what the newer-value and count checks read and found (``update_readings``,
``update_memo``, ``update_layout``, ``count_memo``, ``frame_memo``) and takes from it what
no new or changed memory touches. Over random sequences of added, changed and removed
memories (of subjects tied by owner, team and the user's name for them, with moved
dates, promotions and changes said of "it"), each run with the caches of the runs before
gives the updates of :func:`find_updates` with nothing kept; a run over the same memories
reads and compares none of them, a changed memory has only its subjects and those tied
to them compared again, and a memory whose count changes are kept is not framed again.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from callspy import first_arguments
from dreamgit.dream.consolidate import count_said, counts, update, update_frames
from dreamgit.dream.consolidate.count_memo import keeping_counts
from dreamgit.dream.consolidate.frame_memo import keeping_frames
from dreamgit.dream.consolidate.update import find_updates
from dreamgit.dream.consolidate.update_memo import keeping_updates
from dreamgit.model import Memory
from dreamgit.store.keptframes import KeptReadings
from dreamgit.store.lookedreadings import LookedUpReadings

_T0 = datetime(2026, 5, 4, 8, tzinfo=UTC)

_PEOPLE = ["Lena", "Omar", "The user", "The user's brother", "Lena's team", "The user's team"]
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
        f"{who} uses {rng.choice(_TOOLS)} now.",
        f"The staging database listens on port {n * 100}.",
        f"Correction: it moved to port {n * 100}.",
        f"{rng.choice(_PEOPLE[:2])} works as a junior engineer.",
        f"{rng.choice(_PEOPLE[:2])} got promoted to senior engineer.",
        f"{rng.choice(_PEOPLE[:2])} has a launch on {n % 27 + 1} June.",
        f"{rng.choice(_PEOPLE[:2])}'s launch was pushed to {n % 27 + 1} July.",
        f"{rng.choice(_PEOPLE[:2])}'s phone is an iPhone {n}.",
        f"{rng.choice(_PEOPLE[:2])} upgraded to an iPhone {n}.",
        f"The user's billing service runs on {rng.choice(_TOOLS)}.",
        f"The billing service runs on {rng.choice(_TOOLS)}.",
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


def replayed_as_scanned(git_dir: Path, seed: int, *, runs: int) -> set[str]:
    """Runs of random steps (``_step``), each run's updates over the caches the runs before
    kept asserted equal to those found afresh; the found reasons' first words."""
    rng = random.Random(seed)
    store: dict[str, Memory] = {}
    serial = [0]
    reasons: set[str] = set()
    for _run in range(runs):
        _step(rng, store, serial)
        memories = sorted(store.values(), key=lambda m: m.id)
        fresh = find_updates(memories)
        with _kept(git_dir):
            assert find_updates(memories) == fresh
        reasons.update(u.reason.split(" ", 1)[0] for u in fresh)
    return reasons


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


@pytest.mark.parametrize("seed", [3, 11, 29, 41])
def test_runs_over_kept_caches_answer_as_a_scan_from_nothing(tmp_path: Path, seed: int) -> None:
    """Each run's updates with the caches of the runs before are those found afresh."""
    reasons = replayed_as_scanned(tmp_path, seed, runs=16)
    # the sequences hold newer values of the kinds the layout carries between runs
    assert {"promoted:", "listens", "upgraded"} & reasons


def _spied(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[frozenset[str]], list[str]]:
    """The texts read afresh, the subjects compared and the texts whose reading is asked
    for (kept or not) from now on."""
    read = first_arguments(monkeypatch, "_reading", update_frames)
    compared = first_arguments(monkeypatch, "_subject_updates", update)
    asked = first_arguments(monkeypatch, "kept_reading", update_frames)
    return read, compared, asked


#: (text, hour) of memories whose subjects are tied: Lena, her team, her phone; and Omar.
_TIED = [
    _memory(n, text, hour)
    for n, (text, hour) in enumerate(
        [
            ("Lena uses Flask for the billing service.", 0),
            ("Lena's team switched from Flask to Django.", 5),
            ("Lena's phone is an iPhone 12.", 1),
            ("Lena upgraded to an iPhone 15.", 6),
            ("Omar lives in Oslo.", 0),
            ("Omar moved to Porto.", 4),
        ],
        start=1,
    )
]


def test_a_run_over_the_same_memories_reads_and_compares_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kept layout answers for every subject: no memory read, no subject compared."""
    fresh = find_updates(_TIED)
    with _kept(tmp_path):
        assert find_updates(_TIED) == fresh
    read, compared, asked = _spied(monkeypatch)
    with _kept(tmp_path):
        assert find_updates(_TIED) == fresh
    assert (read, compared, asked) == ([], [], [])


def test_a_changed_memory_has_its_subjects_and_those_tied_to_them_compared_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lena's team's memory changed: Lena's team and Lena (whose team it is, and who owns
    what the team says) are compared again, Omar is not."""
    with _kept(tmp_path):
        find_updates(_TIED)
    changed = [*_TIED[:1], _memory(2, "Lena's team switched from Flask to Vue.", 5), *_TIED[2:]]
    expected = find_updates(changed)
    read, compared, asked = _spied(monkeypatch)
    with _kept(tmp_path):
        assert find_updates(changed) == expected
    assert read == ["Lena's team switched from Flask to Vue."]
    assert set(compared) == {frozenset({"lena", "team"}), frozenset({"lena"})}
    assert asked and not any("Omar" in text for text in asked)


def test_a_run_loads_only_the_kept_readings_of_the_subjects_it_compares(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kept readings are never loaded whole: a run asks for those of the memories of
    the subjects it compares again, in one batch, and none of Omar's."""
    with _kept(tmp_path):
        find_updates(_TIED)
    asked: list[str] = []
    real = KeptReadings.load_some

    def some(kept: KeptReadings, texts: Sequence[str]) -> dict[str, str]:
        if kept.path.name == "update-readings.sqlite3":
            asked.extend(texts)
        return real(kept, texts)

    def whole(kept: KeptReadings) -> LookedUpReadings:
        assert kept.path.name != "update-readings.sqlite3", "looked up text by text"
        return looked_up(kept)

    looked_up = KeptReadings.looked_up
    monkeypatch.setattr(KeptReadings, "load_some", some)
    monkeypatch.setattr(KeptReadings, "looked_up", whole)
    changed = [*_TIED[:3], _memory(4, "Lena upgraded to an iPhone 16.", 6), *_TIED[4:]]
    with _kept(tmp_path):
        assert find_updates(changed) == find_updates(changed)
    assert asked and not any("Omar" in text for text in asked)
    assert "Lena's phone is an iPhone 12." in asked


def test_the_kept_readings_of_gone_memories_are_dropped_when_many(tmp_path: Path) -> None:
    """Readings of texts no memory holds any more stay until they are a quarter of all."""
    old = [_memory(n, f"Lena has {n} plugins.", n) for n in range(1, 9)]
    with _kept(tmp_path):
        find_updates(old)
    path = tmp_path / "dreamgit" / "cache" / "update-readings.sqlite3"

    def texts() -> set[str]:
        with sqlite3.connect(path) as db:
            return {t for (t,) in db.execute("SELECT text FROM readings")}

    assert texts() == {m.text for m in old}
    one_gone = [*old[1:], _memory(20, "Omar has 3 tabs.", 20)]
    with _kept(tmp_path):
        find_updates(one_gone)
    assert texts() == {m.text for m in old} | {"Omar has 3 tabs."}  # one stale row of nine
    many_gone = [*old[6:], *(_memory(n, f"Omar has {n} tabs.", n) for n in range(21, 24))]
    with _kept(tmp_path):
        find_updates(many_gone)
    assert texts() == {m.text for m in many_gone}


def test_a_memory_whose_count_changes_are_kept_is_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A later run takes what every unchanged memory's counts change from the kept layout
    without reading or framing it; a new memory's neighbours are read to compare."""
    store = [
        _memory(1, "Lena has 9 plugins in the editor.", 0),
        _memory(2, "Lena installed 14 plugins in the editor.", 2),
        _memory(3, "Omar's reading list has 30 novels.", 1),
    ]

    def pairs(memories: list[Memory]) -> list[tuple[str, str]]:
        with _kept(tmp_path):
            return [(u.old, u.new) for u in find_updates(memories)]

    first = pairs(store)
    assert first == [("m-inc00001", "m-inc00002")]
    framed = first_arguments(monkeypatch, "parse_frame", count_said, counts)
    said = first_arguments(monkeypatch, "_said", counts)
    assert pairs(store) == first
    assert (framed, said) == ([], [])
    added = [*store, _memory(4, "Omar's reading list has 34 novels.", 3)]
    assert pairs(added) == [*first, ("m-inc00003", "m-inc00004")]
    assert not any("plugins" in fact for fact in framed)  # Lena's are not compared anew
    assert not any("plugins" in memory.text for memory in said)
