"""Hermes memory in place: §-separated entries rewritten in place, within character budgets."""

from __future__ import annotations

import fcntl
import json
import subprocess
import time
from datetime import timedelta
from pathlib import Path

import pytest

from clikit import installed_command
from dreamgit.errors import MemoryFileError
from dreamgit.model import Memory
from dreamgit.store.formats.hermes import SEPARATOR, HermesFormat, split_entries
from formatkit import T0, git, hashed, hermes_folder, tree_bytes
from test_format_claude import ok, run


def adopted(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    """A Hermes folder adopted by init, plus a keyed pair and an ephemeral note added."""
    root = tmp_path / "memories"
    files = hermes_folder(root)
    result = ok(root, "init", str(root), now=T0)
    assert "found Hermes memory (MEMORY.md and USER.md, entries separated by §)" in result.stdout
    for args, hours in (
        (("Deploys go out on Tuesdays.", "--key", "deploy.day"), 0),
        (("Deploys go out on Thursdays now.", "--key", "deploy.day"), 1),
        (("Scratch note for this task.", "--priority", "ephemeral"), 2),
    ):
        ok(root, "add", args[0], "--topic", "work", *args[1:], now=T0 + timedelta(hours=hours))
    return root, files


def _usage(text: str) -> int:
    return len(SEPARATOR.join(e.text for e in split_entries(text, path="x")[0]))


def test_init_adopts_a_hermes_folder_that_is_not_a_repository(tmp_path: Path) -> None:
    """Both files are in the first commit byte for byte; neither is rewritten; ids are stable."""
    root = tmp_path / "memories"
    files = hermes_folder(root)
    ok(root, "init", str(root), now=T0)
    first = git(root, "rev-list", "--max-parents=0", "HEAD").strip()
    assert tree_bytes(root, first) == hashed(files)
    assert {rel: (root / rel).read_bytes() for rel in files} == files
    config = (root / ".dreamgit/config.yaml").read_text(encoding="utf-8")
    assert "format: hermes\n" in config and "extends: conservative\n" in config
    listed = ok(root, "memories", "--json").stdout
    assert len(json.loads(listed)) == 7
    assert ok(root, "memories", "--json").stdout == listed  # the same ids every time


def test_a_dream_rewrites_entries_in_place_within_the_budget(tmp_path: Path) -> None:
    """A merge, a supersession and a prune; the files stay §-joined and within their budgets."""
    root, _ = adopted(tmp_path)
    review = json.loads(ok(root, "review", "--force", "--json").stdout)
    record = json.loads(ok(root, "run", "--force", "--json").stdout)
    ops = [(o["op"], o["memories"]) for o in record["ops"] if o["op"] != "diary"]
    assert ops == [(o["op"], o["memories"]) for o in review["ops"] if o["op"] != "diary"]
    assert sorted(o for o, _ in ops) == ["merge", "prune", "supersede"]
    log = git(root, "log", "--format=%B")
    for op in ("merge", "supersede", "prune"):
        assert f"Dream-Op: {op}" in log
    memory = (root / "MEMORY.md").read_text(encoding="utf-8")
    assert memory.count("The staging server restarts every night") == 1
    assert "Thursdays" in memory and "Tuesdays" not in memory and "Scratch" not in memory
    assert memory.startswith("User's project is a Rust web service")
    assert SEPARATOR.join(e.text for e in split_entries(memory, path="MEMORY.md")[0]) == memory
    assert _usage(memory) <= 2200
    assert (root / "USER.md").read_bytes() == b"Name: Marco; works from Lisbon\n\xc2\xa7\n" + (
        b"Prefers short answers with no emojis\n"
    )
    again = json.loads(ok(root, "run", "--force", "--json").stdout)
    assert again["ops"] == []


def test_revert_restores_the_hermes_files_byte_for_byte(tmp_path: Path) -> None:
    """Reverting the run gives back MEMORY.md and USER.md as they were before it."""
    root, _ = adopted(tmp_path)
    before = {rel: (root / rel).read_bytes() for rel in ("MEMORY.md", "USER.md")}
    record = json.loads(ok(root, "run", "--force", "--json").stdout)
    ok(root, "revert", record["run_id"])
    assert {rel: (root / rel).read_bytes() for rel in before} == before


def test_a_file_over_its_budget_is_pruned_lowest_rank_first_until_it_fits(tmp_path: Path) -> None:
    """With a 200-character budget, entries go until MEMORY.md fits; USER.md is untouched."""
    root, _ = adopted(tmp_path)
    config = (root / ".dreamgit/config.yaml").read_text(encoding="utf-8")
    (root / ".dreamgit/config.yaml").write_text(
        config + "hermes: {memory_char_limit: 200}\nlimits: {max_changes_per_run: 20}\n",
        encoding="utf-8",
    )
    git(root, "commit", "-qam", "smaller budget")
    record = json.loads(ok(root, "run", "--force", "--json").stdout)
    assert "budget-file-chars" in {o["rule"] for o in record["ops"]}
    assert _usage((root / "MEMORY.md").read_text(encoding="utf-8")) <= 200


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (
            "First fact about the build.\n\nSecond fact, a new paragraph.\n",
            3,
            "MEMORY.md:3: has several paragraphs but no '§' line between entries",
        ),
        (
            "One entry\n§\nSee § 4 of the contract\n",
            3,
            "MEMORY.md:3: '§' inside an entry: Hermes separates entries with a line holding only §",
        ),
    ],
)
def test_a_bad_hermes_file_is_an_error_naming_file_and_line(
    tmp_path: Path, text: str, line: int, message: str
) -> None:
    """A file with no § between paragraphs, or a § inside an entry: error, nothing changed."""
    root, _ = adopted(tmp_path)
    (root / "MEMORY.md").write_text(text, encoding="utf-8")
    git(root, "commit", "-qam", "hand edit")
    tip = git(root, "rev-parse", "HEAD")
    result = run(root, "run", "--force")
    assert result.exit_code == 1
    assert f"error: {message}" in result.stderr
    assert git(root, "rev-parse", "HEAD") == tip
    with pytest.raises(MemoryFileError) as caught:
        split_entries(text, path="MEMORY.md")
    assert caught.value.line == line


def test_entries_join_back_to_the_same_bytes() -> None:
    """Splitting and joining a file changes nothing, with or without a trailing newline."""
    for text in ("a\n§\nb", "a\n§\nb\n", "one entry\nover two lines\n", ""):
        entries, trailing = split_entries(text, path="MEMORY.md")
        joined = SEPARATOR.join(e.text for e in entries) + (trailing if entries else "")
        assert joined == text


def test_show_and_forget_work_on_one_entry(tmp_path: Path) -> None:
    """show prints the entry alone; forget drops it from MEMORY.md and nothing else."""
    root, _ = adopted(tmp_path)
    memories = json.loads(ok(root, "memories", "--json").stdout)
    target = next(m for m in memories if m["text"].startswith("This machine runs Ubuntu"))
    shown = ok(root, "show", target["id"])
    assert shown.stdout == "This machine runs Ubuntu 22.04; Docker and Podman are installed\n"
    ok(root, "forget", target["id"])
    memory = (root / "MEMORY.md").read_text(encoding="utf-8")
    assert "Ubuntu" not in memory and memory.startswith("User's project is a Rust web service")
    assert (root / "USER.md").read_text(encoding="utf-8").startswith("Name: Marco")


def test_an_entry_keeps_its_id_when_an_entry_before_it_goes(tmp_path: Path) -> None:
    """Ids never depend on position: after a dream removes entries, the others keep theirs."""
    root, _ = adopted(tmp_path)
    before = {m["text"]: m["id"] for m in json.loads(ok(root, "memories", "--json").stdout)}
    ok(root, "run", "--force")
    after = {m["text"]: m["id"] for m in json.loads(ok(root, "memories", "--json").stdout)}
    kept = [text for text in after if text in before]
    assert len(kept) >= 4
    assert {t: after[t] for t in kept} == {t: before[t] for t in kept}


def test_a_session_repeating_a_hermes_entry_reinforces_it_instead_of_adding(
    tmp_path: Path,
) -> None:
    """A fact the user states again is found among USER.md's entries: no second entry."""
    root = tmp_path / "memories"
    root.mkdir()
    (root / "USER.md").write_text("Prefers short answers with no emojis\n", encoding="utf-8")
    ok(root, "init", str(root), now=T0)
    ok(root, "log", "User: I prefer short answers with no emojis.", now=T0)
    record = json.loads(ok(root, "run", "--force", "--json").stdout)
    assert [o["op"] for o in record["ops"] if o["op"] != "diary"] in ([], ["reinforce"])
    assert (root / "USER.md").read_text(encoding="utf-8").count("emojis") == 1


def test_a_hermes_setting_that_is_not_a_mapping_is_a_config_error() -> None:
    """`hermes: 5` in the config is refused by name."""
    from dreamgit.errors import ConfigError
    from dreamgit.store.formats.hermes import HermesFormat

    with pytest.raises(ConfigError) as info:
        HermesFormat.from_config({"hermes": 5})
    assert info.value.render() == ".dreamgit/config.yaml: hermes must be a mapping"


def test_dreamgit_waits_for_hermes_lock_before_writing_its_files(tmp_path: Path) -> None:
    """While Hermes holds MEMORY.md.lock, a forget commits but leaves the file alone."""
    root = tmp_path / "memories"
    hermes_folder(root)
    ok(root, "init", str(root), now=T0)
    before = (root / "MEMORY.md").read_bytes()
    ident = json.loads(ok(root, "memories", "--json").stdout)[0]["id"]
    tip = git(root, "rev-parse", "main")
    with open(root / "MEMORY.md.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        forget = subprocess.Popen(
            [
                *installed_command(),
                "--repo",
                str(root),
                "--now",
                "2026-11-12T10:00:00Z",
                "forget",
                ident,
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        # The forget commits first, then waits for the lock to write MEMORY.md: once main
        # has moved it is waiting (a fixed sleep either wasted seconds or raced the start).
        deadline = time.monotonic() + 60
        while git(root, "rev-parse", "main") == tip and forget.poll() is None:
            assert time.monotonic() < deadline, "the forget never committed"
            time.sleep(0.02)
        time.sleep(0.2)  # room to write the file, were it not waiting
        assert forget.poll() is None  # waiting for Hermes
        assert (root / "MEMORY.md").read_bytes() == before
    assert forget.wait(timeout=60) == 0
    assert (root / "MEMORY.md").read_bytes() != before
    assert git(root, "status", "--porcelain") == ""


def test_a_gathered_fact_about_the_user_goes_to_user_md() -> None:
    """Facts, tools and preferences of the user are USER.md's; project facts MEMORY.md's."""
    fmt = HermesFormat()
    placed = {
        topic: fmt.place(
            Memory(id="m-x", topic=topic, slug="x", text="x", created=T0, updated=T0), set()
        ).file
        for topic in ("facts", "tools", "preferences", "projects", "decisions")
    }
    assert placed == {
        "facts": "USER.md",
        "tools": "USER.md",
        "preferences": "USER.md",
        "projects": "MEMORY.md",
        "decisions": "MEMORY.md",
    }


def test_hermes_budgets_hold_on_add_and_on_export(tmp_path: Path) -> None:
    """An add over USER.md's budget is refused; an export leaves out what does not fit."""
    root = tmp_path / "memories"
    hermes_folder(root)
    (root / ".dreamgit").mkdir()
    ok(root, "init", str(root), now=T0)
    config = root / ".dreamgit" / "config.yaml"
    config.write_text(config.read_text() + "hermes:\n  user_char_limit: 120\n")
    git(root, "commit", "-qam", "a small USER.md")
    long = "Prefers answers that open with the conclusion and then give the reasons."
    refused = run(root, "add", long, "--topic", "preferences")
    assert refused.exit_code == 1
    assert refused.stderr == (
        "error: not added: USER.md would hold 144 characters, over the 120 its agent loads\n"
        "hint: forget or shorten one of its entries first (`dreamgit memories`)\n"
    )
    native = tmp_path / "native"
    ok(native, "init", str(native), now=T0)
    for n in range(30):
        ok(native, "add", f"Prefers option {n} of thirty for the weekly report layout.",
           "--topic", "preferences", "--priority", "high" if n < 3 else "low")  # fmt: skip
    out = tmp_path / "out"
    exported = ok(native, "export", "--format", "hermes", "--out", str(out))
    kept = split_entries((out / "USER.md").read_text(), path="USER.md")[0]
    assert len(SEPARATOR.join(e.text for e in kept)) <= 1375
    assert {f"Prefers option {n} of thirty" for n in range(3)} <= {e.text[:26] for e in kept}
    assert exported.stderr.startswith(
        f"warning: left out {30 - len(kept)} of 30 memories that hermes's budgets cannot hold"
    )
    assert exported.stdout == f"exported {len(kept)} memories as hermes to {out}\n"
