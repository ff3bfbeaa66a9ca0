"""render_agent_index: an agent's own MEMORY.md, its lines kept, dreamgit's in a fence."""

from __future__ import annotations

from datetime import UTC, datetime

from dreamgit.dream.index import BLOCK_CLOSE, BLOCK_OPEN, default_order, render_agent_index
from dreamgit.model import Memory

NOW = datetime(2026, 11, 10, tzinfo=UTC)


def mem(k: int, *, text: str = "") -> Memory:
    """A flat Claude Code memory ``f<k>.md``."""
    return Memory(
        id=f"m-{k:08d}", topic="project", slug=f"f{k}", text=text or f"Fact number {k}.",
        created=NOW, updated=NOW, name=f"fact {k}", description=f"fact {k} hook", file=f"f{k}.md",
    )  # fmt: skip


def render(existing: str | None, memories: list[Memory], **kw: object) -> str:
    """The index text."""
    return render_agent_index(
        existing, memories, order=default_order, index_line_chars=150, gone=set(), **kw
    ).text  # type: ignore[arg-type]  # keyword budgets only


def test_an_index_that_lists_everything_is_returned_as_it_was() -> None:
    """Every memory linked by hand: no fence is added, not a byte changes (CRLF kept)."""
    existing = "# Index\r\n- [One](f1.md) — first\r\n\r\nfree text"
    assert render(existing, [mem(1)]) == existing


def test_unlisted_memories_go_in_a_fence_after_the_hand_written_lines() -> None:
    """A memory no line links to is listed inside dreamgit's fence, at the end."""
    text = render("- [One](f1.md) — first\n", [mem(1), mem(2)])
    assert text == (
        f"- [One](f1.md) — first\n{BLOCK_OPEN}\n- [Fact 2](f2.md) — fact 2 hook\n{BLOCK_CLOSE}\n"
    )


def test_the_fence_is_rewritten_in_place_and_text_after_it_stays() -> None:
    """A second render replaces the fence where it stands; lines after it are kept."""
    first = render("- [One](f1.md) — first\n", [mem(1), mem(2)]) + "trailing note\n"
    second = render(first, [mem(1), mem(3)])
    assert second == (
        f"- [One](f1.md) — first\n{BLOCK_OPEN}\n- [Fact 3](f3.md) — fact 3 hook\n{BLOCK_CLOSE}\n"
        "trailing note\n"
    )


def test_a_line_to_a_memory_the_dream_removed_goes_with_it() -> None:
    """Claude Code must not load a dead link: the line of a merged-away file is dropped."""
    result = render_agent_index(
        "# Index\n- [One](f1.md) — first\n- [Two](f2.md) — second\n",
        [mem(2)],
        order=default_order,
        index_line_chars=150,
        gone={"f1.md"},
    )
    assert result.text == "# Index\n- [Two](f2.md) — second\n"


def test_the_index_never_passes_claude_codes_200_lines_or_its_bytes() -> None:
    """500 unlisted memories: the fence is cut to fit 200 lines and the byte budget."""
    memories = [mem(k) for k in range(500)]
    text = render("# Index\n", memories)
    assert len(text.splitlines()) <= 200
    assert text.splitlines()[-2].startswith("- … ") and "more memory files" in text
    small = render("# Index\n", memories, max_bytes=2_000)
    assert len(small.encode()) <= 2_000
