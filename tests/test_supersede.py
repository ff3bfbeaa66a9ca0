"""Supersession by key and by explicit change statements, protected memories spared."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from dreamgit.dream.consolidate.supersede import (
    SkippedSupersession,
    Supersession,
    affirms,
    find_change_supersessions,
)
from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.extract.candidate import Candidate
from dreamgit.model import Memory

T0 = datetime(2026, 11, 10, 9, 0, tzinfo=UTC)


def memory(
    mid: str,
    text: str,
    *,
    topic: str = "tools",
    key: str | None = None,
    day: int = 0,
    priority: str = "normal",
) -> Memory:
    created = T0 + timedelta(days=day)
    return Memory(
        id=mid,
        topic=topic,
        slug=mid,
        text=text,
        created=created,
        updated=created,
        key=key,
        priority=priority,
    )


def said(text: str, day: int = 5, session: str = "s-new") -> Candidate:
    [c] = extract_candidates(text, session_id=session, created=T0 + timedelta(days=day))
    return c


def old_ids(plan_items: tuple[Supersession, ...]) -> list[str | int | None]:
    return [s.old_id if s.old_id is not None else s.old_index for s in plan_items]


def identity_protected(m: Memory) -> bool:
    return m.topic == "identity"


def test_change_supersedes_memory_affirming_the_old_term() -> None:
    """ "switched from Flask to FastAPI" retires "Uses Flask ..." with a readable reason."""
    plan = find_change_supersessions(
        [said("I switched from Flask to FastAPI.")],
        [memory("m-1", "Uses Flask for web services.")],
    )
    assert plan.supersessions == (Supersession("m-1", None, 0, "change Flask → FastAPI", "change"),)
    assert plan.skipped == ()


@pytest.mark.parametrize(
    "text",
    [
        "Does not use Flask for new services.",
        "No longer uses Flask.",
        "Uses FastAPI (switched from Flask).",
        "Prefers Django over Flask.",
        "Uses Django instead of Flask.",
        "Replaced Flask with Django.",
        "Stopped using Flask last year.",
        "Uses Flasks of coffee.",
        "Uses FlaskBB for the forum.",
    ],
    ids=[
        "does-not",
        "no-longer",
        "old-side-of-change",
        "over",
        "instead-of",
        "replaced",
        "stopped",
        "plural-word",
        "longer-word",
    ],
)
def test_change_spares_negations_and_other_words(text: str) -> None:
    """Memories that mention Flask only negated, as the old side, or as part of a word stay."""
    plan = find_change_supersessions(
        [said("I switched from Flask to FastAPI.")], [memory("m-1", text)]
    )
    assert plan.supersessions == ()


def test_change_spares_memory_already_naming_the_new_term() -> None:
    """A memory that already says FastAPI is current is not superseded by the switch."""
    plan = find_change_supersessions(
        [said("I switched from Flask to FastAPI.")],
        [memory("m-1", "Uses FastAPI and Flask side by side.")],
    )
    assert plan.supersessions == ()


def test_change_matches_case_insensitively_and_by_alias() -> None:
    """ "postgres" in a change retires "Uses PostgreSQL" and "uses postgres"."""
    plan = find_change_supersessions(
        [said("We migrated from Postgres to MySQL.")],
        [
            memory("m-1", "Uses PostgreSQL for the event store."),
            memory("m-2", "The billing job uses postgres."),
            memory("m-3", "Uses Redis for caching."),
        ],
    )
    assert old_ids(plan.supersessions) == ["m-1", "m-2"]


def test_word_boundaries_keep_vim_and_neovim_apart() -> None:
    """Leaving Vim does not retire a Neovim memory."""
    plan = find_change_supersessions(
        [said("I no longer use Vim.")],
        [memory("m-1", "Uses Neovim as their editor."), memory("m-2", "Uses Vim for quick edits.")],
    )
    assert plan.supersessions == (Supersession("m-2", None, 0, "change Vim → nothing", "change"),)


def test_change_reaches_tool_topics_but_not_unrelated_ones() -> None:
    """A tool change reaches preferences and projects, not decisions or notes."""
    existing = [
        memory("m-tools", "Uses Flask.", topic="tools"),
        memory("m-pref", "Likes Flask's simplicity.", topic="preferences"),
        memory("m-proj", "Their API runs on Flask.", topic="projects"),
        memory("m-dec", "Decided to use Flask for the API.", topic="decisions"),
        memory("m-note", "The Flask docs are bookmarked.", topic="notes"),
    ]
    plan = find_change_supersessions([said("I switched from Flask to FastAPI.")], existing)
    assert old_ids(plan.supersessions) == ["m-tools", "m-pref", "m-proj"]


def test_change_does_not_supersede_newer_memories() -> None:
    """A memory written after the change statement is not retired by it."""
    plan = find_change_supersessions(
        [said("I switched from Flask to FastAPI.", day=5)],
        [memory("m-1", "Uses Flask for the legacy admin.", day=8)],
    )
    assert plan.supersessions == ()


def test_protected_memory_is_skipped_with_reason() -> None:
    """A change or key that would retire a protected memory is listed as skipped, why included."""
    home = memory("m-home", "Lives in Lisbon.", topic="identity", key="user.home")
    plan = find_change_supersessions(
        [said("I moved from Lisbon to Berlin.")], [home], protected=identity_protected
    )
    assert plan.supersessions == ()
    assert plan.skipped == (
        SkippedSupersession(
            Supersession("m-home", None, 0, "key user.home", "key"),
            "protected (topic identity, priority normal)",
        ),
    )


def test_core_memory_is_never_superseded_even_without_a_protection_rule() -> None:
    """``core`` priority protects a memory on its own."""
    plan = find_change_supersessions(
        [said("I switched from Flask to FastAPI.")],
        [memory("m-1", "Uses Flask everywhere.", priority="core")],
    )
    assert plan.supersessions == ()
    assert [s.why for s in plan.skipped] == ["core priority (topic tools)"]


def test_newer_key_supersedes_older_key() -> None:
    """A new fact in the same slot retires the older one."""
    plan = find_change_supersessions(
        [said("I use Helix as my editor.")],
        [memory("m-1", "Uses Vim as their editor.", key="tool.editor")],
    )
    assert plan.supersessions == (Supersession("m-1", None, 0, "key tool.editor", "key"),)


def test_same_key_and_same_text_is_a_duplicate_not_a_supersession() -> None:
    """Restating a fact returns nothing: the duplicate finder handles it."""
    plan = find_change_supersessions(
        [said("I use Helix as my editor.")],
        [memory("m-1", "The user uses Helix as their editor.", key="tool.editor")],
    )
    assert plan == type(plan)((), ())


def test_newer_existing_memory_supersedes_an_older_candidate() -> None:
    """When the stored fact is newer, the candidate from an older session is the stale one."""
    plan = find_change_supersessions(
        [said("I use Helix as my editor.", day=2)],
        [memory("m-1", "Uses Zed as their editor.", key="tool.editor", day=6)],
    )
    assert plan.supersessions == (Supersession(None, 0, "m-1", "key tool.editor", "key"),)


def test_within_a_batch_the_later_statement_wins() -> None:
    """Candidates of one run supersede each other: day 2 Flask, day 7 the switch."""
    batch = [
        said("I use Flask for web services.", day=2),
        said("I switched from Flask to FastAPI.", day=7),
    ]
    plan = find_change_supersessions(batch, [])
    assert plan.supersessions == (Supersession(None, 0, 1, "change Flask → FastAPI", "change"),)


def test_key_group_keeps_only_the_newest() -> None:
    """Three homes over time: the newest supersedes both others, once each."""
    batch = [said("I live in Porto.", day=1), said("I live in Oslo.", day=3)]
    plan = find_change_supersessions(
        batch, [memory("m-1", "Lives in Lisbon.", topic="identity", key="user.home")]
    )
    assert plan.supersessions == (
        Supersession("m-1", None, 1, "key user.home", "key"),
        Supersession(None, 0, 1, "key user.home", "key"),
    )


def test_new_memories_are_referred_to_by_id() -> None:
    """Memories passed as ``new`` are named by id on both sides of a supersession."""
    newer = memory("m-new", "Uses Helix as their editor.", key="tool.editor", day=4)
    plan = find_change_supersessions(
        [newer], [memory("m-old", "Uses Vim as their editor.", key="tool.editor")]
    )
    assert plan.supersessions == (Supersession("m-old", None, "m-new", "key tool.editor", "key"),)


def test_same_inputs_give_the_same_plan() -> None:
    """Supersession is deterministic."""
    new = [said("I switched from Flask to FastAPI."), said("I moved to Berlin.")]
    existing = [
        memory("m-1", "Uses Flask."),
        memory("m-2", "Lives in Lisbon.", topic="identity", key="user.home"),
    ]
    first = find_change_supersessions(new, existing, protected=identity_protected)
    assert first == find_change_supersessions(new, existing, protected=identity_protected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Uses Flask.", True),
        ("Uses Django, not Flask.", False),
        ("Doesn't really use Flask.", False),
        ("Moved the API from Flask to FastAPI.", False),
        ("Used Flask; no longer uses Django.", True),
        ("Uses flask daily.", True),
    ],
)
def test_affirms_reads_the_words_just_before_the_term(text: str, expected: bool) -> None:
    """A term counts as affirmed unless the words just before it negate it in its clause."""
    import re

    assert affirms(text, re.compile(r"\bflask\b", re.IGNORECASE)) is expected


class _CountedText(str):
    """A memory text that counts how often it is lower-cased (each scan starts that way)."""

    scans = 0

    def lower(self) -> str:
        _CountedText.scans += 1
        return super().lower()


def test_ten_thousand_memories_are_scanned_once() -> None:
    """The change scan is one pass over the memories, not one per change statement."""
    existing = [
        memory(f"m-{i}", _CountedText(f"Uses tool{i} with Flask {i}.")) for i in range(10_000)
    ]
    new = [said(f"I switched from Tool{i} to Other{i}.") for i in range(20)]
    new.append(said("I switched from Flask to FastAPI."))
    _CountedText.scans = 0
    plan = find_change_supersessions(new, existing)
    # 21 change statements, one scan of each stored text: a scan per statement would be 21x.
    assert _CountedText.scans <= len(existing)
    assert len(plan.supersessions) == 10_000
    assert {s.reason for s in plan.supersessions} == {"change Flask → FastAPI"}


def test_item_retired_by_two_changes_is_reported_once_for_the_newest() -> None:
    """ "Uses Flask and Vim" is retired once, by the later of the two change statements."""
    plan = find_change_supersessions(
        [said("I switched from Flask to FastAPI.", day=3), said("I no longer use Vim.", day=4)],
        [memory("m-1", "Uses Flask and Vim.")],
    )
    assert plan.supersessions == (Supersession("m-1", None, 1, "change Vim → nothing", "change"),)


SCENARIO = [
    # (day, session text): twelve sessions over ten days
    (0, "User: Hi, I'm Dana Reyes. I live in Lisbon.\nAssistant: Welcome, Dana!"),
    (1, "User: I prefer pytest over unittest for python tests."),
    (1, "User: I use Flask for web services.\nAssistant: I prefer Django."),
    (2, "User: I prefer pytest over unittest for python tests.\nUser: My shell is zsh."),
    (3, "User: I have a dentist appointment tomorrow at 3pm."),
    (4, "User: Remember that I prefer dark mode."),
    (5, "User: I prefer pytest over unittest for python tests."),
    (6, "User: I switched from Flask to FastAPI for our web services."),
    (7, "User: Do I still use Flask anywhere?\nAssistant: I use Flask in one script."),
    (8, "User: I moved to Berlin."),
    (9, "User: I prefer dark mode."),
    (10, "User: If I switched to Litestar, would it be faster?"),
]


def test_twelve_sessions_over_ten_days() -> None:
    """The lead's scenario: repeats collapse, Flask gives way to FastAPI, Lisbon to Berlin
    (where the user lives is a fact that changes, not protected identity)."""
    candidates: list[Candidate] = []
    for n, (day, text) in enumerate(SCENARIO):
        found = extract_candidates(text, session_id=f"s-{n}", created=T0 + timedelta(days=day))
        candidates.extend(found)
    summary = [(c.session_id, c.text, c.topic, c.priority) for c in candidates]
    # Issue 11: memories name the user (and use the name in the session that says it).
    assert summary == [
        ("s-0", "The user's name is Dana Reyes.", "identity", "high"),
        ("s-0", "Dana lives in Lisbon.", "facts", "high"),
        ("s-1", "The user prefers pytest over unittest for Python tests.", "preferences", "normal"),
        ("s-2", "The user uses Flask for web services.", "tools", "normal"),
        ("s-3", "The user prefers pytest over unittest for Python tests.", "preferences", "normal"),
        ("s-3", "The user's shell is zsh.", "tools", "normal"),
        (
            "s-4",
            "The user has a dentist appointment on 14 November 2026 at 3pm.",
            "schedule",
            "ephemeral",
        ),
        ("s-5", "The user prefers dark mode.", "preferences", "high"),
        ("s-6", "The user prefers pytest over unittest for Python tests.", "preferences", "normal"),
        (
            "s-7",
            "The user uses FastAPI for their web services (switched from Flask).",
            "tools",
            "normal",
        ),
        ("s-9", "The user lives in Berlin (moved there).", "facts", "high"),
        ("s-10", "The user prefers dark mode.", "preferences", "normal"),
    ]
    # Pretend the first two sessions were dreamt already: they are stored memories.
    stored = [
        memory("m-name", "The user's name is Dana Reyes.", topic="identity", key="user.name"),
        memory("m-home", "Dana lives in Lisbon.", topic="facts", key="user.home"),
        memory("m-flask", "The user uses Flask for web services.", day=1),
    ]
    fresh = candidates[2:]
    plan = find_change_supersessions(fresh, stored, protected=identity_protected)
    flask_switch = next(i for i, c in enumerate(fresh) if c.change == ("Flask", "FastAPI"))
    berlin = next(i for i, c in enumerate(fresh) if c.key == "user.home")
    assert [(s.old_id, s.old_index, s.new, s.kind) for s in plan.supersessions] == [
        ("m-flask", None, flask_switch, "change"),
        (None, 1, flask_switch, "change"),
        ("m-home", None, berlin, "key"),
    ]
    assert plan.skipped == ()
