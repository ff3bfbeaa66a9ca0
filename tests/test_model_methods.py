"""``Memory``'s hand-written methods behave as the ones ``dataclass`` would generate."""

from __future__ import annotations

import dataclasses
import pickle
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamgit.model import Memory, RecallStats

#: A twin of ``Memory`` with every method generated, from the same fields.
_TWIN: Any = dataclasses.make_dataclass(
    "Memory",
    [
        (
            f.name,
            f.type,
            dataclasses.field(
                default=f.default, default_factory=f.default_factory, compare=f.compare, hash=f.hash
            ),
        )
        for f in dataclasses.fields(Memory)
    ],
    frozen=True,
)

_TIMES = st.datetimes(timezones=st.just(UTC))
_WORDS = st.text(max_size=6)
_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "id": _WORDS, "topic": _WORDS, "slug": _WORDS, "text": _WORDS,
    "created": _TIMES, "updated": _TIMES, "name": _WORDS, "description": _WORDS,
    "type": _WORDS, "priority": _WORDS, "key": st.none() | _WORDS,
    "tags": st.tuples(_WORDS), "sources": st.tuples(_WORDS), "supersedes": st.tuples(),
    "valid_from": st.none() | _TIMES, "valid_to": st.none() | _TIMES,
    "superseded_by": st.tuples(_WORDS), "confidence": st.floats(0, 1), "recalls": st.integers(0),
    "recall": st.none() | st.builds(RecallStats, count=st.integers(0, 3)),
    "extra": st.dictionaries(_WORDS, _WORDS, max_size=2), "file": _WORDS,
}  # fmt: skip
_REQUIRED = ("id", "topic", "slug", "text", "created", "updated")
_FIELDS = st.fixed_dictionaries(
    {k: v for k, v in _VALUES.items() if k in _REQUIRED},
    optional={k: v for k, v in _VALUES.items() if k not in _REQUIRED},
)


def test_the_fields_are_all_drawn() -> None:
    """The test draws every field of ``Memory``, in its order."""
    assert list(_VALUES) == [f.name for f in dataclasses.fields(Memory)]


@given(_FIELDS, _FIELDS)
def test_init_repr_eq_and_hash_match_the_generated_ones(
    one: dict[str, Any], other: dict[str, Any]
) -> None:
    """Fields set, defaults, repr, equality and hash are the generated twin's."""
    a, b = Memory(**one), Memory(**other)
    twin_a, twin_b = _TWIN(**one), _TWIN(**other)
    assert repr(a) == repr(twin_a)
    assert dataclasses.astuple(a) == dataclasses.astuple(twin_a)
    assert (a == b) == (twin_a == twin_b)
    assert (a == Memory(**one)) and hash(a) == hash(Memory(**{**one, "extra": {"x": "y"}}))
    assert hash(a) == hash(twin_a)
    assert a.__eq__(twin_a) is NotImplemented
    assert dataclasses.replace(a, text="changed").text == "changed"


def test_positional_fields_defaults_and_freezing() -> None:
    """Positional order, a fresh ``extra`` each time, frozen, and it pickles."""
    when = datetime(2026, 11, 20, tzinfo=UTC)
    a = Memory("m-1", "tools", "s", "Text.", when, when)
    b = Memory("m-1", "tools", "s", "Text.", when, when)
    assert a == b and a.extra == {} and a.extra is not b.extra
    assert repr(a) == repr(_TWIN("m-1", "tools", "s", "Text.", when, when))
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.text = "other"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(a)) == a
