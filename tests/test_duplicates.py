"""Tests for dreamgit.extract.duplicates: finding near-duplicates and grouping them.

The must-merge and must-not-merge pairs go through the public function the dream
uses, :func:`find_duplicate_pairs` at its default threshold.
"""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime

import pytest

from dreamgit.extract.duplicates import (
    DEFAULT_THRESHOLD,
    DupItem,
    find_contained_pairs,
    find_duplicate_pairs,
    group_duplicates,
)
from dreamgit.extract.guards import merge_allowed
from dreamgit.model import Memory
from dreamgit.textsim import features, similarity

MUST_MERGE = [
    (
        "Prefers pytest over unittest for Python tests.",
        "For Python tests, prefers pytest to unittest",
    ),
    ("Uses uv to manage Python dependencies.", "Python dependencies are managed with uv."),
    ("The staging API listens on port 8080.", "the staging api listens on port 8080"),
    ("Standup is at 9:30 a.m. on Mondays.", "Standup: Mondays at 9:30am."),
    ("Has two monitors on the home desk.", "Has 2 monitors on the home desk!"),
    ("Lives in Lisbon with a dog named Biscuit.", "With a dog named Biscuit, lives in Lisbon."),
    ("Doesn't drink coffee after 3pm.", "Does not drink coffee after 15:00."),
    ("Never force-push to main.", "Do not force-push to main!"),
    ("The user prefers dark mode in every editor.", "Prefers dark mode in every editor"),
    ("Moved from Toronto to Berlin in 2021.", "In 2021, moved from Toronto to Berlin."),
    ("Keeps pull requests under 400 lines.", "Keeps pull requests under four hundred lines."),
    ("Prefers Postgres for new services.", "Prefers PostgreSQL for new services."),
    ("Runs the test suite before every push.", "Before every push, runs the test suite."),
    ("Is allergic to peanuts.", "Allergic to peanuts."),
    (
        "Deploys of the billing service happen on Fridays.",
        "The billing service is deployed on Fridays.",
    ),
    ("Works at Stripe in Dublin.", "works at Stripe, in Dublin"),
    ("Prefers tabs over spaces in Go code.", "In Go code, prefers tabs to spaces."),
    ("Wants code reviews within one working day.", "Wants code reviews within 1 working day."),
    ("Uses VS Code with the Dracula theme.", "With the Dracula theme, uses VS Code."),
    (
        "Reminder: the on-call rotation changes every Monday.",
        "The on-call rotation changes every Monday.",
    ),
    ("Prefers squash merges on GitHub.", "On GitHub, prefers squash merges."),
    ("The user's favourite editor is Neovim.", "Favourite editor: Neovim."),
    ("The cloud budget is $500 a month.", "Cloud budget: 500 dollars a month."),
    ("Priya Raman is the tech lead for Atlas.", "The tech lead for Atlas is Priya Raman."),
]

MUST_NOT_MERGE = [
    # polarity
    (
        "Prefers pytest over unittest for Python tests.",
        "Does not prefer pytest over unittest for Python tests.",
    ),
    ("Likes dark roast coffee in the morning.", "Dislikes dark roast coffee in the morning."),
    ("Uses Docker Desktop on the work laptop.", "Stopped using Docker Desktop on the work laptop."),
    ("Enjoys pair programming sessions on Fridays.", "Hates pair programming sessions on Fridays."),
    (
        "Wants notifications turned on during focus time.",
        "Wants notifications turned off during focus time.",
    ),
    ("Always runs the linter before committing.", "Never runs the linter before committing."),
    (
        "Type hints are required in the billing service.",
        "Type hints are not required in the billing service.",
    ),
    (
        "Feature flags are enabled by default in staging.",
        "Feature flags are disabled by default in staging.",
    ),
    # direction
    ("Prefers tabs over spaces in Go code.", "Prefers spaces over tabs in Go code."),
    (
        "Switched the API from Flask to FastAPI last year.",
        "Switched the API from FastAPI to Flask last year.",
    ),
    # numbers
    ("The project targets Python 3.11.", "The project targets Python 3.12."),
    ("Has two monitors on the home desk.", "Has three monitors on the home desk."),
    ("The staging API listens on port 8080.", "The staging API listens on port 8081."),
    (
        "Keeps test coverage above 80% on the core package.",
        "Keeps test coverage above 90% on the core package.",
    ),
    ("The cloud budget is $1,200 per month.", "The cloud budget is $2,100 per month."),
    ("Merges into main need 2 approving reviews.", "Merges into main need one approving review."),
    # dates and times
    ("Team standup is at 9:30am on Mondays.", "Team standup is at 9:30am on Tuesdays."),
    ("The release freeze starts on March 3.", "The release freeze starts on April 3."),
    ("The weekly sync with design moved to 3pm.", "The weekly sync with design moved to 4pm."),
    ("Drinks coffee only in the morning.", "Drinks coffee only in the evening."),
    ("The next offsite is on 2026-05-14 in Porto.", "The next offsite is on 2026-05-15 in Porto."),
    # names
    ("The billing service is written in Flask.", "The billing service is written in FastAPI."),
    ("The orders database runs on Postgres.", "The orders database runs on MySQL."),
    (
        "Priya reviews all schema migrations for billing.",
        "Marco reviews all schema migrations for billing.",
    ),
    ("Lives in Berlin with a cat named Miso.", "Lives in Munich with a cat named Miso."),
    (
        "Deploys the frontend to Vercel on every merge.",
        "Deploys the frontend to Netlify on every merge.",
    ),
    (
        "Formats Python code with ruff before committing.",
        "Formats Python code with black before committing.",
    ),
    ("Priya Raman is the tech lead for Atlas.", "Priya Okafor is the tech lead for Atlas."),
    # one value swapped for another
    (
        "Is allergic to peanuts and carries an EpiPen.",
        "Is allergic to shellfish and carries an EpiPen.",
    ),
    ("Plays the cello in a community orchestra.", "Plays the violin in a community orchestra."),
]


def items(*texts: str, topic: str = "facts") -> list[DupItem]:
    return [DupItem(f"m-{k:03d}", text, topic) for k, text in enumerate(texts)]


def test_the_pair_lists_are_big_enough() -> None:
    """At least 20 pairs that must merge and 20 that must not."""
    assert len(MUST_MERGE) >= 20
    assert len(MUST_NOT_MERGE) >= 20


@pytest.mark.parametrize(("a", "b"), MUST_MERGE)
def test_paraphrases_are_found_as_duplicates(a: str, b: str) -> None:
    """A paraphrase scores above the default threshold, passes the guards, and pairs."""
    assert similarity(a, b) >= DEFAULT_THRESHOLD
    assert merge_allowed(a, b)
    assert [p[:2] for p in find_duplicate_pairs(items(a, b))] == [("m-000", "m-001")]


@pytest.mark.parametrize(("a", "b"), MUST_NOT_MERGE)
def test_distinct_facts_are_never_paired(a: str, b: str) -> None:
    """Opposites and facts with other numbers, dates or names are never paired."""
    assert find_duplicate_pairs(items(a, b)) == []


def test_pairs_carry_the_similarity_score() -> None:
    """Each pair is (earlier id, later id, similarity)."""
    a, b = "Uses uv to manage Python dependencies.", "Python dependencies are managed with uv."
    assert find_duplicate_pairs(items(a, b)) == [("m-000", "m-001", similarity(a, b))]


def test_memories_in_different_topics_pair_only_when_asked() -> None:
    """Topics separate memories unless same_topic is off."""
    both = [DupItem("a", "Prefers dark mode", "ui"), DupItem("b", "prefers dark mode", "editor")]
    assert find_duplicate_pairs(both) == []
    assert [p[:2] for p in find_duplicate_pairs(both, same_topic=False)] == [("a", "b")]


def test_different_keys_never_pair() -> None:
    """Equal texts with different key slots stay apart."""
    both = [
        DupItem("a", "Version 3.12 everywhere", "facts", "python.version"),
        DupItem("b", "Version 3.12 everywhere", "facts", "node.version"),
    ]
    assert find_duplicate_pairs(both) == []


def test_texts_without_content_words_are_not_paired() -> None:
    """Nothing to compare, nothing to merge."""
    assert find_duplicate_pairs(items("It is.", "it is", "", "...")) == []


def test_repeated_ids_are_rejected() -> None:
    """Two items with one id are a caller's bug."""
    with pytest.raises(ValueError, match="duplicate memory id 'a' given to the duplicate finder"):
        find_duplicate_pairs([DupItem("a", "x"), DupItem("a", "y")])


@pytest.mark.parametrize("threshold", [0.0, -0.5, 1.5])
def test_a_threshold_outside_zero_to_one_is_rejected(threshold: float) -> None:
    """The threshold is a similarity in (0, 1]."""
    with pytest.raises(ValueError, match=r"similarity threshold must be in \(0, 1\], got"):
        find_duplicate_pairs(items("a b"), threshold=threshold)


def _synthetic(n: int, seed: int) -> list[DupItem]:
    """Short facts over a small vocabulary: many near-duplicates and near-misses."""
    rng = random.Random(seed)
    people = ["Priya", "Marco", "Aisha", "Chen"]
    tools = ["pytest", "Flask", "Postgres", "uv", "ruff", "vim"]
    verbs = ["uses", "prefers", "likes", "avoids", "reviews"]
    extras = ["daily", "at work", "for tests", "on Fridays", "in staging", "", "", ""]
    texts = []
    for _ in range(n):
        words = [rng.choice(people), rng.choice(verbs), rng.choice(tools), rng.choice(extras)]
        if rng.random() < 0.3:
            words.insert(2, rng.choice(["not", "always", "the", str(rng.randint(1, 3))]))
        if rng.random() < 0.3:
            words.append(rng.choice(tools))
        texts.append(" ".join(w for w in words if w))
    return [DupItem(f"m-{k:04d}", t, rng.choice(["a", "b"])) for k, t in enumerate(texts)]


@pytest.mark.parametrize("threshold", [0.5, 0.7, DEFAULT_THRESHOLD, 0.9, 1.0])
def test_candidates_miss_no_pair_that_all_pairs_would_find(threshold: float) -> None:
    """The index finds exactly the pairs a comparison of all pairs finds."""
    data = _synthetic(400, seed=int(threshold * 100))
    expected = [
        (a.id, b.id, similarity(a.text, b.text))
        for a, b in itertools.combinations(data, 2)
        if a.topic == b.topic
        and features(a.text)
        and features(b.text)
        and similarity(a.text, b.text) >= threshold
        and merge_allowed(a.text, b.text, key_a=a.key, key_b=b.key)
    ]
    assert len(expected) > 20, "the sample must hold pairs to find"
    assert find_duplicate_pairs(data, threshold=threshold) == expected


def test_keys_alike_but_for_case_and_spaces_or_one_unset_pair() -> None:
    """A key slot is compared as the guards compare it: one unset, or equal once trimmed
    and in lower case, lets a pair merge; another slot keeps it apart."""
    rng = random.Random(7)
    keys = [None, "", "user.role", " User.Role ", "user.employer"]
    data = [item._replace(key=rng.choice(keys), topic="a") for item in _synthetic(300, seed=11)]
    expected = [
        (a.id, b.id, similarity(a.text, b.text))
        for a, b in itertools.combinations(data, 2)
        if features(a.text)
        and features(b.text)
        and similarity(a.text, b.text) >= DEFAULT_THRESHOLD
        and merge_allowed(a.text, b.text, key_a=a.key, key_b=b.key)
    ]
    assert any(a.key and b.key and a.key != b.key for a, b in _pairs_of(data, expected))
    assert find_duplicate_pairs(data) == expected


@pytest.mark.parametrize("same_topic", [True, False])
def test_pairs_come_in_the_order_all_pairs_gives_whatever_the_candidates_order(
    same_topic: bool,
) -> None:
    """However the index hands a memory its candidates, the answer is every pair a
    comparison of all pairs finds (topics, keys and guards as they are), in its order."""
    rng = random.Random(23)
    keys = [None, None, "user.role", "user.employer"]
    data = [item._replace(key=rng.choice(keys)) for item in _synthetic(500, seed=23)]
    expected = [
        (a.id, b.id, similarity(a.text, b.text))
        for a, b in itertools.combinations(data, 2)
        if (a.topic == b.topic or not same_topic)
        and features(a.text)
        and features(b.text)
        and similarity(a.text, b.text) >= DEFAULT_THRESHOLD
        and merge_allowed(a.text, b.text, key_a=a.key, key_b=b.key)
    ]
    assert len(expected) > 50, "the sample must hold pairs to find"
    assert find_duplicate_pairs(data, same_topic=same_topic) == expected


def _pairs_of(
    data: list[DupItem], pairs: list[tuple[str, str, float]]
) -> list[tuple[DupItem, DupItem]]:
    by_id = {item.id: item for item in data}
    return [(by_id[a], by_id[b]) for a, b, _score in pairs]


@pytest.mark.parametrize("threshold", [0.5, 0.7, DEFAULT_THRESHOLD, 1.0])
@pytest.mark.parametrize("same_topic", [True, False])
def test_pairs_involving_some_items_are_the_whole_answers_pairs_with_them(
    threshold: float, same_topic: bool
) -> None:
    """Asked only for pairs with some items (the new ones), the finder gives exactly the
    pairs of the whole answer that hold one of them, in the same order."""
    data = _synthetic(400, seed=int(threshold * 100) + same_topic)
    whole = find_duplicate_pairs(data, threshold=threshold, same_topic=same_topic)
    for seed in range(3):
        chosen = {item.id for item in random.Random(seed).sample(data, 40)}
        wanted = [p for p in whole if p[0] in chosen or p[1] in chosen]
        assert len(wanted) > 3, "the sample must hold pairs to find"
        found = find_duplicate_pairs(
            data, threshold=threshold, same_topic=same_topic, involving=chosen
        )
        assert found == wanted
    assert find_duplicate_pairs(data, threshold=threshold, involving=set()) == []


def test_same_input_gives_the_same_pairs_in_the_same_order() -> None:
    """Deterministic: two runs agree exactly."""
    data = _synthetic(300, seed=7)
    assert find_duplicate_pairs(data) == find_duplicate_pairs(list(data))


def test_input_order_changes_only_the_order_of_pairs() -> None:
    """The set of pairs does not depend on the order of the memories."""
    data = _synthetic(300, seed=11)
    shuffled = data[:]
    random.Random(3).shuffle(shuffled)
    first = {frozenset(p[:2]) for p in find_duplicate_pairs(data)}
    assert first == {frozenset(p[:2]) for p in find_duplicate_pairs(shuffled)}


def test_a_group_is_an_anchor_and_the_members_paired_with_it() -> None:
    """Copies of one fact form one group led by the first item."""
    data = items(
        "Prefers dark mode in every editor.",
        "Lives in Lisbon.",
        "prefers dark mode in every editor",
        "The user prefers dark mode in every editor!",
    )
    assert group_duplicates(data, find_duplicate_pairs(data)) == [["m-000", "m-002", "m-003"]]


def test_a_group_never_joins_members_the_guards_keep_apart() -> None:
    """A~B and A~C do not merge B with C when their keys differ."""
    data = [
        DupItem("a", "Uses version 3.12 everywhere", "facts"),
        DupItem("b", "uses version 3.12 everywhere", "facts", "python.version"),
        DupItem("c", "Uses version 3.12 everywhere.", "facts", "node.version"),
    ]
    pairs = find_duplicate_pairs(data)
    assert {p[:2] for p in pairs} == {("a", "b"), ("a", "c")}
    assert group_duplicates(data, pairs) == [["a", "b"]]


def test_groups_follow_the_order_of_the_items() -> None:
    """Pass items oldest first and each group's anchor is its oldest member."""
    data = items("Uses vim daily.", "Uses uv daily.", "uses uv daily", "uses vim daily")
    assert group_duplicates(data, find_duplicate_pairs(data)) == [
        ["m-000", "m-003"],
        ["m-001", "m-002"],
    ]


def test_a_memory_becomes_a_duplicate_item() -> None:
    """DupItem.from_memory keeps id, text, topic and key."""
    when = datetime(2026, 11, 20, tzinfo=UTC)
    memory = Memory("m-1", "tools", "uv", "Uses uv", when, when, key="python.installer")
    assert DupItem.from_memory(memory) == DupItem("m-1", "Uses uv", "tools", "python.installer")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Prefers pytest to unittest.", "Prefers pytest over unittest for Python tests."),
        ("The billing api uses Redis.", "The billing api uses Redis for the session cache."),
        # the shorter one's relation and value are a phrase of the longer one
        ("The user works at Northwind.", "The user works as a data engineer at Northwind."),
    ],
)
def test_a_note_that_only_adds_a_qualifier_is_found_as_a_restatement(a: str, b: str) -> None:
    """ "... to unittest" and "... over unittest for Python tests": one preference."""
    assert find_contained_pairs(items(a, b)) == [("m-000", "m-001", similarity(a, b))]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Prefers pytest for testing in Atlas.", "Prefers pytest for testing in Atlas Web."),
        ("Uses Python for the backend.", "Uses Python 3.12 for the backend."),
        ("Prefers pytest to unittest.", "Prefers unittest over pytest for Python tests."),
        ("Prefers pytest to unittest.", "Does not prefer pytest to unittest for Python tests."),
        ("The billing api uses Redis.", "The search worker uses Redis for the session cache."),
        ("The user works at Northwind.", "The user works as a data engineer at Southwind."),
        ("The user works at Northwind.", "Priya works as a data engineer at Northwind."),
        ("The user works at Northwind.", "The user no longer works as an analyst at Northwind."),
        ("The user works at Northwind.", "The user lives as a tenant at Northwind."),
        ("The user works at Northwind.", "The user worked as an intern at Northwind in 2019."),
    ],
)
def test_a_changed_qualifier_number_direction_or_polarity_is_no_restatement(a: str, b: str) -> None:
    """Only whole qualifier phrases may be added; anything else is another fact."""
    assert find_contained_pairs(items(a, b)) == []
