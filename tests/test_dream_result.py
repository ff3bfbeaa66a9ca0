"""DreamResult: a frozen, typed result whose to_dict() is the run record unchanged, the same
JSON ``run --json`` prints and ``.dreamgit/runs/`` keeps, still readable by key."""

from __future__ import annotations

import dataclasses
import json
import typing
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from dreamgit import DreamEngine, DreamResult, MemoryRepo
from dreamgit.cli import cli
from dreamgit.clock import format_time
from dreamgit.records import RunRecord

NOW = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)


def _engine(root: Path) -> DreamEngine:
    engine = DreamEngine(MemoryRepo.init(root, now=NOW), now=NOW)
    engine.add_memory("Uses Flask for web services.", topic="tools")
    engine.log_session("User: I switched from Flask to FastAPI for web services.")
    return engine


def test_the_result_is_frozen_and_typed(tmp_path: Path) -> None:
    """Its verdict is fields of the right types, and it cannot be changed."""
    result = _engine(tmp_path / "m").dream(force=True)
    assert isinstance(result, DreamResult) and not isinstance(result, dict)
    assert isinstance(result.run_id, str) and result.merged and result.applied
    assert result.changed and isinstance(result.ops, tuple) and result.sessions
    assert (result.memories_before, result.memories_after) == (1, 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.merged = False  # type: ignore[misc]


def test_to_dict_is_what_run_json_prints(tmp_path: Path) -> None:
    """The API's record and `run --json`'s, on two alike repositories, are the same JSON."""
    api = _engine(tmp_path / "a").dream(force=True).to_dict()
    root = tmp_path / "c"
    _engine(root)
    out = CliRunner().invoke(
        cli, ["--repo", str(root), "--now", format_time(NOW), "run", "--force", "--json"]
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout) == json.loads(json.dumps(api))
    assert list(json.loads(out.stdout)) == list(api)


def test_the_result_reads_as_a_mapping_and_to_dict_is_a_copy(tmp_path: Path) -> None:
    """result["ops"] works as before; changing to_dict()'s copy leaves the result alone."""
    result = _engine(tmp_path / "m").dream(force=True)
    assert isinstance(result, Mapping)
    assert result["ops"] == list(result.ops) and "ops" in result
    assert list(result) == list(result.to_dict())
    copy = result.to_dict()
    copy["ops"].clear()
    assert result["ops"] and result.to_dict()["ops"]


def drift(result: type) -> list[str]:
    """The fields of a result class that are no required run-record key of the same type
    (the record's ``list[X]`` is the frozen result's ``tuple[X, ...]``)."""
    record = typing.get_type_hints(RunRecord, include_extras=True)
    found = []
    for name, hint in typing.get_type_hints(result).items():
        if name == "_record":
            continue
        if typing.get_origin(hint) is tuple:
            hint = list[typing.get_args(hint)[0]]  # type: ignore[misc]  # rebuilt from its item
        optional = typing.get_origin(record.get(name)) is typing.NotRequired
        if name not in record or optional or record[name] != hint:
            found.append(name)
    return found


def test_every_field_is_a_run_record_key_of_the_same_type() -> None:
    """from_record reads each field by its name, so each is a required key, typed alike."""
    assert drift(DreamResult) == []
    assert {f.name for f in dataclasses.fields(DreamResult)} - {"_record"} >= {"ops", "skipped"}


def test_a_field_that_drifts_from_the_record_is_named() -> None:
    """A field of another type, or one the record does not hold, is caught."""

    @dataclasses.dataclass(frozen=True)
    class Drifted:
        merged: str
        sessions: tuple[str, ...]
        colour: str
        base: str | None

    assert drift(Drifted) == ["merged", "colour", "base"]


def test_from_record_copies_each_field_from_its_key(tmp_path: Path) -> None:
    """Every field equals the record's key of that name; lists arrive as tuples."""
    result = _engine(tmp_path / "m").dream(force=True)
    record = result.to_dict()
    for f in dataclasses.fields(DreamResult):
        if f.name != "_record":
            value = getattr(result, f.name)
            expected = record[f.name]  # type: ignore[literal-required]  # each field is a key
            assert value == (tuple(expected) if isinstance(expected, list) else expected)
