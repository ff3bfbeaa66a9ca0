"""Chinese Claude Code sessions, and a short chat of two people, through the installed command.

Two Claude Code JSONL sessions in Chinese (sentences written for this test: a standing
instruction, a project fact, a correction of it two days later, a question) are logged
with ``log --from claude-code`` and dreamed over with the default rules: each statement
is kept as said, ``user`` first, on the day it was said, tagged with its language, and
none is put into an English template. A two-line chat of short ``Name:`` lines is two
people speaking, never the user's text. The first test dreams and lists through the
installed command; the second runs the same command in this process.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from clikit import RepositoryTemplates, active, dreamgit, initialized, prepared
from gitcheck import fsck

NOW = "2031-04-12T08:00:00Z"

#: (session id, [(time, role, text)]): what the user and the agent said.
SESSIONS: list[tuple[str, list[tuple[str, str, str]]]] = [
    (
        "7a1c0d2e-0000-4000-8000-000000000001",
        [
            ("2031-04-08T09:00:00Z", "user", "以后每次提交之前先跑 lint 和单元测试。"),
            ("2031-04-08T09:00:05Z", "assistant", "好的，我以后提交前都会先跑检查。"),
            ("2031-04-08T09:10:00Z", "user", "我们的预发环境部署在杭州的机房。"),
            ("2031-04-08T09:10:05Z", "assistant", "明白了。"),
            ("2031-04-08T09:20:00Z", "user", "这个报错到底是什么意思？"),
        ],
    ),
    (
        "7a1c0d2e-0000-4000-8000-000000000002",
        [
            ("2031-04-10T15:30:00Z", "user", "更正一下：预发环境上周已经迁到上海的机房了。"),
            ("2031-04-10T15:30:05Z", "assistant", "收到，我记下了。"),
        ],
    ),
]
#: What each kept statement is, word for word, and the day it was said.
KEPT = [
    ("以后每次提交之前先跑 lint 和单元测试。", "2031-04-08"),
    ("我们的预发环境部署在杭州的机房。", "2031-04-08"),
    ("更正一下：预发环境上周已经迁到上海的机房了。", "2031-04-10"),
]


def _record(session: str, number: int, when: str, role: str, text: str) -> str:
    content: Any = text if role == "user" else [{"type": "text", "text": text}]
    return json.dumps(
        {
            "type": role,
            "uuid": f"{session[-4:]}-{number:04d}",
            "sessionId": session,
            "timestamp": when,
            "message": {"role": role, "content": content},
        },
        ensure_ascii=False,
    )


def _projects(folder: Path) -> Path:
    folder.mkdir(parents=True)
    for session, turns in SESSIONS:
        lines = [_record(session, n, *turn) for n, turn in enumerate(turns)]
        (folder / f"{session}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def test_chinese_claude_code_sessions_are_kept_as_said_with_speaker_and_date(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """An instruction, a project fact and a correction in Chinese: word for word, "user"
    first, each on the day it was said; no question, no reply, no English slot."""
    repo = tmp_path / "mem"
    initialized(templates, repo, "2031-04-01T08:00:00Z")
    prepared(
        repo,
        "2031-04-10T16:00:00Z",
        "log",
        "--from",
        "claude-code",
        str(_projects(tmp_path / "projects")),
    )
    dreamgit(repo, NOW, "run", "--force")
    memories = active(repo, NOW, in_process=True)
    by_text = {m["text"]: m for m in memories}
    for sentence, day in KEPT:
        memory = by_text[f"user \u2014 {sentence}"]
        assert memory["created"].startswith(day), memory
        assert {"as-said", "lang-zh"} <= set(memory["tags"])
    assert len(memories) == len(KEPT), [m["text"] for m in memories]
    assert not [m for m in memories if "The user" in m["text"] or "the agent" in m["text"]]
    index = (repo / "MEMORY.md").read_text(encoding="utf-8")
    assert "以后每次提交之前先跑 lint 和单元测试" in index
    fsck(repo)


def test_a_two_line_chat_of_short_lines_is_two_people_through_the_command(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """ "Bram: I have two cats." then "Lotte: Lucky you.": Bram's fact, never the user's."""
    repo = tmp_path / "mem"
    initialized(templates, repo, "2031-04-01T08:00:00Z")
    prepared(
        repo, "2031-04-08T09:00:00Z", "log", stdin="Bram: I have two cats.\nLotte: Lucky you.\n"
    )
    prepared(repo, NOW, "run", "--force")
    texts = [m["text"] for m in active(repo, NOW, in_process=True)]
    assert texts == ["Bram has two cats."]
    fsck(repo)
