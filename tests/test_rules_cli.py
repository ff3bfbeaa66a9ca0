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
    assert out == f"{target}: ok (6 gather, 2 consolidate, 3 prune rules)\n"


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
    assert out == ".dreamgit/config.yaml: ok (6 gather, 2 consolidate, 3 prune rules)\n"


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
        "expire-past-plans",
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


def test_check_reads_the_edited_config_and_says_dreams_use_the_committed_one(
    repo: MemoryRepo,
) -> None:
    """A broken edit on disk is reported (not "ok"), with a note on which file a dream reads."""
    config = path_of(repo) / ".dreamgit" / "config.yaml"
    assert config.is_file()
    config.write_text("extends: default\ngate: 'new_sessions >='\n", encoding="utf-8")
    code, out, _ = run(path_of(repo), "check")
    assert code == 1
    assert out == (
        ".dreamgit/config.yaml:2:23: gate: the expression ends too early after '>='\n"
        "    gate: 'new_sessions >='\n"
        "                          ^\n"
        ".dreamgit/config.yaml: 1 error\n"
        "note: .dreamgit/config.yaml in the work tree differs from the committed one; dreams "
        "use the committed one until you commit it (git commit .dreamgit/config.yaml)\n"
    )
    code, out, _ = run(path_of(repo), "check", "--json")
    report = json.loads(out)
    assert (report["ok"], report["checked"]) == (False, "work tree")


def test_check_of_an_unedited_config_has_no_note(repo: MemoryRepo) -> None:
    """The committed config and the file on disk agree: no note, the committed one is checked."""
    code, out, _ = run(path_of(repo), "check", "--json")
    report = json.loads(out)
    assert (code, report["ok"], report["checked"], report["note"]) == (0, True, "committed", None)


def test_uncommitted_llm_section_is_named_in_the_run_error(repo: MemoryRepo) -> None:
    """llm: set only in the edited file: the error says the committed config is what counts."""
    config = path_of(repo) / ".dreamgit" / "config.yaml"
    committed = config.read_text(encoding="utf-8")
    config.write_text(committed + "llm: {adapter: openai, model: gpt-4o-mini}\n", "utf-8")
    repo.commit_main(
        "config: llm without a model",
        lambda _tip: {".dreamgit/config.yaml": (committed + "llm: {adapter: openai}\n").encode()},
        now=NOW,
    )
    config.write_text(committed + "llm: {adapter: openai, model: gpt-4o-mini}\n", "utf-8")
    result = CliRunner().invoke(cli, ["--repo", str(path_of(repo)), "--now", LATER, "review"])
    assert result.exit_code == 1
    assert result.stderr.startswith(
        "warning: .dreamgit/config.yaml in the work tree differs from the committed one;"
    )
    assert (
        "error: llm.model: the openai adapter needs a model (in the committed "
        ".dreamgit/config.yaml)\nhint: .dreamgit/config.yaml in the work tree differs from the "
        "committed one; dreams use the committed one until you commit it "
        "(git commit .dreamgit/config.yaml); or set llm.model in .dreamgit/config.yaml\n"
    ) in result.stderr


def _commit(repo: MemoryRepo, files: dict[str, str]) -> None:
    encoded: dict[str, bytes | None] = {p: t.encode("utf-8") for p, t in files.items()}
    repo.commit_main("test: rule files", lambda _tip: encoded, now=NOW)


def test_extends_outside_the_repository_is_refused_without_showing_the_file(
    repo: MemoryRepo, tmp_path: Path
) -> None:
    """`extends: /abs/secret` and `../..` escapes fail in check and run, showing no content."""
    secret = tmp_path / "secret.yaml"
    secret.write_text("root:x:0:0:TOP-SECRET-LINE\n", encoding="utf-8")
    for target in (str(secret), "../../secret.yaml"):
        _commit(repo, {".dreamgit/config.yaml": f"extends: {target}\n"})
        expected = (
            f".dreamgit/config.yaml:1:10: extends: '{target}' is outside the repository:"
            " a rule set extends a bundled set or a file in it"
        )
        code, out, _ = run(path_of(repo), "check")
        assert code == 1
        assert out.splitlines()[0] == expected
        assert "TOP-SECRET" not in out
        result = CliRunner().invoke(cli, ["--repo", str(path_of(repo)), "--now", LATER, "run"])
        assert result.exit_code == 1
        assert result.stderr.splitlines()[0] == f"error: {expected}"
        assert "TOP-SECRET" not in result.output


def test_relative_extends_resolve_in_the_repository_whatever_the_cwd(
    repo: MemoryRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`extends: ./team.yaml` is read beside the config in the repository, from any cwd."""
    _commit(
        repo,
        {
            ".dreamgit/config.yaml": "extends: ./team.yaml\n",
            ".dreamgit/team.yaml": "extends: ../shared/base.yaml\nlimits: {max_adds_per_run: 7}\n",
            "shared/base.yaml": "extends: conservative\n",
        },
    )
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / ".dreamgit").mkdir(parents=True)
    (elsewhere / ".dreamgit" / "team.yaml").write_text("limits: {max_adds_per_run: 1}\n")
    monkeypatch.chdir(elsewhere)
    code, out, _ = run(path_of(repo), "check")
    from dreamgit.ruleset import load_bundled

    base = load_bundled("conservative")  # the team set adds no rule of its own
    counts = f"{len(base.gather)} gather, {len(base.consolidate)} consolidate, {len(base.prune)}"
    assert (code, out) == (0, f".dreamgit/config.yaml: ok ({counts} prune rules)\n")
    code, out, _ = run(path_of(repo), "show", "--json")
    shown = json.loads(out)
    assert shown["sources"] == [
        "default.yaml",
        "conservative.yaml",
        "shared/base.yaml",
        ".dreamgit/team.yaml",
        ".dreamgit/config.yaml",
    ]
    assert shown["limits"]["max_adds_per_run"] == 7


def test_a_checked_file_may_not_extend_through_a_symlink_out_of_its_folder(
    tmp_path: Path,
) -> None:
    """`rules check FILE`: a link beside the file that points elsewhere is refused, unread."""
    outside = tmp_path / "outside.yaml"
    outside.write_text("TOP-SECRET: 1\n", encoding="utf-8")
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "link.yaml").symlink_to(outside)
    (folder / "main.yaml").write_text("extends: ./link.yaml\n", encoding="utf-8")
    code, out, _ = run(tmp_path / "nowhere", "check", str(folder / "main.yaml"))
    assert code == 1
    assert "extends: './link.yaml' is outside the repository" in out
    assert "TOP-SECRET" not in out
