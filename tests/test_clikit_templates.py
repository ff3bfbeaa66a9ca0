"""The repository templates end-to-end tests share: made once, each test its own copy."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from clikit import RepositoryTemplates, active, dreamgit, initialized

DAY = "2026-11-10T09:00:00Z"


def test_a_template_is_made_once_and_each_caller_gets_its_own_copy(tmp_path: Path) -> None:
    """The second copy reads as the first did, whatever the first caller changed."""
    made: list[Path] = []

    def one_file(path: Path) -> dict[str, list[str]]:
        path.mkdir()
        (path / "memory.md").write_text("as made\n", encoding="utf-8")
        made.append(path)
        return {"ids": ["m-1"]}

    templates = RepositoryTemplates(tmp_path / "templates")
    first = templates.copy(one_file, tmp_path / "a")
    (tmp_path / "a" / "memory.md").write_text("changed by a test\n", encoding="utf-8")
    first["ids"].append("m-2")
    second = templates.copy(one_file, tmp_path / "b")
    assert len(made) == 1
    assert (tmp_path / "b" / "memory.md").read_text(encoding="utf-8") == "as made\n"
    assert second == {"ids": ["m-1"]}


def test_a_template_whose_making_failed_is_made_again_from_nothing(tmp_path: Path) -> None:
    """A build that raised leaves nothing behind that the next attempt trips over."""
    attempts: list[int] = []

    def flaky(path: Path) -> None:
        path.mkdir()
        (path / "half.md").write_text("half\n", encoding="utf-8")
        attempts.append(1)
        if len(attempts) == 1:
            raise RuntimeError("the first build failed")

    templates = RepositoryTemplates(tmp_path / "templates")
    with pytest.raises(RuntimeError, match="the first build failed"):
        templates.copy(flaky, tmp_path / "a")
    templates.copy(flaky, tmp_path / "b")
    assert len(attempts) == 2 and (tmp_path / "b" / "half.md").is_file()


def test_variants_of_one_build_are_kept_apart(tmp_path: Path) -> None:
    """The same build with another variant is made again; each variant is made once."""
    made: list[str] = []

    def stamped(text: str, path: Path) -> None:
        path.mkdir()
        (path / "stamp.md").write_text(text, encoding="utf-8")
        made.append(text)

    templates = RepositoryTemplates(tmp_path / "templates")
    for text, dest in (("one", "a"), ("two", "b"), ("one", "c")):
        templates.copy(functools.partial(stamped, text), tmp_path / dest, variant=text)
    assert made == ["one", "two"]
    assert (tmp_path / "b" / "stamp.md").read_text(encoding="utf-8") == "two"
    assert (tmp_path / "c" / "stamp.md").read_text(encoding="utf-8") == "one"


def test_an_initialized_copy_is_a_repository_the_command_uses(
    tmp_path: Path, templates: RepositoryTemplates
) -> None:
    """Two copies of one `init` are two repositories: what one holds, the other does not."""
    first, second = tmp_path / "first", tmp_path / "second"
    initialized(templates, first, DAY)
    initialized(templates, second, DAY)
    dreamgit(first, DAY, "add", "The build server is called Tarragon", "--topic", "ops")
    assert [m["text"] for m in active(first, DAY)] == ["The build server is called Tarragon"]
    assert active(second, DAY) == []
