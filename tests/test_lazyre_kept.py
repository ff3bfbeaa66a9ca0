"""Compiled patterns kept between processes: the same patterns with the kept parts, without
them and with a damaged file; a process that finds them parses none of them again."""

from __future__ import annotations

import json
import os
import pickle
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dreamgit import lazyre

#: Patterns of every shape the parts carry: flags (given and inline), named and unnamed
#: groups, classes, repeats, alternatives, anchors.
PATTERNS: list[tuple[str, int]] = [
    (r"(?P<who>alice|bob)\b", 0),
    (r"(?P<who>alice|bob)\s+(met|left)\s+(?P<whom>\w+)", re.IGNORECASE),
    (r"^\d{1,2}(:\d{2})?\s?(am|pm)$", re.MULTILINE | re.IGNORECASE),
    (r"(?i)\b(appointments?|deadlines?)\b", 0),
    (r"[^\W_]{3,}", 0),
    (r"(?x) a \s* b  # spaced out", 0),
]
TEXT = "Alice met Bob at 5pm\n10:30 am\nbob left Carol; two deadlines, one appointment\na b"

#: Compiles ``PATTERNS`` through the kept parts in a fresh interpreter and prints, as JSON,
#: what each pattern is and finds, and how many of them ``re`` parsed to make them.
_PROBE = textwrap.dedent(
    """
    import json, re, sys
    parsed = []
    real = re._parser.parse
    def counting(pattern, flags=0):
        parsed.append(pattern)
        return real(pattern, flags)
    re._parser.parse = counting
    from dreamgit.lazyre import compile_kept
    out = []
    for source, flags in json.loads(sys.argv[1]):
        p = compile_kept(source, flags)
        text = sys.argv[2]
        out.append([
            p.pattern, p.flags, p.groups, dict(p.groupindex), p.findall(text),
            [m.span() for m in p.finditer(text)], p.sub("#", text),
            [m.groupdict() for m in p.finditer(text)],
        ])
    wanted = {source for source, _ in json.loads(sys.argv[1])}
    print(json.dumps({"answers": out, "parsed": sum(p in wanted for p in parsed)}))
    """
)


def _probe() -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(PATTERNS), TEXT],
        capture_output=True,
        text=True,
        check=True,
        env=os.environ.copy(),
    )
    found: dict[str, object] = json.loads(done.stdout)
    return found


def _files(cache: Path) -> list[Path]:
    return sorted((cache / "dreamgit").glob("patterns-*.pickle"))


def _re_answers() -> list[object]:
    """What ``re.compile`` gives, in the probe's shape (through JSON, as the probe's are)."""
    out = []
    for source, flags in PATTERNS:
        p = re.compile(source, flags)
        out.append([
            p.pattern, p.flags, p.groups, dict(p.groupindex), p.findall(TEXT),
            [m.span() for m in p.finditer(TEXT)], p.sub("#", TEXT),
            [m.groupdict() for m in p.finditer(TEXT)],
        ])  # fmt: skip
    answers: list[object] = json.loads(json.dumps(out))
    return answers


def test_a_second_process_parses_none_and_gets_res_patterns(empty_user_cache: Path) -> None:
    """The first process parses each pattern and keeps the parts when it ends; the next
    parses none, and every pattern is what ``re.compile`` makes (flags, groups, matches)."""
    first = _probe()
    assert first["parsed"] == len(PATTERNS)
    [kept] = _files(empty_user_cache)
    second = _probe()
    assert second["parsed"] == 0
    assert first["answers"] == second["answers"] == _re_answers()
    assert _files(empty_user_cache) == [kept]


def test_a_damaged_or_foreign_file_is_parsed_again_and_rewritten(empty_user_cache: Path) -> None:
    """Bytes that are no pickle, a pickle of another shape: each pattern parsed again, the
    same answers, and the file holds the parts again after."""
    first = _probe()
    [kept] = _files(empty_user_cache)
    for damage in (b"\x80\x04 not a pickle", pickle.dumps(["a", "list"])):
        kept.write_bytes(damage)
        again = _probe()
        assert again == first
        assert _probe()["parsed"] == 0


def test_code_the_matcher_refuses_is_made_again(empty_user_cache: Path) -> None:
    """Kept code spoiled (the matcher checks what it is given): the pattern is parsed again
    and answers as ``re``'s does."""
    _probe()
    [kept] = _files(empty_user_cache)
    parts = pickle.loads(kept.read_bytes())
    for key, (flags, code, groups, index, names) in parts.items():
        parts[key] = (flags, [999999, *code[1:]], groups, index, names)
    kept.write_bytes(pickle.dumps(parts))
    spoiled = _probe()
    assert spoiled["parsed"] == len(PATTERNS)
    assert spoiled["answers"] == _re_answers()


def test_a_bad_pattern_raises_res_error(empty_user_cache: Path) -> None:
    """A pattern that does not parse raises ``re.error`` with ``re``'s message, and is not kept."""
    with pytest.raises(re.error, match="missing \\), unterminated subpattern"):
        lazyre.compile_kept("(unclosed", 0)
    assert ("(unclosed", 0) not in lazyre._added
