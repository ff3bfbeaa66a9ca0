"""Relative dates made absolute against the session's time, and written as people read them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from dreamgit.dream.gather.dates import as_dated, past_times, resolve_dates
from dreamgit.dream.gather.extract import extract_candidates
from dreamgit.extract.calendar_words import day_text

# Monday 8 May 2023, early afternoon.
SESSION = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("I went yesterday", "I went on 7 May 2023"),
        ("the day before yesterday", "on 6 May 2023"),
        ("two days ago", "on 6 May 2023"),
        ("last night", "on the night of 7 May 2023"),
        ("today", "on 8 May 2023"),
        ("tonight", "on the night of 8 May 2023"),
        ("tomorrow morning", "on the morning of 9 May 2023"),
        ("last week", "in the week before 8 May 2023"),
        ("this week", "in the week of 8 May 2023"),
        ("next week", "in the week after 8 May 2023"),
        ("last weekend", "on the weekend before 8 May 2023"),
        ("this past weekend", "on the weekend before 8 May 2023"),
        ("this weekend", "on the weekend of 13 May 2023"),
        ("last month", "in April 2023"),
        ("this month", "in May 2023"),
        ("next month", "in June 2023"),
        ("last year", "in 2022"),
        ("three years ago", "in 2020"),
        ("I ordered sushi for tonight", "I ordered sushi for the night of 8 May 2023"),
        ("Tomorrow is my day off", "9 May 2023 is my day off"),
        ("Last month was our anniversary", "April 2023 was our anniversary"),
        ("I'm away until next month", "I'm away until June 2023"),
        ("I bought it on the 3rd", "I bought it on 3 May 2023"),
        ("I paid rent on the 28th", "I paid rent on 28 April 2023"),
        ("I will fly out on the 25th", "I will fly out on 25 May 2023"),
        ("we'll meet on the 2nd", "we'll meet on 2 June 2023"),
        ("a few days ago", "a few days before 8 May 2023"),
        ("I watched a film the other day", "I watched a film a few days before 8 May 2023"),
    ],
)
def test_relative_phrase_becomes_absolute(said: str, written: str) -> None:
    """Each relative phrase is anchored to the session's day, never to the clock."""
    assert resolve_dates(said, SESSION) == (written, True)


@pytest.mark.parametrize(
    ("said", "written"),
    [
        # looking ahead: the next such day
        ("The beta launch is on Jan 15.", "The beta launch is on 15 January 2024."),
        ("The launch moved to January 22", "The launch moved to 22 January 2024"),
        ("I will fly home on the 3rd of March", "I will fly home on 3 March 2024"),
        # telling what was: the last such day
        ("We met on Dec 28th", "We met on 28 December 2023"),
        ("I went to Rome on July 20", "I went to Rome on 20 July 2023"),
        # neither: the nearest
        ("Dinner with Ana, Feb 2", "Dinner with Ana, 2 February 2024"),
    ],
)
def test_a_day_without_its_year_gets_the_year_the_sentence_means(said: str, written: str) -> None:
    new_year = datetime(2024, 1, 6, 12, 0, tzinfo=UTC)
    assert resolve_dates(said, new_year) == (written, True)


def test_a_day_with_its_year_or_a_version_is_no_yearless_day() -> None:
    new_year = datetime(2024, 1, 6, 12, 0, tzinfo=UTC)
    for text in ("We met on July 20, 2021", "Python 3.11 Mar", "on 4 March 2022", "May 5th, 2020"):
        assert resolve_dates(text, new_year) == (text, False)


def test_text_without_relative_dates_is_unchanged() -> None:
    """Absolute dates and words that only look like dates stay as they are."""
    text = "I was born on 3 March 1990 and I like Sundays in general"
    assert resolve_dates(text, SESSION) == (text, False)
    for text in (
        "We party on the 4th of July",
        "I live on the 3rd floor",
        "I play tennis on Sunday",  # a habit, not a day
        "I swim on Saturdays",
        # a span up to now, not a day ("for the in April 2023" before)
        "I have been learning Dart for the past month",
        "Over the last year I ran 12 marathons",
        "We met the last week of July",
        # "currently" inside a noun phrase describes the thing, not the day
        "the deploy is skipped when there is a currently running migration",
    ):
        assert resolve_dates(text, SESSION) == (text, False)
    march = datetime(2023, 3, 5, tzinfo=UTC)  # February has no 31st: left as said
    assert resolve_dates("I paid on the 31st", march) == ("I paid on the 31st", False)


def test_month_and_year_boundaries() -> None:
    """ "last month" in January is December of the year before; "next month" in December is
    January of the next."""
    january = datetime(2024, 1, 2, tzinfo=UTC)
    december = datetime(2023, 12, 30, tzinfo=UTC)
    assert resolve_dates("last month", january)[0] == "in December 2023"
    assert resolve_dates("next month", december)[0] == "in January 2024"
    assert resolve_dates("yesterday", january)[0] == "on 1 January 2024"


def test_day_text_reads_like_a_date() -> None:
    """Day, month name, year: no ISO, no weekday alone."""
    assert day_text(SESSION.date()) == "8 May 2023"


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("last Friday I ran", "last Friday (5 May 2023) I ran"),
        ("I ran last Fri.", "I ran last Fri (5 May 2023)."),
        ("we met last Tues", "we met last Tues (2 May 2023)"),
        ("we met this past  Sunday", "we met this past Sunday (7 May 2023)"),
        ("next Friday", "next Friday (12 May 2023)"),
        ("next Tuesday", "next Tuesday (16 May 2023)"),
        ("my brother came over on Sunday", "my brother came over on Sunday (7 May 2023)"),
        ("we will meet on Friday", "we will meet on Friday (12 May 2023)"),
        ("on Monday next week", "on Monday next week (15 May 2023)"),
        ("Last Friday was my birthday", "Last Friday (5 May 2023) was my birthday"),
    ],
)
def test_a_weekday_stays_as_said_with_its_date_beside(said: str, written: str) -> None:
    """A weekday is kept as said, its day beside it: the date alone loses the weekday."""
    assert resolve_dates(said, SESSION) == (written, True)


@pytest.mark.parametrize(
    "said",
    ["I play tennis on Sunday", "My friend Friday came over", "We meet on Sundays"],
)
def test_a_weekday_that_names_no_day_is_left_as_said(said: str) -> None:
    """A habit ("on Sunday" with nothing done), a name, a plural: no date is added."""
    assert resolve_dates(said, SESSION) == (said, False)


def test_memory_says_the_absolute_day_the_speaker_meant() -> None:
    """ "last Friday" in a session of 8 May 2023 is kept, with "5 May 2023" beside it."""
    text = "Ines: I went to a pottery class last Friday.\nOmar: Cool!\n" * 1
    text += "Ines: I signed up for a choir yesterday.\nOmar: Nice.\n"
    memories = [c.text for c in extract_candidates(text, session_id="s", created=SESSION)]
    assert "Ines went to a pottery class last Friday (5 May 2023)." in memories
    assert "Ines signed up for a choir on 7 May 2023." in memories


@pytest.mark.parametrize(
    ("said", "day", "written"),
    [
        ("last summer", (2023, 5, 21), "in summer 2022"),
        ("last summer", (2023, 9, 2), "in summer 2023"),
        ("this summer", (2023, 5, 21), "in summer 2023"),
        ("next summer", (2023, 7, 10), "in summer 2024"),
        ("next summer", (2023, 5, 21), "in summer 2023"),
        ("last fall", (2023, 9, 2), "in autumn 2022"),
        ("last winter", (2023, 5, 21), "in the winter of 2022-23"),
        ("last winter", (2023, 1, 15), "in the winter of 2021-22"),
        ("this winter", (2023, 12, 20), "in the winter of 2023-24"),
        ("next winter", (2023, 5, 21), "in the winter of 2023-24"),
    ],
)
def test_seasons_get_their_year(said: str, day: tuple[int, int, int], written: str) -> None:
    """ "Last summer" said in May is the summer of the year before; in September, this one."""
    assert resolve_dates(f"I took it {said}", datetime(*day, tzinfo=UTC)) == (
        f"I took it {written}",
        True,
    )


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("Last August I ran a half marathon", "in August 2022 I ran a half marathon"),
        ("I visited Oslo last December", "I visited Oslo in December 2022"),
        ("this past April we moved", "in April 2023 we moved"),
        ("Last May was hectic", "May 2022 was hectic"),  # said in May: the May before
        ("we fly out next March", "we fly out in March 2024"),
        ("the course starts this June", "the course starts in June 2023"),
    ],
)
def test_a_named_month_before_or_after_gets_its_year(said: str, written: str) -> None:
    """ "last August" in a session of 8 May 2023 is August 2022; "next March" March 2024."""
    assert resolve_dates(said, SESSION) == (written, True)


def test_may_as_a_verb_is_no_month() -> None:
    assert resolve_dates("this may be the week", SESSION) == ("this may be the week", False)


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("we've been together for three years", "we've been together since 2020"),
        ("I've had her for two years now.", "I've had her since 2021."),
        ("Been playing it for a month now", "Been playing it since April 2023"),
        (
            "I've been painting for about four months now",
            "I've been painting since about January 2023",
        ),
        ("She's been a nurse for over 10 years", "She's been a nurse since before 2013"),
        ("I've used Django for 6 years", "I've used Django since 2017"),
    ],
)
def test_how_long_something_has_held_becomes_when_it_began(said: str, written: str) -> None:
    """ "for three years now" is true on the day it is said; the memory says the year it
    began, which stays true when it is read a year later."""
    assert resolve_dates(said, SESSION) == (written, True)


@pytest.mark.parametrize(
    "said",
    [
        "I lived in Paris for 3 years",  # over: no "have", no "now"
        "I've signed up for 2 years",  # a term, not how long it has held
        "I've won it for 3 years in a row",
        "I've been learning Dart for the past month",
    ],
)
def test_a_length_of_time_that_does_not_reach_today_stays(said: str) -> None:
    assert resolve_dates(said, SESSION) == (said, False)


def test_what_was_done_after_a_past_time_is_dated_by_it() -> None:
    """ "Last weekend I did something new. I ran a 5K for the shelter.": the run was that
    weekend; a sentence that says when itself, or a habit, takes nothing from it."""
    text = (
        "Ines: Last weekend I did something new for me. I ran a 5K for the animal shelter. "
        "I always run on Sundays anyway.\nOmar: Amazing!\n"
        "Ines: I painted a mural last month. I sold it to a cafe in Porto.\nOmar: Cool.\n"
        "Ines: Yesterday I was tired. My sister visited me in 2019.\nOmar: Oh.\n"
    )
    memories = [c.text for c in extract_candidates(text, session_id="s", created=SESSION)]
    assert "Ines ran a 5K for the animal shelter on the weekend before 8 May 2023." in memories
    assert "Ines sold it to a cafe in Porto in April 2023." in memories
    assert not [m for m in memories if "Sundays" in m and "2023" in m]
    assert not [m for m in memories if "2019" in m and "May 2023" in m]


@pytest.mark.parametrize(
    ("said", "written"),
    [
        (
            "I'm currently interning at an engineering firm",
            "I'm interning at an engineering firm as of 8 May 2023",
        ),
        (
            "These days I mostly cook at home, it's cheaper",
            "I mostly cook at home as of 8 May 2023, it's cheaper",
        ),
        ("I'm reading Dune right now.", "I'm reading Dune as of 8 May 2023"),
        ("Lately I've been into pottery", "I've been into pottery as of 8 May 2023"),
        ("I recently joined a running club", "I joined a running club by 8 May 2023"),
        ("Recently, I sold my old bike", "I sold my old bike by 8 May 2023"),
        ("I got into bouldering recently.", "I got into bouldering by 8 May 2023"),
        (
            "I've been baking sourdough recently and it's fun",
            "I've been baking sourdough as of 8 May 2023 and it's fun",
        ),
        (
            "I've recently been reading a lot, mostly sci-fi.",
            "I've been reading a lot as of 8 May 2023, mostly sci-fi",
        ),
        ("Work has been hectic recently.", "Work has been hectic as of 8 May 2023"),
    ],
)
def test_now_and_recently_say_the_day_they_were_said(said: str, written: str) -> None:
    """ "currently", "these days", "recently" are relative to the session like "today": a
    memory read a year later says the day they held on or happened by."""
    assert resolve_dates(said, SESSION) == (written, True)


def test_now_beside_a_date_or_a_plan_adds_no_day() -> None:
    for said in ("I'm currently planning a trip next month", "I will be busy right now"):
        assert " as of " not in resolve_dates(said, SESSION)[0]


def test_the_day_something_was_done_by_goes_after_a_number_not_into_it() -> None:
    """The comma of "5,000" ends no clause: the day goes after the whole count."""
    written = resolve_dates("The newsletter just hit 5,000 subscribers, wow", SESSION)
    assert written == ("The newsletter hit 5,000 subscribers by 8 May 2023, wow", True)


def test_past_times_are_the_phrases_that_name_a_day_gone_by() -> None:
    said = "Yesterday was fine, two weeks ago I ran, last August too; next week we fly, then rest"
    assert past_times(said) == ["yesterday", "two weeks ago", "last august"]
    assert past_times("The other day I ran into Tomas.") == ["the other day"]


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("The launch moved to Friday", "The launch moved to Friday (12 May 2023)"),
        ("The demo got pushed back to Monday", "The demo got pushed back to Monday (15 May 2023)"),
        ("I'm away until Thursday", "I'm away until Thursday (11 May 2023)"),
    ],
)
def test_a_weekday_something_moved_to_is_the_next_one(said: str, written: str) -> None:
    """ "moved to Friday" in a session of Monday 8 May 2023 is Friday 12 May: a memory read
    the week after must not say a bare weekday."""
    assert resolve_dates(said, SESSION) == (written, True)


def test_moving_to_a_weekly_day_is_no_date() -> None:
    assert resolve_dates("We moved standup to Fridays", SESSION) == (
        "We moved standup to Fridays",
        False,
    )


def test_a_sentence_with_a_day_of_its_own_takes_no_day_from_the_one_before() -> None:
    """ "The other day" sets a time for what follows, but a sentence that names its own
    ("… the other day, it was gripping") keeps only that one."""
    text = (
        "Ines: Hi Omar!\nOmar: Hey Ines, what's new?\n"
        "Ines: The other day I ran into my old teacher. I watched a film the other day, it was"
        " gripping.\nOmar: Cool.\n"
    )
    memories = [c.text for c in extract_candidates(text, session_id="s", created=SESSION)]
    assert "Ines watched a film a few days before 8 May 2023, it was gripping." in memories


@pytest.mark.parametrize(
    ("said", "day", "written"),
    [
        # an "-ed" word of a state or a thing done says nothing of when the day is
        (
            "I've signed the lease and have a viewing with the agent on April 21 at 3 PM",
            (2024, 4, 12),
            "on 21 April 2024 at 3 PM",
        ),
        ("I'm worried my thesis won't be ready by April 10", (2024, 3, 20), "by 10 April 2024"),
        ("I've booked a fitting with the tailor on May 20", (2024, 5, 10), "on 20 May 2024"),
        # each clause its own time: what was done, then what is awaited
        (
            "I sent the form on March 2, and I'm waiting for a reply by April 30",
            (2024, 4, 1),
            "on 2 March 2024, and I'm waiting for a reply by 30 April 2024",
        ),
        # the day a thing is set for looks ahead, even past the nearest one
        ("My new job is starting Sep 2", (2024, 1, 20), "starting 2 September 2024"),
        ("I have a review scheduled for Oct 15", (2024, 3, 1), "for 15 October 2024"),
        # ... unless its clause says it was, or also tells of a past act: the nearest
        ("The call was scheduled for Oct 15", (2024, 3, 1), "for 15 October 2023"),
        ("I joined the choir starting March 3", (2024, 3, 10), "starting 3 March 2024"),
        # a clause that tells what was keeps the day behind, even past the nearest one
        ("I visited Porto on July 2", (2024, 1, 6), "on 2 July 2023"),
        ("We cycled to the lake, and on July 2 it rained", (2024, 1, 6), "on 2 July 2023"),
    ],
)
def test_a_day_without_its_year_takes_the_tense_of_its_own_clause(
    said: str, day: tuple[int, int, int], written: str
) -> None:
    """Past words elsewhere in the sentence, or "-ed" words of a state, set no year."""
    text, changed = resolve_dates(said, datetime(*day, 12, 0, tzinfo=UTC))
    assert changed and written in text, text


def test_a_weekday_beside_its_date_reads_as_the_date_alone() -> None:
    """What the repeat check and the budget read: the date, without the words as said."""
    said = "Ines sold her kayak last Tues (2 May 2023) and rents one on Friday (12 May 2023)."
    assert as_dated(said) == "Ines sold her kayak on 2 May 2023 and rents one on 12 May 2023."
    plain = "Ines met her friend Friday (the potter) on Sundays."
    assert as_dated(plain) == plain
