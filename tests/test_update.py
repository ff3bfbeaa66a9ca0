"""Newer values of one subject and relation supersede older ones (dream/consolidate/update.py)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dreamgit.dream.consolidate.update import find_updates
from dreamgit.dream.run import dream
from dreamgit.model import Memory
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def _memories(*texts: str) -> list[Memory]:
    """One memory per text, a day apart, oldest first."""
    return [
        Memory(
            id=f"m-{k:03d}",
            topic="facts",
            slug=f"fact-{k}",
            text=text,
            created=T0 + timedelta(days=k),
            updated=T0 + timedelta(days=k),
        )
        for k, text in enumerate(texts)
    ]


def _pairs(*texts: str) -> list[tuple[str, str, str]]:
    by_id = {m.id: m.text for m in _memories(*texts)}
    return [(by_id[u.old], by_id[u.new], u.reason) for u in find_updates(_memories(*texts))]


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ("The user's team is on Python 3.11.", "The user's team is on Python 3.12.", "3.11 → 3.12"),
        (
            "The user's beta launch is on 15 January 2026.",
            "The user's beta launch moved to 22 January 2026.",
            "15 → 22",
        ),
        ("The user's office is in Berlin.", "The user's office is in Lisbon.", "berlin → lisbon"),
        ("Caroline's favourite colour is blue.", "Caroline's favourite colour is green.", "green"),
        ("The user lives in Berlin.", "The user moved to Lisbon.", "berlin → lisbon"),
        (
            "The user's team uses Flask for the web services.",
            "The user's team switched to Django for the web services.",
            "flask → django",
        ),
        (
            "Melanie's newsletter has 3000 subscribers.",
            "Melanie's newsletter has now reached 5000 subscribers.",
            "3000 → 5000",
        ),
        (
            "The user's standup is at 9:30.",
            "The user's standup is at 10:00, not 9:30.",
            "correction",
        ),
        ("Priya works at Stripe.", "Priya no longer works at Stripe.", "no longer"),
        # a reported remark holds its fact: the beta launch's date, whoever said it
        (
            "Marco says the beta launch is on 15 January 2027.",
            "Marco says the beta launch moved to 22 January 2027.",
            "15 → 22",
        ),
        # said as "we", a move is the speaker's; "the newsletter" is the speaker's own
        ("Ana lives in Porto now.", "Ana and others moved to Lisbon in March 2025.", "lisbon"),
        ("Ana works at Stripe as a designer.", "Ana left Stripe and joined Shopify.", "strip"),
        (
            "Ana's newsletter has 3,000 subscribers.",
            "Ana says the newsletter hit 5,000 subscribers.",
            "3000 → 5000",
        ),
        (
            "Ana is training for the Berlin marathon in September.",
            "Ana switched to the Paris marathon instead.",
            "paris",
        ),
        (
            "Ana's favorite band is Muse.",
            "These days Ana's favorite band is Arctic Monkeys.",
            "arctic",
        ),
        ("Ana's rent is $1,200 a month.", "Ana's rent went up to $1,400 a month.", "1200 → 1400"),
        ("Ana's manager is Priya.", "Ana's new manager is Tom.", "priya → tom"),
        ("Ana drives a Honda Civic.", "Ana sold the Civic and bought a Tesla.", "civic"),
        ("Ana is reading Dune.", "Ana finished Dune and started Piranesi.", "dun"),
        ("Ana is down to 180 pounds.", "Ana is down to 165 pounds now.", "180 → 165"),
        ("Ana is 29 years old.", "Ana turned 30 by 12 April 2025.", "age: 29 → 30"),
        ("Ana is 29.", "Ana is 30 now.", "age: 29 → 30"),
        (
            "Ana has two kids, Leo and Maya.",
            "Ana and others had their third baby, Ava, so now Ana has three kids.",
            "2 → 3",
        ),
        (
            "The user has two kids.",
            "The user's team had a third baby, so now the user has three kids.",
            "2 → 3",
        ),
        ("Ana's phone is an iPhone 12.", "Ana upgraded to an iPhone 15.", "12 → 15"),
        ("Noor's band is 4 people total.", "Noor's band is at 6 people now.", "4 → 6"),
        (
            "The choir is Noor plus 3 singers.",
            "Noor and others found 2 more singers, so the choir is now 6.",
            "3 → 6",
        ),
        (
            "Rui is a junior data engineer at a bank in Braga.",
            "Rui got promoted to Senior Engineer by 3 March 2026.",
            "promoted",
        ),
        ("Ana works as a nurse at Mercy Hospital.", "Ana was promoted to head nurse.", "promoted"),
        (
            "Rui is using a rule-based parser with NLTK as the backbone.",
            "Rui is going to use Stanza as the backbone instead of NLTK.",
            "nltk is replaced",
        ),
        (
            "Ana works as a nurse at Mercy Hospital.",
            "Ana quit nursing and they're now a teacher at Oak School.",
            "quit",
        ),
        ("Noor is TAing for the intro stats class this term.", "Noor finished TAing.", "finish"),
        # a part of what one makes, dropped
        (
            "Yuki's game targets PC and Nintendo Switch.",
            "Yuki decided to drop the Switch version.",
            "switch",
        ),
        # a thing one has, then that thing's date moved
        (
            "Priya has a big board meeting on 30 January 2026.",
            "Priya says the board meeting got pushed to 15 February 2026.",
            "15 february",
        ),
        (
            "The user has a beta launch on 15 January 2026.",
            "The user's beta launch moved to 22 January 2026.",
            "15 → 22",
        ),
        ("Noor is currently supporting 20 languages.", "Noor expanded to 50 languages.", "20 → 50"),
        # a team's decision changes what its member builds with, and a tool left behind
        # ends what was said of it while in use
        (
            "Tomas builds the booking app using React Native.",
            "Tomas' team made the decision to rewrite the app in Flutter.",
            "flutter",
        ),
        ("Ana takes the Tuesday pottery class.", "Ana decided to drop the pottery class.", "quits"),
        ("Ana's team runs everything on AWS.", "Ana's team is migrating fully to GCP.", "gcp"),
        (
            "Tomas' team uses Horovod with PyTorch.",
            "Tomas' team is switching from Horovod to FSDP.",
            "switched from",
        ),
        (
            "Tomas is still fighting with Confluence's page tree.",
            "Tomas' team uses Notion for the docs (switched from Confluence).",
            "switched from",
        ),
        # the day a value was said to hold, or to be reached by, is no part of it
        (
            "Ana's favorite band is Muse.",
            "Ana's favorite band is Arctic Monkeys as of 25 March 2026.",
            "arctic monkey",
        ),
        (
            "Ana's newsletter has 3,000 subscribers.",
            "Ana's newsletter hit 5,000 subscribers by 20 March 2026.",
            "3000 → 5000",
        ),
        # a switch away from what a liking ranks alone, or to what it ranked below, ends it
        (
            "The user prefers Fossil for their side projects.",
            "The user switched from Fossil to Pijul on 4 May 2026.",
            "switched from fossil",
        ),
        (
            "The user prefers Fossil over Mercurial because of its built-in wiki.",
            "The user switched from Fossil to Mercurial on 4 May 2026.",
            "switched from fossil",
        ),
        # an ending retires what it negates, whatever else the older one says of it
        ("The user has a dog named Rex.", "Actually the user no longer has a dog.", "no longer"),
        ("The user uses Poetry for packaging.", "The user doesn't use Poetry anymore.", "poetry"),
        ("The user is vegetarian.", "The user is not vegetarian anymore.", "no longer"),
        # the user's own remark is the fact; when a change happened is not its value
        (
            "The user says the staging database listens on port 5433.",
            "The user says the staging database moved to port 6543 on the night of 4 March 2026.",
            "5433 → 6543",
        ),
        # a change said of "it": the latest value with the same noun ("port")
        (
            "The staging database listens on port 5433.",
            "Correction: it moved to port 6543.",
            "6543",
        ),
        # a place moved from: where the subject lived or worked there
        (
            "Works in Berlin, timezone Europe/Berlin",
            "The user lives in Lisbon (moved there from Berlin).",
            "moved from berlin",
        ),
        # each clause of a memory written by hand is read
        (
            "Releases are cut from the release branch; the code freeze starts at 14:00.",
            "The code freeze now starts at 16:00.",
            "14:00 → 16:00",
        ),
    ],
)
def test_a_newer_value_supersedes_the_older_one(old: str, new: str, reason: str) -> None:
    """Numbers, dates, places, tools, counts, corrections, polarity: the newer one wins."""
    [(got_old, got_new, why)] = _pairs(old, new)
    assert (got_old, got_new) == (old, new)
    assert reason in why


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "Caroline went to a poetry reading on 5 May 2023.",
            "Caroline went to a poetry reading on 12 May 2023.",
        ),
        (
            "The user has a dentist appointment on 10 May.",
            "The user has a dentist appointment on 3 June.",
        ),
        ("The user's team uses Flask.", "The user's team uses pytest."),
        ("The billing api is on Python 3.11.", "The search worker is on Python 3.12."),
        ("The user prefers FastAPI for the API.", "The user prefers pytest for the tests."),
        ("Ruby 3.3 is what Atlas targets.", "Ruby 3.3 is what Orion targets."),
        (
            "For Atlas, the incident commander is Kai Rinaldi.",
            "For Opal, the incident commander is Stefan Ivanova.",
        ),
        ("The user's team is on Python 3.11.", "The user's team is on Python 3.11, not 3.12."),
        ("The user is happy.", "The user is tired."),
        ("Caroline says family is everything.", "Melanie says family is important."),
        ("Dave says the concert was loud.", "Dave went to the concert on 3 May 2023."),
        # leaving one place is no news about another; a switch needs the same kind of thing
        ("Ana works at Stripe.", "Ana left the party early."),
        ("Ana is training for the Berlin marathon.", "Ana switched to oat milk instead."),
        ("Ana's newsletter has 3,000 subscribers.", "Ben says the newsletter hit 5,000 readers."),
        ("Ana loves Dune.", "Ana finished Dune last night."),
        ("Ana went to Rome in May.", "Ana's rent went up to $1,400 a month."),
        # what someone owns changes by a new version, not by their own move
        ("Ana's sister lives in Porto.", "Ana moved to Lisbon."),
        ("Ana's laptop is a ThinkPad X1.", "Ana upgraded to a bigger desk."),
        # an age, not a length of time; another person's age
        ("Ana is 29 years old.", "Ana turned 30 minutes late for the meeting."),
        ("Ana's son is 5.", "Ana turned 30 by 12 April 2025."),
        # two passing states that name someone; two dated things a person did; a month is
        # no name that something "finished" ended; "not" is no correction
        ("Noor is sure Emil's patience will pay off.", "Noor is glad Pepper is happy."),
        (
            "Rui can give it to Lena on 25 June 2029.",
            "Rui upgraded some of his equipment at home by 7 November 2029.",
        ),
        (
            "Rui left for a trip to Crete by 6 November 2029.",
            "Rui finished a fantasy series by 11 November 2029.",
        ),
        (
            "Rui couldn't resist taking the puppy home.",
            "Rui hopes he's not spoiling the puppy, not at all.",
        ),
        # a promotion ends the role it shares a word with, nothing else
        ("Ana is a big fan of jazz.", "Ana got promoted to lead engineer."),
        # what a correction rejects is replaced where a fact holds it, not in an event
        ("Lily went to a coffee tasting in May.", "Lily drinks tea instead of coffee."),
        # quitting a habit is no news about a job
        ("Ana works at the bakery in Porto.", "Ana quit sugar in March."),
        # a tool left for one purpose is still used for another; a tool already left
        (
            "The user uses Docker for prototypes (switched from Emacs).",
            "The user uses uv for the analytics dashboard (switched from Emacs).",
        ),
        (
            "The user prefers htmx over React for prototypes.",
            "The user uses Kotlin for internal tools (switched from React).",
        ),
        (
            "The user no longer uses Ansible.",
            "The user uses Docker for CI (switched from Ansible).",
        ),
        # what was made with a tool is still what it is when the tool changes
        (
            "Diego is working on a card game using Unity and C#.",
            "Diego is switching from Unity to Godot.",
        ),
        (
            "Diego is working on a card game using Unity and C#.",
            "Diego writes GDScript instead of C#.",
        ),
        # a second cloud beside the first, unless the move is whole
        ("Ana's team uses AWS for storage.", "Ana's team is migrating to GCP for analytics."),
        # leaving a place ends nothing of another person's
        ("Ana's sister lives in Lisbon.", "Ana left Lisbon in May."),
        # another thing's date, or a person's move, moves no appointment
        ("Ana has a dentist appointment on 10 May.", "Ana's yoga class moved to 3 June."),
        ("Ana has a dentist appointment on 10 May.", "Ana's sister moved to Lisbon on 3 June."),
        # a place moved from is no tool left: the job held there stays
        ("Leona works for Booking Holdings out of Hanoi.", "Leona moved from Hanoi to Portland."),
        # a rewrite in another tool says nothing of another thing's tool
        (
            "Tomas builds the booking app using React Native.",
            "Tomas' team made the decision to rewrite the billing service in Go.",
        ),
        # an ending of another thing, or of the thing for another purpose
        ("The user has a dog named Rex.", "The user no longer has a cat."),
        ("The user uses Poetry for work.", "The user no longer uses Poetry for hobby projects."),
        # a move ends where the mover was, not another person's place or a liking
        (
            "The user's sister lives in Berlin.",
            "The user lives in Lisbon (moved there from Berlin).",
        ),
        ("The user loves Berlin.", "The user lives in Lisbon (moved there from Berlin)."),
        # one noun, two things: each names a word of its own ("daily" / "weekly")
        (
            "The user has raised their daily step goal from 6000 to 7000 steps.",
            "The user has raised their weekly step goal from 40000 to 50000 steps.",
        ),
        # "it" changes a value with the same noun only
        ("The user has 2 cats.", "Correction: it moved to port 6543."),
        # a later clause about "a build" is about the first clause's project, not any build
        (
            "Builds for Heron run on Drone; a build takes about 12 minutes.",
            "Builds for Kestrel run on Jenkins; a build takes about 20 minutes.",
        ),
        # "Heron Cloud" is another project than "Heron": the same words, not the same name
        (
            "The cloud budget for Heron Cloud is $900 a month.",
            "The cloud budget for Heron is $400 a month.",
        ),
        # two spans of days away are two absences
        ("Noor is on leave from 3 March to 7 March.", "Noor is on leave from 9 July to 14 July."),
        # an ending of one store says nothing of another store's version
        (
            "Quokka keeps its logs in Elasticsearch 7.10.",
            "Quokka no longer keeps its logs in Loki 2.9.",
        ),
        # a switch to a third thing says nothing of how the two a preference ranks compare
        (
            "The user prefers Fossil over Mercurial because of its built-in wiki.",
            "The user switched from Fossil to Pijul on 4 May 2026.",
        ),
        # "won't" in a clause is no correction's rejected side
        (
            "The user is worried that they met Michael at a festival on 15 January 2024.",
            "The user is worried that they won't be able to apply the skills on 12 April 2023.",
        ),
    ],
)
def test_events_instances_other_subjects_and_restatements_are_not_superseded(
    first: str, second: str
) -> None:
    """Two poetry readings, two appointments, two tools of two kinds, two subjects: both stay."""
    assert _pairs(first, second) == []


def test_an_ending_said_with_the_tool_in_use_leaves_the_tool_in_use() -> None:
    """ "I no longer use Poetry; I use uv now": said in one breath (one time), the ending
    leaves for the tool of that kind in use, and the older "uses Poetry" with it."""
    older, ending, current = _memories(
        "The user uses Poetry for packaging.",
        "The user no longer uses Poetry.",
        "The user uses uv now.",
    )
    ending = replace(ending, created=current.created)
    got = {(u.old, u.new) for u in find_updates([older, ending, current])}
    assert got == {(older.id, current.id), (ending.id, current.id)}


def test_a_chain_of_values_ends_at_the_newest() -> None:
    """3.10, then 3.11, then 3.12: both older ones are superseded by the newest."""
    got = _pairs(
        "The user's team is on Python 3.10.",
        "The user's team is on Python 3.11.",
        "The user's team is on Python 3.12.",
    )
    assert sorted((old, new) for old, new, _why in got) == [
        ("The user's team is on Python 3.10.", "The user's team is on Python 3.12."),
        ("The user's team is on Python 3.11.", "The user's team is on Python 3.12."),
    ]


def test_the_input_order_does_not_matter() -> None:
    """Time decides, not the order the memories are listed in."""
    memories = _memories("The user's office is in Berlin.", "The user's office is in Lisbon.")
    assert find_updates(memories) == find_updates(memories[::-1])


def test_the_same_moment_decides_nothing() -> None:
    """Two values written at the same time: no order, no supersession."""
    a, b = _memories("The user's office is in Berlin.", "The user's office is in Lisbon.")
    assert find_updates([a, replace(b, created=a.created)]) == []


def test_the_operation_says_what_changed_and_that_time_decided(tmp_path: Path) -> None:
    """The run record's detail names the change, the time order and how to restore."""
    repo = MemoryRepo.init(tmp_path / "mem", now=T0)
    old = operations.add_memory(repo, "The user's office is in Berlin.", topic="facts", now=T0)
    new = operations.add_memory(
        repo, "The user's office is in Lisbon.", topic="facts", now=T0 + timedelta(days=3)
    )
    record = dream(repo, now=T0 + timedelta(days=4), force=True)
    [op] = [op for op in record["ops"] if op["rule"] == "supersede-newer-value"]
    assert op["detail"] == (
        "Newer value of the same subject and relation (be in: berlin → lisbon); "
        f"decided by time order: {new.id} is newer than {old.id}. "
        f"The superseded memory stays in history: dreamgit restore {old.id}"
    )


def _dreamed(root: Path) -> tuple[str | None, list[str]]:
    repo = MemoryRepo.init(root, now=T0)
    texts = [
        "The user's team is on Python 3.11.",
        "The user's beta launch is on 15 January 2026.",
        "The user's team is on Python 3.12.",
        "The user's beta launch moved to 22 January 2026.",
    ]
    for k, text in enumerate(texts):
        operations.add_memory(repo, text, topic="facts", now=T0 + timedelta(days=k))
    record = dream(repo, now=T0 + timedelta(days=9), force=True)
    return repo.tip(), [op["summary"] for op in record["ops"]]


def test_same_inputs_and_time_give_the_same_supersessions_and_commits(tmp_path: Path) -> None:
    """Deterministic: two repositories built alike dream to the same operations and tip."""
    first, second = _dreamed(tmp_path / "a"), _dreamed(tmp_path / "b")
    assert first == second
    assert sum("supersede" in summary for summary in first[1]) == 2


def test_a_count_that_grew_retires_only_a_count_of_the_same_thing() -> None:
    """ "The number of reviewers has increased to 7" shares only the word for its change
    with "open to a bonus if a $2,000 increase is refused": another thing is counted."""
    assert (
        _pairs(
            "The user wants the agent to suggest a bonus if a $2,000 increase is refused.",
            "The user is updating the wiki and the number of reviewers has increased to 7.",
        )
        == []
    )
    old, new = (
        "The user's newsletter has 4,000 subscribers.",
        "The user's newsletter has now reached 5,000 subscribers.",
    )
    assert _pairs(old, new) == [(old, new, "has now reached: 4000 → 5000")]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a word in common ("showreel") is no count in common
        (
            "The user chose to feature 4 short films in their showreel.",
            "The user is updating their showreel and they noticed the number of students "
            "they've coached has increased to 9.",
        ),
        (
            "The user has added 3 new lighting presets to their showreel by 2 June 2026.",
            "The user is updating their showreel and they noticed the number of students "
            "they've coached has increased to 9.",
        ),
        # a rate and a span against a span of another thing: "days" in both
        (
            "The user wants clear goals for their first 60 days, aiming to lift test pass "
            "rates by 20%.",
            "The user says Cut average review turnaround from 6 days to 4 days.",
        ),
        # one word of the setting in common ("team"), another head noun
        (
            "The user wants clear goals for their first 60 days, aiming to raise team "
            "velocity by 20%.",
            "The user says Increase team standup attendance from 60% to 85%.",
        ),
        # "the user's" in both objects: a score and a length
        (
            "Raising the user's typing score from 3 to 6 out of 10.",
            "It increased the user's average line length by 8%.",
        ),
    ],
)
def test_a_change_of_one_count_never_retires_a_count_of_another_thing(old: str, new: str) -> None:
    """The numbers two memories disagree on count things the other never names: both stay,
    whatever word, verb or owner they share."""
    assert _pairs(old, new) == []


def test_a_particle_in_common_is_no_rejected_value() -> None:
    """ "instead of going out" rejects nothing of "reaching out to their mentor"; "instead of
    Hugo" still replaces Hugo."""
    assert (
        _pairs(
            "The user is thinking of reaching out to their mentor Priya for advice on pitching.",
            "The user will invite her to a quiet lunch at Harbor Deli instead of going out to the "
            "karaoke night.",
        )
        == []
    )
    old, new = (
        "The user is going to use Hugo for the blog.",
        "The user is going to use Astro for the blog instead of Hugo.",
    )
    assert _pairs(old, new) == [(old, new, "correction: hugo is replaced")]


@pytest.mark.parametrize(
    ("old", "new", "named"),
    [
        (
            "The Ledger service listens on port 8080.",
            "Correction: it moved to port 8090.",
            "Correction: the Ledger service moved to port 8090.",
        ),
        (
            "The user says the queue worker listens on port 5672.",
            "The user says it moved to port 5673 on 2 May 2026.",
            "The user says the queue worker moved to port 5673 on 2 May 2026.",
        ),
        (
            "The session store listens on port 6379.",
            "It moved to port 6380.",
            "The session store moved to port 6380.",
        ),
    ],
)
def test_a_change_said_of_it_names_the_subject_of_what_it_changes(
    old: str, new: str, named: str
) -> None:
    """The newer memory's text names what "it" stands for, as the older one wrote it."""
    [update] = find_updates(_memories(old, new))
    assert update.named == named


def test_a_change_of_a_named_subject_names_nothing_new() -> None:
    """Only a stand-in is replaced: a newer value with its own subject keeps its words."""
    [update] = find_updates(
        _memories("The search index listens on port 9201.", "The search index moved to port 9305.")
    )
    assert update.named == ""


@pytest.mark.parametrize(
    "new",
    [
        "The user wants the agent to make sure every release tag is cut from the main line, "
        "not a feature branch.",
        "The user wants the agent to make sure every release tag is cut from the main line, "
        "not a branch.",
    ],
)
def test_a_correction_of_a_qualifier_rejects_no_other_value_that_names_it_in_passing(
    new: str,
) -> None:
    """A later "wants …, not a feature branch" corrects where its own request happens, not an
    older "wants" whose long value names branches: what it rejects is not all of the older
    value's head, or the correction says nothing else of the older value."""
    old = (
        "The user wants branches to be named after the ticket, so a full branch name looks "
        'like "feature/ABC-12-short-title", similar to the commit prefix they chose.'
    )
    assert _pairs(old, new) == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user's team uses Postgres.", "The user's team uses MySQL, not Postgres."),
        (
            "The user's team uses Postgres for the billing service.",
            "The user's team uses MySQL for the billing service, not Postgres.",
        ),
        ("The user's editor is VS Code.", "The user's editor is Neovim, not VS Code."),
        ("The user lives in Berlin.", "The user lives in Lisbon, not Berlin."),
    ],
)
def test_a_correction_of_the_older_value_s_head_still_replaces_it(old: str, new: str) -> None:
    """What the correction rejects is the older value itself: the older memory leaves."""
    assert [(o, n, r.split(":")[0]) for o, n, r in _pairs(old, new)] == [(old, new, "correction")]


def test_instead_of_rejects_the_alternative_it_names_not_the_purpose_said_after_it() -> None:
    """ "instead of jQuery to cut the bundle size" rejects jQuery: an older memory about the
    bundle size stays; "instead of NLTK" still replaces NLTK."""
    assert (
        _pairs(
            "The user has been told that keeping bundle sizes under 150KB is important.",
            "The user is trying to build the date picker with plain JS instead of jQuery to cut "
            "the bundle size, but it misbehaves.",
        )
        == []
    )
    old, new = (
        "Rui is using a rule-based parser with NLTK as the backbone.",
        "Rui is going to use Stanza as the backbone instead of NLTK for speed.",
    )
    assert _pairs(old, new) == [(old, new, "correction: nltk is replaced")]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "The user's billing service runs on Postgres 14.",
            "The user says the billing service now runs on Postgres 16.",
        ),
        (
            "The user says the nightly export starts at 02:00.",
            "The user's nightly export now starts at 03:30.",
        ),
    ],
)
def test_a_thing_the_user_names_with_or_without_their_own_is_one_thing(old: str, new: str) -> None:
    """ "the billing service" the user speaks of is "the user's billing service": the newer
    value of it retires the older, whichever way each was said."""
    assert [(o, n) for o, n, _ in _pairs(old, new)] == [(old, new)]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # someone else's thing of the same name
        (
            "The user's billing service runs on Postgres 14.",
            "Dana's billing service now runs on Postgres 16.",
        ),
        # another thing the user names
        (
            "The user's billing service runs on Postgres 14.",
            "The user says the search service now runs on Postgres 16.",
        ),
    ],
)
def test_another_owner_or_another_thing_is_no_newer_value(old: str, new: str) -> None:
    """The owner that joins the two namings is the user's alone."""
    assert _pairs(old, new) == []
