"""Deterministic gathering: which statements become candidates, and how they read."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.dream.gather.language import FULL_STOPS
from dreamgit.dream.gather.phase import rejecting_rule
from dreamgit.extract.candidate import TOPICS, Candidate, candidate_memory_fields, suggest_slug
from dreamgit.model import MEMORY_TYPES, PRIORITIES, Memory
from dreamgit.ruleset import load_bundled

NOW = datetime(2026, 11, 20, 10, 4, tzinfo=UTC)


def extract(text: str) -> list[Candidate]:
    return extract_candidates(text, session_id="s-1", created=NOW)


def gathered(text: str) -> list[Candidate]:
    """The candidates the bundled default rules let through (salience, secrets, …)."""
    rules = load_bundled("default")
    return [c for c in extract(text) if rejecting_rule(rules, c, NOW) is None]


def summary(c: Candidate) -> tuple[object, ...]:
    return (c.text, c.topic, c.priority, c.key, c.change, c.pattern)


# text said by the user → (memory text, topic, priority, key, change, pattern) per candidate
POSITIVE: list[tuple[str, list[tuple[object, ...]]]] = [
    # identity
    ("My name is Dana Reyes.",
     [("The user's name is Dana Reyes.", "identity", "high", "user.name", None, "name")]),
    ("Hi, I'm Dana.",
     [("The user's name is Dana.", "identity", "high", "user.name", None, "name")]),
    # a greeting said alone still greets the sentence after it
    ("Hey! I'm Dana.",
     [("The user's name is Dana.", "identity", "high", "user.name", None, "name")]),
    # a role where no organisation is named, with an acronym's article
    ("I'm Ines, a UX researcher at a small fintech in Porto, Portugal.",
     [("The user's name is Ines.", "identity", "high", "user.name", None, "name"),
      ("Ines works as a UX researcher at a small fintech in Porto, Portugal.", "facts",
       "high", "user.role", None, "role")]),
    ("The user's name is Sam Lee.",
     [("The user's name is Sam Lee.", "identity", "high", "user.name", None, "name")]),
    ("Call me Danny.",
     [("The user prefers to be called Danny.", "identity", "high", "user.preferred-name", None,
       "preferred-name")]),
    ("My pronouns are she/her.",
     [("The user's pronouns are she/her.", "identity", "high", "user.pronouns", None, "pronouns")]),
    ("My birthday is March 3.",
     [("The user's birthday is March 3.", "identity", "high", "user.birthday", None, "birthday")]),
    ("I live in Lisbon, Portugal.",
     [("The user lives in Lisbon, Portugal.", "facts", "high", "user.home", None, "home")]),
    ("I'm based in New York City.",
     [("The user lives in New York City.", "facts", "high", "user.home", None, "home")]),
    ("I moved to Berlin.",
     [("The user lives in Berlin (moved there).", "facts", "high", "user.home", (None, "Berlin"),
       "moved")]),
    # settling somewhere is living there now
    ("I'm settling into Berlin.",
     [("The user lives in Berlin (moved there).", "facts", "high", "user.home", (None, "Berlin"),
       "moved")]),
    ("I moved from Lisbon to Berlin last month.",
     [("The user lives in Berlin (moved there from Lisbon).", "facts", "high", "user.home",
       ("Lisbon", "Berlin"), "moved")]),
    ("I work at Acme Corp.",
     [("The user works at Acme Corp.", "facts", "high", "user.employer", None, "employer")]),
    ("I'm a senior data engineer at Globex.",
     [("The user works as a senior data engineer at Globex.", "facts", "high", "user.role", None,
       "role"),
      ("The user works at Globex.", "facts", "high", "user.employer", None, "employer")]),
    # a role, and where the one who has it lives
    ("I'm a data engineer based in Lisbon.",
     [("The user works as a data engineer.", "facts", "high", "user.role", None, "role"),
      ("The user lives in Lisbon.", "facts", "high", "user.home", None, "home")]),
    # a role at a place not named
    ("I'm a nurse at a small clinic in Porto.",
     [("The user works as a nurse at a small clinic in Porto.", "facts", "high", "user.role",
       None, "role")]),
    # a promotion is the role held now
    ("I just got promoted to Senior PM!",
     [("The user works as a Senior PM (promoted).", "facts", "high", "user.role",
       (None, "Senior PM"), "promoted")]),
    # an adverb before the verb keeps the subject
    ("I mostly use PyTorch for my models.",
     [("The user mostly uses PyTorch for their models.", "tools", "normal", None, None, "use")]),
    ("I left Initech in March.",
     [("The user no longer works at Initech.", "facts", "high", None, ("Initech", None),
       "left-employer")]),
    ("my timezone is CET",
     [("The user's timezone is CET.", "facts", "high", "user.timezone", None, "timezone")]),
    ("I'm allergic to peanuts.",
     [("The user is allergic to peanuts.", "identity", "high", None, None, "allergy")]),
    # changes
    ("I switched from Flask to FastAPI for our web services.",
     [("The user uses FastAPI for their web services (switched from Flask).", "tools", "normal",
       "tool.python-web-framework", ("Flask", "FastAPI"), "switch")]),
    ("User mentioned they're switching from Flask to FastAPI.",
     [("The user uses FastAPI (switched from Flask).",
       "tools", "normal", "tool.python-web-framework",
       ("Flask", "FastAPI"), "switch")]),
    ("Today I switched from Flask to FastAPI.",
     [("The user uses FastAPI (switched from Flask).",
       "tools", "normal", "tool.python-web-framework",
       ("Flask", "FastAPI"), "switch")]),
    ("I no longer use Vim.",
     [("The user no longer uses Vim.", "tools", "normal", None, ("Vim", None), "stopped")]),
    ("I don't use Docker anymore.",
     [("The user no longer uses Docker.", "tools", "normal", None, ("Docker", None), "stopped")]),
    ("I stopped using Poetry.",
     [("The user no longer uses Poetry.", "tools", "normal", None, ("Poetry", None), "stopped")]),
    ("I use pnpm instead of npm.",
     [("The user uses pnpm instead of npm.", "tools", "normal", "tool.js-package-manager",
       ("npm", "pnpm"), "instead")]),
    ("I replaced Jenkins with GitHub Actions.",
     [("The user uses GitHub Actions (replaced Jenkins).", "tools", "normal", "tool.ci",
       ("Jenkins", "GitHub Actions"), "replaced")]),
    ("I switched to Neovim.",
     [("The user switched to Neovim.",
       "tools", "normal", "tool.editor", (None, "Neovim"), "switch-to")]),
    ("I stopped using Poetry and switched to uv.",
     [("The user no longer uses Poetry.", "tools", "normal", None, ("Poetry", None), "stopped"),
      ("The user switched to uv.", "tools", "normal", "tool.python-package-manager", (None, "uv"),
       "switch-to")]),
    ("I used to use Emacs, now I use VS Code.",
     [("The user no longer uses Emacs.", "tools", "normal", None, ("Emacs", None), "stopped"),
      ("The user uses VS Code.", "tools", "normal", "tool.editor", None, "use")]),
    # tools
    ("I use Neovim as my editor.",
     [("The user uses Neovim as their editor.", "tools", "normal", "tool.editor", None, "use")]),
    ("I use Python for data work.",
     [("The user uses Python for data work.", "tools", "normal", None, None, "use")]),
    ("My shell is zsh.", [("The user's shell is zsh.", "tools", "normal", "tool.shell", None,
                           "my-tool")]),
    # preferences
    ("I prefer pytest over unittest for python tests",
     [("The user prefers pytest over unittest for Python tests.", "preferences", "normal",
       "pref.python-test-runner", None, "prefer")]),
    ("The user prefers pytest over unittest.",
     [("The user prefers pytest over unittest.", "preferences", "normal", "pref.python-test-runner",
       None, "prefer")]),
    ("User prefers dark mode in editors.",
     [("The user prefers dark mode in editors.", "preferences", "normal", None, None, "prefer")]),
    ("My favorite color is green.",
     [("The user's favorite color is green.", "preferences", "normal", "pref.color", None,
       "favorite")]),
    ("I like Rust better than C++.",
     [("The user likes Rust better than C++.",
       "preferences", "normal", "pref.language", None, "prefer")]),
    ("I love hiking in the mountains.",
     [("The user loves hiking in the mountains.", "preferences", "normal", None, None, "like")]),
    ("I don't like Java.",
     [("The user doesn't like Java.", "preferences", "normal", None, None, "like")]),
    ("I always write tests first.",
     [("The user always writes tests first.", "preferences", "normal", None, None, "habit")]),
    ("Always use type hints in Python code.",
     [("The user wants the agent to always use type hints in Python code.", "preferences", "normal",
       None, None, "instruction")]),
    ("Don't ever force-push to shared branches.",
     [("The user wants the agent to never force-push to shared branches.", "preferences", "normal",
       None, None, "instruction")]),
    ("From now on, use pnpm for every JS project.",
     [("The user wants the agent to use pnpm for every JS project from now on.", "preferences",
       "normal", None, None, "instruction")]),
    ("I want you to always write commit messages in the imperative mood.",
     [("The user wants the agent to always write commit messages in the imperative mood.",
       "preferences", "normal", None, None, "instruction")]),
    ("I'm on macOS.", [("The user uses macOS.", "tools", "normal", "tool.os", None, "use")]),
    # decisions and projects
    ("We decided to use Postgres instead of MySQL for the event store.",
     [("The user's team decided to use Postgres instead of MySQL for the event store.", "decisions",
       "normal", "tool.database", ("MySQL", "Postgres"), "decision")]),
    ("Let's go with SQLite for now.",
     [("The user decided to go with SQLite for now.",
       "decisions", "normal", None, None, "decision")]),
    ("I'm working on a Rust web service called Ferry.",
     [("The user is working on a Rust web service called Ferry.", "projects", "normal", None, None,
       "project")]),
    ("Our backend uses Django.",
     [("The user's backend uses Django.", "projects", "normal", None, None, "project")]),
    # near dates become ephemeral schedule notes with absolute dates
    ("I have a dentist appointment tomorrow at 3pm.",
     [("The user has a dentist appointment on 21 November 2026 at 3pm.",
       "schedule", "ephemeral", None, None,
       "near-date")]),
    ("Tomorrow I'm presenting the roadmap.",
     [("The user is presenting the roadmap on 21 November 2026.",
       "schedule", "ephemeral", None, None,
       "near-date")]),
    ("I'm deploying the release tonight.",
     [("The user is deploying the release on the night of 20 November 2026.",
       "schedule", "ephemeral", None,
       None, "near-date")]),
    ("I have a call in the next hour.",
     [("The user has a call within an hour of 10:04 UTC on 20 November 2026.",
       "schedule", "ephemeral", None,
       None, "near-date")]),
    ("I'm switching to FastAPI tomorrow.",
     [("The user is switching to FastAPI on 21 November 2026.", "schedule", "ephemeral", None, None,
       "near-date")]),
    # remember that, corrections
    ("Remember that my sister's name is Ana.",
     [("The user's sister's name is Ana.", "notes", "high", None, None, "remember")]),
    ("Remember that I prefer dark mode.",
     [("The user prefers dark mode.", "preferences", "high", None, None, "remember+prefer")]),
    ("Can you remember that I use zsh?",
     [("The user uses zsh.", "tools", "high", "tool.shell", None, "remember+use")]),
    ("Remember to run the linter before committing.",
     [("The user wants the agent to run the linter before committing.", "preferences", "high", None,
       None, "remember+instruction")]),
    ("Remember that I have a flight tomorrow morning.",
     [("The user has a flight on the morning of 21 November 2026.",
       "schedule", "ephemeral", None, None,
       "remember+near-date")]),
    ("Actually, my name is Dana, not Diana.",
     [("The user's name is Dana.", "identity", "high", "user.name", None, "correction+name")]),
    ("Actually I use Poetry now, not pip.",
     [("The user uses Poetry now, not pip.", "tools", "high", "tool.python-package-manager",
       ("pip", "Poetry"), "correction+instead")]),
    ("I use tabs, not spaces.",
     [("The user uses tabs, not spaces.", "tools", "high", None, ("spaces", "tabs"),
       "correction+instead")]),
]  # fmt: skip

NEGATIVE: list[tuple[str, str]] = [
    ("question", "Do I prefer tabs?"),
    ("a task asked politely", "Can you explain how attention works?"),
    ("a passing mishap", "I had a terrible commute, the tram broke down again."),
    ("leaving the chat", "Sorry, I need to step away now."),
    ("a task, not a rule", "Write a function that parses the nginx log."),
    ("a task for me", "Write me a short poem about Lisbon."),
    ("a task, its verb unlisted", "Convert the CSV export to Parquet."),
    ("another task", "Sum a numeric column grouped by region."),
    ("question without subject", "What editor do I use?"),
    ("question to remember", "Do you remember that I use zsh?"),
    ("hypothetical if", "If I switched to Rust, would it be faster?"),
    ("hypothetical maybe", "Maybe I'll switch to Rust."),
    ("might", "I might use Django for the admin."),
    ("wish", "I wish I used Rust at work."),
    ("guess hedge", "I guess I prefer tabs."),
    ("pronoun object", "I prefer it over the old one."),
    ("like that", "I like that."),
    ("addressing the agent", "I love you"),
    ("use it", "I use it every day."),
    ("third party", "The assistant said I should use pytest."),
    ("colleague", "She prefers Vim."),
    ("bare I'm without greeting", "I'm Dana."),
    ("plain chat", "Thanks! That works."),
    ("code", "def prefer(x): return x"),
    ("remember when", "Remember when we used Perl?"),
    ("one-off task", "I need you to fix the login bug."),
    ("vague habit", "I always forget the syntax for this."),
    ("index line", "- [Prefers pytest](memories/preferences/prefers-pytest.md) — pytest"),
    # past the longest run-on request read (800 characters), a sentence is skipped unread
    ("long sentence", "I prefer " + "very " * 200 + "long things."),
]


@pytest.mark.parametrize(("text", "expected"), POSITIVE, ids=[t for t, _ in POSITIVE])
def test_statement_becomes_expected_candidates(
    text: str, expected: list[tuple[object, ...]]
) -> None:
    """Each explicit statement yields exactly the memory sentences the table lists."""
    assert [summary(c) for c in extract(text)] == expected


# Statements the old patterns never saw: every declarative clause is a candidate now
# (these were in NEGATIVE; issue 11 names such misses).
STATEMENTS: list[tuple[str, str, str]] = [
    (
        "I'm thinking about moving to Berlin.",
        "The user is thinking about moving to Berlin.",
        "plan",
    ),
    ("I live in a small flat.", "The user lives in a small flat.", "fact"),
    (
        "Write docstrings in Google style.",
        "The user wants the agent to write docstrings in Google style.",
        "instruction",
    ),
    ("I'm a big fan of Rust.", "The user is a big fan of Rust.", "preference"),
    ("I moved to a new team.", "The user moved to a new team.", "correction"),
    ("I preferred tabs back then.", "The user preferred tabs back then.", "event"),
    (
        "We're migrating from Heroku to Fly.io next quarter.",
        "The user's team is migrating from Heroku to Fly.io next quarter.",
        "plan",
    ),
    ("I'm on the payments team.", "The user is on the payments team.", "fact"),
    # a standing order asked as a question; an adverb before "prefer"; "very much" is filler
    (
        "Can you keep explanations short and direct?",
        "The user wants the agent to keep explanations short and direct.",
        "instruction",
    ),
    (
        "I really prefer short code examples.",
        "The user really prefers short code examples.",
        "preference",
    ),
    ("I'm very much a visual learner.", "The user is a visual learner.", "fact"),
    ("Total beginner here.", "The user is a total beginner.", "fact"),
    ("Long-time Rust dev here!", "The user is a long-time Rust dev.", "fact"),
    ("ML newbie here.", "The user is an ML newbie.", "fact"),  # read letter by letter
    # what the user did, its "I" unsaid, is no task for the agent
    (
        "Got the model down to 25M params.",
        "The user got the model down to 25M params.",
        "event",
    ),
]


@pytest.mark.parametrize(("text", "memory", "kind"), STATEMENTS, ids=[t for t, _, _ in STATEMENTS])
def test_plain_statement_is_a_candidate_with_its_kind(text: str, memory: str, kind: str) -> None:
    """A declarative clause no pattern knows still becomes a statement, with a kind."""
    assert [(c.text, c.kind) for c in extract(text)] == [(memory, kind)]


@pytest.mark.parametrize(("text",), [(t,) for _, t in NEGATIVE], ids=[n for n, _ in NEGATIVE])
def test_non_statement_yields_nothing(text: str) -> None:
    """Questions, hypotheticals, hedges, pronoun objects and others' words are not gathered."""
    assert extract(text) == []


def test_candidate_fields_are_within_vocabulary() -> None:
    """Topics, priorities and types come from the fixed vocabularies; tags are lower-case."""
    for text, _ in POSITIVE:
        for c in extract(text):
            assert c.topic in TOPICS
            assert c.priority in PRIORITIES
            assert c.type in MEMORY_TYPES
            assert all(re.fullmatch(r"[a-z0-9][a-z0-9-]*", t) for t in c.tags)
            assert c.session_id == "s-1" and c.created == NOW


def test_tags_name_tools_and_implied_language() -> None:
    """A tool name becomes a tag, and a framework brings its language along."""
    [c] = extract("I switched from Flask to FastAPI.")
    assert c.tags == ("flask", "fastapi", "python")


def test_confidence_reflects_how_the_statement_was_made() -> None:
    """Plain 0.9, "remember that" 1.0, a correction 0.95, "I think" 0.6."""
    assert extract("I use zsh.")[0].confidence == 0.9
    assert extract("Remember that I use zsh.")[0].confidence == 1.0
    assert extract("Actually, I use zsh.")[0].confidence == 0.95
    assert extract("I think I prefer light themes.")[0].confidence == 0.6


def test_remembered_url_note_is_a_reference() -> None:
    """A remembered pointer to an external system has Claude's type ``reference``."""
    [c] = extract("Please remember: the staging server is at https://staging.example.com")
    assert (c.text, c.topic, c.type) == (
        "The staging server is at https://staging.example.com.",
        "notes",
        "reference",
    )


TRANSCRIPT = """\
---
id: s-20261120-a1b2
---
# Session

User: Hi! I prefer pytest over unittest for python tests.
Assistant: Noted. I prefer unittest myself, but I'll use pytest. My name is Claude.
User: Also I switched from Flask to FastAPI for our web services.
Here is the traceback:
```
I prefer tabs
```
> I use Emacs (pasted from a colleague's message)
Assistant: I live in the cloud.
**User**: Remember that my name is Dana Reyes.
**Assistant**: Will do. Do you prefer dark mode?
"""


def test_transcript_keeps_only_the_users_own_words() -> None:
    """Assistant turns, code blocks, pasted quotes and front matter are never gathered."""
    assert [c.text for c in extract(TRANSCRIPT)] == [
        "The user prefers pytest over unittest for Python tests.",
        "The user uses FastAPI for their web services (switched from Flask).",
        "The user's name is Dana Reyes.",
    ]


@pytest.mark.parametrize(
    "transcript",
    [
        "## Human\nI prefer light mode.\n## Assistant\nI prefer dark mode.",
        "Human: I prefer light mode.\nAI: I prefer dark mode.",
        "**user:** I prefer light mode.\n**assistant:** I prefer dark mode.",
        "You said:\nI prefer light mode.\nChatGPT said:\nI prefer dark mode.",
        "> I prefer light mode.\n⏺ I prefer dark mode.",
    ],
    ids=["headings", "human-ai", "bold-colon-inside", "chatgpt-export", "claude-code"],
)
def test_speaker_styles_are_recognised(transcript: str) -> None:
    """Every common way of marking speakers keeps the user's turn and drops the agent's."""
    assert [c.text for c in extract(transcript)] == ["The user prefers light mode."]


def test_generated_block_is_never_gathered() -> None:
    """Text between dreamgit's generated fences is skipped; text after it is read."""
    text = (
        "<!-- dreamgit:generated -->\nI prefer spaces.\n<!-- /dreamgit:generated -->\n"
        "I prefer tabs."
    )
    assert [c.text for c in extract(text)] == ["The user prefers tabs."]


def test_unclosed_generated_block_ends_with_its_turn() -> None:
    """A pasted generated file (no closing fence) is skipped up to the next speaker."""
    text = (
        "User: here is my index\n<!-- dreamgit:generated — rewritten by every dream -->\n"
        "I prefer spaces.\nAssistant: thanks\nUser: I prefer tabs."
    )
    assert [c.text for c in extract(text)] == ["The user prefers tabs."]


def test_indented_code_and_html_comments_are_skipped() -> None:
    """An indented code block and an HTML comment state nothing."""
    text = "Output:\n\n    I prefer tabs\n\n<!--\nI prefer spaces\n-->\nI use zsh."
    assert [c.text for c in extract(text)] == ["The user uses zsh."]


def test_wrapped_lines_form_one_sentence_and_list_items_stay_apart() -> None:
    """A hard-wrapped sentence is joined; each list item is its own statement."""
    text = "I switched from Flask\nto FastAPI.\n\n- I use zsh\n- I prefer tabs"
    assert [c.text for c in extract(text)] == [
        "The user uses FastAPI (switched from Flask).",
        "The user uses zsh.",
        "The user prefers tabs.",
    ]


MULTI_TURN = """\
User: morning! quick context before we start: my name is Dana Reyes and I work at Acme Corp.
Assistant: Good morning Dana! What are we working on?
User: the billing service. we're building a billing API for small shops.
User: btw I use Neovim as my editor, and I prefer pnpm over npm.
Assistant: Got it. Should I set up pnpm workspaces?
User: yes please. also, I have a demo tomorrow at 10, keep changes small.
Assistant: Understood. I'd suggest we switch from Jest to Vitest.
User: no, we switched from Jest to Vitest last month already.
User: could you check if the CI cache works?
"""


def test_realistic_multi_turn_transcript() -> None:
    """A working session yields its identity, tools, project, schedule and change facts;
    once the user says their name, the memories that follow use it."""
    assert [(c.text, c.topic, c.priority) for c in gathered(MULTI_TURN)] == [
        ("The user's name is Dana Reyes.", "identity", "high"),
        ("Dana works at Acme Corp.", "facts", "high"),
        ("Dana's team is building a billing API for small shops.", "projects", "normal"),
        ("Dana uses Neovim as their editor.", "tools", "normal"),
        ("Dana prefers pnpm over npm.", "preferences", "normal"),
        ("Dana has a demo on 21 November 2026 at 10, keep changes small.", "schedule", "ephemeral"),
        ("Dana's team uses Vitest (switched from Jest).", "tools", "high"),
    ]


def test_duplicates_within_a_call_keep_the_first_place_and_the_strongest_values() -> None:
    """The same fact twice is one candidate; a later "remember that" raises its priority."""
    cands = extract("I use zsh. I prefer tabs. Remember that I use zsh.")
    assert [(c.text, c.priority, c.confidence) for c in cands] == [
        ("The user uses zsh.", "high", 1.0),
        ("The user prefers tabs.", "normal", 0.9),
    ]


def test_same_text_gives_same_candidates_in_same_order() -> None:
    """Extraction is deterministic: repeated calls agree exactly."""
    assert extract(MULTI_TURN + TRANSCRIPT) == extract(MULTI_TURN + TRANSCRIPT)


def test_relative_dates_use_the_session_time_not_the_clock() -> None:
    """ "tomorrow" is resolved against ``created``, whatever day the dream runs."""
    later = datetime(2027, 1, 31, 23, 0, tzinfo=UTC)
    [c] = extract_candidates("I fly to Oslo tomorrow.", session_id="s", created=later)
    assert c.text == "The user flies to Oslo on 1 February 2027."


_FRAGMENTS = st.sampled_from(
    [
        "I ", "my ", "User: ", "Assistant: ", "> ", "```", "\n", "<!-- dreamgit:generated -->",
        "<!-- /dreamgit:generated -->", "prefer ", "switched from ", " to ", "Flask", "FastAPI",
        "tomorrow", "remember that ", "actually, ", "?", ".", ",", " not ", "\u2019", "**", "- [",
        "](memories/a/b.md)", "---", "    ", "⏺ ", "name is ", "Dana ", "if ", "use ",
    ]
)  # fmt: skip


@given(st.text())
def test_any_text_gives_a_list(text: str) -> None:
    """Arbitrary text never raises; every candidate is well formed (a full stop of its
    script at the end: text kept as said may be Chinese)."""
    for c in extract(text):
        assert c.text.endswith(FULL_STOPS) and c.topic in TOPICS


@given(st.lists(_FRAGMENTS, max_size=40).map("".join))
def test_statement_like_noise_gives_a_list(text: str) -> None:
    """Text built from the patterns' own trigger words never raises."""
    for c in extract(text):
        assert c.priority in PRIORITIES and len(c.text) <= 300


#: The size of each hostile text here: ten turns' worth of MAX_TURN_CHARS, enough that work
#: growing with its square would not finish; tests/bench/bench_hostile_input.py times the
#: same shapes at five megabytes.
HOSTILE_CHARS = 200_000


def _mixed(chars: int) -> str:
    """Statement lines, then one user turn of ``chars`` worth of short sentences."""
    return (
        "\n".join(
            f"User: I use Tool{i} and prefer option{i} over other{i}." for i in range(chars // 400)
        )
        + "\nUser: "
        + " ".join(f"lorem ipsum {i} dolor." for i in range(chars // 20))
    )


@pytest.mark.parametrize(
    ("big", "chars"),
    [
        pytest.param("x" * HOSTILE_CHARS, HOSTILE_CHARS, id="one-line"),
        pytest.param("I " * (HOSTILE_CHARS // 2), HOSTILE_CHARS, id="i-i-i"),
        pytest.param(
            ("I prefer " + "a" * 390 + ". ") * (HOSTILE_CHARS // 400),
            HOSTILE_CHARS,
            id="long-sentences",
        ),
        # The one shape that costs seconds (every sentence in it is read): at full size in
        # the slow run, at a quarter (still two and a half turns' worth) in the README's.
        pytest.param(_mixed(HOSTILE_CHARS), HOSTILE_CHARS, id="mixed", marks=pytest.mark.slow),
        pytest.param(_mixed(HOSTILE_CHARS // 4), HOSTILE_CHARS // 4, id="mixed-quarter"),
    ],
)
def test_hostile_text_gives_bounded_candidates(big: str, chars: int) -> None:
    """Up to a fifth of a megabyte of hostile text extracts to well-formed candidates, any
    shape."""
    assert len(big) >= chars
    for c in extract(big):
        assert c.priority in PRIORITIES and len(c.text) <= 300


def test_memory_fields_are_claude_compatible() -> None:
    """name is the first clause as a ≤ 8-word kebab title, description one line ≤ 150
    chars, slug a safe name."""
    [c] = extract("I prefer pytest over unittest for python tests")
    fields = candidate_memory_fields(c)
    assert fields["name"] == "prefers-pytest-over-unittest-for-python-tests"
    assert fields["description"] == "The user prefers pytest over unittest for Python tests"
    assert fields["slug"] == "prefers-pytest-over-unittest-python-tests"
    memory = Memory(id="m-1", created=NOW, updated=NOW, **fields)
    assert memory.path == "memories/preferences/prefers-pytest-over-unittest-python-tests.md"
    assert memory.sources == ("s-1",) and memory.key == "pref.python-test-runner"


def test_memory_fields_are_bounded_for_long_text() -> None:
    """A long memory gets a short name (≤ 8 words), a cut description, a slug ≤ 48 chars."""
    long = "Remember that the deploy script " + "needs the staging credentials again " * 6
    [c] = extract(long)
    fields = candidate_memory_fields(c)
    assert len(fields["name"].split("-")) <= 8
    assert re.fullmatch(r"[a-z0-9-]+", fields["name"])
    assert len(fields["description"]) <= 150 and "\n" not in fields["description"]
    assert fields["description"].endswith("…")
    assert re.fullmatch(r"[a-z0-9][a-z0-9_-]*", fields["slug"]) and len(fields["slug"]) <= 48


def test_slug_of_text_without_words_is_still_valid() -> None:
    """A text with no content words still gets a usable slug."""
    assert suggest_slug("!!!") == "memory"
    assert suggest_slug("The user.") == "the"


def test_a_pattern_said_of_now_says_the_day_it_held() -> None:
    """ "I'm currently using Python 3.11" is what held on the session's day, as every
    statement with "currently" says; a keyed fact keeps its canonical words."""
    texts = [c.text for c in extract("I'm currently using Python 3.11 for the billing API.")]
    assert texts == ["The user is using Python 3.11 for the billing API as of 20 November 2026."]
    moved = [c.text for c in extract("I currently live in Lisbon.") if c.key == "user.home"]
    assert moved and "as of" not in moved[0]
