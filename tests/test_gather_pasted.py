"""Pasted documents and logs in a user's turn are not read as the user's own words."""

from __future__ import annotations

from datetime import UTC, datetime

from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.pasted import without_pasted
from dreamgit.dream.gather.transcript import speaker_paragraphs
from dreamgit.store.formats.turns import Turn, render_turns

NOW = datetime(2027, 3, 1, 18, 0, tzinfo=UTC)

PLAN = """Write these files for me, exactly as below.

# Design notes for the Harbour booking site

## Stack
- Frontend: Svelte 5 with Vite
- Database: SQLite (one file, backed up nightly)
- Hosting: Fly.io, two regions

## Look
- Fonts: Nunito for headings, Inter for body
- Colours: teal and sand

I always want the database file outside the repository."""

STACK_PAGE = """Unhandled Runtime Error
Error: Booking lookup failed at fetchSlots
Call Stack
loadSlots
src/routes/slots/+page.ts (41:7)
renderPage
node_modules/kit/dist/runtime.js (88:3)

2 of 2 errors

Can you see why the slots page breaks?"""


def _user_text(turn: str) -> str:
    text = render_turns([Turn("user", "cursor", turn)])
    return " ".join(p for _, ps in speaker_paragraphs(text) for p in ps)


def test_a_pasted_planning_document_is_not_the_users_words() -> None:
    """Headings and ``Label: value`` items with no voice of their own are dropped; the
    user's sentences around them stay."""
    said = _user_text(PLAN)
    assert "Svelte" not in said and "Nunito" not in said and "Fly.io" not in said
    assert "Write these files for me" in said
    assert "I always want the database file outside the repository." in said


def test_a_pasted_error_page_and_its_short_lines_are_dropped() -> None:
    """A stack of fragments is a log; "2 of 2 errors" beside it goes with it; the
    question the user asks after it stays."""
    said = _user_text(STACK_PAGE)
    assert "fetchSlots" not in said and "2 of 2 errors" not in said
    assert said == "Can you see why the slots page breaks?"


def test_the_users_own_list_is_kept() -> None:
    """A list the user writes in their own voice is theirs, whatever its shape."""
    lines = ["Rules for this repo:", "- we deploy on Tuesdays", "- my branch names start with hb-"]
    assert without_pasted(lines) == lines


def test_a_short_block_is_never_judged_by_shape() -> None:
    """Two lines are too few to tell a document from a note the user typed."""
    lines = ["Port: 8443", "Region: north"]
    assert without_pasted(lines) == lines


def test_no_memory_comes_from_a_pasted_document() -> None:
    """End to end through extraction: the pasted items give no candidate, the user's
    own rule does."""
    text = render_turns([Turn("user", "cursor", PLAN)])
    found = [c.text for c in extract_candidates(text, session_id="s-1", created=NOW)]
    assert not any("Svelte" in t or "Nunito" in t or "SQLite" in t for t in found)
    assert any("database file outside the repository" in t for t in found)


def test_a_list_of_rules_in_the_users_words_is_kept() -> None:
    """Unlabelled items are the user's own list, voice or not."""
    lines = [
        "- always squash before merging",
        "- name branches after the ticket",
        "- keep the changelog in sync",
    ]
    assert without_pasted(lines) == lines


def test_a_command_and_its_output_are_dropped_however_short() -> None:
    """A block that opens with a shell prompt is a command the user ran and its output."""
    lines = ["$ make deploy --env staging", "Deployed 3 services.", "", "why is one missing?"]
    assert without_pasted(lines) == ["", "why is one missing?"]


def test_log_lines_with_clock_times_are_dropped_whatever_names_they_hold() -> None:
    """ "my-shop@2.0.1" in a build log is a package's name, not the user speaking."""
    lines = [
        "[09:12:01.114] > my-shop@2.0.1 build",
        "[09:12:03.520] Compiled the storefront.",
        "[09:12:03.521] We collect anonymous usage data to improve the builder.",
    ]
    assert without_pasted(lines) == []


def test_an_error_page_is_dropped_though_it_speaks_as_we() -> None:
    """An error page's title and error label tell it from the user's words; its "our
    team" is the program's; the user's question after it stays."""
    said = _user_text(
        "Something broke\nSorry, our team is looking into it.\nError Details (Debug Build)\n"
        "Widget is undefined: check the import\n\n"
        "TypeError: Widget is undefined\n\nI always run the dev server on port 4100."
    )
    assert said == "I always run the dev server on port 4100."


def test_a_users_own_lines_that_mention_errors_are_kept() -> None:
    """Speaking of an error is not pasting one."""
    lines = ["The error only shows on Safari.", "I test on Firefox first.", "We ship Fridays."]
    assert without_pasted(lines) == lines


def test_checklist_items_are_tasks_and_are_dropped_wherever_they_stand() -> None:
    """'- [ ] …' and '- [x] …' are a plan's tasks; the user's own line beside them stays."""
    lines = [
        "Here is where the board stands:",
        "- [ ] Add a dark mode switch to the header",
        "- [x] Move the uploads to object storage",
        "We ship the board on the first Monday of each month.",
    ]
    assert without_pasted(lines) == [lines[0], lines[3]]


def test_quoted_words_and_a_headings_i_are_not_the_writers_voice() -> None:
    """A pasted story list whose only "I" is in quotes or in a heading is a document."""
    lines = [
        "## Stories",
        "#### Story: as a guest I can book a slot",
        '- Goals: fewer no-shows ("As a host, I can see who cancelled.")',
        "- Stack: SvelteKit and SQLite",
    ]
    assert without_pasted(lines) == []


def test_a_section_that_opens_with_a_heading_speaks_only_in_its_unlabelled_lines() -> None:
    """Under a heading, "- Story: as a guest I can book" is the document's "I"; an
    unlabelled "- I always …" there is the user's own, and keeps the block."""
    section = [
        "### Epic: Booking",
        "  - Story: As a guest, I can book a slot from the calendar.",
        "  - Tasks: [ ] Build the calendar; [ ] Send a reminder mail.",
    ]
    assert without_pasted(section) == []
    mine = ["## My rules", "- I always run the linter before a commit.", "- Stack: Vue"]
    assert without_pasted(mine) == mine


# A brief for an agent, pasted into one turn: headings, short rule lines, "you MUST",
# and a "we" that is the brief's, between the user's own words before and after it.
AGENT_BRIEF = """Here is the brief for the helper, please follow it.

# Working rules for the helper

## Setup
- Workspace: the sandbox folder only
- Branch: one per task, named after it
- You MUST run the linter before each commit.

Checks
1. Never push to the shared branch.
2. Run the narrow tests only; we share the machine.
3. Ask before adding a dependency.

## Report
- Length: under forty lines
- Contents: commits, tests, figures

Also, I prefer tabs over spaces in this repo."""

# The user's own long spec: headings, but prose paragraphs asking for something.
OWN_SPEC = """# What I want

I want a small booking site for our harbour tours, where guests pick a slot and pay.
We run about forty tours a week and I would like you to keep it simple.

## Data

We keep the tours in a spreadsheet today; please read it once a night.
- guests can cancel up to a day before
- we refund in full

## Look

I like calm colours, and you should use the fonts we already have."""


def test_a_pasted_agent_brief_keeps_only_the_users_words_around_it() -> None:
    """Headings and many short rule lines make the whole turn a document: its voiced
    lines ("You MUST", "we share") are the brief's; the words before and after stay."""
    said = _user_text(AGENT_BRIEF)
    for line in ("linter", "shared branch", "narrow tests", "dependency", "forty lines"):
        assert line not in said
    assert "Here is the brief for the helper, please follow it." in said
    assert "I prefer tabs over spaces in this repo." in said


def test_a_pasted_brief_in_an_aider_turn_is_judged_as_a_whole() -> None:
    """Aider writes each line of the turn as its own ``#### `` line: the brief is still
    one document, and the user's closing line is still theirs."""
    lines = AGENT_BRIEF.splitlines()
    kept = "\n".join(without_pasted(lines))
    assert "linter" not in kept and "we share the machine" not in kept
    assert kept.strip().endswith("I prefer tabs over spaces in this repo.")


def test_a_users_own_long_spec_with_headings_is_read_as_before() -> None:
    """Prose paragraphs in the user's voice between headings: not a pasted document."""
    said = _user_text(OWN_SPEC)
    assert "I want a small booking site for our harbour tours" in said
    assert "please read it once a night" in said
    assert "guests can cancel up to a day before" in said
    assert "I like calm colours" in said


def test_the_users_lead_in_line_before_a_pasted_document_is_theirs() -> None:
    """A short line ending in a colon ("Make a checklist of this:") leads into what
    follows: it is the user's, not the document's first heading."""
    turn = "Make a checklist of this:\n" + AGENT_BRIEF.split("\n\n", 1)[1]
    kept = without_pasted(turn.splitlines())
    assert kept[0] == "Make a checklist of this:"
    assert "linter" not in " ".join(kept)


STACK_WITH_OWN_LINES = [
    "the checkout page broke when I pressed pay:",
    "Unhandled Runtime Error",
    "TypeError: cart.total is not a function",
    "    at summarise (cart.js:40:7)",
    "I only see this with two coupons in the basket.",
]


def test_the_users_closing_line_typed_under_a_pasted_error_is_kept() -> None:
    """No blank line between: the closing sentence below the error stays the user's; the
    error's own lines go, and so does the lead-in that only points at them."""
    kept = without_pasted(STACK_WITH_OWN_LINES)
    assert kept == [STACK_WITH_OWN_LINES[-1]]


def test_an_error_pages_own_we_at_its_edge_stays_with_the_error() -> None:
    """The look-alike: "Our team has been notified." opens the error page; it is the
    program's words, and the whole block still goes."""
    page = [
        "Something went wrong. Our team has been notified.",
        "Error: Booking lookup failed",
        "    at fetchSlots (slots.js:12:3)",
    ]
    assert without_pasted(page) == []


def test_the_users_closing_line_typed_right_under_a_pasted_brief_is_theirs() -> None:
    """No blank line between the brief's last items and "Also, I prefer tabs …": the line
    is the user's; the brief's items still go."""
    turn = AGENT_BRIEF.replace("figures\n\nAlso", "figures\nAlso")
    said = _user_text(turn)
    assert "I prefer tabs over spaces in this repo." in said
    assert "forty lines" not in said and "linter" not in said


def test_the_users_closing_words_under_an_empty_last_heading_are_theirs() -> None:
    """The brief ends on a heading with nothing of its own ("## (More sections later.)");
    the user's words before the brief and the prose after it are the user's."""
    turn = AGENT_BRIEF.replace(
        "## Report\n- Length: under forty lines\n- Contents: commits, tests, figures\n\n",
        "## Report\n- Length: under forty lines\n- Contents: commits, tests, figures\n\n"
        "## (More sections later.)\n\n",
    )
    said = _user_text(turn)
    assert "I prefer tabs over spaces in this repo." in said
    assert "forty lines" not in said


def test_a_pasted_brief_with_no_words_of_the_user_keeps_its_last_section() -> None:
    """The look-alike: nothing of the user's before the brief, so the prose under its last
    heading is the brief's own closing section and goes with it."""
    brief = AGENT_BRIEF.split("\n\n", 1)[1].replace(
        "Also, I prefer tabs over spaces in this repo.", "## Closing\n\nThe helper signs off."
    )
    assert "signs off" not in _user_text(brief)
