"""MEMORY.md rendering: entries, grouping, cutting to budget, byte stability."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamgit.dream.index import (
    GENERATED_MARKER,
    default_order,
    fill_index,
    index_entry,
    index_text,
    is_generated,
    render_index,
)
from dreamgit.model import PRIORITIES, Memory

T0 = datetime(2026, 11, 20, 10, 0, tzinfo=UTC)


def mem(ident: str, topic: str = "preferences", **fields: Any) -> Memory:
    """A memory with the given id and topic; the slug is derived from the id."""
    fields.setdefault("text", f"Fact {ident}.")
    fields.setdefault("created", T0)
    fields.setdefault("updated", T0)
    return Memory(id=ident, topic=topic, slug=f"slug-{ident}", **fields)


def render(memories: list[Memory], chars: int = 8000, line: int = 150, **kw: Any) -> Any:
    return render_index(
        memories, order=default_order, index_chars=chars, index_line_chars=line, **kw
    )


def entries(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.startswith("- [")]


def test_index_is_marker_then_topic_heading_then_link_and_hook() -> None:
    """A memory renders as ``- [Title](path) — hook`` under its topic heading."""
    m = mem("m-1", name="prefers-pytest", description="Prefers pytest over unittest")
    result = render([m])
    assert result.text == (
        f"{GENERATED_MARKER}\n"
        "\n"
        "## preferences\n"
        "- [Prefers pytest](memories/preferences/slug-m-1.md) — Prefers pytest over unittest\n"
    )
    assert result.included == ("m-1",)
    assert result.omitted == ()


def test_a_session_note_is_titled_by_its_person_and_first_statement() -> None:
    """The rest of the note follows the title, not the note again."""
    text = "Noor \u2014 went rowing on 2 March 2031; is planning a trip; their cousin is a pilot."
    m = mem("m-1", "events", text=text, description=text, tags=("session-note",))
    (line,) = [x for x in render([m]).text.splitlines() if x.startswith("- [")]
    assert line == (
        "- [Noor \u2014 went rowing on 2 March 2031](memories/events/slug-m-1.md)"
        " \u2014 is planning a trip; their cousin is a pilot"
    )


def test_marker_is_the_exact_generated_line() -> None:
    """The first line is the marker the rest of dreamgit recognises as generated."""
    assert GENERATED_MARKER == (
        "<!-- dreamgit:generated — rewritten by every dream; edit memories/ instead -->"
    )
    assert is_generated(render([]).text)
    assert not is_generated("# My notes\n")


def test_empty_index_is_the_marker_alone() -> None:
    """No memories give the marker line and nothing else."""
    result = render([])
    assert result.text == GENERATED_MARKER + "\n"
    assert result.included == result.omitted == ()


def test_title_falls_back_to_description_and_hook_to_first_sentence() -> None:
    """Without a name the description is the title and the body's first sentence the hook."""
    m = mem("m-1", description="Deploys take four minutes", text="Needs the VPN. Ask Ana.")
    [line] = entries(render([m]).text)
    assert (
        line == "- [Deploys take four minutes](memories/preferences/slug-m-1.md) — Needs the VPN."
    )


def test_old_style_name_with_spaces_is_kept_as_written() -> None:
    """A name that is already words (older Claude files) is used as is."""
    m = mem("m-1", name="Staging deploy notes", description="Takes ~4 min")
    [line] = entries(render([m]).text)
    assert line.startswith("- [Staging deploy notes](")


def test_hook_that_repeats_the_title_is_left_out() -> None:
    """When the only hook candidate equals the title, the line ends after the link."""
    m = mem("m-1", description="Uses FastAPI", text="Uses FastAPI")
    [line] = entries(render([m]).text)
    assert line == "- [Uses FastAPI](memories/preferences/slug-m-1.md)"


def test_first_sentence_skips_headings_and_joins_wrapped_lines() -> None:
    """The hook comes from the first prose paragraph, on one line."""
    m = mem("m-1", name="ci", text="# Heading\n\nRuns `just ci`\non every push. Never cargo.")
    [line] = entries(render([m]).text)
    assert line.endswith(" — Runs `just ci` on every push.")


def test_newlines_in_description_become_spaces() -> None:
    """A multi-line description cannot break the one-line-per-memory shape."""
    m = mem("m-1", name="x", description="first\nsecond\n\nthird")
    [line] = entries(render([m]).text)
    assert line.endswith(" — first second third")


def test_long_hook_is_cut_with_an_ellipsis_and_the_link_kept_whole() -> None:
    """A line over the limit loses the end of its hook, at a word, never the link."""
    m = mem("m-1", name="note", description="word " * 60)
    [line] = entries(render([m], line=100).text)
    assert len(line) <= 100
    assert line.endswith("word…")
    assert "(memories/preferences/slug-m-1.md)" in line


def test_long_title_is_cut_but_the_link_never() -> None:
    """A title too long for the line is shortened; the path stays intact."""
    m = mem("m-1", name="n" * 300, description="hook")
    [line] = entries(render([m], line=80).text)
    assert len(line) <= 80
    assert line.endswith("…](memories/preferences/slug-m-1.md)")


def test_link_longer_than_the_line_limit_is_not_cut() -> None:
    """A path alone over the limit is written whole (an over-long line beats a dead link)."""
    m = mem("m-1", name="x", description="hook")
    [line] = entries(render([m], line=20).text)
    assert "(memories/preferences/slug-m-1.md)" in line


def test_brackets_in_title_are_escaped() -> None:
    """Brackets in link text are escaped so the link still parses."""
    m = mem("m-1", description="Use [[wiki]] links", text="Body.")
    [line] = entries(render([m]).text)
    assert line.startswith(r"- [Use \[\[wiki\]\] links](memories/")


def test_topics_come_in_the_order_of_their_best_memory() -> None:
    """The topic holding the top memory is first; memories keep their order inside topics."""
    ms = [
        mem("a", "tools", priority="low"),
        mem("b", "identity", priority="core"),
        mem("c", "tools", priority="high"),
        mem("d", "identity", priority="normal"),
    ]
    text = render(ms).text
    assert [ln for ln in text.splitlines() if ln.startswith("## ")] == [
        "## identity",
        "## tools",
    ]
    assert [ln.split("](")[1].split(".md")[0] for ln in entries(text)] == [
        "memories/identity/slug-b",
        "memories/identity/slug-d",
        "memories/tools/slug-c",
        "memories/tools/slug-a",
    ]


def test_default_order_is_priority_then_most_recent() -> None:
    """default_order puts higher priority first, then the later update."""
    old, new = T0, T0 + timedelta(days=1)
    ms = [
        mem("n-old", updated=old),
        mem("h-old", priority="high", updated=old),
        mem("n-new", updated=new),
    ]
    assert render(ms).included == ("h-old", "n-new", "n-old")


def test_budget_drops_the_lowest_ordered_memories_and_counts_them() -> None:
    """Over budget, the tail of the order is left out and a last line says how many."""
    ms = [mem(f"m-{i:02d}", priority=PRIORITIES[i % 5], description="x" * 40) for i in range(20)]
    full = render(ms)
    result = render(ms, chars=len(full.text) // 2)
    assert len(result.text) <= len(full.text) // 2
    assert result.included == full.included[: len(result.included)]
    assert result.omitted == full.included[len(result.included) :]
    assert result.text.endswith(f"\n\n- … {len(result.omitted)} more in memories/\n")


def test_caller_order_decides_which_memories_survive() -> None:
    """A score key keeps the highest scores, whatever the priorities."""
    ms = [mem(f"m-{i}", priority="core" if i < 3 else "low") for i in range(6)]
    score = {m.id: (5 - i) for i, m in enumerate(ms)}
    one = len(render([ms[5]]).text)
    result = render_index(
        ms, order=lambda m: -score[m.id], index_chars=one + 100, index_line_chars=150
    )
    assert result.included[0] == "m-0"
    assert result.omitted[-1] == "m-5"


def test_line_cap_keeps_the_index_inside_claudes_window() -> None:
    """No more than max_lines lines, counting headings, blanks and the "more" line."""
    ms = [mem(f"m-{i:03d}", f"t{i % 7}") for i in range(300)]
    result = render(ms, chars=100_000)
    assert len(result.text.splitlines()) <= 200
    assert len(result.omitted) > 0
    assert len(render(ms, chars=100_000, max_lines=20).text.splitlines()) <= 20


def test_output_does_not_depend_on_input_order() -> None:
    """Same memories in any order give the same bytes (ties broken by id)."""
    ms = [mem(f"m-{i}", f"t{i % 3}") for i in range(10)]
    assert render(ms).text == render(list(reversed(ms))).text


def test_nonpositive_budget_is_a_programming_error() -> None:
    """Budgets come validated from the rules; zero is refused loudly."""
    with pytest.raises(ValueError, match="index budgets must be positive"):
        render([mem("m-1")], chars=0)


_words = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=200)


@given(
    specs=st.lists(
        st.tuples(
            st.sampled_from(["identity", "preferences", "tools", "a-very-long-topic-name"]),
            st.sampled_from(PRIORITIES),
            _words,
            _words,
            _words,
        ),
        max_size=25,
    ),
    chars=st.integers(min_value=200, max_value=3000),
    line=st.integers(min_value=60, max_value=200),
)
def test_any_input_respects_budgets_and_accounts_for_every_memory(
    specs: list[tuple[str, str, str, str, str]], chars: int, line: int
) -> None:
    """Any memories: text within budget, entries within the line limit, every id placed once."""
    ms = [
        mem(f"m-{i:02d}", topic, priority=prio, name=name, description=desc, text=text)
        for i, (topic, prio, name, desc, text) in enumerate(specs)
    ]
    result = render(ms, chars=chars, line=line)
    assert len(result.text) <= chars
    assert all(len(ln) <= line for ln in entries(result.text))
    assert sorted(result.included + result.omitted) == sorted(m.id for m in ms)
    assert len(entries(result.text)) == len(result.included)
    assert result.text.endswith("\n") and "\n\n\n" not in result.text


def _rendered_by_a_full_sort(
    memories: list[Memory], *, chars: int, max_lines: int
) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """What the index was before it ranked only its head: every memory sorted first."""
    ranked = sorted(memories, key=lambda m: (default_order(m), m.id))
    lines = (index_entry(m, 150) for m in ranked)
    listed = fill_index(lines, total=len(ranked), index_chars=chars, max_lines=max_lines)
    omitted = tuple(m.id for m in ranked[len(listed) :])
    return index_text(listed, omitted=len(omitted)), tuple(e.id for e in listed), omitted


@pytest.mark.parametrize("count", [0, 1, 5, 19, 20, 21, 60])
@pytest.mark.parametrize("max_lines", [1, 2, 3, 20])
@pytest.mark.parametrize("chars", [200, 100_000])
def test_ranking_only_the_head_lists_and_leaves_out_what_a_full_sort_does(
    count: int, max_lines: int, chars: int
) -> None:
    """Memories with ties of priority and time, fewer and more than the line budget: the
    text, the listed, how many are left out and which, in order, as a full sort gives."""
    ms = [
        mem(f"m-{(i * 37) % 101:03d}", f"t{i % 4}", priority=PRIORITIES[i % 3],
            updated=T0 + timedelta(hours=i % 5))
        for i in range(count)
    ]  # fmt: skip
    result = render(ms, chars=chars, max_lines=max_lines)
    text, included, omitted = _rendered_by_a_full_sort(ms, chars=chars, max_lines=max_lines)
    assert (result.text, result.included, result.left_out) == (text, included, len(omitted))
    assert result.omitted == omitted
