"""What a coding agent's user says, read by its structure: rules said as "you should
never …", the agent's own words pasted back into a turn, Japanese facts that share only
their grammar. Sentences written for these tests; the last test runs the installed
command on a real repository."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from clikit import active, dreamgit, prepared
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


_REVIEW = (
    "Here is what I found.\n\n"
    "1. **Routing**: The routes file was written but never wired into the entry point. "
    "It has to be imported from main.ts and registered.\n"
    "2. **Fonts**: The fonts are declared in the stylesheet but never loaded through the "
    "bundler, so every page falls back to serif."
)
_PASTED = (
    "Tomorrow I pick this up again. Go through these first, in order:\n"
    "Routing: The routes file was written but never wired into the entry point. "
    "It has to be imported from main.ts and registered.\n"
    "Fonts: The fonts are declared in the stylesheet but never loaded through the "
    "bundler, so every page falls back to serif.\n\n"
    "We always deploy from the release branch."
)


def test_the_agents_words_pasted_back_are_not_the_users() -> None:
    """A block the agent wrote earlier, copied into the user's turn, gives nothing; the
    user's own sentence beside it is read as before."""
    texts = [t for _, t in _found(("assistant", _REVIEW), ("user", _PASTED))]
    assert not [t for t in texts if "routes file" in t or "fonts" in t.lower()], texts
    assert any("deploys from the release branch" in t for t in texts), texts


def test_the_same_block_said_first_by_the_user_is_theirs() -> None:
    """Without the agent's turn before it, the same words are the user's own."""
    texts = [t for _, t in _found(("user", _PASTED))]
    assert any("routes file" in t for t in texts), texts


def test_one_option_of_the_agents_copied_back_is_the_users_choice() -> None:
    """Copying one thing the agent offered picks it: it stays the user's."""
    asked = (
        "Should the sessions live in Redis, or in the Postgres database we already run for billing?"
    )
    pick = "keep them in the Postgres database we already run for billing"
    texts = [t for _, t in _found(("assistant", asked), ("user", pick))]
    assert any("Postgres database" in t for t in texts), texts


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


def test_a_dream_keeps_rules_and_facts_and_leaves_the_pasted_block(tmp_path: Path) -> None:
    """Through the installed command: the rule said as "you should never", both Japanese
    facts, and nothing of the agent's words the user pasted back."""
    repo = tmp_path / "memory"
    prepared(repo, "2031-06-03T09:00:00Z", "init", str(repo))
    english = _session(
        ("user", "please review the app"),
        ("assistant", _REVIEW),
        ("user", _PASTED),
        ("user", "You should never force-push to the release branch."),
    )
    japanese = _session(
        ("user", "認証は、Keycloak を使います。"),
        ("assistant", "了解しました。"),
        ("user", "データベースは、CockroachDB を使います。"),
    )
    for when, text in (("2031-06-03T10:00:00Z", english), ("2031-06-03T11:00:00Z", japanese)):
        prepared(repo, when, "log", stdin=text)
    dreamgit(repo, "2031-06-03T23:59:00Z", "run", "--force")
    texts = [m["text"] for m in active(repo, "2031-06-04T08:00:00Z", in_process=True)]
    assert any("never force-push to the release branch" in t for t in texts), texts
    assert "user \u2014 認証は、Keycloak を使います。" in texts, texts
    assert "user \u2014 データベースは、CockroachDB を使います。" in texts, texts
    assert not [t for t in texts if "routes file" in t or "bundler" in t], texts


def test_a_quoted_name_at_the_end_keeps_its_closing_quote() -> None:
    """ "use 'os' and 'json'" keeps the quote that closes 'json'; a stray one still goes."""
    said = "Do not add extra dependencies; use only the built-in 'os' and 'json'."
    texts = [t for _, t in _found(("user", said), ("user", "'I moved to Lisbon last year."))]
    assert any(t.endswith("'os' and 'json'.") for t in texts), texts
    assert "The user moved to Lisbon in 2030." in texts, texts
