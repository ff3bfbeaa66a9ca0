"""The proposal contract: strict parsing of answers and the deterministic gates."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamgit.llm.proposals import (
    Proposal,
    ProposalFormatError,
    RunLimits,
    Thresholds,
    parse_proposals,
    validate_proposals,
)

ADD: dict[str, Any] = {
    "op": "add",
    "text": "Uses FastAPI for the api service.",
    "topic": "projects",
    "type": "project",
    "priority": "normal",
    "key": "api.framework",
    "confidence": 0.95,
    "sources": ["s-1"],
    "reason": "stated in the session",
}


def _answer(*proposals: dict[str, Any]) -> str:
    return json.dumps({"proposals": list(proposals)})


def _error(text: str) -> str:
    with pytest.raises(ProposalFormatError) as info:
        parse_proposals(text)
    return str(info.value)


def test_well_formed_answer_parses_into_proposals() -> None:
    """Every field of an add proposal is read with its type."""
    [p] = parse_proposals(_answer(ADD))
    assert p == Proposal(
        op="add",
        reason="stated in the session",
        text=ADD["text"],
        topic="projects",
        type="project",
        priority="normal",
        key="api.framework",
        confidence=0.95,
        sources=("s-1",),
        index=0,
    )
    assert p.to_dict() == {k: v for k, v in ADD.items()}


def test_json_inside_a_code_fence_or_prose_is_extracted() -> None:
    """Models wrap JSON in ```json fences or a sentence; the object is still found."""
    assert len(parse_proposals(f"```json\n{_answer(ADD)}\n```")) == 1
    assert len(parse_proposals(f"Here you go:\n{_answer(ADD)}\nThanks.")) == 1
    assert parse_proposals('{"proposals": []}') == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the answer is empty"),
        ("I think we should merge them.", "not valid JSON: Expecting value at line 1 column 1"),
        ('{"proposals": [', "not valid JSON: Expecting value at line 1 column 16"),
        ("[]", 'expected a JSON object {"proposals": [...]}, got a list'),
        (
            '{"proposals": [], "notes": "x"}',
            'unknown top-level field "notes": only "proposals" is allowed',
        ),
        ("{}", 'missing top-level field "proposals"'),
        ('{"proposals": {}}', '"proposals" must be a list, got an object'),
        ('{"proposals": [1]}', "proposals[0]: expected an object, got a number"),
        (
            '{"proposals": [{"op": "delete_all"}]}',
            "proposals[0].op: expected one of add, merge, replace, remove, supersede, "
            'got "delete_all"',
        ),
        ('{"proposals": [], "proposals": []}', 'duplicate field "proposals" in one object'),
        (
            '{"proposals": [{"op": "remove", "ids": ["m-1"], "supersession_confidence": NaN, '
            '"reason": "r"}]}',
            "NaN is not a number JSON allows",
        ),
    ],
)
def test_malformed_answers_are_refused_with_a_precise_reason(text: str, message: str) -> None:
    """Each way an answer can be broken has its own message, sent back in the repair request."""
    assert _error(text) == message


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"score": 0.9}, 'proposals[0]: unknown field "score" (did you mean "confidence"?)'),
        (
            {"confidence": "high"},
            'proposals[0].confidence: expected a number from 0 to 1, got "high"',
        ),
        ({"confidence": 1.5}, "proposals[0].confidence: expected a number from 0 to 1, got 1.5"),
        ({"confidence": True}, "proposals[0].confidence: expected a number from 0 to 1, got true"),
        (
            {"topic": "../etc"},
            "proposals[0].topic: expected a topic name such as preferences "
            '([a-z0-9][a-z0-9_-]*), got "../etc"',
        ),
        (
            {"priority": "urgent"},
            "proposals[0].priority: expected one of ephemeral, low, normal, "
            'high, core, got "urgent"',
        ),
        (
            {"type": "fact"},
            'proposals[0].type: expected one of user, feedback, project, reference, got "fact"',
        ),
        ({"text": "  "}, 'proposals[0].text: expected a non-empty string, got "  "'),
        ({"text": "x" * 2001}, "proposals[0].text: 2001 characters; at most 2000"),
        ({"sources": []}, "proposals[0].sources: expected a non-empty list of ids, got []"),
        ({"sources": ["s-1", "s-1"]}, "proposals[0].sources: s-1 is listed twice"),
        ({"sources": None}, 'proposals[0]: op add needs "sources"'),
        ({"ids": ["m-1"]}, 'proposals[0]: op add does not take "ids"'),
    ],
)
def test_wrong_schema_is_refused_field_by_field(change: dict[str, Any], message: str) -> None:
    """Unknown fields, wrong types and fields an op does not take name the exact place."""
    assert _error(_answer({**ADD, **change})) == message


def test_null_optional_field_counts_as_absent() -> None:
    """``"key": null`` is the usual way a model says there is no key."""
    [p] = parse_proposals(_answer({**ADD, "key": None}))
    assert p.key is None


@pytest.mark.parametrize(
    ("proposal", "message"),
    [
        (
            {"op": "merge", "ids": ["m-1"], "text": "t", "confidence": 0.9, "reason": "r"},
            "proposals[0].ids: merge needs two or more ids, got 1",
        ),
        (
            {
                "op": "replace",
                "ids": ["m-1", "m-2"],
                "text": "t",
                "confidence": 0.9,
                "supersession_confidence": 0.9,
                "reason": "r",
            },
            "proposals[0].ids: replace takes exactly one id, got 2",
        ),
        (
            {
                "op": "supersede",
                "ids": ["m-1"],
                "by": "m-1",
                "supersession_confidence": 0.9,
                "reason": "r",
            },
            "proposals[0].by: m-1 cannot supersede itself",
        ),
        (
            {"op": "remove", "ids": ["m-1"], "reason": "r"},
            'proposals[0]: op remove needs "supersession_confidence"',
        ),
    ],
)
def test_op_arity_is_checked(proposal: dict[str, Any], message: str) -> None:
    """Merge joins two or more, replace rewrites one, supersede names another memory."""
    assert _error(_answer(proposal)) == message


# --- gates -------------------------------------------------------------------------------

KNOWN = {"m-1", "m-2", "m-3", "m-core", "m-ident"}
PROTECTED = {"m-core", "m-ident"}


def _judge(
    *items: dict[str, Any], limits: RunLimits | None = None, thresholds: Thresholds | None = None
) -> tuple[list[str], list[str]]:
    proposals = parse_proposals(_answer(*items))
    accepted, rejected = validate_proposals(
        proposals,
        known_ids=KNOWN,
        is_protected=PROTECTED.__contains__,
        thresholds=thresholds or Thresholds(),
        limits=limits if limits is not None else RunLimits(),
        known_sources={"s-1"},
    )
    assert all(d.accepted for d in accepted) and not any(d.accepted for d in rejected)
    return [d.reason for d in accepted], [d.reason for d in rejected]


def _merge(*ids: str, confidence: float = 0.9) -> dict[str, Any]:
    return {
        "op": "merge",
        "ids": list(ids),
        "text": "merged",
        "confidence": confidence,
        "reason": "same fact",
    }


def _remove(*ids: str, sup: float = 0.9) -> dict[str, Any]:
    return {"op": "remove", "ids": list(ids), "supersession_confidence": sup, "reason": "r"}


def test_invented_ids_are_rejected() -> None:
    """An id that was not sent with the prompt is never acted on."""
    assert _judge(_remove("m-404")) == (
        [],
        ["unknown memory id m-404: not among the memories sent"],
    )
    supersede = {
        "op": "supersede",
        "ids": ["m-1"],
        "by": "m-999",
        "supersession_confidence": 0.9,
        "reason": "newer",
    }
    assert _judge(supersede)[1] == ["unknown memory id m-999: not among the memories sent"]


def test_unknown_session_source_is_rejected() -> None:
    """An add must cite sessions that were actually sent."""
    assert _judge({**ADD, "sources": ["s-2"]})[1] == [
        "unknown session id s-2: not among the sessions sent"
    ]


def test_protected_and_core_memories_are_never_touched() -> None:
    """Remove, merge and replace of a protected memory are all rejected."""
    replace = {
        "op": "replace",
        "ids": ["m-ident"],
        "text": "new",
        "confidence": 0.99,
        "supersession_confidence": 0.99,
        "reason": "r",
    }
    accepted, rejected = _judge(_remove("m-core", sup=1.0), _merge("m-1", "m-core"), replace)
    assert accepted == []
    assert rejected == [
        "m-core is protected (core or a protected topic): never changed by a dream",
        "m-core is protected (core or a protected topic): never changed by a dream",
        "m-ident is protected (core or a protected topic): never changed by a dream",
    ]


def test_a_proposal_may_not_make_a_memory_core() -> None:
    """ "Mark everything core" cannot pass: core is for people to give."""
    assert _judge({**ADD, "priority": "core"})[1] == [
        "priority core is above high, the most a proposal may set"
    ]


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ({**ADD, "confidence": 0.87}, "confidence 0.87 is under add_min 0.88"),
        (_merge("m-1", "m-2", confidence=0.79), "confidence 0.79 is under merge_min 0.8"),
        (
            {
                "op": "replace",
                "ids": ["m-1"],
                "text": "t",
                "confidence": 0.9,
                "supersession_confidence": 0.7,
                "reason": "r",
            },
            "supersession_confidence 0.7 is under supersession_min 0.75",
        ),
        (_remove("m-1", sup=0.84), "supersession_confidence 0.84 is under remove_min 0.85"),
        (
            {
                "op": "supersede",
                "ids": ["m-1"],
                "by": "m-2",
                "supersession_confidence": 0.5,
                "reason": "r",
            },
            "supersession_confidence 0.5 is under supersession_min 0.75",
        ),
    ],
)
def test_proposals_under_the_thresholds_are_rejected(item: dict[str, Any], message: str) -> None:
    """Each op has its minimum; just under it is rejected."""
    assert _judge(item) == ([], [message])


def test_thresholds_come_from_the_rules_mapping() -> None:
    """A rule set that lowers add_min lets a 0.7 add through; other keys are ignored."""
    thresholds = Thresholds.from_mapping({"add_min": 0.6, "something_else": 1})
    accepted, rejected = _judge({**ADD, "confidence": 0.7}, thresholds=thresholds)
    assert accepted == ["confidence 0.7 ≥ add_min 0.6"] and rejected == []


def test_run_limits_hold_across_calls() -> None:
    """Changes, adds and new characters are capped for the run, not per answer."""
    limits = RunLimits.from_mapping(
        {"max_changes_per_run": 3, "max_adds_per_run": 1, "max_new_chars_per_run": 40}
    )
    assert _judge(ADD, ADD, limits=limits)[1] == ["max_adds_per_run (1) reached"]
    long_merge = {**_merge("m-1", "m-2"), "text": "x" * 20}
    assert _judge(long_merge, limits=limits)[1] == [
        "max_new_chars_per_run (40) would be exceeded: 33 used, 20 more"
    ]
    assert _judge(_remove("m-1"), _remove("m-2"), _remove("m-3"), limits=limits) == (
        ["supersession_confidence 0.9 ≥ remove_min 0.85"] * 2,
        ["max_changes_per_run (3) reached"],
    )
    assert (limits.changes, limits.adds, limits.new_chars) == (3, 1, 33)


def test_a_memory_is_changed_once_per_run() -> None:
    """A second proposal touching an already merged memory is rejected."""
    accepted, rejected = _judge(_merge("m-1", "m-2"), _remove("m-2"))
    assert len(accepted) == 1
    assert rejected == ["m-2 is already changed by this run"]


def test_deeply_nested_json_is_refused_not_a_crash() -> None:
    """A pathological answer hits our error, not Python's recursion limit."""
    assert _error("[" * 100_000) == "the JSON is nested too deeply"


@given(st.text())
def test_any_text_parses_or_gives_our_error(text: str) -> None:
    """Whatever a model answers, the parser returns proposals or a ProposalFormatError."""
    with contextlib.suppress(ProposalFormatError):
        parse_proposals(text)


_json = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=False) | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=12,
)
_field = st.sampled_from(
    [
        "op",
        "ids",
        "by",
        "text",
        "topic",
        "type",
        "priority",
        "key",
        "confidence",
        "supersession_confidence",
        "sources",
        "reason",
        "score",
    ]
)
_op = st.sampled_from(["add", "merge", "replace", "remove", "supersede", "delete"])


@given(st.lists(st.dictionaries(_field, _json | _op, max_size=8), max_size=4))
def test_any_proposal_shaped_json_parses_or_gives_our_error(items: list[dict[str, Any]]) -> None:
    """Near-miss proposals with random field values never crash the parser or the gates."""
    try:
        proposals = parse_proposals(json.dumps({"proposals": items}))
    except ProposalFormatError:
        return
    accepted, rejected = validate_proposals(
        proposals,
        known_ids=KNOWN,
        is_protected=PROTECTED.__contains__,
        thresholds=Thresholds(),
        limits=RunLimits(),
    )
    assert len(accepted) + len(rejected) == len(proposals)


_SUPERSEDE = {"op": "supersede", "ids": ["m-1"], "by": "m-2", "supersession_confidence": 0.9}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            _answer(*[ADD] * 101),
            "101 proposals; at most 100 are read",
        ),
        (
            _answer({**_SUPERSEDE, "ids": ["m-1", 7], "reason": "r"}),
            "proposals[0].ids[1]: expected an id, got 7",
        ),
        (
            _answer({**_SUPERSEDE, "by": "", "reason": "r"}),
            'proposals[0].by: expected an id, got ""',
        ),
        (
            '{"proposals": [{"op": "add", "confidence": NaN}]}',
            "NaN is not a number JSON allows",
        ),
    ],
)
def test_too_many_proposals_and_bad_ids_are_refused(text: str, message: str) -> None:
    """The answer's size and every id are checked, naming the place."""
    assert _error(text) == message
