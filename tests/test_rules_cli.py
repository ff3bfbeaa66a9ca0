"""`dreamgit rules check|show|explain` through click's CliRunner, against real repositories."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

import dreamgit.cli.cmd_rules  # noqa: F401 - registers the rules group until the CLI imports it
from dreamgit.cli.app import cli
from dreamgit.clock import parse_time
from dreamgit.store import operations
from dreamgit.store.repo import MemoryRepo

DATA = Path(__file__).parent / "data" / "rules"
NOW = parse_time("2026-11-20T10:00:00Z")
LATER = "2026-11-30T10:00:00Z"


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    """A memory repository with two near-duplicate memories."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    operations.add_memory(
        repo, "Prefers pytest over unittest", topic="preferences", priority="low", now=NOW
    )
    operations.add_memory(repo, "Prefers pytest over unittest!", topic="preferences", now=NOW)
    return repo


def run(repo_path: Path | None, *args: str) -> tuple[int, str, str]:
    """Invoke the CLI; (exit code, stdout, stderr)."""
    prefix = ["--repo", str(repo_path)] if repo_path is not None else []
    result = CliRunner().invoke(cli, [*prefix, "--now", LATER, "rules", *args])
    return result.exit_code, result.stdout, result.stderr


def path_of(repo: MemoryRepo) -> Path:
    """The repository's folder."""
    return repo.store.workdir or repo.store.git_dir


def test_check_a_bundled_file_outside_any_repository(tmp_path: Path) -> None:
    """`rules check FILE` needs no repository and says what it found."""
    target = tmp_path / "default.yaml"
    target.write_text(
        (resources.files("dreamgit.rules") / "default.yaml").read_text(encoding="utf-8")
    )
    code, out, _ = run(tmp_path / "nowhere", "check", str(target))
    assert code == 0
    assert out == f"{target}: ok (5 gather, 2 consolidate, 2 prune rules)\n"


def test_check_lists_every_error_and_exits_1() -> None:
    """All mistakes are printed with carets, then a count; the exit code is 1."""
    target = DATA / "many_errors.yaml"
    code, out, _ = run(None, "check", str(target))
    assert code == 1
    assert out.count(f"{target}:") == 7
    assert out.endswith(f"{target}: 6 errors\n")
    assert (
        f"{target}:9:32: prune[expire-low].when: unknown name 'agee'; did you mean 'age'?\n" in out
    )
    assert "                                   ^^^^\n" in out


def test_check_json_gives_each_error_with_its_position() -> None:
    """--json lists errors as records."""
    code, out, _ = run(None, "check", "--json", str(DATA / "many_errors.yaml"))
    assert code == 1
    report = json.loads(out)
    assert report["ok"] is False
    assert report["errors"][0] == {
        "file": str(DATA / "many_errors.yaml"),
        "line": 3,
        "column": 1,
        "message": "unknown key 'limts'; did you mean 'limits'?",
        "hint": None,
    }


def test_check_of_an_unreadable_file_is_a_user_error(tmp_path: Path) -> None:
    """A missing FILE is exit 1 with the reason."""
    code, _, err = run(None, "check", str(tmp_path / "absent.yaml"))
    assert code == 1
    assert err == f"error: {tmp_path / 'absent.yaml'}: cannot read: No such file or directory\n"


def test_check_without_file_reads_the_repository_config(repo: MemoryRepo) -> None:
    """Without FILE, the config at the main tip is checked."""
    code, out, _ = run(path_of(repo), "check")
    assert code == 0
    assert out == ".dreamgit/config.yaml: ok (5 gather, 2 consolidate, 2 prune rules)\n"


def test_show_prints_the_effective_rules_as_loadable_yaml(repo: MemoryRepo) -> None:
    """`rules show` prints YAML that is itself a valid rule file."""
    code, out, _ = run(path_of(repo), "show")
    assert code == 0
    assert out.startswith("# Effective rules, merged from: default.yaml <- .dreamgit/config.yaml\n")
    from dreamgit.ruleset import load_bundled, load_ruleset

    assert load_ruleset(out).to_dict() == load_bundled("default").to_dict()


def test_show_json(repo: MemoryRepo) -> None:
    """`rules show --json` is the same set as data."""
    code, out, _ = run(path_of(repo), "show", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["sources"] == ["default.yaml", ".dreamgit/config.yaml"]
    assert data["budgets"]["max_memories"] == 500
    assert [r["name"] for r in data["prune"]] == [
        "expire-ephemeral",
        "expire-low",
    ]


def test_explain_shows_each_rule_its_names_and_result(repo: MemoryRepo) -> None:
    """For one memory: every rule, its expression, the values it read and the verdict."""
    low = next(m for m in repo.memories(now=NOW) if m.priority == "low")
    code, out, _ = run(path_of(repo), "explain", low.id)
    assert code == 0
    assert out.startswith(f"{low.id}  {low.path}  (low)\n")
    assert (
        "\nprune expire-low: yes\n"
        "  priority == low and age > 7d and recalls == 0\n"
        "  priority = low, age = 10d, recalls = 0\n"
    ) in out
    assert "\nprune expire-ephemeral: no\n" in out
    assert "\nconsolidate merge-near-duplicates: yes\n" in out
    assert "  (matches b = m-" in out
    assert "\nprotected: no\n" in out
    assert "\nrank: " in out


def test_explain_json(repo: MemoryRepo) -> None:
    """--json gives each explanation as a record with plain values."""
    low = next(m for m in repo.memories(now=NOW) if m.priority == "low")
    code, out, _ = run(path_of(repo), "explain", "--json", low.id)
    data = json.loads(out)
    assert code == 0
    rule = next(r for r in data["rules"] if r["rule"] == "expire-low")
    assert rule == {
        "section": "prune",
        "rule": "expire-low",
        "expression": "priority == low and age > 7d and recalls == 0",
        "result": True,
        "values": {"priority": "low", "age": "10d", "recalls": 0},
        "note": "",
    }


def test_explain_unknown_id_is_exit_1(repo: MemoryRepo) -> None:
    """An id that is not an active memory is a user error."""
    code, _, err = run(path_of(repo), "explain", "m-nope")
    assert code == 1
    assert err.startswith("error: no active memory with id m-nope\n")


def test_broken_repository_config_fails_show_with_its_location(repo: MemoryRepo) -> None:
    """A config with a mistake makes `rules show` exit 1 with file:line:col and caret."""
    broken = b'prune:\n  - name: x\n    when: "agee > 1d"\n'
    repo.commit_main("config: break it", lambda tip: {".dreamgit/config.yaml": broken}, now=NOW)
    code, _, err = run(path_of(repo), "show")
    assert code == 1
    assert err.startswith(
        "error: .dreamgit/config.yaml:3:12: prune[x].when:"
        " unknown name 'agee'; did you mean 'age'?\n"
    )
