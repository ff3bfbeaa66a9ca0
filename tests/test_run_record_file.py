"""The stored run record: indented JSON whose long lists hold one item a line.

A dream over 10,000 memories may defer 19,000 prunes; written indented, item by item,
that list was 2.3 MB and a tenth of the run. Each item of ``ops``, ``deferred`` and
``decisions`` is now one line, and the file still reads back as the record ``run``
returned when it was written (not ``merged``, a fact about main, not the branch).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamgit.history.runrecords import record_path
from dreamgit.store.secrets import redact_value
from dreamkit import fixture_copy, git, invoke_json


def test_the_stored_record_reads_back_as_the_run_and_lists_one_item_a_line(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Ops, deferred work and decisions one per line; the rest indented as before."""
    repo = fixture_copy(tmp_path_factory, tmp_path / "mem", bare=True)
    record = invoke_json(repo, "run", "--force", "--rules", "conservative")
    assert record["deferred"] and record["decisions"]
    text = git(repo, "show", f"main:{record_path(record['run_id'])}")
    stored = json.loads(text)
    assert "merged" not in stored and {"ops", "deferred", "decisions", "counts"} <= set(stored)
    assert stored == {k: record[k] for k in stored}
    lines = text.splitlines()
    for field in ("ops", "deferred", "decisions"):
        start = lines.index(f'  "{field}": [')
        items = lines[start + 1 : start + 1 + len(record[field])]
        assert [json.loads(line.strip().rstrip(",")) for line in items] == record[field]
        assert lines[start + 1 + len(record[field])].strip() in ("]", "],")
    assert '  "counts": {' in lines


def test_a_credential_said_many_times_in_a_record_is_redacted_everywhere() -> None:
    """The same string scanned once per record is still redacted at each place it stands."""
    key = "the deploy key is AKIAZ7QWERTYUIOP4ASD for prod"
    clean = redact_value({"decisions": [{"reason": key}, {"reason": key}], key: [key, "tea"]})
    assert "AKIAZ7QWERTYUIOP4ASD" not in json.dumps(clean)
    assert clean["decisions"][0] == clean["decisions"][1]
    assert [v for k, v in clean.items() if k != "decisions"] == [
        ["the deploy key is [REDACTED:aws-key] for prod", "tea"]
    ]
