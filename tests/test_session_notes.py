"""Session notes: a session's events, plans and people about one person as one memory.

The joining is checked on candidates; the rest on real repositories, each command the
file proves (``memories``, ``run``, ``show``, ``revert``, ``restore``) once through the
installed command and otherwise in the test's process (``clikit.prepared``): a note is
read statement by statement, so a newer value retires the one statement it replaces (the
note is rewritten, the old text stays in history and `revert` brings it back), and what a
note says is not gathered again.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from clikit import RepositoryTemplates, active, dreamgit, prepared
from dreamgit.dream import session_notes
from dreamgit.extract.candidate import Candidate, candidate_memory_fields
from dreamgit.model import Memory
from gitcheck import fsck

WHEN = datetime(2031, 3, 4, 10, 0, tzinfo=UTC)


def _candidate(
    text: str, *, topic: str = "events", session: str = "s-1", **kw: object
) -> Candidate:
    lead = text.split()[0].removesuffix("'s").removesuffix("'")
    fields: dict[str, object] = {
        "text": text,
        "topic": topic,
        "priority": "normal",
        "type": "user",
        "tags": (),
        "key": None,
        "confidence": 0.8,
        "session_id": session,
        "created": WHEN,
        "change": None,
        "pattern": "statement-event",
        "speaker": lead,
        "subject": lead,
    }
    fields.update(kw)
    return Candidate(**fields)  # type: ignore[arg-type]


def _memory(candidate: Candidate) -> Memory:
    return Memory(
        id="m-note",
        topic=candidate.topic,
        slug="note",
        text=candidate.text,
        created=WHEN,
        updated=WHEN,
        tags=candidate.tags,
    )


def test_one_persons_statements_of_one_session_become_one_note() -> None:
    """Events, plans and people of one session about Noor join; the name is said once
    ("their cousin" for "Noor's cousin"), and reads back as the statements were."""
    joined = session_notes.join(
        [
            _candidate("Noor went to a glass-blowing workshop on 1 March 2031."),
            _candidate("Noor is planning a trip to Oaxaca in May.", topic="plans"),
            _candidate("Noor's cousin Idris is a ferry pilot.", topic="people", subject="Noor"),
        ]
    )
    assert [c.text for c in joined] == [
        "Noor (4 March 2031) \u2014 went to a glass-blowing workshop on 1 March 2031; is planning"
        " a trip to Oaxaca in May; their cousin Idris is a ferry pilot."
    ]
    assert session_notes.TAG in joined[0].tags
    assert session_notes.facts(_memory(joined[0])) == [
        "Noor went to a glass-blowing workshop on 1 March 2031.",
        "Noor is planning a trip to Oaxaca in May.",
        "Noor's cousin Idris is a ferry pilot.",
    ]


def test_a_persons_likes_join_their_note_but_the_users_preferences_stand_alone() -> None:
    """What someone in a chat likes is a fact about them; what the agent's user prefers
    says how the agent should work, and stays a memory of its own."""
    chat = session_notes.join(
        [
            _candidate("Noor went rowing on 2 March 2031."),
            _candidate("Noor loves slow cinema.", topic="preferences", type="feedback"),
        ]
    )
    assert [c.text for c in chat] == [
        "Noor (4 March 2031) \u2014 went rowing on 2 March 2031; loves slow cinema."
    ]
    user = [
        _candidate("The user went rowing on 2 March 2031.", speaker="user", subject="The user"),
        _candidate(
            "The user prefers pytest to unittest.",
            topic="preferences",
            type="feedback",
            speaker="user",
            subject="The user",
        ),
        _candidate(
            "The user is planning a trip.", topic="plans", speaker="user", subject="The user"
        ),
    ]
    assert [c.text for c in session_notes.join(user)] == [
        "The user (4 March 2031) \u2014 went rowing on 2 March 2031; is planning a trip.",
        "The user prefers pytest to unittest.",
    ]


def test_what_a_note_never_joins() -> None:
    """Another session, another person, a fact, a keyed fact, a change statement, a
    model's proposal, a statement alone: each stays the memory it was."""
    alone = [
        _candidate("Noor went rowing on 2 March 2031.", session="s-2"),
        _candidate("Tariq went rowing on 2 March 2031."),
        _candidate("Noor is a ferry pilot.", topic="facts"),
        _candidate("Noor lives in Tromso.", key="user.home"),
        _candidate("Noor moved to Bergen.", change=("Tromso", "Bergen")),
        _candidate("Noor went sailing on 3 March 2031.", pattern="llm"),
        _candidate("Noor went skiing; it snowed.", session="s-3"),
        _candidate("Noor went skating on 3 March 2031.", session="s-3"),
    ]
    assert [c.text for c in session_notes.join(alone)] == [c.text for c in alone]


def test_the_statements_a_days_note_keeps_are_that_days_note_even_alone() -> None:
    """Statements tagged for their day's note (plans whose day was over when they were
    read) make one note of that day for each person, whatever their topic and session, in
    the order they were said; a note of one too. What is not tagged stays out of it; one a
    note cannot hold, or the user's at work, stays as it was."""
    keep = (session_notes.TAG,)
    [alone] = session_notes.join(
        [_candidate("Noor says the kiln booking is 2 March 2031.", topic="facts", tags=keep)]
    )
    assert alone.text == "Noor (4 March 2031) \u2014 says the kiln booking is 2 March 2031."
    assert session_notes.is_note(_memory(alone))
    said = [
        _candidate("Noor's deadline for the mural was 1 March 2031.", topic="facts", tags=keep),
        _candidate("Noor went rowing on 1 March 2031.", session="s-2"),
        _candidate("Noor says the mural is now due 3 March 2031.", session="s-2", tags=keep),
    ]
    assert [c.text for c in session_notes.join(said)] == [
        "Noor (4 March 2031) \u2014 their deadline for the mural was 1 March 2031; says the"
        " mural is now due 3 March 2031.",
        "Noor went rowing on 1 March 2031.",
    ]
    untouched = [
        _candidate("Noor's booking: the kiln; 2 March 2031.", topic="facts", tags=keep),
        _candidate(
            "The user says the release deadline was 3 March 2031.",
            topic="facts",
            tags=keep,
            speaker="user",
            subject="The user",
        ),
    ]
    assert session_notes.join(untouched, at_work={"s-1"}) == untouched
    assert not session_notes.can_hold(untouched[0])


def test_a_memory_as_the_note_of_its_day() -> None:
    """A plan that was a memory of its own becomes, once a prune rule retires it, the note
    of the day it was said: that day first, then what it said, read back as it was; a
    memory a note cannot hold, or a note already, is none."""
    plan = _memory(_candidate("Noor says the kiln is booked for 6 March 2031 at 2pm."))
    note = session_notes.of_its_day(plan)
    assert note is not None and session_notes.is_note(note)
    assert note.text == f"4 March 2031 \u2014 {plan.text}"
    assert session_notes.facts(note) == [plan.text]
    assert session_notes.of_its_day(note) is None
    assert session_notes.of_its_day(replace(plan, text="Noor: kiln; 6 March 2031.")) is None


def test_a_note_stays_short() -> None:
    """Past MAX_CHARS of statements a second note begins."""
    many = [_candidate(f"Noor visited gallery number {k} on 1 March 2031.") for k in range(12)]
    joined = session_notes.join(many)
    assert len(joined) > 1
    assert all(len(c.text) <= session_notes.MAX_CHARS + len(" (4 March 2031)") for c in joined)
    statements = [s for c in joined for s in session_notes.facts(_memory(c)) or [c.text]]
    assert statements == [c.text for c in many]


def test_a_note_without_statements() -> None:
    """Dropping statements rewrites the note; one left is a plain memory; none is None."""
    note = _memory(
        session_notes.join(
            [
                _candidate("Noor went rowing on 2 March 2031."),
                _candidate("Noor is planning a trip to Oaxaca.", topic="plans"),
                _candidate("Noor's team has 4 people.", topic="people", subject="Noor"),
            ]
        )[0]
    )
    two = session_notes.without(note, {1})
    assert two is not None and session_notes.is_note(two)
    assert two.text == (
        "Noor (4 March 2031) \u2014 went rowing on 2 March 2031; their team has 4 people."
    )
    one = session_notes.without(note, {0, 1})
    assert one is not None and not session_notes.is_note(one) and session_notes.TAG not in one.tags
    assert one.text == "Noor's team has 4 people."
    assert session_notes.without(note, {0, 1, 2}) is None


def test_a_note_opens_with_its_sessions_day_unless_a_statement_says_it() -> None:
    """The session's day is written once, in the lead, where no statement says it; the
    statements read back without it, and a note rewritten without some keeps it."""
    [dated] = session_notes.join(
        [
            _candidate("Noor adopted a cat last Friday (28 February 2031)."),
            _candidate("Noor is planning a trip to Oaxaca.", topic="plans"),
            _candidate("Noor's sister Lale is a luthier.", topic="people", subject="Noor"),
        ]
    )
    assert dated.text.startswith("Noor (4 March 2031) \u2014 adopted a cat last Friday")
    note = _memory(dated)
    assert session_notes.facts(note) == [
        "Noor adopted a cat last Friday (28 February 2031).",
        "Noor is planning a trip to Oaxaca.",
        "Noor's sister Lale is a luthier.",
    ]
    two = session_notes.without(note, {0})
    assert two is not None
    assert two.text == (
        "Noor (4 March 2031) \u2014 is planning a trip to Oaxaca; their sister Lale is a luthier."
    )
    assert session_notes.headline(two) == (
        "Noor (4 March 2031) \u2014 is planning a trip to Oaxaca",
        "their sister Lale is a luthier",
    )
    [said] = session_notes.join(
        [
            _candidate("Noor went rowing on 4 March 2031."),
            _candidate("Noor is planning a trip to Oaxaca.", topic="plans"),
        ]
    )
    assert said.text == "Noor \u2014 went rowing on 4 March 2031; is planning a trip to Oaxaca."


def test_a_dated_notes_name_and_slug_begin_with_what_it_says() -> None:
    """The session's day in the lead is not what a note is about: its slug and name start
    with its first statement, as a note's without a day do."""
    [note] = session_notes.join(
        [
            _candidate("Noor went rowing on 2 March 2031."),
            _candidate("Noor is planning a trip to Oaxaca.", topic="plans"),
        ]
    )
    assert note.text.startswith("Noor (4 March 2031) \u2014 ")
    fields = candidate_memory_fields(note)
    assert fields["slug"].startswith("went-rowing")
    assert str(fields["name"]).startswith("went-rowing")


FIRST = (
    "Noor: Hey Tariq!\n"
    "Tariq: Hi Noor, what's new?\n"
    "Noor: I'm dating a guy named Elias. My brother works at Vattenfall. Our team has 5 people.\n"
    "Tariq: Cool.\n"
    "Noor: I'm going to Oaxaca in June.\n"
)
LATER = (
    "Noor: Hey Tariq!\n"
    "Tariq: Hi Noor, what's new?\n"
    "Noor: My brother works at Statkraft now. Our team has 7 people now.\n"
    "Tariq: Wow, congrats.\n"
)


#: The day FIRST is logged and dreamt over.
FIRST_DAY = "2031-05-03T10:00:00Z"


def _dreamt_over_first(repo: Path) -> dict[str, Any]:
    """A new repository that has dreamt over FIRST: its one memory, Noor's note."""
    prepared(repo, FIRST_DAY, "init", str(repo))
    prepared(repo, FIRST_DAY, "log", stdin=FIRST)
    prepared(repo, FIRST_DAY, "run", "--force")
    [note] = json.loads(prepared(repo, FIRST_DAY, "memories", "--json"))
    return dict(note)


#: The day LATER is logged and dreamt over, after FIRST.
LATER_DAY = "2031-06-20T10:00:00Z"


def _dreamt_over_later(repo: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """A new repository that has dreamt over FIRST, then LATER: the note, LATER's run."""
    note = _dreamt_over_first(repo)
    prepared(repo, LATER_DAY, "log", stdin=LATER)
    return note, json.loads(prepared(repo, LATER_DAY, "run", "--force", "--json"))


def _first_note(templates: RepositoryTemplates, repo: Path, day: str) -> dict[str, Any]:
    """A copy at ``repo`` of the repository that dreamt over FIRST on ``day``; its note."""
    assert day == FIRST_DAY
    return templates.copy(_dreamt_over_first, repo)


def test_a_newer_value_retires_one_statement_of_a_note(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """The note keeps what still holds; exactly one active memory holds each current value,
    none a stale one; the note as it was is in its history."""
    repo = tmp_path / "mem"
    note, _ = templates.copy(_dreamt_over_later, repo)
    assert note["text"].startswith("Noor (3 May 2031) \u2014 is dating a guy named Elias;")
    assert "Vattenfall" in note["text"] and "5 people" in note["text"]

    texts = [m["text"] for m in active(repo, LATER_DAY, in_process=True)]
    for current in ("Statkraft", "7 people", "Elias", "Oaxaca"):
        assert sum(current in t for t in texts) == 1, (current, texts)
    assert not any("Vattenfall" in t or "5 people" in t for t in texts), texts
    history = dreamgit(repo, LATER_DAY, "show", note["id"], "--history")
    assert "Vattenfall" in history


def test_reverting_the_retiring_operation_brings_the_stale_statements_back(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """The run replaced the note alone; reverting that one operation restores its old values."""
    repo, day3 = tmp_path / "mem", "2031-06-21T10:00:00Z"
    note, run = templates.copy(_dreamt_over_later, repo)
    replaced = [op for op in run["ops"] if op["op"] == "replace"]
    assert [op["memories"][0] for op in replaced] == [note["id"]]
    dreamgit(repo, day3, "revert", run["run_id"], "--op", str(replaced[0]["n"]))
    texts = [m["text"] for m in active(repo, day3, in_process=True)]
    assert any("Vattenfall" in t and "5 people" in t for t in texts), texts
    fsck(repo)


def test_a_core_note_is_never_rewritten(tmp_path: Path, templates: RepositoryTemplates) -> None:
    """A person made the note core with a plain commit: the newer values are kept beside
    it, the note stays as it was, and the run says why."""
    repo = tmp_path / "mem"
    day1, day2 = "2031-05-03T10:00:00Z", "2031-06-20T10:00:00Z"
    note = _first_note(templates, repo, day1)
    marker = f"id: {note['id']}"
    path = next(p for p in repo.rglob("*.md") if marker in p.read_text(encoding="utf-8"))
    path.write_text(
        path.read_text(encoding="utf-8").replace("priority: normal", "priority: core"),
        encoding="utf-8",
    )
    git = ["git", "-C", str(repo), "-c", "user.name=P", "-c", "user.email=p@example.org"]
    subprocess.run([*git, "commit", "-qam", "keep this note"], check=True)

    prepared(repo, day2, "log", stdin=LATER)
    run = json.loads(dreamgit(repo, day2, "run", "--force", "--json"))
    texts = [m["text"] for m in active(repo, day2, in_process=True)]
    assert note["text"] in texts
    assert any("Statkraft" in t for t in texts)
    assert not [op for op in run["ops"] if op["op"] == "replace"]
    assert any(f"{note['id']} is protected" in d["reason"] for d in run["decisions"])
    fsck(repo)


def test_what_a_note_says_is_not_gathered_again(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """A statement of a note said again in a later session is known: no second memory."""
    repo = tmp_path / "mem"
    day1, day2 = "2031-05-03T10:00:00Z", "2031-06-20T10:00:00Z"
    _first_note(templates, repo, day1)
    again = (
        "Noor: Hey Tariq!\n"
        "Tariq: Hi Noor, what's new?\n"
        "Noor: I'm dating a guy named Elias.\n"
        "Tariq: Cool.\n"
    )
    prepared(repo, day2, "log", stdin=again)
    prepared(repo, day2, "run", "--force")
    texts = [m["text"] for m in active(repo, day2, in_process=True)]
    assert sum("Elias" in t for t in texts) == 1, texts


def test_a_memory_that_repeats_a_statement_of_a_note_is_absorbed_by_it(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """An agent (or a person) writes what a note already says: the dream keeps the note,
    with both sources, and the repeat leaves the active set (restore brings it back)."""
    repo = tmp_path / "mem"
    day1, day2, day3 = "2031-05-03T10:00:00Z", "2031-05-04T10:00:00Z", "2031-05-05T10:00:00Z"
    note = _first_note(templates, repo, day1)
    repeat = prepared(
        repo, day2, "add", "Noor is dating a guy named Elias.", "--topic", note["topic"]
    ).strip()
    run = json.loads(prepared(repo, day2, "run", "--force", "--json"))
    texts = [m["text"] for m in active(repo, day2, in_process=True)]
    assert texts == [note["text"]]
    (merged,) = [op for op in run["ops"] if op["op"] == "merge"]
    assert merged["memories"] == [note["id"], repeat]
    dreamgit(repo, day3, "restore", repeat)
    assert "Noor is dating a guy named Elias." in [
        m["text"] for m in active(repo, day3, in_process=True)
    ]
    fsck(repo)


def test_the_users_statements_in_a_session_with_a_coding_agent_stay_apart() -> None:
    """In a session read from an agent's files the user's events and plans are the hour's
    work: each stays a statement of its own; a person named there still gets a note, and
    the same statements of the user in a chat still join."""
    said = [
        _candidate(
            "The user moved the fixtures into a folder of their own.",
            speaker="user",
            subject="The user",
        ),
        _candidate(
            "The user is going to rename the importer.",
            topic="plans",
            speaker="user",
            subject="The user",
        ),
        _candidate("Noor went to a glass-blowing workshop on 1 March 2031."),
        _candidate("Noor is planning a trip to Oaxaca in May.", topic="plans"),
    ]
    at_work = session_notes.join(said, at_work={"s-1"})
    assert [c.text for c in at_work] == [
        "The user moved the fixtures into a folder of their own.",
        "The user is going to rename the importer.",
        "Noor (4 March 2031) \u2014 went to a glass-blowing workshop on 1 March 2031; is planning"
        " a trip to Oaxaca in May.",
    ]
    in_a_chat = session_notes.join(said)
    assert in_a_chat[0].text.startswith("The user (4 March 2031) \u2014 moved the fixtures")


WORK = """<!-- Generated by SpecStory -->

_**User**_

I moved the fixtures into a folder of their own yesterday. I'm going to rename the importer \
next week.

---

_**Assistant**_

Noted.
"""


@pytest.mark.parametrize("kind", ["work", "chat"])
def test_no_note_of_the_user_comes_from_a_coding_agents_session(tmp_path: Path, kind: str) -> None:
    """The same turn logged as a SpecStory export gives the
    user's statements one by one, and as a plain chat one note (one test each)."""
    day = "2031-05-03T10:00:00Z"
    export = tmp_path / "history" / "2031-05-02_09-00-fixtures.md"
    export.parent.mkdir()
    export.write_text(WORK, encoding="utf-8")
    args = {"work": ["--file", str(export)], "chat": []}[kind]
    repo = tmp_path / kind
    prepared(repo, day, "init", str(repo))
    chat = "User: " + WORK.split("_**User**_")[1].split("---")[0].strip() + "\n"
    prepared(repo, day, "log", *args, stdin=None if args else chat)
    prepared(repo, day, "run", "--force")
    texts = {kind: [m["text"] for m in active(repo, day, in_process=True)]}
    if kind == "chat":
        assert any(t.startswith("The user \u2014 ") for t in texts["chat"]), texts
    else:
        assert not any("\u2014" in t for t in texts["work"]), texts
        assert any("fixtures" in t for t in texts["work"]), texts
