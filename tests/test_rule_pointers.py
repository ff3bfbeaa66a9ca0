"""A project rule file the user names (``@name.mdc``) is kept once a session as a memory.

Sessions written for these tests: a turn that is only the mention, a mention tacked onto a
request, the same rule twice, and the look-alikes that must give nothing (an ``@`` file
that is no rule file, an e-mail address, the assistant naming a rule).
"""

from __future__ import annotations

from datetime import UTC, datetime

from dreamgit.dream.gather.extract import extract_candidates

WHEN = datetime(2026, 4, 7, 9, 30, tzinfo=UTC)


def _rules(session: str) -> list[str]:
    found = extract_candidates(session, session_id="s-2", created=WHEN)
    return [c.text for c in found if c.pattern == "rule-pointer"]


def test_a_turn_that_only_names_a_rule_file_keeps_the_rule() -> None:
    """ "@changelog-entries.mdc" alone, after the agent's turn: the rule is a memory."""
    session = (
        "User: write the release notes\n\nAssistant: Done, the notes are in NOTES.md.\n\n"
        "User: @changelog-entries.mdc\n\nAssistant: Fixed to follow it."
    )
    assert _rules(session) == [
        "The user points the agent to the project rule @changelog-entries.mdc."
    ]


def test_a_rule_named_twice_in_a_session_is_kept_once_and_each_rule_once() -> None:
    """Two mentions of one rule and one of another: two memories, in the order named."""
    session = (
        "User: fix the flaky import test @never-skip-tests.mdc\n\nAssistant: On it.\n\n"
        "User: still failing @never-skip-tests.mdc and see @small-commits.mdc\n\n"
        "Assistant: Fixed."
    )
    assert _rules(session) == [
        "The user points the agent to the project rule @never-skip-tests.mdc.",
        "The user points the agent to the project rule @small-commits.mdc.",
    ]


def test_other_at_mentions_and_the_assistants_rules_give_nothing() -> None:
    """The look-alikes: a source file, a plan, an address, and a rule the agent names."""
    session = (
        "User: read @src/importer.ts and @plan-phase-2.md, then mail ops@example.org\n\n"
        "Assistant: I followed @release-steps.mdc for this."
    )
    assert _rules(session) == []


def test_a_rule_file_tacked_onto_a_sentence_leaves_the_sentence_whole() -> None:
    """ "… must pass before a merge @ci-first.mdc": the rule is its own memory, and the
    sentence's memory ends where the sentence does; a file named inside it, or that a
    word before it takes as its object ("as set out in @…"), stays."""
    session = (
        "User: the integration suite must pass before any merge @ci-first.mdc\n\n"
        "Assistant: Understood.\n\n"
        "User: the rules in @ci-first.mdc apply to release branches too\n\n"
        "Assistant: Noted.\n\n"
        "User: hotfixes skip the queue, as set out in @ci-first.mdc\n"
    )
    texts = [c.text for c in extract_candidates(session, session_id="s-2", created=WHEN)]
    assert "The user points the agent to the project rule @ci-first.mdc." in texts
    assert any("the rules in @ci-first.mdc apply" in t for t in texts), texts
    assert any(t.endswith("as set out in @ci-first.mdc.") for t in texts), texts
    said = [t for t in texts if "integration suite" in t]
    assert said and all(t.endswith("before any merge.") for t in said), texts
