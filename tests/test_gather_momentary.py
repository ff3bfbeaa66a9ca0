"""Durable or of the moment: an agent's user's tasks are left, their preferences lifted."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from clikit import active, dreamgit, prepared
from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.lifted import lifted_preferences
from dreamgit.dream.gather.momentary import (
    code_fragment,
    momentary,
    one_off,
    order_after_moment,
)
from dreamgit.store.formats.turns import Turn, render_turns

_WHEN = datetime(2031, 4, 2, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("clause", "why"),
    [
        ("I'm trying to wire the upload form to the storage bucket", "attempt"),
        ("I'm kinda stuck on the pagination of the orders table", "trouble"),
        ("I'm getting a weird timeout error from the Celery worker", "trouble"),
        ("I can't seem to get the fixtures to load", "trouble"),
        ("I'm not sure how to split the settings module", "doubt"),
        ("I was wondering whether the cache helps at all", "doubt"),
        ("I'm trying to understand the Raft election timeout", "doubt"),
        ("I'm getting confused by the two config loaders", "doubt"),
        ("I want to understand why the `sync` step takes a minute", "doubt"),
        ("I would like to know how the retry queue picks its order", "doubt"),
        ("That was not right, the spec already existed", "feedback"),
        ("The deploy script broke again, add a task for it", "request"),
        ("Someone else can pick it up tomorrow, then commit and push", "request"),
        ("I want to make sure I'm reading the flag right", "need"),
        ("I want to make sure the migration is reversible", "need"),
        ("I need help with the signup email", "need"),
        ("I've tried pinning the resolver to an older release", "report"),
        ("Here's the traceback from the last run", "aside"),
        ("The integration tests are still failing on the runner", "status"),
        ("It works now", "status"),
        ("Same error as before", "status"),
        ("It's still compiling", "status"),
        ("It's been over ten minutes", "status"),
        ("All that's left is the release notes", "status"),
        ("Good, but it looks like the totals row is empty", "status"),
        ("I think you deleted the wrong migration", "guess"),
        ("I suspect the problem is the stale lockfile", "guess"),
        ("I see two copies of the footer on the page", "report"),
        ("I can see the old logo on the login page", "report"),
        ("We were working on the invoice exporter when it crashed", "report"),
        ("I meant the header of the settings page", "conversation"),
        ("Re 3, the flag stays as it is", "conversation"),
        ("Error: port 8080 is already in use", "output"),
        ("I think you edited the main checkout, not the session one", "guess"),
        ("I have reviewed my work", "report"),
        ("We've just pushed the branch", "report"),
        ("I see duplicates in the release notes", "report"),
        ("When I open the settings file, I don't see the new key", "doubt"),
        ("I keep getting errors because the assets are in the wrong folder", "trouble"),
        ("I seem to have all sorts of problems with the asset folders", "trouble"),
        ("I want to compare the output against the `release` branch", "need"),
        ("I'm looking to fix the bug where `sync --dry-run` writes files", "need"),
        ("I want to edit the summary in the YAML header", "need"),
        ("I've asked you twice now for a shorter reply", "conversation"),
        ("I asked you to open a ticket, not to start on the fix", "conversation"),
        ("I ended the last chat with a list of open points", "conversation"),
        ("I don't think the generated changelog is correct", "doubt"),
        ("Last time I tried it I got this error", "report"),
        ("I feel like the two setup docs say the same thing", "guess"),
        ("Then told me that the hook can't be changed", "feedback"),
        ("But now the export doesn't open", "status"),
        ("Now there's no log output at all", "status"),
    ],
)
def test_a_task_trouble_doubt_need_or_report_of_the_session_is_momentary(
    clause: str, why: str
) -> None:
    assert momentary(clause) == why


@pytest.mark.parametrize(
    "clause",
    [
        "We deploy the billing service to Fly.io",
        "I've decided to go with Litestar for the new API",
        "I work at a small logistics company in Porto",
        "I'm building an inventory tool for my uncle's bakery",
        "I want the answers to always show the shell command first",
        "I'm trying to trim the build, which has now grown to 340 MB",
        "I'm trying to understand how my lap time improved from 52 to 47 seconds",
        "I prefer tabs over spaces",
        "I want to test the parser module, not the command line wrapper",
        "Instead of grepping the logs, use the status command",
        "I moved the staging box to Frankfurt, use that region from now on",
        "I'm trying to move the API from Flask to Litestar 2.4",
        "I need the exports to stay compatible with Excel 2016",
        "The staging database listens on port 5433",
        "Our API is rate limited to 100 requests a minute",
        "I want to build a small web app that tracks the shared groceries of our flat",
        "I think we should always pin the Node version",
        "I see my physio every Tuesday",
        "I meant to move the cron job to Sunday",
        "It's a monorepo with three services",
        "Now I don't eat meat anymore",
        "Now we deploy from the main branch",
    ],
)
def test_a_fact_decision_rule_changed_value_or_named_tool_is_not_momentary(clause: str) -> None:
    assert momentary(clause) is None


def test_a_preference_inside_a_request_is_lifted_with_the_aim_it_serves() -> None:
    sentence = (
        "I'm trying to keep the daemon small enough for a router, so I prefer hand-rolled"
        " parsers over a parsing library, can you show me a tokenizer?"
    )
    assert [found.text for found in lifted_preferences(sentence)] == [
        "I prefer hand-rolled parsers over a parsing library,"
        " to keep the daemon small enough for a router"
    ]


def test_a_preference_with_its_own_reason_keeps_it_and_drops_the_request() -> None:
    sentence = (
        "I'm starting the docs site with Zola and I prefer it over Hugo because its"
        " templates are simpler, could you sketch the config?"
    )
    assert [found.text for found in lifted_preferences(sentence)] == [
        "I prefer Zola over Hugo because its templates are simpler"
    ]


def test_a_preference_keeps_what_the_request_weighs_it_against() -> None:
    sentence = (
        "I prefer writing migrations by hand for the billing schema, but I'm not sure it"
        " scales, can you list the trade-offs of doing them by hand versus an ORM autogenerator"
        " for a team of four?"
    )
    assert [found.text for found in lifted_preferences(sentence)] == [
        "I prefer writing migrations by hand for the billing schema over an ORM autogenerator"
    ]


def test_a_preference_that_names_its_alternative_or_reason_takes_none_from_the_request() -> None:
    named = "I prefer Caddy over nginx here, can you compare it versus Traefik for TLS?"
    reasoned = "I prefer Caddy because renewals are automatic, can you weigh it versus nginx?"
    assert [found.text for found in lifted_preferences(named)] == ["I prefer Caddy over nginx here"]
    assert [found.text for found in lifted_preferences(reasoned)] == [
        "I prefer Caddy because renewals are automatic"
    ]


def test_a_preference_of_a_pronoun_nobody_named_is_not_lifted() -> None:
    assert lifted_preferences("Honestly I prefer it, but can you check the logs?") == []


def test_a_preference_without_a_reason_takes_the_aim_the_sentence_before_opened_with() -> None:
    before = "I'm trying to cut the nightly build to ten minutes, can you look at the cache?"
    assert [f.text for f in lifted_preferences("I prefer Bazel over Make", before)] == [
        "I prefer Bazel over Make, to cut the nightly build to ten minutes"
    ]
    assert [f.text for f in lifted_preferences("I prefer Bazel over Make")] == [
        "I prefer Bazel over Make"
    ]


def test_an_agent_session_keeps_the_aim_of_the_sentence_before_with_the_preference() -> None:
    found = _texts(
        "User: I'm trying to cut the nightly build to ten minutes, can you look at the"
        " cache? I prefer Bazel over Make, so I want the fix to stay in Bazel.\n\n"
        "Assistant: Let us look at the remote cache.\n"
    )
    assert (
        "preference",
        "The user prefers Bazel over Make, to cut the nightly build to ten minutes.",
    ) in found


def test_what_is_done_like_the_user_prefers_is_the_preference() -> None:
    """ "… like I prefer, but …": the preference is the clause before, not what follows."""
    found = _texts(
        "User: I'm considering writing the changelog by hand like I prefer, but I'm not sure"
        " it scales, can you help?\n\nAssistant: It can.\n"
    )
    assert ("preference", "The user prefers writing the changelog by hand.") in found
    assert not any("prefers but" in text for _, text in found)


def test_an_agent_session_keeps_the_alternative_a_preference_is_weighed_against() -> None:
    found = _texts(
        "User: I prefer plotting the sensor data with gnuplot scripts, like I said, but I'm"
        " not sure about sharing them, can you compare them versus a Jupyter notebook for"
        " the lab?\n\nAssistant: Both can work.\n"
    )
    assert (
        "preference",
        "The user prefers plotting the sensor data with gnuplot scripts over a Jupyter notebook.",
    ) in found


def test_a_dream_keeps_a_preference_with_its_alternative_and_leaves_the_request(
    tmp_path: Path,
) -> None:
    """End to end with the installed command: a preference said inside a request that
    weighs it against another way is kept with that way; the request is not."""
    repo = tmp_path / "mem"
    prepared(repo, "2031-04-02T10:00:00Z", "init", str(repo))
    session = (
        "User: I prefer keeping the release notes in a single CHANGES file, but I'm not"
        " sure it scales, can you weigh it versus per-package changelogs for the monorepo?"
        "\n\nAssistant: A single file is simpler to read.\n"
    )
    prepared(repo, "2031-04-02T10:00:00Z", "log", stdin=session)
    dreamgit(repo, "2031-04-02T23:00:00Z", "run", "--force")
    texts = [m["text"] for m in active(repo, "2031-04-02T23:00:00Z", in_process=True)]
    assert (
        "The user prefers keeping the release notes in a single CHANGES file over per-package"
        " changelogs." in texts
    ), texts
    assert not any("weigh" in t or "scales" in t for t in texts), texts


@pytest.mark.parametrize(
    "clause",
    [
        "I'm worried about the design review on March 3",
        "I'm kinda stuck on the grant report due 14 June",
        "I need to get the slides ready before Oct 2",
    ],
)
def test_a_doubt_or_need_that_names_a_calendar_day_is_not_momentary(clause: str) -> None:
    assert momentary(clause) is None


def test_a_doubt_or_need_without_a_calendar_day_stays_momentary() -> None:
    assert momentary("I'm worried about the design review") == "doubt"
    assert momentary("I'm stuck on the March release") == "trouble"


@pytest.mark.parametrize(
    ("said", "feared"),
    [
        ("I'm worried that I won't meet the new deadline of May 20", "meet the new deadline"),
        ("I'm afraid that we will miss the June 3 launch", "miss the 3 June 2031 launch"),
        ("I'm nervous that I forgot to renew the visa on March 28", "forgot to renew the visa"),
        ("I'm kinda worried that I signed the studio lease on March 28", "signed the studio lease"),
    ],
)
def test_a_dated_worry_is_never_written_as_what_happens(said: str, feared: str) -> None:
    """A fear is not an outcome: "I'm worried that I won't meet the deadline" never becomes
    "The user won't meet the deadline"; what the worry is about keeps its hedge."""
    found = _texts(f"User: {said}, can you help me plan the week?\n\nAssistant: Sure.\n")
    about = [text for _, text in found if feared in text]
    assert about
    assert all(re.search(r"\b(?:worried|afraid|nervous)\b", text) for text in about)


def test_a_dated_worry_is_kept_as_a_worry_with_its_day() -> None:
    found = _texts(
        "User: I'm worried that I won't meet the new deadline of May 20, can you help me"
        " plan the week?\n\nAssistant: Sure.\n"
    )
    assert (
        "event",
        "The user is worried that they won't meet the new deadline of 20 May 2031.",
    ) in found


def _texts(transcript: str) -> list[tuple[str, str]]:
    found = extract_candidates(transcript, session_id="s-20310402-a1b2c3", created=_WHEN)
    return [(c.kind, c.text) for c in found]


def test_an_agent_session_keeps_the_preference_and_marks_the_task_momentary() -> None:
    """The task the request is about is marked momentary (the default rules drop it);
    the preference said inside it becomes a statement of its own."""
    found = _texts(
        "User: I'm trying to keep the CLI quick to start, so I prefer plain argparse over"
        " click, how would I add subcommands? I'm not sure how to lay out the modules.\n\n"
        "Assistant: Use subparsers.\n"
    )
    assert (
        "preference",
        "The user prefers plain argparse over click, to keep the CLI quick to start.",
    ) in found
    assert all(kind == "momentary" for kind, text in found if "not sure" in text)
    assert not any(kind != "momentary" and "trying" in text for kind, text in found)


def test_in_a_chat_between_people_nothing_is_momentary() -> None:
    """ "I'm trying to get into climbing" is news between friends: only an agent's user's
    tasks are of the moment."""
    found = _texts(
        "Noor: I'm trying to get into climbing at the gym near the river.\n"
        "Rui: Oh nice, which gym?\n"
        "Noor: The one by the old market, I go on Tuesdays.\n"
        "Rui: Cool.\n"
    )
    assert found and all(kind != "momentary" for kind, _ in found)


@pytest.mark.parametrize(
    "clause",
    ["Str) -> str that reverses the words", "self.cache = {}", "def export(rows, path)"],
)
def test_a_piece_of_code_is_momentary(clause: str) -> None:
    assert momentary(clause) == "code"


@pytest.mark.parametrize(
    "clause", ["We pin `ruff` in the dev extra", "I prefer tabs (not spaces) in Makefiles"]
)
def test_prose_with_a_backquoted_name_or_an_aside_is_not_code(clause: str) -> None:
    assert not code_fragment(clause)


def test_a_rule_for_this_task_only_is_not_kept_and_a_standing_rule_is() -> None:
    found = _texts(
        "User: Don't stop until every handler is ported and the suite passes. Never commit"
        " generated files.\n\nAssistant: Understood.\n"
    )
    assert found == [("instruction", "The user wants the agent to never commit generated files.")]
    assert one_off("Skip the changelog for now") and not one_off("Always update the changelog")


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "Use ruff, not flake8: flake8 missed the unused imports twice.",
            "The user wants the agent to use ruff, not flake8 \u2014 flake8 missed the unused"
            " imports twice.",
        ),
        (
            "Never rebase the release branch because the tags point into it.",
            "The user wants the agent to never rebase the release branch because the tags"
            " point into it.",
        ),
    ],
)
def test_a_standing_rule_keeps_the_reason_given_for_it(said: str, kept: str) -> None:
    assert _texts(f"User: {said}\n\nAssistant: Noted.\n") == [("instruction", kept)]


@pytest.mark.parametrize(
    "said",
    [
        "lets add a flag for the dry run.",
        "now go ahead and add a command that prints the plan.",
        "continue working on the importer, pulling the latest main first.",
    ],
)
def test_a_request_to_the_agent_in_any_casing_is_not_a_fact(said: str) -> None:
    assert _texts(f"User: {said}\n\nAssistant: On it.\n") == []


def test_what_the_agent_just_did_is_feedback_of_the_moment() -> None:
    assert momentary("You edited the generated client, not the template") == "feedback"
    assert momentary("You should always edit the template, never the generated client") is None


def test_a_rule_said_after_when_it_holds_is_an_instruction_and_a_memory_is_not() -> None:
    assert _texts(
        "User: when parsing CSV exports, never trust the header row.\n\nAssistant: ok\n"
    ) == [
        (
            "instruction",
            "The user wants the agent not to trust the header row when parsing CSV exports.",
        )
    ]
    assert all(
        kind != "instruction"
        for kind, _ in _texts("User: When I was small, we always went to the coast.\n")
    )


@pytest.mark.parametrize(
    ("clause", "why"),
    [
        ("That's not true, the importer already skips empty rows", "feedback"),
        ("this is not what I meant, the flag stays", "feedback"),
        ("I meant the parser I mentioned earlier in this conversation", "conversation"),
        ("As I said in my last message, the API is frozen", "conversation"),
    ],
)
def test_a_rebuttal_of_the_agent_or_a_pointer_into_the_conversation_is_momentary(
    clause: str, why: str
) -> None:
    assert momentary(clause) == why


def test_a_rule_that_says_wrong_or_a_standing_wish_about_the_chat_is_not_momentary() -> None:
    assert momentary("It's wrong to assume the cache is warm") is None
    assert momentary("I always want answers in this chat kept short") is None


def test_requests_and_typed_short_forms_to_an_agent_leave_no_task_behind() -> None:
    """ "just …" and "think …" open requests; "dont", "lets", "its" are read as typed
    contractions; "yourself" stays the agent's; the standing rules are kept."""
    found = _texts(
        "User: just rerun the seed script now. think it over carefully before you answer. "
        "its still building. lets name the branch after the ticket, always. "
        "dont ever force-push, run the checks yourself first, always.\n\n"
        "Assistant: Understood.\n"
    )
    kept = [text for kind, text in found if kind != "momentary"]
    assert kept == [
        "The user decided to name the branch after the ticket, always.",
        "The user wants the agent not to ever force-push, run the checks itself first, always.",
    ], found


def test_the_purpose_of_a_request_goes_with_it() -> None:
    """ "…, so I can …" after a task is why the task is asked: neither is kept alone."""
    found = _texts(
        "User: write the open steps into the plan so I can hand the work to a new colleague."
        " I keep every plan in docs/plans.\n\nAssistant: Done.\n"
    )
    kept = [text for kind, text in found if kind != "momentary"]
    assert kept == ["The user keeps every plan in docs/plans."], found


def test_the_order_a_report_of_the_moment_leads_to_is_read_on_its_own() -> None:
    """ "I see repeats, ensure …": the report goes, the order is read as said to the agent."""
    said = "I see repeats, ensure the release notes never list an entry twice"
    assert order_after_moment(said) == "Ensure the release notes never list an entry twice"
    assert order_after_moment("The deploy script broke again, add a task for it") is None
    text = render_turns([Turn("user", "cursor", said + ".")])
    found = [(c.text, c.kind) for c in extract_candidates(text, session_id="s-1", created=_WHEN)]
    assert found == [
        (
            "The user wants the agent to ensure the release notes never list an entry twice.",
            "instruction",
        )
    ]
