"""With a model configured, gathering sends the session's date and turns, and the model's
proposals meet the same date and attribution rules as the deterministic statements."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from dreamgit.dream.gather.prompt_view import as_statement, session_turns
from dreamgit.dream.run import dream
from dreamgit.extract.candidate import Candidate
from dreamgit.llm.scripted import ScriptedAdapter
from dreamgit.model import Session
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo
from llm_dreamkit import add, answer, text

MONDAY = datetime(2028, 5, 8, 9, 0, tzinfo=UTC)


def test_session_turns_give_the_date_and_each_speaker() -> None:
    """The view a gather prompt gets: the day as people write it, turns with speakers."""
    session = Session(
        id="s-1", created=MONDAY, text="User: I moved to Oslo.\nAssistant: Noted.\nUser: Bye."
    )
    assert session_turns(session) == {
        "date": "8 May 2028",
        "turns": [
            {"speaker": "User", "text": "I moved to Oslo."},
            {"speaker": "Assistant", "text": "Noted."},
            {"speaker": "User", "text": "Bye."},
        ],
    }


def test_a_proposal_gets_absolute_dates_a_named_subject_and_a_kind() -> None:
    """ "User started at Acme yesterday" from a model reads like a gathered statement."""
    proposal = Candidate(
        text="User started a new job at Acme yesterday.",
        topic="notes",
        priority="normal",
        type="user",
        tags=(),
        key=None,
        confidence=0.9,
        session_id="s-1",
        created=MONDAY,
        change=None,
        pattern="llm",
    )
    seen = as_statement(proposal, created=MONDAY, subject="Ines")
    assert (seen.text, seen.kind, seen.subject) == (
        "Ines started a new job at Acme on 7 May 2028.",
        "event",
        "Ines",
    )


def test_the_dream_sends_the_date_and_keeps_the_proposal_dated(tmp_path: Path) -> None:
    """A real dream with a scripted model: the prompt names the session's day, and the
    model's "yesterday" is stored as the day it meant."""
    repo = MemoryRepo.init(tmp_path / "m", now=MONDAY)
    session = operations.log_session(repo, "User: I ran a half marathon yesterday.", now=MONDAY)
    model = ScriptedAdapter(
        {
            "model": "m",
            "responses": [
                text(answer(add("", session.id, text="User ran a half marathon yesterday.")))
            ],
        }
    )
    dream(repo, now=MONDAY.replace(hour=12), force=True, llm=model)
    prompt = model.requests[0].messages[1].content
    assert f"Session {session.id}, 8 May 2028:" in prompt
    texts = [m.text for m in repo.memories(now=MONDAY.replace(hour=12))]
    assert "The user ran a half marathon on 7 May 2028." in texts


def test_a_proposal_names_the_user_once_memory_knows_the_name(tmp_path: Path) -> None:
    repo = MemoryRepo.init(tmp_path / "m", now=MONDAY)
    operations.add_memory(
        repo, "The user's name is Ines.", topic="identity", key="user.name", now=MONDAY
    )
    session = operations.log_session(repo, "User: I adopted a cat named Miso.", now=MONDAY)
    model = ScriptedAdapter(
        {
            "model": "m",
            "responses": [text(answer(add("", session.id, text="User adopted a cat named Miso.")))],
        }
    )
    dream(repo, now=MONDAY.replace(hour=12), force=True, llm=model)
    texts = [m.text for m in repo.memories(now=MONDAY.replace(hour=12))]
    assert "Ines adopted a cat named Miso." in texts


def test_a_proposed_new_value_supersedes_the_old_one(tmp_path: Path) -> None:
    """The model's "moved to Lisbon" meets the same supersession as a gathered statement."""
    repo = MemoryRepo.init(tmp_path / "m", now=MONDAY)
    old = operations.add_memory(repo, "The user's office is in Berlin.", topic="facts", now=MONDAY)
    later = MONDAY.replace(day=15)
    # Nothing the extractor would gather itself: the model's proposal is the only news.
    session = operations.log_session(repo, "User: ok, Lisbon from today.", now=later)
    model = ScriptedAdapter(
        {
            "model": "m",
            "responses": [
                text(
                    answer(
                        add("", session.id, text="The user's office is in Lisbon.", topic="facts")
                    )
                )
            ],
        }
    )
    record = dream(repo, now=later.replace(hour=12), force=True, llm=model)
    texts = [m.text for m in repo.memories(now=later.replace(hour=12))]
    assert "The user's office is in Lisbon." in texts
    assert old.text not in texts
    (added,) = [op for op in record["ops"] if op["op"] == "add" and op["source"] == "llm"]
    (superseded,) = [op for op in record["ops"] if op["op"] == "supersede"]
    assert superseded["memories"] == [added["memories"][0], old.id]


def test_a_proposal_that_repeats_a_statement_of_a_session_note_is_no_second_memory(
    tmp_path: Path,
) -> None:
    """The extractor joins Ines's events into a note; the model proposes one of them again:
    it reinforces the note instead of standing beside it."""
    repo = MemoryRepo.init(tmp_path / "m", now=MONDAY)
    chat = (
        "Ines: Hi Omar!\nOmar: Hey Ines, what's new?\n"
        "Ines: I went to a pottery class on Saturday. I'm planning a trip to Porto in June.\n"
        "Omar: Nice.\n"
    )
    session = operations.log_session(repo, chat, now=MONDAY)
    model = ScriptedAdapter(
        {
            "model": "m",
            "responses": [
                text(
                    answer(
                        add(
                            "",
                            session.id,
                            text="Ines went to a pottery class on Saturday.",
                            topic="events",
                        )
                    )
                )
            ],
        }
    )
    dream(repo, now=MONDAY.replace(hour=12), force=True, llm=model)
    texts = [m.text for m in repo.memories(now=MONDAY.replace(hour=12))]
    assert sum("pottery" in t for t in texts) == 1, texts
    assert any(" \u2014 " in t and "Porto" in t for t in texts), texts
