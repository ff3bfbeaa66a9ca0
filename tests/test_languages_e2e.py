"""Any language through the installed command: kept as said, with speaker and date.

Sessions in German, Spanish and Chinese (sentences written for these tests) are logged
on their own days and dreamed over with the default rules; an OpenClaw workspace's daily
note, written by the agent in the first person, is dreamed over the same way. Real git
repositories; the first test dreams and lists through the real `dreamgit` process, the
others run the same command in this process (``prepared``), which saves each the cost of
starting one.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from clikit import active, dreamgit, prepared
from gitcheck import fsck

NOW = "2031-04-12T08:00:00Z"
SESSIONS = [
    (
        "2031-04-08T09:00:00Z",
        "User: Ich arbeite seit März als Tischlerin in einer Werkstatt in Bremen.\n"
        "Assistant: Das klingt nach einer schönen Arbeit.\n"
        "User: Wie lange trocknet Eichenholz eigentlich?\n",
        "Ich arbeite seit März als Tischlerin in einer Werkstatt in Bremen.",
    ),
    (
        "2031-04-09T18:30:00Z",
        "User: Me mudé a Valencia con mi pareja el otoño pasado.\n"
        "Assistant: ¡Qué bien! ¿Te gusta la ciudad?\n"
        "User: ¡Muchísimo!\n",
        "Me mudé a Valencia con mi pareja el otoño pasado.",
    ),
    (
        "2031-04-10T14:05:00Z",
        "User: 以后默认用 pnpm，请用中文回答。\n"
        "Assistant: 好的，我记住了。\n"
        "User: 为什么锁文件又冲突了？\n",
        "以后默认用 pnpm，请用中文回答。",
    ),
]


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "memory"
    prepared(repo, SESSIONS[0][0], "init", str(repo))
    for when, text, _ in SESSIONS:
        prepared(repo, when, "log", stdin=text)
    dreamgit(repo, NOW, "run", "--force")
    return repo


def test_german_spanish_and_chinese_statements_are_kept_as_said_with_speaker_and_date(
    tmp_path: Path,
) -> None:
    """Each statement word for word, "user" first, on the day it was said; nothing else."""
    repo = _repo(tmp_path)
    memories = active(repo, NOW, in_process=True)
    by_text = {m["text"]: m for m in memories}
    for when, _, sentence in SESSIONS:
        memory = by_text[f"user \u2014 {sentence}"]
        assert memory["created"] == when
        assert "as-said" in memory["tags"]
        assert memory["key"] is None
    assert len(memories) == len(SESSIONS)  # no question, no exclamation, no reply
    assert not [m for m in memories if "The user" in m["text"]]
    index = (repo / "MEMORY.md").read_text(encoding="utf-8")
    for _, _, sentence in SESSIONS:
        assert sentence.rstrip("。.") in index
    fsck(repo)


def test_an_openclaw_daily_notes_first_person_stays_the_agents(tmp_path: Path) -> None:
    """ "I" in the agent's own note is the agent: never "the user", no stray quotes."""
    root = tmp_path / "workspace"
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Memory\n\n- Priya runs the nightly builds.\n")
    (root / "memory" / "2031-04-09.md").write_text(
        "## 10:20 - Build farm\n"
        "- Priya asked me to track the upgrade of the build runners to Ubuntu 24.04.\n"
        "- I keep the upgrade checklist in the ops wiki.\n"
    )
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    prepared(root, "2031-04-09T12:00:00Z", "init", str(root))
    prepared(root, NOW, "run", "--force")
    texts = [m["text"] for m in active(root, NOW, in_process=True)]
    assert "Priya asked the agent to track the upgrade of the build runners to Ubuntu 24.04." in (
        texts
    )
    assert not [t for t in texts if "the user" in t.lower() or '"' in t]
    note = (root / "memory" / "2031-04-09.md").read_text(encoding="utf-8")
    assert note.startswith("## 10:20 - Build farm\n- Priya asked me to track")
    assert "Priya asked the agent to track the upgrade" in note


#: One-sentence sessions, each logged alone: too short for CLD2, told by langid.py.
ONE_LINERS = [
    ("2031-04-08T09:00:00Z", "Ich bin Tierärztin in Rostock."),
    ("2031-04-09T09:00:00Z", "Je travaille chez un éditeur à Nantes."),
    ("2031-04-10T09:00:00Z", "Trabajo como enfermera en Bilbao."),
]


def test_one_sentence_sessions_in_other_languages_are_kept_as_said(tmp_path: Path) -> None:
    """A German, a French and a Spanish one-liner: word for word, "user" first, each on its
    day; an English one-liner naming a French firm stays English and sets its key."""
    repo = tmp_path / "memory"
    prepared(repo, ONE_LINERS[0][0], "init", str(repo))
    for when, sentence in ONE_LINERS:
        prepared(repo, when, "log", stdin=f"{sentence}\n")
    prepared(repo, "2031-04-11T09:00:00Z", "log", stdin="I work at Société Générale now.\n")
    prepared(repo, NOW, "run", "--force")
    memories = active(repo, NOW, in_process=True)
    by_text = {m["text"]: m for m in memories}
    for when, sentence in ONE_LINERS:
        memory = by_text[f"user \u2014 {sentence}"]
        assert (memory["created"], memory["key"]) == (when, None)
        assert "as-said" in memory["tags"]
    assert by_text["The user works at Société Générale."]["key"] == "user.employer"
    assert len(memories) == len(ONE_LINERS) + 1
    fsck(repo)


def test_a_newer_home_typed_in_lower_case_supersedes_the_older(tmp_path: Path) -> None:
    """ "i live in lisbon" then "i moved to madrid": one home is active, Madrid."""
    repo = tmp_path / "memory"
    prepared(repo, "2031-04-08T09:00:00Z", "init", str(repo))
    prepared(repo, "2031-04-08T09:00:00Z", "log", stdin="i live in lisbon\n")
    prepared(repo, "2031-04-08T10:00:00Z", "run", "--force")
    prepared(repo, "2031-04-10T09:00:00Z", "log", stdin="i moved to madrid last month\n")
    prepared(repo, NOW, "run", "--force")
    homes = [m for m in active(repo, NOW, in_process=True) if m["key"] == "user.home"]
    assert [m["text"] for m in homes] == ["The user lives in Madrid (moved there)."]
    fsck(repo)


def test_a_two_line_lower_case_chat_is_two_people_not_the_user(tmp_path: Path) -> None:
    """ "sam: …" then "🦊 fox: …": each line its speaker's, named; none is the user's."""
    repo = tmp_path / "memory"
    prepared(repo, "2031-04-08T09:00:00Z", "init", str(repo))
    chat = "sam: I keep three beehives on the roof.\n🦊 fox: I repair old radios on weekends.\n"
    prepared(repo, "2031-04-08T09:00:00Z", "log", stdin=chat)
    prepared(repo, NOW, "run", "--force")
    texts = sorted(m["text"] for m in active(repo, NOW, in_process=True))
    assert texts == [
        "Sam keeps three beehives on the roof.",
        "🦊 Fox repairs old radios on weekends.",
    ]
