"""Values that change across sessions: the newer one supersedes, `restore` brings the old back.

Everything goes through the installed command as a process, on real repositories:
memories an agent wrote on one day and sessions logged on another, then `dreamgit run`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from clikit import active, dreamgit
from gitcheck import fsck

#: (older memory, newer memory, a word only the newer one holds) for each kind of value.
CHANGES = [
    (
        "The user's newsletter has 3000 subscribers.",
        "The user's newsletter has now reached 5000 subscribers.",
        "5000",
    ),
    (
        "The user's beta launch is on 15 January 2026.",
        "The user's beta launch moved to 22 January 2026.",
        "22 January",
    ),
    ("The user's office is in Berlin.", "The user's office is in Lisbon.", "Lisbon"),
    ("The user's team is on Python 3.11.", "The user's team is on Python 3.12.", "3.12"),
    (
        "The user's team uses Flask for the web services.",
        "The user's team switched to Django for the web services.",
        "Django",
    ),
    ("The user's standup is at 9:30.", "The user's standup is at 10:00, not 9:30.", "10:00"),
    ("Priya Raman works at Stripe.", "Priya Raman no longer works at Stripe.", "no longer"),
]
#: Pairs that must both stay: two events, two appointments, two tools of different kinds.
KEPT = [
    "Caroline went to a poetry reading on 5 May 2023.",
    "Caroline went to a poetry reading on 12 May 2023.",
    "The user has a dentist appointment on 10 May.",
    "The user has a dentist appointment on 3 June.",
    "The user's team uses pytest for the web services.",
]


def _texts(repo: Path, now: str) -> list[str]:
    return [m["text"] for m in active(repo, now)]


@pytest.mark.slow
def test_each_changed_value_leaves_one_current_memory_and_restore_brings_back_the_old(
    tmp_path: Path,
) -> None:
    """Numbers, dates, places, versions, tools, corrections, "no longer": newest wins."""
    repo = tmp_path / "mem"
    dreamgit(repo, "2026-01-05T09:00:00Z", "init", str(repo))
    old_ids = {}
    for old, _new, _word in CHANGES:
        old_ids[old] = dreamgit(repo, "2026-01-05T10:00:00Z", "add", old, "--topic", "facts")
    for text in KEPT[::2]:
        dreamgit(repo, "2026-01-05T10:00:00Z", "add", text, "--topic", "facts")
    for _old, new, _word in CHANGES:
        dreamgit(repo, "2026-01-12T10:00:00Z", "add", new, "--topic", "facts")
    for text in KEPT[1::2]:
        dreamgit(repo, "2026-01-12T10:00:00Z", "add", text, "--topic", "facts")
    review = json.loads(dreamgit(repo, "2026-01-13T09:00:00Z", "review", "--force", "--json"))
    out = dreamgit(repo, "2026-01-13T09:00:00Z", "run", "--force")
    assert out.count("supersede-newer-value") == len(CHANGES)
    planned = [op["summary"] for op in review["ops"] if op["phase"] == "consolidate"]
    assert planned and all(summary in out for summary in planned)  # review == run
    texts = _texts(repo, "2026-01-13T09:00:00Z")
    for old, new, word in CHANGES:
        assert old not in texts  # no active memory holds a stale value
        assert [t for t in texts if word in t] == [new]  # exactly one holds the current one
    assert all(text in texts for text in KEPT)
    for old, _new, _word in CHANGES:
        dreamgit(repo, "2026-01-14T09:00:00Z", "restore", old_ids[old].strip())
    texts = _texts(repo, "2026-01-14T09:00:00Z")
    assert all(old in texts for old, _new, _word in CHANGES)
    fsck(repo)


@pytest.mark.slow
def test_a_tool_switched_in_a_later_session_supersedes_the_earlier_sessions_tool(
    tmp_path: Path,
) -> None:
    """Sessions a week apart: the later one's tool replaces the earlier one's, restorable."""
    repo = tmp_path / "mem"
    dreamgit(repo, "2026-01-05T09:00:00Z", "init", str(repo))
    dreamgit(
        repo, "2026-01-05T10:00:00Z", "log", stdin="User: We use Flask for the web services.\n"
    )
    dreamgit(repo, "2026-01-06T09:00:00Z", "run", "--force")
    before = json.loads(dreamgit(repo, "2026-01-06T09:00:00Z", "memories", "--json"))
    flask = [m for m in before if "Flask" in m["text"]]
    assert len(flask) == 1
    dreamgit(
        repo,
        "2026-01-12T10:00:00Z",
        "log",
        stdin="User: We switched to Django for the web services.\n",
    )
    out = dreamgit(repo, "2026-01-13T09:00:00Z", "run", "--force")
    assert "supersede" in out
    texts = _texts(repo, "2026-01-13T09:00:00Z")
    assert not [t for t in texts if "Flask" in t]
    assert len([t for t in texts if "Django" in t]) == 1
    dreamgit(repo, "2026-01-14T09:00:00Z", "restore", flask[0]["id"])
    assert [t for t in _texts(repo, "2026-01-14T09:00:00Z") if "Flask" in t] == [flask[0]["text"]]
    fsck(repo)


#: A chat between two people, sessions ten days apart, in which Ana's values change.
CHAT = [
    "Ben: How are things?\nAna: I live in Porto now, near the river.\nBen: Nice!\n"
    "Ana: I work at Stripe as a designer. My newsletter has 3,000 subscribers.\nBen: Wow.\n"
    "Ana: My favorite band is Muse.\nBen: Cool.",
    "Ben: How's the running?\nAna: I'm training for the Berlin marathon in September.\n"
    "Ben: Good luck!",
    "Ben: Any news?\nAna: Not much, still busy with work.\nBen: Same here.",
    "Ben: What's new?\nAna: We moved to Lisbon last month! I left Stripe and joined Shopify.\n"
    "Ben: Big changes!\nAna: And the newsletter just hit 5,000 subscribers.\nBen: Congrats!",
    "Ben: Still doing Berlin?\nAna: No, I switched to the Paris marathon instead.\nBen: Nice.\n"
    "Ana: These days my favorite band is Arctic Monkeys.\nBen: Ha!",
]
#: (a word only the stale memory holds, a word only the current one holds)
CHAT_CHANGES = [
    ("Porto", "Lisbon"),
    ("works at Stripe", "Shopify"),
    ("3,000", "5,000"),
    ("Berlin marathon", "Paris marathon"),
    ("Muse", "Arctic Monkeys"),
]


#: Values that change with another verb than the one they were said with.
CHAT_TURNS = [
    "Lena: Tell me about you.\nRui: I'm 29 years old and I live in Braga.\nLena: Nice.\n"
    "Rui: I have two kids, Tiago and Sara.\nLena: Lovely.\nRui: My phone is an iPhone 12.\n"
    "Lena: Ok.\nRui: I work as a nurse at Santa Maria Hospital.\nLena: Great.",
    "Lena: Busy week?\nRui: Yes, long shifts at the hospital.\nLena: Rest up.",
    "Lena: Any news?\nRui: Not much.\nLena: Ok.",
    "Lena: Happy birthday!\nRui: Thanks! I just turned 30.\nLena: Wow.\n"
    "Rui: We just had our third baby, Ines, so now I have three kids.\nLena: Congrats!\n"
    "Rui: I upgraded to an iPhone 15 too.\nLena: Fancy.\n"
    "Rui: I quit nursing and I'm now a teacher at Oak School.\nLena: Big change!",
]
CHAT_TURNS_CHANGES = [
    ("29 years old", "turned 30"),  # an age, then a birthday
    ("two kids", "three kids"),  # a count said at the end of another clause
    ("iPhone 12", "iPhone 15"),  # "upgraded to" another version of what they own
    ("nurse", "teacher at Oak School"),  # a role quit, named by its work ("nursing")
]


def _dream_chat(repo: Path, chat: list[str], changes: list[tuple[str, str]]) -> None:
    """Log ``chat`` a session every five days, dream every third session and after the
    last; then no active memory holds a stale value and one holds each current value."""
    dreamgit(repo, "2025-03-01T09:00:00Z", "init", str(repo))
    for k, session in enumerate(chat, start=1):
        day = f"2025-03-{k * 5:02d}"
        dreamgit(repo, f"{day}T10:00:00Z", "log", stdin=session + "\n")
        if k % 3 == 0 or k == len(chat):
            dreamgit(repo, f"{day}T11:00:00Z", "run", "--force")
    current = json.loads(dreamgit(repo, "2025-03-26T09:00:00Z", "memories", "--json"))
    texts = [m["text"] for m in current]
    for stale, fresh in changes:
        assert not [t for t in texts if stale in t], (stale, texts)
        assert len([t for t in texts if fresh in t]) == 1, (fresh, texts)


@pytest.mark.slow
def test_values_that_change_in_a_chat_leave_one_current_memory_each(tmp_path: Path) -> None:
    """People say what changed in passing ("We moved to Lisbon last month!", "the
    newsletter just hit 5,000", "these days my favorite band is …"): after the dreams no
    active memory holds a stale value, exactly one holds each current value, and
    `restore` brings the stale one back."""
    repo = tmp_path / "mem"
    _dream_chat(repo, CHAT, CHAT_CHANGES)
    before = json.loads(
        dreamgit(repo, "2025-03-26T09:00:00Z", "memories", "--json", "--as-of", "2025-03-20")
    )
    muse = [m for m in before if "Muse" in m["text"]]
    assert len(muse) == 1
    dreamgit(repo, "2025-03-27T09:00:00Z", "restore", muse[0]["id"])
    assert any("Muse" in t for t in _texts(repo, "2025-03-27T09:00:00Z"))
    fsck(repo)


@pytest.mark.slow
def test_a_value_changed_by_another_verb_leaves_one_current_memory(tmp_path: Path) -> None:
    """ "I'm 29" then "I just turned 30"; "I have two kids" then "…, so now I have three
    kids"; "my phone is an iPhone 12" then "I upgraded to an iPhone 15"; "I work as a
    nurse" then "I quit nursing and I'm now a teacher": each leaves one current memory,
    and the older value is in history."""
    repo = tmp_path / "mem"
    _dream_chat(repo, CHAT_TURNS, CHAT_TURNS_CHANGES)
    before = json.loads(
        dreamgit(repo, "2025-03-26T09:00:00Z", "memories", "--json", "--as-of", "2025-03-16")
    )
    assert any("iPhone 12" in m["text"] for m in before)
    fsck(repo)


#: A user telling an agent where they live and work, and later that both changed.
USER_MOVES = [
    "User: Hi, I'm Marta.\nAssistant: Hello Marta!\nUser: I live in Porto.\nAssistant: Noted.\n"
    "User: I work at Mercy Hospital as a nurse.\nAssistant: Noted.",
    "User: Can you help me plan a weekend trip?\nAssistant: Sure.",
    "User: Thanks for the help.\nAssistant: Anytime.",
    "User: I moved to Lisbon last week.\nAssistant: Noted.\n"
    "User: I now work at Oak School as a teacher.\nAssistant: Congrats!",
]


@pytest.mark.slow
def test_where_a_user_lives_and_works_changes_while_their_name_stays(tmp_path: Path) -> None:
    """Home, employer and role are facts that change (not protected identity): "I moved to
    Lisbon" retires "lives in Porto". The name stays in the protected identity topic."""
    repo = tmp_path / "mem"
    _dream_chat(
        repo,
        USER_MOVES,
        [("Porto", "Lisbon"), ("Mercy Hospital", "a teacher at Oak School")],
    )
    current = json.loads(dreamgit(repo, "2025-03-26T09:00:00Z", "memories", "--json"))
    assert [m["text"] for m in current if m["topic"] == "identity"] == ["The user's name is Marta."]
    fsck(repo)


#: A team that moves its app to another framework, and its docs to another tool.
TOOL_SWITCHES = [
    "User: Hi, I'm Tomas.\nAssistant: Hi Tomas!\n"
    "User: I'm building our clinic booking app with React Native.\nAssistant: Noted.\n"
    "User: Honestly I'm still fighting with Confluence's page tree, it is clumsy.\n"
    "Assistant: That is a common complaint.",
    "User: Can you review this function for me?\nAssistant: Sure.",
    "User: Thanks for the review.\nAssistant: Anytime.",
    "User: Big news: we made the decision to rewrite the app in Flutter.\nAssistant: Exciting!\n"
    "User: We also switched from Confluence to Notion for the docs.\nAssistant: Noted.",
]


@pytest.mark.slow
def test_a_tool_left_by_the_users_team_leaves_what_the_user_said_of_it(tmp_path: Path) -> None:
    """ "I'm building our app with React Native", then "we made the decision to rewrite the
    app in Flutter": the team's decision changes what the user builds with. "We switched
    from Confluence to Notion" retires what was said of Confluence while it was in use."""
    repo = tmp_path / "mem"
    _dream_chat(
        repo,
        TOOL_SWITCHES,
        [("React Native", "Flutter"), ("Confluence's page tree", "Notion")],
    )
    fsck(repo)


#: A user's role, then a promotion said in passing, in an abbreviation the role never used.
USER_PROMOTED = [
    "User: Hi, I'm Lea.\nAssistant: Hi Lea!\n"
    "User: I'm a product manager at a fintech startup.\nAssistant: Noted.",
    "User: Can you explain window functions?\nAssistant: Sure.",
    "User: Thanks, that helped.\nAssistant: Anytime.",
    "User: Also I got promoted to Senior PM! More meetings now.\nAssistant: Congrats!",
]


@pytest.mark.slow
def test_a_promotion_is_the_users_role_now(tmp_path: Path) -> None:
    """ "I got promoted to Senior PM" retires "works as a product manager": the same slot."""
    repo = tmp_path / "mem"
    _dream_chat(repo, USER_PROMOTED, [("product manager", "Senior PM")])
    fsck(repo)


#: Counts said with other verbs than before, inside a request, and counts of other things.
COUNT_CHAT = [
    "User: I have 9 plugins in my editor.\nAssistant: Nice.\n"
    "User: I have 12 unit tests for the parser.\nAssistant: Good start.",
    "User: Can you explain what a dead letter queue is?\nAssistant: It holds failed messages.",
    "User: I'm cleaning up my editor since I installed 14 plugins, which ones slow startup?\n"
    "Assistant: Check the language servers.\n"
    "User: I wrote 6 unit tests for the lexer.\nAssistant: Good.\n"
    "User: We also added 4 servers to the cluster.\nAssistant: Good.",
]


@pytest.mark.slow
def test_a_count_said_with_another_verb_supersedes_and_other_counts_stay(tmp_path: Path) -> None:
    """ "I have 9 plugins" then, inside a request, "since I installed 14 plugins": one
    current memory, the older count in history; tests of another module and servers are
    other counted things, and the tests of the parser stay."""
    repo = tmp_path / "mem"
    _dream_chat(repo, COUNT_CHAT, [("9 plugins", "14 plugins")])
    texts = _texts(repo, "2025-03-26T09:00:00Z")
    for kept in ("12 unit tests for the parser", "6 unit tests for the lexer", "4 servers"):
        assert len([t for t in texts if kept in t]) == 1, (kept, texts)
    now = "2025-03-26T09:00:00Z"
    newer = next(m["id"] for m in active(repo, now) if "14 plugins" in m["text"])
    lineage = dreamgit(repo, now, "show", "--history", newer)
    older = re.search(r"supersedes (m-\w+)", lineage)
    assert older is not None, lineage
    dreamgit(repo, now, "restore", older[1])
    assert any("9 plugins" in t for t in _texts(repo, now))
    fsck(repo)
