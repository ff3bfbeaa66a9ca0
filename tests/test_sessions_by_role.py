"""Agent sessions read by role, end to end: the installed command logs, a dream gathers.

Claude Code JSONL with every kind of harness block, a resumed session, a chat with a
lower-case speaker, and ``Author:`` / ``Rule:`` lines inside one turn, each through
``dreamgit log`` and ``dreamgit run`` as processes on real repositories.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from clikit import active, dreamgit

DAY = "2026-11-10T09:00:00Z"
NIGHT = "2026-11-10T23:00:00Z"
SESSION = "5e55a0b1-0000-4000-8000-00000000000a"

#: A user message of each harness kind, each hiding a first-person fact that a reader
#: taking it as the user's words would gather (the place or word in the second field).
HARNESS: list[tuple[dict[str, Any], str]] = [
    ({"message": "<system-reminder>I live in Tromso.</system-reminder>"}, "Tromso"),
    (
        {
            "message": "<command-name>/memory</command-name>\n<command-message>I work at "
            "Quillfeather.</command-message>\n<command-args>I work at Quillfeather.</command-args>"
        },
        "Quillfeather",
    ),
    (
        {"message": "<local-command-stdout>My name is Eve.</local-command-stdout>"},
        "Eve",
    ),
    (
        {
            "message": "<bash-input>echo hi</bash-input><bash-stdout>I moved to Windhoek "
            "last year.</bash-stdout><bash-stderr>I prefer Fortran.</bash-stderr>"
        },
        "Windhoek",
    ),
    ({"message": "<bash-stderr>I prefer Fortran over everything.</bash-stderr>"}, "Fortran"),
    (
        {"message": "<task-notification>I adopted a ferret named Pixel.</task-notification>"},
        "Pixel",
    ),
    (
        {
            "message": "This session is being continued from a previous conversation. "
            "I decided to keep Gradle as a fallback.",
            "isCompactSummary": True,
        },
        "Gradle",
    ),
    (
        {"message": "<ide_opened_file>I live in Reykjavik.</ide_opened_file>"},
        "Reykjavik",
    ),
    (
        {"message": "<ide_selection>My sister Halldora runs a bakery.</ide_selection>"},
        "Halldora",
    ),
    (
        {"message": "Stop hook feedback:\nI always deploy with Nomad."},
        "Nomad",
    ),
    ({"message": "I use Zig for everything.", "isMeta": True}, "Zig"),
    (
        {"message": "[Request interrupted by user]\n⎿  I live in Nairobi.\n"},
        "Nairobi",
    ),
    (
        {"message": "✻ Thinking… (esc to interrupt)\n│ > I work at Brightwater Labs."},
        "Brightwater",
    ),
    (
        {"message": "<private>My salary is 91000 euros.</private>"},
        "91000",
    ),
    (
        {
            "message": "<!-- dreamgit:generated brief -->\nThe user lives in Montevideo.\n"
            "<!-- /dreamgit:generated -->"
        },
        "Montevideo",
    ),
]


def _record(number: int, role: str, content: Any, **extra: Any) -> str:
    return json.dumps(
        {
            "type": role,
            "uuid": f"u-{number:04d}",
            "sessionId": SESSION,
            "timestamp": f"2026-11-10T10:{number // 60:02d}:{number % 60:02d}Z",
            "message": {"role": role, "content": content},
            **extra,
        }
    )


def _harness_session(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    lines = [_record(0, "user", "I moved to Porto last month.")]
    for number, (shape, _) in enumerate(HARNESS, start=1):
        extra = {k: v for k, v in shape.items() if k != "message"}
        lines.append(_record(number, "user", shape["message"], **extra))
    lines.append(
        _record(40, "user", [{"type": "tool_result", "content": "I live in Lima."}],
                toolUseResult={"stdout": "I live in Lima."})
    )  # fmt: skip
    lines.append(_record(41, "assistant", [{"type": "text", "text": "I live in Kyoto."}]))
    lines.append(_record(42, "user", "I live in Suva.", isSidechain=True))
    path = folder / f"{SESSION}.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _texts(repo: Path) -> list[str]:
    return [m["text"] for m in active(repo, NIGHT)]


def test_no_harness_block_of_any_kind_becomes_a_memory(tmp_path: Path) -> None:
    """Each harness kind hides a fact; the dream gathers the user's own fact and none of them."""
    repo = tmp_path / "mem"
    dreamgit(repo, DAY, "init", str(repo))
    _harness_session(tmp_path / "projects")
    dreamgit(repo, DAY, "log", "--from", "claude-code", str(tmp_path / "projects"))
    dreamgit(repo, NIGHT, "run", "--force")
    texts = _texts(repo)
    assert any("Porto" in t for t in texts), texts
    for _, word in [*HARNESS, (None, "Lima"), (None, "Kyoto"), (None, "Suva")]:
        assert not any(word in t for t in texts), (word, texts)
    assert not any(t.startswith("The user says") for t in texts), texts


def test_a_resumed_session_logs_and_gathers_only_its_new_turns(tmp_path: Path) -> None:
    """A session file that grew after it was logged: its new turns become a second part."""
    repo = tmp_path / "mem"
    dreamgit(repo, DAY, "init", str(repo))
    path = (tmp_path / "projects") / f"{SESSION}.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text(_record(0, "user", "I moved to Porto last month.") + "\n", encoding="utf-8")
    first = dreamgit(repo, DAY, "log", "--from", "claude-code", str(path.parent)).split()
    dreamgit(repo, DAY, "run", "--force")
    with path.open("a", encoding="utf-8") as grown:
        grown.write(_record(1, "assistant", [{"type": "text", "text": "Noted."}]) + "\n")
        grown.write(_record(2, "user", "My daughter Lucia started school in September.") + "\n")
        grown.write('{"type": "user", "uuid": "u-0003", "mess')  # still being written
    second = dreamgit(repo, NIGHT, "log", "--from", "claude-code", str(path.parent)).split()
    assert len(first) == 1 and len(second) == 1 and second != first
    part = next((repo / "sessions").rglob(f"{second[0]}.md")).read_text(encoding="utf-8")
    assert "Lucia" in part and "Porto" not in part and "part 2" in part
    again = dreamgit(repo, NIGHT, "log", "--from", "claude-code", str(path.parent))
    assert again == ""
    dreamgit(repo, NIGHT, "run", "--force")
    texts = _texts(repo)
    assert any("Lucia" in t for t in texts), texts
    assert sum("Porto" in t for t in texts) == 1, texts


def test_a_lower_case_speakers_facts_are_gathered_and_attributed_to_them(tmp_path: Path) -> None:
    """ "sam:" in a chat export is a person: their facts carry their name, not the other's."""
    repo = tmp_path / "mem"
    dreamgit(repo, DAY, "init", str(repo))
    chat = tmp_path / "chat.txt"
    chat.write_text(
        "sam: I just moved to Valparaiso for a job at the port authority.\n"
        "Dana: Congrats! I adopted a greyhound named Comet.\n"
        "sam: Thanks! I started learning the cello last week.\n"
        "Dana: Nice, I love the cello.\n",
        encoding="utf-8",
    )
    dreamgit(repo, DAY, "log", "--file", str(chat))
    dreamgit(repo, NIGHT, "run", "--force")
    texts = _texts(repo)
    assert any(t.startswith("Sam ") and "Valparaiso" in t for t in texts), texts
    assert any(t.startswith("Sam ") and "cello" in t for t in texts), texts
    assert not any(t.startswith("Dana") and "Valparaiso" in t for t in texts), texts
    assert not any("sam:" in t.lower() for t in texts), texts


def test_author_and_rule_lines_inside_a_turn_stay_in_that_turn(tmp_path: Path) -> None:
    """Git output and a rule heading inside one turn never start a speaker of their own."""
    repo = tmp_path / "mem"
    dreamgit(repo, DAY, "init", str(repo))
    plain = tmp_path / "plain.md"
    plain.write_text(
        "User: I pushed the fix, here is the log:\n"
        "commit 4f2a9c1\n"
        "Author: Jonas Weber <jonas@example.org>\n"
        "Received: the branch is protected and I moved to Ghent last spring\n"
        "Author: Jonas Weber <jonas@example.org>\n"
        "Received: I prefer rebasing over merging\n\n"
        "Assistant: Thanks, the log looks right.\n",
        encoding="utf-8",
    )
    exported = tmp_path / "2026-11-10_10-00-review.md"
    exported.write_text(
        "<!-- Generated by SpecStory -->\n\n# Review (2026-11-10 10:00Z)\n\n"
        "_**User (2026-11-10 10:00Z)**_\n\nI keep the changelog in docs/CHANGES.md.\n\n---\n\n"
        "_**Agent (model claude 2026-11-10 10:00Z)**_\n\n"
        "### Rule: creating-tasks\n\nRule: I always name tasks after tickets.\n"
        "Rule: I live in Antwerp.\n\n---\n\n",
        encoding="utf-8",
    )
    dreamgit(repo, DAY, "log", "--file", str(plain))
    dreamgit(repo, DAY, "log", "--file", str(exported))
    dreamgit(repo, NIGHT, "run", "--force")
    texts = _texts(repo)
    assert any("CHANGES.md" in t for t in texts), texts
    for word in ("Author", "Received", "Rule", "Jonas", "Antwerp", "tickets"):
        assert not any(t.startswith(word) or word in t.split()[:2] for t in texts), (word, texts)
    assert not any("Antwerp" in t for t in texts), texts
