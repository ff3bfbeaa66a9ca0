"""The keyword rules of the secret scanner run only on lines holding one of their words."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import example, given
from hypothesis import strategies as st

from dreamgit.store.secret_formats import KEYWORD, keyword_rules
from dreamgit.store.secrets import scan_text

#: Pieces of lines: the rules' words in odd spellings and cases (a Kelvin sign and a
#: long s fold to k and s), separators, quotes and values.
_PIECES = st.sampled_from(
    [
        "password", "PassPhrase", "pwd", "PIN", "api_key", "ApiKey", "access-key",
        "client_secret", "auth_token", "Bearer", "basic", "credentials", "private key",
        "signing_key", "\u212aey", "pa\u017f\u017f", "token", "secret", "key",
        "db", "DB_", "my.", "name", "the wifi", " is ", " was ", " set to ", " ", ": ",
        "=", ":=", "=>", "'", '"', "Zq7vW3nLp9Xa", "hunter2hunter2", "s3cr3t-V4lue!", ".",
    ]
)  # fmt: skip


@given(st.lists(_PIECES, max_size=8).map("".join))
@example("Authorization: Bearer Zq7vW3nLp9Xa")
@example("the wifi pa\u017f\u017fword is hunter2hunter2")
def test_a_line_either_rule_matches_holds_a_keyword(line: str) -> None:
    """Wherever the assignment or the prose rule matches, the gate does too."""
    if any(rule.search(line) for rule in keyword_rules()):
        assert KEYWORD.search(line)


def test_a_long_slug_is_scanned_without_the_keyword_rules() -> None:
    """A memory file's path, suspect for its long name alone, compiles neither rule;
    a line with a password in it still has its value found."""
    code = (
        "from dreamgit.store.secrets import path_secrets\n"
        "from dreamgit.store.secret_formats import keyword_rules\n"
        "assert path_secrets('memories/garden/waters-the-ferns-on-sundays.md') == []\n"
        "print(keyword_rules.cache_info().currsize)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"
    found = scan_text("the garage password is Tr0ub4dor-and-3")
    assert [f.kind for f in found] == ["password"]
