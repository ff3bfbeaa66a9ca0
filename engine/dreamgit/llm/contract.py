"""The model contract as pydantic models: what an answer of proposals may hold, and its schema.

An answer is ``{"proposals": [...]}``; each proposal is one of five models told apart
by ``op`` (a discriminated union), each forbidding the fields its op does not take.
The models are the one statement of the contract: :func:`answer_schema` gives the
JSON Schema that ``dreamgit prompts show --schema`` prints, and :func:`validate_answer`
checks decoded JSON against them. Its errors are worded as before, precisely enough to
send back in the one repair request: the first error in the answer, in the order a
reader meets them (the envelope, then each proposal: an unknown field, a field the op
does not take, a missing one, a field's value by name, then how many ids the op takes).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from dreamgit.errors import ProposalFormatError
from dreamgit.model import MEMORY_TYPES, PRIORITIES

__all__ = [
    "MAX_PROPOSALS",
    "MAX_QUOTE",
    "MAX_REASON",
    "MAX_TEXT",
    "OPS",
    "Answer",
    "ProposalModel",
    "answer_schema",
    "describe",
    "validate_answer",
]

OPS = ("add", "merge", "replace", "remove", "supersede")
MAX_PROPOSALS = 100
MAX_TEXT = 2000
MAX_REASON = 1000
MAX_QUOTE = 500
_MAX_ID = 100
_TOPIC = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}\Z")
_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/-]{0,99}\Z")
_SUGGEST = {"score": "confidence", "id": "ids", "memory_ids": "ids", "source": "sources"}
#: The error type our own checks raise; its message is what follows the field's place.
_OURS = "proposal"


def describe(value: object) -> str:
    """``value`` as JSON for a message, cut to 60 characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _kind(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    for typ, name in names.items():
        if isinstance(value, typ):
            return name
    return "a number" if isinstance(value, int | float) else type(value).__name__


def _refuse(message: str) -> PydanticCustomError:
    # Braces in a value would be read as the template's placeholders: pass it as one.
    return PydanticCustomError(_OURS, "{message}", {"message": message})


# --- field checks: each returns the value to keep, or raises our message ----------------


def _text(limit: int) -> Callable[[object], str]:
    def check(value: object) -> str:
        if not isinstance(value, str) or not value.strip():
            raise _refuse(f": expected a non-empty string, got {describe(value)}")
        if len(value) > limit:
            raise _refuse(f": {len(value)} characters; at most {limit}")
        return value.strip()

    return check


def _pattern(regex: re.Pattern[str], what: str) -> Callable[[object], str]:
    def check(value: object) -> str:
        if not isinstance(value, str) or not regex.match(value):
            raise _refuse(f": expected {what}, got {describe(value)}")
        return value

    return check


def _choice(options: Sequence[str]) -> Callable[[object], str]:
    def check(value: object) -> str:
        if value not in options:
            raise _refuse(f": expected one of {', '.join(options)}, got {describe(value)}")
        return str(value)

    return check


def _score(value: object) -> float:
    # NaN fails the range test too (every comparison with it is false).
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise _refuse(f": expected a number from 0 to 1, got {describe(value)}")
    return float(value)


def _is_id(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip()) and len(value) <= _MAX_ID


def _id_list(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise _refuse(f": expected a non-empty list of ids, got {describe(value)}")
    out: list[str] = []
    for position, item in enumerate(value):
        if not _is_id(item):
            raise _refuse(f"[{position}]: expected an id, got {describe(item)}")
        if item in out:
            raise _refuse(f": {item} is listed twice")
        out.append(item)
    return tuple(out)


def _one_id(value: object) -> str:
    if not _is_id(value):
        raise _refuse(f": expected an id, got {describe(value)}")
    assert isinstance(value, str)
    return value


def _anchored(regex: re.Pattern[str]) -> str:
    """``regex`` as JSON Schema writes a whole-value pattern."""
    return "^" + regex.pattern.removesuffix(r"\Z") + "$"


_Id = Annotated[str, Field(min_length=1, max_length=_MAX_ID), BeforeValidator(_one_id)]
_Ids = Annotated[
    tuple[_Id, ...],
    Field(min_length=1, description="memory ids, each once"),
    BeforeValidator(_id_list),
]
_Sources = Annotated[
    tuple[_Id, ...],
    Field(min_length=1, description="ids of the sessions it comes from"),
    BeforeValidator(_id_list),
]
_Text = Annotated[str, Field(min_length=1, max_length=MAX_TEXT), BeforeValidator(_text(MAX_TEXT))]
_Reason = Annotated[
    str, Field(min_length=1, max_length=MAX_REASON), BeforeValidator(_text(MAX_REASON))
]
_Quote = Annotated[
    str,
    Field(min_length=1, max_length=MAX_QUOTE, description="a passage of a session in sources"),
    BeforeValidator(_text(MAX_QUOTE)),
]
_Topic = Annotated[
    str,
    Field(pattern=_anchored(_TOPIC)),
    BeforeValidator(_pattern(_TOPIC, "a topic name such as preferences ([a-z0-9][a-z0-9_-]*)")),
]
_Key = Annotated[
    str,
    Field(pattern=_anchored(_KEY), description="a slot such as python.test-runner"),
    BeforeValidator(_pattern(_KEY, "a key such as python.test-runner")),
]
_Type = Annotated[
    str,
    Field(json_schema_extra={"enum": list(MEMORY_TYPES)}),
    BeforeValidator(_choice(MEMORY_TYPES)),
]
_Priority = Annotated[
    str, Field(json_schema_extra={"enum": list(PRIORITIES)}), BeforeValidator(_choice(PRIORITIES))
]
_Score = Annotated[float, Field(ge=0, le=1), BeforeValidator(_score)]


class _Op(BaseModel):
    """What every proposal shares: no field beyond those its op takes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    reason: _Reason


class AddProposal(_Op):
    """A new memory, with the sessions it comes from."""

    op: Literal["add"]
    text: _Text
    topic: _Topic
    confidence: _Score
    sources: _Sources
    type: _Type | None = None
    priority: _Priority | None = None
    key: _Key | None = None


class MergeProposal(_Op):
    """Two or more memories that say one thing, as one text."""

    op: Literal["merge"]
    ids: _Ids
    text: _Text
    confidence: _Score
    topic: _Topic | None = None
    type: _Type | None = None
    priority: _Priority | None = None
    key: _Key | None = None
    supersession_confidence: _Score | None = None
    sources: _Sources | None = None
    quote: _Quote | None = None

    @model_validator(mode="after")
    def _two_or_more(self) -> MergeProposal:
        if len(self.ids) < 2:
            raise _refuse(f".ids: merge needs two or more ids, got {len(self.ids)}")
        return self


class ReplaceProposal(_Op):
    """One memory's wording replaced by a newer text."""

    op: Literal["replace"]
    ids: _Ids
    text: _Text
    confidence: _Score
    supersession_confidence: _Score
    topic: _Topic | None = None
    type: _Type | None = None
    priority: _Priority | None = None
    key: _Key | None = None
    sources: _Sources | None = None
    quote: _Quote | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> ReplaceProposal:
        if len(self.ids) != 1:
            raise _refuse(f".ids: replace takes exactly one id, got {len(self.ids)}")
        return self


def _not_itself(ids: tuple[str, ...], by: str | None) -> None:
    if by in ids:
        raise _refuse(f".by: {by} cannot supersede itself")


class RemoveProposal(_Op):
    """Memories that are no longer true, with evidence: a newer memory, or a quote."""

    op: Literal["remove"]
    ids: _Ids
    supersession_confidence: _Score
    confidence: _Score | None = None
    by: _Id | None = None
    sources: _Sources | None = None
    quote: _Quote | None = None

    @model_validator(mode="after")
    def _other(self) -> RemoveProposal:
        _not_itself(self.ids, self.by)
        return self


class SupersedeProposal(_Op):
    """Older memories that a newer one (``by``) makes untrue."""

    op: Literal["supersede"]
    ids: _Ids
    by: _Id
    supersession_confidence: _Score
    confidence: _Score | None = None

    @model_validator(mode="after")
    def _other(self) -> SupersedeProposal:
        _not_itself(self.ids, self.by)
        return self


ProposalModel = Annotated[
    AddProposal | MergeProposal | ReplaceProposal | RemoveProposal | SupersedeProposal,
    Field(discriminator="op"),
]


class Answer(BaseModel):
    """A model's whole answer: the proposals, nothing else."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    proposals: Annotated[list[ProposalModel], Field(max_length=MAX_PROPOSALS)]


_ANSWER = TypeAdapter(Answer)
_MODELS: tuple[type[BaseModel], ...] = (
    AddProposal,
    MergeProposal,
    ReplaceProposal,
    RemoveProposal,
    SupersedeProposal,
)
_FIELDS_BY_OP = {op: set(model.__pydantic_fields__) for op, model in zip(OPS, _MODELS, strict=True)}
_ALL_FIELDS = set().union(*_FIELDS_BY_OP.values()) - {"op"}


def answer_schema() -> dict[str, Any]:
    """The JSON Schema of an answer, for a structured-output API and ``prompts show``."""
    return _ANSWER.json_schema()


def validate_answer(data: object) -> list[BaseModel]:
    """The proposals of decoded JSON ``data``, or ProposalFormatError naming the first fault.

    ``null`` in a proposal means absent, as models write it; ``op`` is kept to be named.
    """
    if isinstance(data, dict) and isinstance(data.get("proposals"), list):
        items = data["proposals"]
        if len(items) > MAX_PROPOSALS and set(data) == {"proposals"}:
            raise ProposalFormatError(f"{len(items)} proposals; at most {MAX_PROPOSALS} are read")
        data = {
            **data,
            "proposals": [
                {k: v for k, v in item.items() if v is not None or k not in _ALL_FIELDS}
                if isinstance(item, dict)
                else item
                for item in items
            ],
        }
    try:
        return list(_ANSWER.validate_python(data).proposals)
    except ValidationError as exc:
        raise ProposalFormatError(_first_fault(exc.errors(), data)) from None


def _first_fault(errors: list[ErrorDetails], data: object) -> str:
    """The message of the error a reader meets first, worded as the contract's."""
    ranked = sorted((_rank(e, data), _message(e, data)) for e in errors)
    return ranked[0][1]


def _rank(error: ErrorDetails, data: object) -> tuple[int, int, int, str]:
    loc = error["loc"]
    if len(loc) < 2:  # the envelope: its type, then a stray field, then "proposals"
        order = {"model_type": 0, "extra_forbidden": 1, "missing": 2}.get(error["type"], 3)
        return (0, order, 0, str(loc[0]) if loc else "")
    index = int(loc[1])
    if len(loc) < 4:  # the proposal itself: not an object, its op, or its arity
        arity = error["type"] == _OURS
        return (1 + index, 5 if arity else 0, 0, "")
    name = str(loc[3])
    item = data["proposals"][index] if isinstance(data, dict) else {}
    if error["type"] == "extra_forbidden":
        if name not in _ALL_FIELDS:
            return (1 + index, 1, list(item).index(name), "")
        return (1 + index, 2, 0, name)
    return (1 + index, 3 if error["type"] == "missing" else 4, 0, name)


def _message(error: ErrorDetails, data: object) -> str:
    loc, kind = error["loc"], error["type"]
    if not loc:
        return f'expected a JSON object {{"proposals": [...]}}, got {_kind(data)}'
    if len(loc) == 1:
        if kind == "extra_forbidden":
            return f'unknown top-level field "{loc[0]}": only "proposals" is allowed'
        if kind == "missing":
            return 'missing top-level field "proposals"'
        return f'"proposals" must be a list, got {_kind(error["input"])}'
    where = f"proposals[{loc[1]}]"
    if len(loc) == 2:
        if kind.startswith("union_tag"):
            op = error["input"].get("op") if isinstance(error["input"], dict) else None
            return f"{where}.op: expected one of {', '.join(OPS)}, got {json.dumps(op)}"
        if kind == "model_attributes_type":
            return f"{where}: expected an object, got {_kind(error['input'])}"
    op, name = str(loc[2]), str(loc[3]) if len(loc) > 3 else ""
    if kind == _OURS:
        field = f".{name}" if name else ""
        return f"{where}{field}{error['msg']}"
    if kind == "extra_forbidden":
        if name not in _ALL_FIELDS:
            tip = f' (did you mean "{_SUGGEST[name]}"?)' if name in _SUGGEST else ""
            return f'{where}: unknown field "{name}"{tip}'
        return f'{where}: op {op} does not take "{name}"'
    if kind == "missing":
        return f'{where}: op {op} needs "{name}"'
    # A check of pydantic's own behind ours (it cannot fail when ours passed).
    return f"{where}.{name}: {error['msg']}"
