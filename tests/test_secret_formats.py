"""The scanner's table: 60+ credential formats made up in the test, and 40 look-alikes kept."""

from __future__ import annotations

import subprocess
import sys

import pytest

from dreamgit.store.secrets import redact_text, scan_text
from secretkit import LOOK_ALIKES, SECRETS, Secret, needles


def test_the_table_is_as_large_as_promised() -> None:
    """At least 60 formats of secret and 40 look-alikes are tried."""
    assert len(SECRETS) >= 60 and len({s.kind for s in SECRETS}) >= 60 - 10
    assert len(LOOK_ALIKES) >= 40


@pytest.mark.parametrize("secret", SECRETS, ids=[f"{i}-{s.kind}" for i, s in enumerate(SECRETS)])
def test_each_format_is_redacted_whole_and_named(secret: Secret) -> None:
    """The whole credential goes (a key block from BEGIN to END), replaced by its kind."""
    text, found = redact_text(f"Notes from Tuesday.\n{secret.sentence}\nLikes tea.\n")
    assert found and found[0].line == 2 + secret.sentence.split(secret.value)[0].count("\n")
    assert f"[REDACTED:{secret.kind}]" in text
    for part in needles(secret):
        assert part.lower() not in text.lower()
    assert text.startswith("Notes from Tuesday.\n") and text.endswith("\nLikes tea.\n")


@pytest.mark.parametrize("secret", SECRETS, ids=[f"{i}-{s.kind}" for i, s in enumerate(SECRETS)])
def test_redacting_twice_changes_nothing_more(secret: Secret) -> None:
    """A redacted text has nothing left to find: ``[REDACTED:…]`` is never taken for a secret."""
    once, _ = redact_text(secret.sentence)
    assert scan_text(once) == []


@pytest.mark.parametrize("line", LOOK_ALIKES)
def test_look_alikes_are_kept(line: str) -> None:
    """Hashes, UUIDs, versions, long words, paths and secret-ish words are ordinary memory."""
    assert scan_text(line) == []


def test_importing_the_scanner_compiles_no_token_format() -> None:
    """The token formats and RE2 wait for the first suspect line, not the import; a line
    then compiles only the formats RE2 says it may hold, and a path whose words merely
    look like a prefix (``flask-editor``: ``sk-``) is found clean."""
    probe = (
        "import sys, dreamgit.store.secrets as s, dreamgit.store.secret_formats as f\n"
        "print('re2' in sys.modules, f._token_format.cache_info().currsize)\n"
        "size = lambda: f._token_format.cache_info().currsize\n"
        "print(s.scan_text('see memories/decisions/dark-flask-editor-staging-release.md'))\n"
        "print(size())\n"
        "print(len(s.scan_text('token ghp_' + 'a1B2' * 9)), size())\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    lines = done.stdout.split("\n")
    assert lines[:3] == ["False 0", "[]", "1"]
    found, compiled = map(int, lines[3].split())
    assert found == 1 and 1 < compiled < 10
