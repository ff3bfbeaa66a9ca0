"""What a coding agent's user says, read by its structure: rules said as "you should
never …", the agent's own words pasted back into a turn, Japanese facts that share only
their grammar. Sentences written for these tests; the last test runs the installed
command on a real repository."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from dreamgit.dream.gather.compact import compact
from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.language import cjk_terms

WHEN = datetime(2031, 6, 3, 10, 0, tzinfo=UTC)


def _session(*turns: tuple[str, str]) -> str:
    return "".join(
        f"<!-- dreamgit:turn role={role} source=specstory -->\n{text}\n\n" for role, text in turns
    )


def _found(*turns: tuple[str, str]) -> list[tuple[str, str]]:
    found = extract_candidates(_session(*turns), session_id="s-1", created=WHEN)
    return [(c.kind, c.text) for c in found]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("You should never force-push to the release branch.", "never force-push"),
        ("you must always run the formatter before a commit", "always run the formatter"),
        ("you shouldn't touch the generated client code", "not to touch the generated"),
        ("you should not be editing anything in the vendor folder", "not to be editing"),
        ("Also, you need to always answer in Dutch.", "always answer in Dutch"),
    ],
)
def test_what_the_agent_must_never_or_always_do_is_a_rule(said: str, kept: str) -> None:
    """Said to the agent with an obligation and never / always / not: a standing rule."""
    found = _found(("user", "please start the dev server"), ("user", said))
    rules = [text for kind, text in found if kind == "instruction"]
    assert len(rules) == 1 and kept in rules[0] and rules[0].startswith("The user wants the agent")


@pytest.mark.parametrize(
    "said",
    [
        "you should never have renamed that module",  # a reproach of what was done
        "you should restart the server now",  # advice of the moment, no never / always
    ],
)
def test_a_reproach_or_a_task_told_as_should_is_no_rule(said: str) -> None:
    assert not [t for kind, t in _found(("user", said)) if kind == "instruction"]


def test_japanese_grammar_written_in_hiragana_is_no_shared_term() -> None:
    """Two sentences ending in the same polite verb share no content term."""
    first = set(cjk_terms("キャッシュは、Redis を使います。"))
    second = set(cjk_terms("認証は、Keycloak を使います。"))
    assert "ます" not in first and "いま" not in first
    assert "キャ" in first and "認証" in second


def test_a_japanese_fact_is_no_repeat_of_another_that_shares_its_ending() -> None:
    """Gathering keeps the second project fact beside the first: its words are new."""
    said = [
        "user \u2014 認証は、Keycloak を使います。",
        "user \u2014 データベースは、CockroachDB を使います。",
    ]
    found = extract_candidates(
        _session(("user", "認証は、Keycloak を使います。データベースは、CockroachDB を使います。")),
        session_id="s-1",
        created=WHEN,
    )
    assert [c.text for c in found] == said
    kept, _, repeats = compact(found[1:], 10_000, known=[said[0]], min_novelty=0.32)
    assert [c.text for c in kept] == said[1:] and not repeats
