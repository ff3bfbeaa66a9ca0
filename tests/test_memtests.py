"""Memory tests as data: reading `.dreamgit/tests.yaml`, appending to it, and the token rule."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from dreamgit.model import Memory
from dreamgit.report.memtests import MAX_DERIVED, add_test_text, derived_tests, parse_tests
from dreamgit.report.tokens import estimate_tokens
from dreamgit.ruleset.load import load_ruleset


def test_written_tests_read_query_expect_not_and_name() -> None:
    """A test lists texts to expect and to forbid; without a name its query names it."""
    tests, problems = parse_tests(
        "tests:\n"
        "  - query: which editor does Ada use\n"
        "    expect: helix\n"
        "    not: [neovim, vim]\n"
        "  - query: what does Ada drink\n"
        "    expect: [tea]\n"
        "    name: drink\n"
    )
    assert problems == []
    assert [(t.name, t.query, t.expect, t.forbid) for t in tests] == [
        ("which editor does Ada use", "which editor does Ada use", ("helix",), ("neovim", "vim")),
        ("drink", "what does Ada drink", ("tea",), ()),
    ]


def test_a_broken_entry_is_named_by_file_and_line_and_the_others_still_load() -> None:
    """Each bad entry is a problem with its line and what to write; good entries still count."""
    tests, problems = parse_tests(
        "tests:\n"
        "  - query: fine\n"
        "    expect: x\n"
        "  - expect: y\n"
        "  - query: nothing expected\n"
        "  - query: odd\n"
        "    expect: x\n"
        "    wanted: y\n"
        "  - query: bad list\n"
        "    expect: [1, 2]\n"
        "  - just a string\n"
    )
    assert [t.query for t in tests] == ["fine"]
    hint = "each test is a mapping with `query:` and `expect:` (and optionally `not:`, `name:`)"
    assert problems == [
        f".dreamgit/tests.yaml:4: test 2 has no query; {hint}",
        f".dreamgit/tests.yaml:5: test 3 expects nothing; {hint}",
        f".dreamgit/tests.yaml:6: test 4 has unknown key 'wanted'; {hint}",
        f".dreamgit/tests.yaml:9: test 5 has an `expect:` or `not:` that is not a text or a "
        f"list of texts; {hint}",
        f".dreamgit/tests.yaml:11: test 6 is not a mapping; {hint}",
    ]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("tests: [\n", ".dreamgit/tests.yaml:2: not valid YAML"),
        ("- query: x\n", ".dreamgit/tests.yaml:1: expected a `tests:` list"),
        ("tests: 3\n", ".dreamgit/tests.yaml:1: expected a `tests:` list"),
    ],
)
def test_a_broken_file_is_one_problem_with_its_line(text: str, problem: str) -> None:
    """A file that is not YAML, or has no `tests:` list, gives no test and says where."""
    tests, problems = parse_tests(text)
    assert tests == []
    assert len(problems) == 1 and problems[0].startswith(problem)


def test_adding_a_test_keeps_the_comments_and_tests_already_there() -> None:
    """`test add` appends: a person's comments and earlier tests stay as they were."""
    existing = (
        "# ours: keep this\ntests:\n  - query: what does Ada drink  # morning\n    expect: [tea]\n"
    )
    text = add_test_text(existing, "which editor", ["helix"], ["neovim"])
    assert text.startswith("# ours: keep this\n")
    assert "# morning" in text
    tests, problems = parse_tests(text)
    assert problems == []
    assert [(t.query, t.expect, t.forbid) for t in tests] == [
        ("what does Ada drink", ("tea",), ()),
        ("which editor", ("helix",), ("neovim",)),
    ]


def test_adding_to_a_missing_file_starts_it_with_a_comment() -> None:
    """The first test creates the file, saying what it is for."""
    text = add_test_text(None, "which editor", ["helix"], [])
    assert text.startswith("# Memory tests:")
    assert parse_tests(text)[0][0].expect == ("helix",)


def test_adding_to_a_broken_file_refuses_instead_of_overwriting_it() -> None:
    """A file that cannot be read is not replaced by a new one: the person's text stays."""
    with pytest.raises(ValueError, match="not valid YAML"):
        add_test_text("tests: [\n", "which editor", ["helix"], [])


@pytest.mark.parametrize(
    ("text", "tokens"),
    [("", 0), ("abcd", 1), ("abcde", 2), ("Ada uses Helix.", 4), ("日本語", 3)],
)
def test_token_estimate_is_utf8_bytes_over_four_rounded_up(text: str, tokens: int) -> None:
    """The documented rule: one token per four bytes of UTF-8, rounded up."""
    assert estimate_tokens(text) == tokens


def _memory(n: int, priority: str, topic: str = "facts", text: str = "") -> Memory:
    when = datetime(2026, 11, 1, tzinfo=UTC) + timedelta(hours=n)
    words = text or f"Ada keeps fact number {n} about gardens"
    return Memory(f"m-{n:08d}", topic, f"s{n}", words, when, when, priority=priority)


def test_derived_tests_keep_core_first_and_at_most_fifty() -> None:
    """Core memories come first, then protected topics, then high; no more than the cap;
    normal memories get none."""
    rules = load_ruleset(None)
    memories = [_memory(n, "high") for n in range(60)]
    memories += [_memory(100, "core"), _memory(101, "normal", "identity"), _memory(102, "normal")]
    tests = derived_tests(memories, [], rules)
    assert len(tests) == MAX_DERIVED == 50
    assert [t.memory for t in tests[:2]] == ["m-00000100", "m-00000101"]
    assert "m-00000102" not in {t.memory for t in tests}
    assert tests[0].query == "ada keeps fact number 100 gardens"
    assert tests[0].expect == ("ada", "keeps", "fact", "number", "100", "gardens")


def test_a_supersession_expects_the_new_value_and_forbids_the_old_text() -> None:
    """The new memory's new words are expected; the old memory's text must not come back
    (its words alone cannot be forbidden: the new text may name them, "from Neovim")."""
    new = _memory(1, "normal", text="Ada uses Helix (switched from Neovim).")
    op = {
        "op": "supersede",
        "before": [
            {"id": "m-old", "text": "Ada uses Neovim as her editor."},
            {"id": new.id, "text": new.text},
        ],
        "after": [{"id": new.id, "text": new.text}],
    }
    (test,) = derived_tests([new], [{"ops": [op]}], load_ruleset(None))
    assert test.name == f"{new.id} supersedes m-old"
    assert test.expect == ("helix", "switched")
    assert test.forbid == ("Ada uses Neovim as her editor.",)
    superseded_again = {"ops": [{**op, "before": [{"id": new.id}], "after": [{"id": "m-x"}]}]}
    assert derived_tests([new], [{"ops": [op]}, superseded_again], load_ruleset(None)) == []
