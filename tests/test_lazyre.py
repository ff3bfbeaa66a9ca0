"""Patterns compiled on first use: what they answer is `re`'s, and importing compiles none."""

from __future__ import annotations

import copy
import os
import pickle
import re
import subprocess
import sys
import tempfile
import textwrap

import pytest

from dreamgit import lazyre

#: Counts, in a fresh interpreter, the patterns `re` parses on behalf of gathering and
#: extraction (the innermost frame of ours that asked, lazyre itself passed over),
#: after importing the modules named on its command line and running the code given after
#: "--". A pattern `re` compiles is parsed, and so is one whose code lazyre keeps.
_COUNTER = textwrap.dedent(
    """
    import importlib, re, sys
    OWNERS = ("/dreamgit/dream/gather/", "/dreamgit/extract/")
    counted = []
    real = re._parser.parse

    def counting(pattern, flags=0):
        frame = sys._getframe(1)
        while frame is not None:
            name = frame.f_code.co_filename
            if "/dreamgit/" in name and not name.endswith("lazyre.py"):
                if any(part in name for part in OWNERS):
                    counted.append(name)
                break
            frame = frame.f_back
        return real(pattern, flags)

    re._parser.parse = counting
    modules, _, code = " ".join(sys.argv[1:]).partition(" -- ")
    for module in modules.split():
        importlib.import_module(module)
    exec(code)
    print(len(counted))
    """
)


def _compiled_by_gathering(modules: list[str], code: str = "") -> int:
    """The count, with a user cache of its own (no pattern kept from another process)."""
    with tempfile.TemporaryDirectory() as cache:
        done = subprocess.run(
            [sys.executable, "-c", _COUNTER, *modules, "--", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "XDG_CACHE_HOME": cache},
        )
    return int(done.stdout.split()[-1])


@pytest.mark.parametrize(
    "modules",
    [
        ["dreamgit.cli", "dreamgit.cli.cmd_hooks", "dreamgit.integrations.claude_hooks"],
        ["dreamgit.recall.search", "dreamgit.recall.cached", "dreamgit.cli.cmd_recall"],
        ["dreamgit.dream.run", "dreamgit.api", "dreamgit.integrations.mcp_server"],
    ],
    ids=["cli-and-hooks", "recall", "dream-and-api"],
)
def test_importing_compiles_none_of_gatherings_patterns(modules: list[str]) -> None:
    """The CLI, the hooks, recall, even the dream and the API: imported, no pattern of
    gathering or extraction compiled (a process that never gathers never pays for them)."""
    assert _compiled_by_gathering(modules) == 0


def test_gathering_compiles_its_patterns_when_it_runs() -> None:
    """The counter sees them: the first statement gathered compiles gathering's patterns."""
    code = (
        "from dreamgit.dream.gather.momentary import momentary\n"
        "momentary('the tests are still failing on my machine')"
    )
    assert _compiled_by_gathering(["dreamgit.dream.run"], code) > 0


@pytest.mark.parametrize("flags", [0, re.IGNORECASE, re.IGNORECASE | re.MULTILINE])
def test_a_lazy_pattern_answers_as_the_compiled_one(flags: int) -> None:
    """search, match, fullmatch, findall, finditer, sub, subn, split, groups: `re`'s answers."""
    text = "Alice met Bob\nalice left at 5"
    source = r"(?P<who>alice|bob)\b"
    lazy, real = lazyre.compile(source, flags), re.compile(source, flags)
    assert lazy.pattern == real.pattern
    for name in ("search", "match", "findall", "split", "sub", "subn"):
        args = ("X", text) if name in ("sub", "subn") else (text,)
        got, want = getattr(lazy, name)(*args), getattr(real, name)(*args)
        assert (got.group() if isinstance(got, re.Match) else got) == (
            want.group() if isinstance(want, re.Match) else want
        )
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in real.finditer(text)]
    assert lazy.fullmatch("bob") is not None
    assert (lazy.groups, lazy.groupindex, lazy.flags) == (real.groups, real.groupindex, real.flags)
    assert repr(lazy) == repr(real)


def test_reading_pattern_text_compiles_nothing() -> None:
    """A pattern built from another's text leaves the other uncompiled."""
    base = lazyre.compile(r"\bcat")
    lazyre.compile(base.pattern + r"s?\b")
    assert "_pattern" not in vars(base)


def test_a_bad_pattern_raises_res_error_on_first_use() -> None:
    """Compiled late, so `re.error` comes at first use, with `re`'s message."""
    broken = lazyre.compile("(unclosed")
    with pytest.raises(re.error, match="missing \\), unterminated subpattern"):
        broken.search("x")


def test_a_lazy_pattern_copies_and_pickles() -> None:
    """Copies are the same object (patterns are immutable); a pickle round trip still matches."""
    lazy = lazyre.compile(r"\d+")
    assert copy.copy(lazy) is lazy
    assert copy.deepcopy({"p": lazy})["p"] is lazy
    again = pickle.loads(pickle.dumps(lazy))
    assert again.findall("a1b22") == ["1", "22"]
