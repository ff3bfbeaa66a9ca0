"""Rule files' parsed YAML kept between processes: the same documents, positions and
errors with the cache, without it and with a damaged one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML

from dreamgit.cli import cli
from dreamgit.ruleset import yamlcache
from dreamgit.ruleset.layer import read_layer
from dreamgit.ruleset.merge import bundled_text
from dreamgit.store.repo import MemoryRepo
from gitcheck import NOW, NOW_TEXT

# Each test starts from a cache folder of its own, empty (the suite's is shared by a worker).
pytestmark = pytest.mark.usefixtures("empty_user_cache")

RULES = """\
extends: default
prune:
  drop-stale-notes:
    when: "type == 'project' and age > 90d"
"""


def _cached() -> list[Path]:
    return sorted(Path(os.environ["XDG_CACHE_HOME"], "dreamgit").glob("rules-yaml-*.pickle"))


def _positions(doc: object) -> list[object]:
    """Every mapping's keys with their line and column, depth first."""
    found: list[object] = []
    if isinstance(doc, dict):
        for key, value in doc.items():
            found.append((key, doc.lc.key(key)))  # type: ignore[attr-defined]
            found.extend(_positions(value))
    elif isinstance(doc, list):
        for item in doc:
            found.extend(_positions(item))
    return found


def test_a_second_load_is_read_from_the_cache_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bundled rules parse once; a later load unpickles the same document, positions too."""
    text = bundled_text("default")
    first = yamlcache.load_rules_yaml(text)
    assert len(_cached()) == 1

    class NoParsing:
        def __init__(self, **_: object) -> None:
            raise AssertionError("parsed again")

    monkeypatch.setattr(yamlcache, "YAML", NoParsing)
    again = yamlcache.load_rules_yaml(text)
    fresh = YAML(typ="rt").load(text)
    assert again == first == fresh
    assert _positions(again) == _positions(fresh)


def test_a_damaged_cache_file_is_parsed_again_and_rewritten() -> None:
    """Garbage in the pickle's place gives the parsed document, and a good pickle again."""
    yamlcache.load_rules_yaml(RULES)
    [file] = _cached()
    file.write_bytes(b"\x80garbage")
    assert yamlcache.load_rules_yaml(RULES) == YAML(typ="rt").load(RULES)
    assert file.read_bytes() != b"\x80garbage"


def test_text_that_does_not_parse_is_never_kept_and_reports_as_before() -> None:
    """A YAML error is found on every read and worded the same; nothing is written."""
    broken = "prune:\n  x: [\n"
    first = read_layer("rules.yaml", broken).source.errors
    second = read_layer("rules.yaml", broken).source.errors
    assert first and [str(e) for e in first] == [str(e) for e in second]
    assert _cached() == []


def test_at_most_sixteen_parsed_files_are_kept() -> None:
    """Each distinct text is one file; the oldest go past sixteen."""
    for k in range(20):
        yamlcache.load_rules_yaml(f"{RULES}# version {k}\n")
    assert len(_cached()) == 16


def test_rules_and_status_answer_the_same_without_the_cache(tmp_path: Path) -> None:
    """``rules check`` and ``status`` print the same with the cache, after deleting it and
    with every file in it damaged."""
    MemoryRepo.init(tmp_path / "mem", now=NOW)

    def answers() -> list[str]:
        outs = []
        for args in (["rules", "check"], ["status"], ["rules", "explain", "drop-stale"]):
            out = CliRunner().invoke(
                cli, ["--repo", str(tmp_path / "mem"), "--now", NOW_TEXT, *args]
            )
            outs.append(f"{out.exit_code}\n{out.output}")
        return outs

    first = answers()
    assert _cached()
    assert answers() == first
    for file in _cached():
        file.write_bytes(b"not a pickle")
    assert answers() == first
    for file in _cached():
        file.unlink()
    assert answers() == first
