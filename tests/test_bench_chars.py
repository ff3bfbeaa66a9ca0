"""The character bench: each character of a memory is charged to one kind of overhead or
to content, and a memory that repeats an earlier one is charged whole as a repeat."""

from __future__ import annotations

import collections
import json
import re
from pathlib import Path
from types import ModuleType, SimpleNamespace

from benchkit import load_bench


def _bench() -> ModuleType:
    return load_bench("bench_chars")


def _by_kind(text: str, names: list[str]) -> dict[str, str]:
    owner = _bench().charge(text, names)
    spans: dict[str, list[str]] = collections.defaultdict(list)
    for char, kind in zip(text, owner, strict=True):
        spans[kind].append(char)
    return {kind: "".join(chars) for kind, chars in spans.items()}


def test_a_note_charges_its_lead_the_name_said_again_and_a_repeated_date() -> None:
    """A note's person, a name said again, the verb of saying, and a date given twice."""
    text = (
        "Ines \u2014 adopted a greyhound on 2 April 2031; Ines says Comet sleeps a lot; "
        "walked him in Cascais on 2 April 2031."
    )
    kinds = _by_kind(text, ["Ines", "Omar"])
    assert kinds["lead"] == "Ines \u2014 "
    assert kinds["name-again"] == "Ines"
    assert kinds["attribution"] == " says"
    assert kinds["date"] == "2 April 2031"
    assert kinds["date-again"] == "2 April 2031"
    assert kinds["date-frame"] == "on on "
    assert "greyhound" in kinds["content"] and "Cascais" in kinds["content"]


def test_a_plain_statement_is_content_but_its_filler_and_full_stop() -> None:
    """One name said once is content; "really" is filler; the full stop a separator."""
    kinds = _by_kind("Omar really likes blue bowls.", ["Ines", "Omar"])
    assert kinds == {"content": "Omar likes blue bowls", "filler": "really ", "separator": "."}


def test_a_memory_that_repeats_an_earlier_one_is_charged_whole(tmp_path: Path) -> None:
    """Two memories with the same content words: the second is a repeat, every character."""
    prepared = tmp_path / "set"
    conv = prepared / "conversations" / "chat-1"
    conv.mkdir(parents=True)
    (conv / "conversation.json").write_text(json.dumps({"speakers": ["Ines"]}), encoding="utf-8")
    memory = tmp_path / "memory" / "chat-1"
    memory.mkdir(parents=True)
    (memory / "a.md").write_text("Ines bakes rye bread every Sunday.\n", encoding="utf-8")
    (memory / "b.md").write_text("Ines bakes rye bread every Sunday!\n", encoding="utf-8")
    scorer = SimpleNamespace(tokens=lambda text: re.findall(r"[a-z0-9]+", text.lower()))
    counts = _bench().tally(tmp_path / "memory", prepared, scorer)
    assert counts["files"] == 2
    assert counts["repeat"] == len("Ines bakes rye bread every Sunday!")
    assert counts["chars"] == 2 * len("Ines bakes rye bread every Sunday.\n")
