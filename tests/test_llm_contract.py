"""The model contract as pydantic models: its JSON Schema, `prompts show --schema`, and the
order in which an answer's faults are named (the first one a reader meets)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dreamgit.cli import cli
from dreamgit.errors import ProposalFormatError
from dreamgit.llm.contract import OPS, answer_schema, validate_answer
from dreamgit.llm.proposals import parse_proposals
from dreamgit.store.repo import MemoryRepo

ADD: dict[str, Any] = {
    "op": "add",
    "text": "Deploys the docs site from the gh-pages branch.",
    "topic": "projects",
    "confidence": 0.9,
    "sources": ["s-1"],
    "reason": "said in the session",
}


def _error(*proposals: Any, **envelope: Any) -> str:
    with pytest.raises(ProposalFormatError) as info:
        validate_answer({"proposals": list(proposals), **envelope})
    return str(info.value)


def test_the_schema_is_a_union_told_apart_by_op() -> None:
    """Five proposal models, chosen by ``op``, none allowing a field beyond its own."""
    schema = answer_schema()
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["proposals"]
    items = schema["properties"]["proposals"]["items"]
    assert items["discriminator"]["propertyName"] == "op"
    assert sorted(items["discriminator"]["mapping"]) == sorted(OPS)
    for name in ("AddProposal", "MergeProposal", "SupersedeProposal"):
        assert schema["$defs"][name]["additionalProperties"] is False
    add = schema["$defs"]["AddProposal"]
    assert set(add["required"]) == {"op", "text", "topic", "confidence", "sources", "reason"}
    assert add["properties"]["confidence"] == {
        "maximum": 1,
        "minimum": 0,
        "title": "Confidence",
        "type": "number",
    }
    assert add["properties"]["type"]["anyOf"][0]["enum"] == [
        "user",
        "feedback",
        "project",
        "reference",
    ]
    assert add["properties"]["topic"]["pattern"] == "^[a-z0-9][a-z0-9_-]{0,63}$"


def test_prompts_show_schema_prints_it(tmp_path: Path) -> None:
    """`dreamgit prompts show --schema` prints the answer's JSON Schema, exactly."""
    repo = MemoryRepo.init(tmp_path / "mem", now=datetime(2026, 11, 22, tzinfo=UTC))
    out = CliRunner().invoke(
        cli, ["--repo", str(repo.store.workdir), "prompts", "show", "--schema"]
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout) == answer_schema()


def test_prompts_show_without_a_name_says_what_to_give(tmp_path: Path) -> None:
    """Neither NAME nor --schema: a user error naming both ways."""
    repo = MemoryRepo.init(tmp_path / "mem", now=datetime(2026, 11, 22, tzinfo=UTC))
    out = CliRunner().invoke(cli, ["--repo", str(repo.store.workdir), "prompts", "show"])
    assert out.exit_code == 1
    assert out.stderr == (
        "error: prompts show needs the NAME of a prompt\n"
        "hint: see `dreamgit prompts list`, or print the answer's schema with --schema\n"
    )


@pytest.mark.parametrize(
    ("proposal", "message"),
    [
        # An unknown field comes before a field the op does not take, in the answer's order.
        ({**ADD, "ids": ["m-1"], "zz": 1, "score": 1}, 'proposals[0]: unknown field "zz"'),
        # Fields the op does not take come before missing ones, by name.
        (
            {"op": "supersede", "text": "t", "key": "k", "reason": "r"},
            'proposals[0]: op supersede does not take "key"',
        ),
        # Missing fields, by name, before any field's value.
        (
            {"op": "supersede", "confidence": 7, "reason": "r"},
            'proposals[0]: op supersede needs "by"',
        ),
        # Values are checked by field name: confidence before text.
        (
            {**ADD, "text": "", "confidence": 2},
            "proposals[0].confidence: expected a number from 0 to 1, got 2",
        ),
        # An id inside a list is named by its position.
        (
            {"op": "merge", "ids": ["m-1", 7], "text": "t", "confidence": 0.9, "reason": "r"},
            "proposals[0].ids[1]: expected an id, got 7",
        ),
        # No op at all.
        (
            {"text": "t"},
            "proposals[0].op: expected one of add, merge, replace, remove, supersede, got null",
        ),
        # A value with braces is quoted as it is.
        (
            {**ADD, "topic": "{x}"},
            "proposals[0].topic: expected a topic name such as "
            'preferences ([a-z0-9][a-z0-9_-]*), got "{x}"',
        ),
    ],
)
def test_the_first_fault_a_reader_meets_is_named(proposal: dict[str, Any], message: str) -> None:
    """Several faults in one proposal: the message is the one the old reader named."""
    assert _error(proposal) == message


def test_faults_in_a_later_proposal_wait_for_the_earlier_ones() -> None:
    """The first proposal's fault is named before the second's."""
    assert _error({**ADD, "confidence": 3}, {"op": "nope"}) == (
        "proposals[0].confidence: expected a number from 0 to 1, got 3"
    )


def test_a_stray_top_level_field_comes_before_too_many_proposals() -> None:
    """Two envelope faults: the stray field, as before, not the count."""
    assert _error(*[ADD] * 101, notes="x") == (
        'unknown top-level field "notes": only "proposals" is allowed'
    )
    assert _error(*[ADD] * 101) == "101 proposals; at most 100 are read"


def test_an_answer_is_read_into_proposals_with_text_stripped() -> None:
    """A valid answer becomes Proposal records, in order, with their positions."""
    answer = {"proposals": [{**ADD, "text": "  spaced  "}, {**ADD, "key": None}]}
    first, second = parse_proposals(json.dumps(answer))
    assert (first.text, first.index, second.index, second.key) == ("spaced", 0, 1, None)
