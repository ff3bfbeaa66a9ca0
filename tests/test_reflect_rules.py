"""The reflect: section and its pieces: checked knobs, the day's notes, sightings by day."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from dreamgit.dream.reflect.notes import with_reflection
from dreamgit.dream.reflect.settings import reflect_settings
from dreamgit.dream.reflect.sightings import session_days
from dreamgit.errors import ConfigError
from dreamgit.recall.settings import settings_from

NOW = datetime(2027, 3, 4, 20, 0, tzinfo=UTC)


def test_the_bundled_rules_give_the_documented_defaults() -> None:
    """default.yaml's reflect: section compiles to the thresholds README names."""
    found = reflect_settings(settings_from({}).reflect)
    assert (found.window_days, found.theme_days, found.truth_days, found.lesson_days) == (
        30,
        3,
        3,
        3,
    )
    assert (found.max_themes, found.max_truths, found.max_lessons) == (3, 5, 3)
    assert found.gate.evaluate({"days": 3, "sessions": 3, "memories": 0})
    assert not found.gate.evaluate({"days": 2, "sessions": 9, "memories": 9})


def test_a_config_changes_one_knob_and_keeps_the_rest() -> None:
    """A repository's reflect: is merged key by key over the bundled one."""
    found = reflect_settings(settings_from({"reflect": {"lessons": {"min_days": 5}}}).reflect)
    assert (found.lesson_days, found.lesson_sessions, found.truth_days) == (5, 2, 3)


@pytest.mark.parametrize(
    ("section", "message"),
    [
        (
            {"themes": {"min_days": 0}},
            ".dreamgit/config.yaml: reflect.themes.min_days: must be a number of at least 1, not 0",
        ),
        (
            {"lessons": {"min_day": 3}},
            ".dreamgit/config.yaml: reflect.lessons: unknown key 'min_day' "
            "(known: min_days, min_sessions)",
        ),
        (
            {"windows": 3},
            ".dreamgit/config.yaml: reflect: unknown key 'windows' (known: budget, enabled, "
            "gate, lasting_truths, lessons, llm, themes, window_days)",
        ),
        (
            {"llm": {"max_insights": -1}},
            ".dreamgit/config.yaml: reflect.llm.max_insights: must be a number of at least 0, "
            "not -1",
        ),
        (
            {"budget": "few"},
            ".dreamgit/config.yaml: reflect.budget: must be a mapping, not 'few'",
        ),
    ],
)
def test_a_wrong_knob_names_its_key_path(section: dict[str, object], message: str) -> None:
    """Each mistake is a ConfigError naming the file, the key path and what it takes."""
    with pytest.raises(ConfigError) as caught:
        reflect_settings(settings_from({"reflect": section}).reflect)
    assert str(caught.value) == message
    assert caught.value.hint == (
        "the defaults are the reflect: section of the bundled rules/default.yaml"
    )


def test_a_gate_with_an_unknown_name_is_shown_with_a_caret() -> None:
    """The gate sees days, sessions and memories; another name is reported where it stands."""
    with pytest.raises(ConfigError) as caught:
        reflect_settings(settings_from({"reflect": {"gate": "hours >= 3"}}).reflect)
    text = str(caught.value)
    assert text.startswith(".dreamgit/config.yaml: reflect.gate: ")
    assert text.endswith("\n    hours >= 3\n    ^^^^^")


def test_promote_tagged_takes_only_priorities() -> None:
    """A tag's target must be a priority name."""
    with pytest.raises(ConfigError) as caught:
        settings_from({"promotion": {"promote_tagged": {"lesson": "urgent"}}})
    assert str(caught.value) == (
        ".dreamgit/config.yaml: promotion.promote_tagged.lesson: 'urgent' is not one of "
        "ephemeral, low, normal, high, core"
    )


def test_promotion_targets_the_highest_priority_a_tag_gives() -> None:
    """A lesson goes to high; an untagged candidate to promote_to."""
    promotion = settings_from({}).promotion
    assert promotion.target(("lesson",)) == "high"
    assert promotion.target(("cooking",)) == "normal"


def test_notes_get_a_reflections_block_and_keep_what_a_person_wrote() -> None:
    """New notes get a heading; existing text stays, the line goes at the block's end."""
    assert with_reflection(None, "Theme: tea", NOW) == (
        "# Notes 2027-03-04\n\n## Reflections\n\n- Theme: tea\n"
    )
    mine = "# My day\n\nWrote the plan.\n"
    once = with_reflection(mine, "Theme: tea", NOW)
    assert once == "# My day\n\nWrote the plan.\n\n## Reflections\n\n- Theme: tea\n"
    twice = with_reflection(once + "\n## Later\n\nmore\n", "Theme: rain", NOW)
    assert twice == (
        "# My day\n\nWrote the plan.\n\n## Reflections\n\n- Theme: tea\n- Theme: rain\n"
        "\n## Later\n\nmore\n"
    )
    assert with_reflection(twice, "Theme: tea", NOW) is None


def test_a_sessions_day_comes_from_its_id_or_path_and_is_never_guessed() -> None:
    """dreamgit ids and dated paths give a day; anything else gives none."""
    days = session_days(
        {
            "s-20270301-abcdef": "sessions/2027/03/01/s-20270301-abcdef.md",
            "a1b2c3": "sessions/2027/03/02/a1b2c3.md",
            "memory-2027-03-03": "memory/2027-03-03.md",
            "loose": "sessions/loose.md",
        }
    )
    assert days == {
        "s-20270301-abcdef": date(2027, 3, 1),
        "a1b2c3": date(2027, 3, 2),
        "memory-2027-03-03": date(2027, 3, 3),
    }
