"""One JSON encoder made once (jsontext.py): the text ``json.dumps`` writes."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamgit.jsontext import as_json

_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(_VALUES)
def test_a_value_is_written_as_json_dumps_writes_it(value: object) -> None:
    """Any JSON value (non-ASCII, NaN and nested ones too) as ``json.dumps(value,
    ensure_ascii=False)`` writes it."""
    assert as_json(value) == json.dumps(value, ensure_ascii=False)


def test_a_value_json_cannot_hold_raises_the_error_json_dumps_raises() -> None:
    """A set is no JSON value: the same TypeError as ``json.dumps``."""
    with pytest.raises(TypeError, match="Object of type set is not JSON serializable"):
        as_json([{"a"}])
