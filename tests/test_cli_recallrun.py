"""``dreamgit recall`` without click: the plain command line skips it, prints what click's
command prints (stdout, stderr, exit code) and imports only what a recall from the
derived store needs; every other shape, and every error, is click's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from clikit import prepared
from dreamgit.api import DreamEngine
from dreamgit.cli.plainargs import PlainCall
from dreamgit.cli.recallrun import RecallCall, recall_call
from dreamgit.recall.query import RecallQuery
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.signals import spool_dir
from gitcheck import NOW, NOW_TEXT

FACTS = [
    ("Keeps the release checklist in the ops handbook", "project", "high"),
    ("Prefers short release notes with one line per change", "preferences", "normal"),
    ("Writes release notes the morning after the release", "preferences", "low"),
    ("Prefers short release notes, a line for each change", "preferences", "low"),
    ("The ops handbook lives in the platform repository", "project", "normal"),
]
#: Asked of the repository: text and JSON, filters and cuts, a group, no match at all.
ASKED = [
    ("release notes", "--top-k", "2", "--topic", "preferences"),
    ("ops handbook", "--chars", "60", "--json"),
    ("release", "--type", "user", "--scope", "project"),
    ("nothing here matches", "--json"),
]
#: Modules a cached recall must not load: click, git, YAML, the rules' parser, the
#: "did you mean" helper of rule errors.
NOT_LOADED = ("click", "pygit2", "ruamel", "lark", "jinja2", "deepdiff", "difflib")
#: Nor, with the bundled rules, the expression compiler and the rules' names: their
#: weight is computed in plain Python (``recall/plainweight.py``).
NOT_COMPILED = ("dreamgit.dsl", "dreamgit.ruleset")
#: At most this many of dreamgit's own modules for a recall the derived store answers
#: (39 when this test was written; 40 once the derived store's facts table became a module
#: of its own; 42 once moving the store between trees did too; still 42 since the facts and
#: the move load only where they are used, the tables and the postings' format taking a
#: module each; 28 once the bundled weight needed no compiler): a new import on this path
#: is a choice, not a drift.
MOST_MODULES = 28


def _repo(folder: Path) -> None:
    repo = MemoryRepo.init(folder, now=NOW)
    engine = DreamEngine(repo, now=NOW)
    for text, topic, priority in FACTS:
        engine.add_memory(text, topic=topic, priority=priority)


def _run(folder: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """``python -m dreamgit --now NOW ARGS`` on ``folder``: the process, its stderr less the
    import times, and the modules it imported."""
    env = dict(os.environ, DREAMGIT_REPO=str(folder))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "dreamgit", "--now", NOW_TEXT, *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    lines = done.stderr.splitlines()
    modules = {ln.rsplit("|", 1)[1].strip() for ln in lines if ln.startswith("import time:")}
    done.stderr = "".join(f"{ln}\n" for ln in lines if not ln.startswith("import time:"))
    return done, modules


def _viewed(folder: Path) -> None:
    """A first recall, in this process (click's command, the same code): it keeps the view
    of the tip the lean route answers from (the test of a cached recall proves it of the
    first recall as a process; the next test, of this one: no git after it)."""
    prepared(folder, NOW_TEXT, "recall", "release", "--no-record")


def _printed(done: subprocess.CompletedProcess[str]) -> tuple[int, str, str]:
    return done.returncode, done.stdout, done.stderr


def test_a_plain_recall_prints_what_clicks_command_prints_without_click(tmp_path: Path) -> None:
    """Each query as the lean route answers it and as click's command does (``--debug``
    sends the same line through click): the same output, the same exit code."""
    folder = tmp_path / "mem"
    _repo(folder)
    _viewed(folder)
    for asked in ASKED:
        lean, lean_modules = _run(folder, "recall", *asked, "--no-record")
        click_done, click_modules = _run(folder, "--debug", "recall", *asked, "--no-record")
        assert _printed(lean) == _printed(click_done), asked
        assert "click" not in lean_modules and "click" in click_modules
        assert "pygit2" not in lean_modules  # the view _viewed kept answers
    grouped, _ = _run(folder, "recall", "short release notes", "--no-record")
    assert "(+1 alike)" in grouped.stdout
    nothing, _ = _run(folder, "recall", "nothing here matches", "--no-record")
    assert (nothing.stdout, nothing.stderr) == ("", "no memory matches\n")


def test_a_cached_recall_loads_no_click_no_git_and_few_modules(tmp_path: Path) -> None:
    """Where the derived store holds a view of HEAD's commit, a recall imports none of
    click, pygit2, YAML or the rules' parser, and at most ``MOST_MODULES`` of ours."""
    folder = tmp_path / "mem"
    _repo(folder)
    first, first_modules = _run(folder, "recall", "ops handbook", "--no-record")
    done, modules = _run(folder, "recall", "ops handbook", "--no-record")
    assert done.returncode == 0 and done.stdout == first.stdout and "handbook" in done.stdout
    assert "pygit2" in first_modules  # the first recall reads git and keeps the view
    assert not {m for m in modules if m.split(".")[0] in NOT_LOADED}
    assert not {m for m in modules if m.startswith(NOT_COMPILED)}
    ours = sorted(m for m in modules if m.startswith("dreamgit"))
    assert len(ours) <= MOST_MODULES, ours


def test_a_cached_recall_with_its_own_weight_compiles_it_and_answers_as_click(
    tmp_path: Path,
) -> None:
    """A weight of the repository's own is compiled, on the lean route too, and orders
    the answer as click's command does: not as the bundled weight would."""
    folder = tmp_path / "mem"
    _repo(folder)
    repo = MemoryRepo.open(folder)
    config = (repo.read_text(layout.CONFIG) or "") + 'recall:\n  weight: "-rank(priority)"\n'
    repo.commit_main("config", lambda _t: {layout.CONFIG: config.encode()}, now=NOW)
    _viewed(folder)
    lean, modules = _run(folder, "recall", "release notes", "--no-record")
    click_done, _ = _run(folder, "--debug", "recall", "release notes", "--no-record")
    assert "click" not in modules and "dreamgit.dsl" in modules
    assert _printed(lean) == _printed(click_done)
    scores = [float(line.split("\t")[1]) for line in lean.stdout.splitlines()]
    assert scores == sorted(scores, reverse=True) and scores[0] == -1.0  # lowest priority first


def test_a_recall_that_leaves_a_signal_records_it_once(tmp_path: Path) -> None:
    """A recorded recall through the lean route spools one signal, as click's does."""
    folder = tmp_path / "mem"
    _repo(folder)
    _viewed(folder)
    spool = spool_dir(folder / ".git")
    before = set(spool.glob("*.json"))
    done, modules = _run(folder, "recall", "release notes")
    assert done.returncode == 0 and "click" not in modules
    assert len(set(spool.glob("*.json")) - before) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["recall", ""], "error: the recall query is empty\n"),
        (["recall", "release", "--top-k", "0"], "error: --top-k must be at least 1, not 0\n"),
        (["--now", "yesterday", "recall", "release"], "error: --now"),
    ],
)
def test_an_error_is_clicks_word_for_word(tmp_path: Path, args: list[str], message: str) -> None:
    """A plain command line that cannot be answered is handed to click, which reports it."""
    folder = tmp_path / "mem"
    _repo(folder)
    _viewed(folder)
    done, modules = _run(folder, *args)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(message), done.stderr
    assert "click" in modules


def test_only_a_plain_recall_command_line_skips_click(monkeypatch: pytest.MonkeyPatch) -> None:
    """Options each once as two words, counts as digits, the query one word that is not an
    option; the environment fills the global options; anything else is click's."""
    monkeypatch.setenv("DREAMGIT_REPO", "/env/mem")
    monkeypatch.delenv("DREAMGIT_NOW", raising=False)
    plain = ["recall", "tabs", "--top-k", "3", "--topic", "prefs", "--json", "--no-record"]
    found = recall_call(["--repo", "/m", "--now", NOW_TEXT, *plain])
    ask = RecallQuery("tabs", top_k=3, topic="prefs", record=False)
    assert found == RecallCall(PlainCall("/m", NOW_TEXT, tuple(plain)), ask, True)
    assert recall_call(["recall", "tabs"]) == RecallCall(
        PlainCall("/env/mem", None, ("recall", "tabs")), RecallQuery("tabs"), False
    )
    for args in (
        ["--debug", "recall", "tabs"],
        ["--repo=/m", "recall", "tabs"],
        ["recall", "tabs", "--help"],
        ["recall", "tabs", "--top-k=3"],
        ["recall", "tabs", "--top-k", "-1"],
        ["recall", "tabs", "--top-k", "three"],
        ["recall", "tabs", "--chars", "²"],
        ["recall", "tabs", "--topic", "a", "--topic", "b"],
        ["recall", "tabs", "--json", "--json"],
        ["recall", "tabs", "more"],
        ["recall", "-x"],
        ["recall"],
        ["recall", "--json"],
        ["recall", "tabs", "--"],
        ["status", "recall"],
    ):
        assert recall_call(args) is None, args
