"""Hermes memory in place: §-separated entries rewritten in place, within character budgets."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from dreamgit.errors import MemoryFileError
from dreamgit.store.formats.hermes import SEPARATOR, split_entries
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
    assert ops == [(o["op"], o["memories"]) for o in review["ops"]]
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
