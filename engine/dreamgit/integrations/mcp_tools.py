"""The tools ``dreamgit mcp`` serves, each parameter described for the model that calls it.

Every parameter carries what it is, its format and an example, and every tool
its hints (read-only, destructive, idempotent), so a model can choose and fill a
call without guessing. The tools call the same library functions as the command
line: ``remember`` goes through :mod:`dreamgit.integrations.remember` (refusing
instruction-shaped text, reinforcing a repeat), and every write is one commit on
main with MEMORY.md rewritten in it, after which the recall view of that commit is kept
(as ``add`` and ``forget`` keep it), so the next recall skips git. A dreamgit error
becomes an MCP error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, Literal, TypeVar

from mcp_types import ToolAnnotations
from pydantic import Field

from dreamgit.dream.run import dream
from dreamgit.dream.status import repo_status
from dreamgit.errors import DreamgitError, UserError
from dreamgit.integrations.mcp_server import StrictServer, mcp_error
from dreamgit.integrations.remember import remember as remember_text
from dreamgit.recall.forgetting import ForgetFilter, forget_matching
from dreamgit.recall.query import RecallQuery
from dreamgit.recall.search import recall as do_recall
from dreamgit.recall.views import follow_view
from dreamgit.store import operations, restoring
from dreamgit.store.repo import MemoryRepo

__all__ = ["register_tools"]

T = TypeVar("T")

Query = Annotated[
    str,
    Field(
        min_length=1,
        max_length=2000,
        description="What to look for, in plain words, e.g. 'which test runner does the user "
        "prefer'.",
    ),
]
TopK = Annotated[
    int | None,
    Field(ge=1, le=200, description="At most this many memories, best first, e.g. 5."),
]
Chars = Annotated[
    int | None,
    Field(
        ge=1,
        le=1_000_000,
        description="A budget in characters for all returned texts together, e.g. 1500.",
    ),
]
TopicFilter = Annotated[
    str | None,
    Field(
        pattern=r"^[a-z0-9][a-z0-9_-]*$",
        max_length=64,
        description="Only memories of this topic (lower-case, digits, - and _), e.g. "
        "'preferences'.",
    ),
]
TypeFilter = Annotated[
    Literal["user", "feedback", "project", "reference"] | None,
    Field(description="Only memories of this kind: user, feedback, project or reference."),
]
Scope = Annotated[
    str | None,
    Field(
        pattern=r"^[a-z0-9][a-z0-9_-]*$",
        max_length=64,
        description="Only memories whose topic or one of whose tags is this name, e.g. "
        "'myapi' for one project.",
    ),
]
Text = Annotated[
    str,
    Field(
        min_length=1,
        max_length=100_000,
        description="The memory itself: one durable fact, preference or decision in a "
        "sentence, e.g. 'Prefers pytest over unittest for Python tests.'",
    ),
]
Topic = Annotated[
    str,
    Field(
        pattern=r"^[a-z0-9][a-z0-9_-]*$",
        max_length=64,
        description="The folder it belongs in (lower-case, digits, - and _), e.g. "
        "'preferences', 'projects', 'people'.",
    ),
]
Priority = Annotated[
    Literal["ephemeral", "low", "normal", "high", "core"],
    Field(
        description="How long it should last: ephemeral (a day), low, normal, high, or "
        "core (never pruned). Default normal."
    ),
]
Tags = Annotated[
    list[Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=64)]] | None,
    Field(
        description="Labels for finding it later (lower-case names), e.g. ['python', 'testing']."
    ),
]
Key = Annotated[
    str | None,
    Field(
        min_length=1,
        max_length=200,
        description="A slot this memory fills; a newer memory with the same key replaces "
        "it, e.g. 'python.test-runner'.",
    ),
]
Kind = Annotated[
    Literal["user", "feedback", "project", "reference"],
    Field(
        description="user (about the person), feedback (how to work with them), project "
        "(facts of the work) or reference (where things are). Default user."
    ),
]
Ids = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=64)]] | None,
    Field(
        description="Ids of the memories to forget, as recall returns them, e.g. "
        "['m-7f3k2q9d']. Give ids or a pattern, not both."
    ),
]
Match = Annotated[
    str | None,
    Field(
        min_length=1,
        max_length=500,
        description="Forget every memory whose text contains this (case ignored), e.g. 'oat milk'.",
    ),
]
Regex = Annotated[
    bool, Field(description="Read match as a regular expression. true or false; default false.")
]
OlderThan = Annotated[
    str | None,
    Field(
        pattern=r"^\d+\s*[mhdw]$",
        description="Forget memories not updated for this long: a number and m, h, d or w, "
        "e.g. '30d'.",
    ),
]
Session = Annotated[
    str | None,
    Field(
        min_length=1,
        max_length=64,
        description="Forget the memories learnt from this session id, e.g. 's-20261120-a1b2'.",
    ),
]
DryRun = Annotated[
    bool, Field(description="true: only list what would be forgotten. Default false.")
]
MemoryId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        description="The id of a forgotten, pruned or superseded memory, e.g. 'm-7f3k2q9d'.",
    ),
]
Version = Annotated[
    int | None,
    Field(
        ge=1,
        description="Which removed version to bring back, 1 being the oldest; default the "
        "latest. e.g. 1.",
    ),
]
Transcript = Annotated[
    str,
    Field(
        min_length=1,
        max_length=1_000_000,
        description="The conversation, one turn per line as 'Name: text', e.g. "
        "'User: I moved to Lisbon.\\nAssistant: Noted.'",
    ),
]
Summary = Annotated[
    str,
    Field(max_length=2000, description="One line saying what the conversation was about."),
]
Force = Annotated[
    bool,
    Field(description="true: show what a dream would do even if its gate says not yet."),
]

READS = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)


def _writes(*, destructive: bool, idempotent: bool) -> ToolAnnotations:
    """The hints of a tool that commits to the memory repository (nothing outside it)."""
    return ToolAnnotations(
        read_only_hint=False,
        destructive_hint=destructive,
        idempotent_hint=idempotent,
        open_world_hint=False,
    )


@dataclass(frozen=True)
class _Tools:
    """What every tool needs: the repository and the clock."""

    repo: MemoryRepo
    clock: Callable[[], datetime]


def _followed(tools: _Tools, result: T) -> T:
    """``result`` of a write, after keeping the recall view of the commit it made (as the
    CLI's add and forget do): the next recall, a hook's too, answers from the derived store."""
    follow_view(tools.repo)
    return result


def guarded(call: Callable[[], T]) -> T:
    """Run ``call``; a dreamgit error becomes an MCP error with its hint."""
    try:
        return call()
    except DreamgitError as exc:
        raise mcp_error(exc) from None


def register_tools(server: StrictServer, repo: MemoryRepo, clock: Callable[[], datetime]) -> None:
    """Add recall, remember, forget, restore, log_session, status and review to ``server``."""
    tools = _Tools(repo, clock)
    for register in (_recall, _remember, _forget, _restore, _log_session, _status, _review):
        register(server, tools)


def _recall(server: StrictServer, tools: _Tools) -> None:
    def recall(
        query: Query,
        top_k: TopK = None,
        chars: Chars = None,
        topic: TopicFilter = None,
        type: TypeFilter = None,
        scope: Scope = None,
    ) -> dict[str, Any]:
        return guarded(
            lambda: do_recall(
                tools.repo,
                RecallQuery(query, top_k=top_k, chars=chars, topic=topic, type=type, scope=scope),
                now=tools.clock(),
            ).to_dict()
        )

    server.strict_tool(
        recall,
        description="The active memories that answer a query, best first, within a budget. "
        "Call it before answering from memory.",
        annotations=READS,
    )


def _remember(server: StrictServer, tools: _Tools) -> None:
    def remember(
        text: Text,
        topic: Topic,
        priority: Priority = "normal",
        tags: Tags = None,
        key: Key = None,
        type: Kind = "user",
    ) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            done = remember_text(
                tools.repo,
                text,
                topic=topic,
                priority=priority,
                tags=tags or (),
                key=key,
                type=type,
                now=tools.clock(),
            )
            return _followed(tools, {**done.memory.to_dict(), "reinforced": done.reinforced})

        return guarded(run)

    server.strict_tool(
        remember,
        description="Keep one durable fact, preference or decision (one commit). Saying "
        "again what a memory already says reinforces that memory; text that reads like an "
        "order to the agent is refused. Returns the memory with its id.",
        annotations=_writes(destructive=False, idempotent=True),
    )


def _forget(server: StrictServer, tools: _Tools) -> None:
    def forget(
        ids: Ids = None,
        match: Match = None,
        regex: Regex = False,
        older_than: OlderThan = None,
        topic: TopicFilter = None,
        session: Session = None,
        dry_run: DryRun = False,
    ) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            at = tools.clock()
            if ids:
                if match or older_than or topic or session:
                    raise UserError(
                        "forget takes ids or a pattern, not both", hint="call it once for each"
                    )
                if dry_run:
                    gone = [tools.repo.get_memory(i, now=at) for i in ids]
                    return {"dry_run": True, "forgotten": [m.id for m in gone], "protected": []}
                forgotten = operations.forget(tools.repo, ids, now=at)
                return _followed(tools, {"dry_run": False, "forgotten": [m.id for m in forgotten]})
            spec = ForgetFilter.written(
                match=match, regex=regex, older_than=older_than, topic=topic, session=session
            )
            gone, kept = forget_matching(tools.repo, spec, now=at, dry_run=dry_run)
            if not dry_run:
                follow_view(tools.repo)
            return {
                "dry_run": dry_run,
                "forgotten": [m.id for m in gone],
                "protected": [m.id for m in kept],
            }

        return guarded(run)

    server.strict_tool(
        forget,
        description="Take memories out of the active set, by ids or by a pattern, in one "
        "commit; history keeps them (`dreamgit restore ID` brings one back). dry_run lists "
        "what would go.",
        annotations=_writes(destructive=True, idempotent=False),
    )


def _restore(server: StrictServer, tools: _Tools) -> None:
    def restore(memory_id: MemoryId, version: Version = None) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            done = restoring.restore_version(
                tools.repo, memory_id, now=tools.clock(), version=version
            )
            return _followed(tools, {**done.memory.to_dict(), "version": done.version.number})

        return guarded(run)

    server.strict_tool(
        restore,
        description="Bring a forgotten, pruned or superseded memory back from history, byte "
        "for byte, where its format keeps it (one commit).",
        annotations=_writes(destructive=False, idempotent=False),
    )


def _log_session(server: StrictServer, tools: _Tools) -> None:
    def log_session(text: Transcript, summary: Summary = "", tags: Tags = None) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            session = operations.log_session(
                tools.repo, text, summary=summary, tags=tags or (), now=tools.clock()
            )
            return {"id": session.id, "path": session.path}

        return guarded(run)

    server.strict_tool(
        log_session,
        description="Record a conversation for the next dream to learn from (one commit). "
        "Call it once at the end of a conversation.",
        annotations=_writes(destructive=False, idempotent=False),
    )


def _status(server: StrictServer, tools: _Tools) -> None:
    def status() -> dict[str, Any]:
        return guarded(lambda: repo_status(tools.repo, now=tools.clock()))

    server.strict_tool(
        status,
        description="How many memories, sessions waiting, the last dream, and whether a "
        "dream is due. Takes no arguments.",
        annotations=READS,
    )


def _review(server: StrictServer, tools: _Tools) -> None:
    def review(force: Force = False) -> dict[str, Any]:
        return guarded(lambda: dict(dream(tools.repo, now=tools.clock(), force=force, apply=False)))

    server.strict_tool(
        review,
        description="What a dream would change now, without writing anything (a dry run).",
        annotations=READS,
    )
