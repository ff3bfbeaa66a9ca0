"""The quality bench's protocol step: a conversation dreamed through the real engine,
its active memories written one file each, and nothing left of an earlier run."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from benchkit import load_bench

SESSIONS = {
    "2031-04-02_1000_s01.txt": (
        "# Conversation x, session 1\n# Date: 2031-04-02 10:00\n# Speakers: Ines, Omar\n"
        "Ines: I adopted a greyhound named Comet last Saturday!\n"
        "Omar: Lovely! How is he settling in?\n"
        "Ines: Great. I take him to the beach in Cascais every morning.\n"
    ),
    "2031-04-09_1000_s02.txt": (
        "# Conversation x, session 2\n# Date: 2031-04-09 10:00\n# Speakers: Ines, Omar\n"
        "Omar: I started a pottery class in Porto on Monday.\n"
        "Ines: Fun! What are you making?\n"
        "Omar: A set of four blue bowls for my sister Lina.\n"
    ),
}


def _bench() -> ModuleType:
    return load_bench("bench_quality")


def test_a_conversation_is_dreamed_and_only_this_runs_memories_are_written(
    tmp_path: Path,
) -> None:
    conversation = tmp_path / "set" / "chat-1"
    (conversation / "sessions").mkdir(parents=True)
    for name, text in SESSIONS.items():
        (conversation / "sessions" / name).write_text(text, encoding="utf-8")
    out = tmp_path / "memory-root"
    stale = out / "chat-1" / "from-an-earlier-run.md"
    stale.parent.mkdir(parents=True)
    stale.write_text("Ines lives in Oslo.\n", encoding="utf-8")

    summary = _bench().dream_conversation(str(conversation), str(out))

    written = sorted((out / "chat-1").glob("*.md"))
    texts = [path.read_text(encoding="utf-8") for path in written]
    assert not stale.exists()
    assert summary["sessions"] == 2 and summary["memories"] == len(written) > 0
    assert any("Comet" in text and "Ines" in text for text in texts)
    assert any("Omar" in text and "pottery" in text for text in texts)
