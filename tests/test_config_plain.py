"""The configuration read without YAML when it is plain, and the same mapping as YAML's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import example, given
from hypothesis import strategies as st
from ruamel.yaml.error import YAMLError

from dreamgit.cli import cli
from dreamgit.errors import ConfigError
from dreamgit.store import frontmatter
from dreamgit.store.config import DEFAULT_CONFIG, read_config
from gitcheck import NOW_TEXT


def _by_yaml(text: str) -> Any:
    """What the YAML loader makes of a whole configuration file."""
    loader = vars(frontmatter)["_FastLoader"](text)
    try:
        return loader.get_single_data() or {}
    finally:
        loader.dispose()


_WORD = st.from_regex(r"[a-z][a-z0-9 ._@-]{0,12}[a-z0-9]", fullmatch=True)
_PLAIN = st.one_of(
    st.tuples(st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True), _WORD).map(
        lambda kv: f"{kv[0]}: {kv[1]}"
    ),
    st.sampled_from(["limit: 40", "ratio: 0.5", "since: 2026-01-02", "tags: [a, b c]"]),
)
#: Lines YAML reads as something else, or not at all (comments after a value, indented
#: comments, lists, quotes, booleans, a lone key, a tab, a comment inside a mapping).
_OTHER = st.sampled_from(
    [
        "  # indented comment",
        "name: value # trailing comment",
        "list:\n  - one",
        "quoted: 'q'",
        "flag: yes",
        "lone:",
        "name:\tx",
        "author:\n  name: A\n# between\n  email: a@b.c",
    ]
)
_LINE = st.one_of(_PLAIN, _PLAIN, st.just("# a comment: with colon"), st.just(""), _OTHER)


@given(st.lists(_LINE, max_size=8))
@example(DEFAULT_CONFIG.splitlines())
@example(["# settings", "", "extends: default", "author:", "  name: Ana Lima", "  email: a@b.c"])
def test_a_configuration_reads_as_yaml_reads_it(lines: list[str]) -> None:
    """Plain or not, the mapping is YAML's; or both refuse the file."""
    text = "\n".join(lines) + "\n"
    try:
        expected = _by_yaml(text)
    except (YAMLError, ValueError):
        expected = None
    if not isinstance(expected, dict):
        with pytest.raises(ConfigError):
            read_config(text)
        return
    assert read_config(text) == expected


def _imports_ruamel(code: str) -> bool:
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys; print('ruamel.yaml' in sys.modules)"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip() == "True"


def test_the_written_configuration_is_read_without_yaml() -> None:
    """``init``'s file, with an author filled in, never imports ruamel; a rule list does."""
    read = "from dreamgit.store.config import read_config, DEFAULT_CONFIG as D\n"
    author = "\\nauthor:\\n  name: Ana Lima\\n  email: ana@example.com\\n"
    assert not _imports_ruamel(f"{read}assert read_config(D + '{author}')['author']")
    assert _imports_ruamel(f"{read}read_config(D + 'disable: [expire-low]\\nprune:\\n  - x\\n')")


def test_a_bad_author_in_a_plain_configuration_is_named_with_its_line() -> None:
    """The plain path keeps the checks: an address with ``<`` is refused at its place."""
    text = "extends: default\nauthor:\n  name: Ana\n  email: ana<x>@example.com\n"
    with pytest.raises(ConfigError, match=r"config\.yaml:4:10: author\.email"):
        read_config(text)


def test_an_add_in_a_bare_repository_imports_no_yaml(tmp_path: Path) -> None:
    """The whole ``dreamgit add`` process: the config, the new file and the index
    written without ruamel (once the first add has ranked the index in full, with the
    rules), and the memory reads back."""
    repo = tmp_path / "mem.git"
    made = CliRunner().invoke(cli, ["--now", NOW_TEXT, "init", "--bare", str(repo)])
    assert made.exit_code == 0, made.output
    env = {k: v for k, v in os.environ.items() if not k.startswith("DREAMGIT_")}
    code = (
        "import sys; from dreamgit.cli import main\n"
        "try:\n    main()\nfinally:\n"
        "    print('ruamel.yaml' in sys.modules, file=sys.stderr)"
    )
    said = []
    for text in ("Keeps the spare key in the blue box.", "Waters the ferns on Sundays."):
        command = [sys.executable, "-c", code, "--repo", str(repo), "--now", NOW_TEXT]
        done = subprocess.run(
            [*command, "add", text, "--topic", "home"],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        said.append(done.stderr.strip())
        shown = CliRunner().invoke(cli, ["--repo", str(repo), "show", done.stdout.strip()])
        assert text in shown.output
    assert said == ["True", "False"]
