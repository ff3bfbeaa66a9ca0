"""Words a memory keeps as written, end to end: quotations and paths.

Rewriting "I" and "me" into "the user" / "them" is for the speaker's own words; a path
(``/home/me/…``, ``C:\\Users\\me\\…``) names a folder, and a quoted question is someone
else's words. Sessions written for these tests go through the installed ``dreamgit``
command on real repositories.
"""

from __future__ import annotations

from pathlib import Path

from clikit import RepositoryTemplates, active, dreamgit, initialized, prepared

DAY = "2026-11-12T09:00:00Z"
NIGHT = "2026-11-12T23:00:00Z"


def _dream(tmp_path: Path, templates: RepositoryTemplates, session: str) -> list[str]:
    repo = tmp_path / "mem"
    initialized(templates, repo, DAY)
    prepared(repo, DAY, "log", stdin=session)
    dreamgit(repo, NIGHT, "run", "--force")
    return [m["text"] for m in active(repo, NIGHT, in_process=True)]


def test_a_path_with_me_in_it_is_kept_as_written(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """ "me" as a folder name stays "me": the memory's path still points where it did."""
    texts = _dream(
        tmp_path,
        templates,
        "User: My shell aliases live in /home/me/config/aliases.zsh.\n"
        "User: I keep the signing keys in D:\\Users\\me\\keys.\n"
        "Assistant: Noted.\n",
    )
    assert any("/home/me/config/aliases.zsh" in t for t in texts), texts
    assert any("D:\\Users\\me\\keys" in t for t in texts), texts
    assert not any("/them/" in t or "\\them" in t for t in texts), texts


def test_a_quoted_question_in_a_standing_rule_keeps_its_own_pronouns(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """The rule is the user's; the question they quote is said as they quoted it."""
    texts = _dream(
        tmp_path,
        templates,
        "User: From now on, never ask me things like "
        '"Shall I go ahead with the rollout?" - just do it.\n'
        "Assistant: Understood.\n",
    )
    assert any('"Shall I go ahead with the rollout?"' in t for t in texts), texts
    assert not any("Shall they" in t for t in texts), texts
