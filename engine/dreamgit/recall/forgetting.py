"""Forgetting by pattern: which active memories a text, a regex, an age, a topic or a
session picks out (Daydreams' ``forget`` by pattern, context or age).

Selection only; the removal is :func:`dreamgit.store.operations.forget`, one
commit for the lot, every memory restorable with ``dreamgit restore ID``.
Protected memories (core priority, protected topics) are never picked by a
pattern: they are for a person to remove by id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from dreamgit import clock
from dreamgit.dsl.regexsafe import PatternError, compile_pattern, search
from dreamgit.errors import UserError
from dreamgit.model import Memory
from dreamgit.ruleset.repo_rules import repo_ruleset
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo

__all__ = ["ForgetFilter", "forget_matching", "parse_age", "select"]


@dataclass(frozen=True)
class ForgetFilter:
    """What to forget: every given condition must hold (at least one must be given)."""

    match: str | None = None
    regex: bool = False
    older_than: timedelta | None = None
    topic: str | None = None
    session: str | None = None

    @classmethod
    def written(
        cls,
        *,
        match: str | None = None,
        regex: bool = False,
        older_than: str | None = None,
        topic: str | None = None,
        session: str | None = None,
    ) -> ForgetFilter:
        """The filter a person wrote (the command line, the API, an MCP call): the age as
        text (``30d``; UserError when it is not a duration)."""
        return cls(
            match=match,
            regex=regex,
            older_than=parse_age(older_than) if older_than else None,
            topic=topic,
            session=session,
        )

    def is_empty(self) -> bool:
        """True when no condition was given (forgetting everything is never implied)."""
        return not (self.match or self.older_than or self.topic or self.session)


def parse_age(text: str) -> timedelta:
    """``30d``, ``12h``, ``2w``, ``90m`` as a duration."""
    age = clock.parse_age(text, what="--older-than")
    if age is None:
        raise UserError(
            f"--older-than {text!r} is not a duration",
            hint="write a number and a unit: 90m, 12h, 30d or 2w",
        )
    return age


def select(memories: list[Memory], spec: ForgetFilter, *, now: datetime) -> list[Memory]:
    """The memories ``spec`` picks out, in path order."""
    if spec.is_empty():
        raise UserError(
            "forget needs ids or at least one of --match, --older-than, --topic, --session",
            hint="dreamgit forget --match TEXT --dry-run shows what would go",
        )
    pattern = None
    if spec.match and spec.regex:
        try:
            compile_pattern(spec.match)  # an error's position is in the pattern as written
            pattern = compile_pattern(f"(?i){spec.match}")
        except (re.error, PatternError) as exc:
            raise UserError(
                f"--match {spec.match!r} is not a usable regular expression: {exc}",
                hint="drop --regex to match plain text",
            ) from None
    picked = []
    for m in memories:
        if spec.topic and m.topic != spec.topic:
            continue
        if spec.session and spec.session not in m.sources:
            continue
        if spec.older_than and now - m.created <= spec.older_than:
            continue
        if spec.match:
            fields = (m.text, m.description, m.name)
            if pattern is not None:
                if not any(search(pattern, f) for f in fields):
                    continue
            elif not any(spec.match.lower() in f.lower() for f in fields):
                continue
        picked.append(m)
    return sorted(picked, key=lambda m: m.path)


def forget_matching(
    repo: MemoryRepo, spec: ForgetFilter, *, now: datetime, dry_run: bool = False
) -> tuple[list[Memory], list[Memory]]:
    """Forget what ``spec`` picks out in one commit: (forgotten, protected and kept)."""
    rules = repo_ruleset(repo)
    chosen = select(repo.snapshot(now=now).memories, spec, now=now)
    kept = [m for m in chosen if rules.is_protected(m)]
    gone = [m for m in chosen if not rules.is_protected(m)]
    if dry_run or not gone:
        return gone, kept
    return operations.forget(repo, [m.id for m in gone], now=now), kept
