"""The keeper of the newer-value check's layout holds what a run gave back as JSON text.

A layout given back changed is held as its texts, a part each (not the objects the run
moved), and saved when the block ends; one given back unchanged is neither held nor
saved. Either way a later take gives a layout equal to the one given back, and the
texts, all ASCII, read back the same layout as the texts the code before wrote (names
of any script); parts of another shape read as no layout.
"""

from __future__ import annotations

import gc
import json
import weakref
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dreamgit.dream.consolidate.update import find_updates
from dreamgit.dream.consolidate.update_kept import Layout, LayoutKeeper
from dreamgit.dream.consolidate.update_memo import keeping_updates
from dreamgit.model import Memory
from dreamgit.store.keptlayout import KeptLayout


def _layout(name: str = "lena\x1fteam") -> Layout:
    return Layout(
        members={"m-1": ["1c1b4f664154a4dbaa4790ca", "2025-01-06T08:35:17+00:00", [name], None]},
        groups={name: [["m-1", 0, 64 + 1]]},
        found={name: {"m-1\x1f0": [["m-0", "m-1", "newer value", ""]]}},
        relations={"live\x1fin": 1},
    )


def _kept(tmp_path: Path) -> KeptLayout:
    return KeptLayout(tmp_path, fingerprint="this code")


def test_a_layout_given_back_changed_is_held_as_text_and_saved_at_the_end(
    tmp_path: Path,
) -> None:
    """The keeper holds no layout object, a take gives an equal one (again and again),
    and the save keeps it."""
    kept = _kept(tmp_path)
    keeper = LayoutKeeper(kept)
    assert keeper.take() is None
    given = _layout()
    keeper.give(given, changed=True)
    assert not any(value is given for value in vars(keeper).values())
    again = keeper.take()
    assert again == given and again is not given
    assert keeper.take() == given  # the held texts are not used up by a take
    assert kept.load() is None  # saved only when the block ends
    keeper.save()
    assert LayoutKeeper(kept).take() == given


def test_a_layout_given_back_unchanged_is_not_held_nor_saved(tmp_path: Path) -> None:
    """A take after it loads the kept layout again; nothing is written."""
    kept = _kept(tmp_path)
    kept.save(_layout().encode())
    keeper = LayoutKeeper(kept)
    taken = keeper.take()
    assert taken == _layout()
    keeper.give(taken, changed=False)
    kept.save(_layout("omar").encode())  # another process's save meanwhile
    keeper.save()
    assert keeper.take() == _layout("omar") == LayoutKeeper(kept).take()


def test_the_texts_are_ascii_and_read_back_as_the_code_before_wrote_them(
    tmp_path: Path,
) -> None:
    """Names of other scripts and beyond the basic plane: each part's text has only
    ASCII, and they and the texts written with them as they are (the code before) give
    one layout."""
    layout = _layout("zoë\x1f東京\x1f🎻")
    parts = layout.encode()
    assert set(parts) == {"v", *vars(layout)}
    assert all(text.isascii() for text in parts.values())
    before = {"v": layout.encode()["v"]} | {
        n: json.dumps(v, ensure_ascii=False) for n, v in vars(layout).items()
    }
    assert not all(text.isascii() for text in before.values())
    assert Layout.decode(dict(parts)) == Layout.decode(dict(before)) == layout
    kept = _kept(tmp_path)
    kept.save(before)
    assert LayoutKeeper(kept).take() == layout


@pytest.mark.parametrize(
    "broken",
    [{"v": "1"}, {"found": None}, {"groups": "{broken"}, {"members": "[]"}],
    ids=["other-version", "part-missing", "unreadable-part", "part-of-another-shape"],
)
def test_parts_of_another_shape_read_as_no_layout(broken: dict[str, str | None]) -> None:
    """Another version, a part missing, unreadable or not a mapping: no layout."""
    parts = _layout().encode() | broken
    assert Layout.decode({n: text for n, text in parts.items() if text is not None}) is None


def _memories(texts: list[str]) -> list[Memory]:
    start = datetime(2025, 3, 1, tzinfo=UTC)
    return [
        Memory(
            id=f"m-k{n}",
            topic="life",
            slug=f"s{n}",
            text=text,
            created=start + timedelta(days=n),
            updated=start + timedelta(days=n),
        )
        for n, text in enumerate(texts)
    ]


def test_the_layout_a_run_moved_is_let_go_with_the_collector_paused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dream pauses the collector: nothing of the check's run may hold its layout (a
    cycle), which the keeper, given it back, holds as text only."""
    given: list[weakref.ref[Layout]] = []
    give = LayoutKeeper.give

    def spied(keeper: LayoutKeeper, layout: Layout, *, changed: bool) -> None:
        given.append(weakref.ref(layout))
        give(keeper, layout, changed=changed)

    monkeypatch.setattr(LayoutKeeper, "give", spied)
    said = ["Lena's phone is an iPhone 12.", "Lena upgraded to an iPhone 15.", "Omar has 3 tabs."]
    gc.disable()
    try:
        with keeping_updates(tmp_path):
            assert [u.old for u in find_updates(_memories(said))] == ["m-k0"]
            assert given and all(ref() is None for ref in given)
    finally:
        gc.enable()
