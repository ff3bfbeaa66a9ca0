"""install-cron: the crontab entry, idempotent install, schedule checks, the crontab program."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import pygit2
import pytest
from click.testing import CliRunner

import dreamgit.cli.cmd_cron  # noqa: F401 - registers install-cron on the root group
from dreamgit.cli.app import cli
from dreamgit.errors import UserError
from dreamgit.integrations import cron

FAKE_CRONTAB = """#!/bin/sh
# Stands in for crontab(1): keeps the table in $FAKE_CRONTAB_FILE.
case "$1" in
  -l) if [ -f "$FAKE_CRONTAB_FILE" ]; then cat "$FAKE_CRONTAB_FILE";
      else echo "no crontab for tester" >&2; exit 1; fi ;;
  -) cat > "$FAKE_CRONTAB_FILE" ;;
  *) echo "crontab: usage" >&2; exit 2 ;;
esac
"""

OTHER_LINES = (
    "MAILTO=me@example.org\n"
    "# backups\n"
    "0 1 * * * /usr/local/bin/backup --all\n"
    "@reboot /usr/bin/true\n"
)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A real (empty) git repository with a work tree."""
    path = tmp_path / "memory repo"
    pygit2.init_repository(str(path))
    return path


@pytest.fixture
def fake_crontab(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A `crontab` program first on PATH that stores the table in a file; returns that file."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    program = bindir / "crontab"
    program.write_text(FAKE_CRONTAB)
    program.chmod(0o755)
    table = tmp_path / "crontab.txt"
    monkeypatch.setenv("FAKE_CRONTAB_FILE", str(table))
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")
    return table


def entry(repo: Path, schedule: str = "17 3 * * *") -> str:
    return cron.crontab_line(schedule=schedule, repo=repo, command="dreamgit run")


# -- the entry ------------------------------------------------------------------------


def test_entry_is_marker_line_then_job_that_cds_and_logs(repo: Path) -> None:
    """The job changes into the absolute repo, runs the command and appends to the log."""
    root = repo.resolve()
    log = root / ".git" / "dreamgit-cron.log"
    assert entry(repo) == (
        f"# dreamgit:{root}\n"
        f"17 3 * * * cd {shlex.quote(str(root))} && dreamgit run"
        f" >> {shlex.quote(str(log))} 2>&1"
    )


def test_relative_repo_path_is_made_absolute(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cron starts in $HOME, so a relative --repo must not survive into the entry."""
    monkeypatch.chdir(repo.parent)
    assert entry(Path(repo.name)) == entry(repo)


def test_percent_signs_are_escaped_for_cron(tmp_path: Path) -> None:
    """cron turns a bare % into a newline; the entry escapes every one."""
    line = cron.crontab_line(
        schedule="0 3 * * *", repo=tmp_path, command="date +%F", log=tmp_path / "x%.log"
    )
    job = line.splitlines()[1]
    assert "date +\\%F" in job and "x\\%.log" in job
    assert "%" not in job.replace("\\%", "")


def test_newline_in_command_is_refused(tmp_path: Path) -> None:
    """A crontab entry is one line; anything else is an error with a clear message."""
    with pytest.raises(UserError, match="a crontab entry must be one line"):
        cron.crontab_line(schedule="0 3 * * *", repo=tmp_path, command="a\nb")


def test_dream_command_uses_the_installed_script_by_absolute_path(tmp_path: Path) -> None:
    """When the dreamgit script is what runs, the entry calls that file."""
    script = tmp_path / "venv bin" / "dreamgit"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n")
    command = cron.dream_command(tmp_path / "mem", argv0=str(script))
    assert shlex.split(command) == [str(script), "--repo", str((tmp_path / "mem").resolve()), "run"]


def test_dream_command_falls_back_to_this_interpreter(tmp_path: Path) -> None:
    """Run any other way (python -m, pytest), the entry uses ``<python> -m dreamgit``."""
    command = cron.dream_command(tmp_path, argv0="/somewhere/pytest")
    assert shlex.split(command)[:3] == [os.path.abspath(sys.executable), "-m", "dreamgit"]


def test_log_goes_to_the_git_dir_of_a_bare_repository(tmp_path: Path) -> None:
    """A bare repository is its own git dir."""
    bare = tmp_path / "bare.git"
    pygit2.init_repository(str(bare), bare=True)
    assert cron.default_log_path(bare, env={}) == bare.resolve() / "dreamgit-cron.log"


def test_log_falls_back_to_xdg_state_outside_a_repository(tmp_path: Path) -> None:
    """No git dir: the log lives under $XDG_STATE_HOME/dreamgit, named for the folder."""
    folder = tmp_path / "not a repo"
    folder.mkdir()
    state = tmp_path / "state"
    path = cron.default_log_path(folder, env={"XDG_STATE_HOME": str(state)})
    assert path == state / "dreamgit" / "cron-not-a-repo.log"
    home = cron.default_log_path(folder, env={"HOME": str(tmp_path)})
    assert home == tmp_path / ".local" / "state" / "dreamgit" / "cron-not-a-repo.log"


# -- schedules ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "schedule",
    ["0 3 * * *", "*/15 * * * *", "5,35 8-18 * * mon-fri", "0 0 1 jan,jul *", "0 4 * * 7"],
)
def test_valid_schedules_are_accepted(schedule: str) -> None:
    """Numbers, ranges, lists, steps and month/day names are all cron syntax."""
    assert cron.validate_schedule(schedule) == schedule


def test_schedule_whitespace_and_macros_are_normalised() -> None:
    """Extra spaces collapse; a macro is lower-cased."""
    assert cron.validate_schedule("  0   3 * *  * ") == "0 3 * * *"
    assert cron.validate_schedule("@Daily") == "@daily"


@pytest.mark.parametrize(
    ("schedule", "message"),
    [
        (
            "0 3 * *",
            "schedule '0 3 * *' has 4 fields; cron needs 5: "
            "minute hour day-of-month month day-of-week",
        ),
        ("", "schedule '' has 0 fields; cron needs 5"),
        ("61 3 * * *", "schedule '61 3 * * *': minute 61 is out of range 0-59"),
        ("0 24 * * *", "schedule '0 24 * * *': hour 24 is out of range 0-23"),
        ("0 3 0 * *", "schedule '0 3 0 * *': day-of-month 0 is out of range 1-31"),
        ("0 3 * 13 *", "schedule '0 3 * 13 *': month 13 is out of range 1-12"),
        ("0 3 * * 8", "schedule '0 3 * * 8': day-of-week 8 is out of range 0-7"),
        (
            "0 3 * * fri-mon",
            "schedule '0 3 * * fri-mon': day-of-week range 'fri-mon' runs backwards",
        ),
        ("*/0 3 * * *", "schedule '*/0 3 * * *': minute step in '*/0' must be at least 1"),
        (
            "0 3 * * funday",
            "schedule '0 3 * * funday': day-of-week 'funday' is not a number or a name",
        ),
        ("0 3 * jan-x *", "schedule '0 3 * jan-x *': month 'x' is not a number or a name"),
        (
            "0 3 ? * *",
            "schedule '0 3 ? * *': day-of-month '?' is not a number, a range, a list or a step",
        ),
        ("@sometimes", "schedule '@sometimes': unknown macro '@sometimes'"),
        ("@reboot", "schedule '@reboot': unknown macro '@reboot'"),
    ],
)
def test_bad_schedules_name_the_field_and_the_problem(schedule: str, message: str) -> None:
    """Each mistake is reported with the field it is in, and a hint with an example."""
    with pytest.raises(UserError) as caught:
        cron.validate_schedule(schedule)
    assert str(caught.value).startswith(message)
    assert caught.value.hint == (
        'write five fields, e.g. "17 3 * * *" for 03:17 every day, or a macro such as @daily'
    )


# -- install / uninstall ----------------------------------------------------------------


def test_install_into_an_empty_crontab_adds_the_entry(repo: Path) -> None:
    """An empty table gets the two lines and a final newline."""
    text, changed = cron.install(entry(repo), crontab_text="")
    assert changed
    assert text == entry(repo) + "\n"


def test_installing_twice_leaves_one_entry(repo: Path) -> None:
    """Re-running install-cron changes nothing the second time."""
    once, _ = cron.install(entry(repo), crontab_text=OTHER_LINES)
    twice, changed = cron.install(entry(repo), crontab_text=once)
    assert not changed
    assert twice == once
    assert twice.count(cron.marker(repo)) == 1


def test_new_schedule_replaces_the_old_entry_in_place(repo: Path) -> None:
    """A changed schedule rewrites our job where it was, not at the end."""
    first, _ = cron.install(entry(repo), crontab_text=OTHER_LINES)
    first += "30 2 * * * /usr/bin/other\n"
    second, changed = cron.install(entry(repo, "45 4 * * 1"), crontab_text=first)
    assert changed
    assert second == first.replace("17 3 * * *", "45 4 * * 1")


def test_other_users_lines_are_untouched(repo: Path) -> None:
    """Everything that is not our entry survives install and uninstall byte for byte."""
    installed, _ = cron.install(entry(repo), crontab_text=OTHER_LINES)
    assert installed.startswith(OTHER_LINES + "\n")
    removed, changed = cron.uninstall(repo, crontab_text=installed)
    assert changed
    assert removed == OTHER_LINES


def test_entries_of_two_repositories_coexist(tmp_path: Path) -> None:
    """Each repository has its own marker, so installing one never replaces the other."""
    a, b = tmp_path / "a", tmp_path / "b"
    text, _ = cron.install(entry(a), crontab_text="")
    text, _ = cron.install(entry(b), crontab_text=text)
    text, changed = cron.install(entry(a, "0 5 * * *"), crontab_text=text)
    assert changed
    assert "0 5 * * * cd" in text and text.count("# dreamgit:") == 2
    assert entry(b) in text


def test_duplicate_markers_from_hand_edits_collapse_to_one(repo: Path) -> None:
    """Two copies of our entry become one, at the first one's place."""
    doubled = entry(repo) + "\n" + OTHER_LINES + entry(repo) + "\n"
    text, changed = cron.install(entry(repo), crontab_text=doubled)
    assert changed
    assert text == entry(repo) + "\n" + OTHER_LINES


def test_marker_without_its_job_does_not_eat_the_next_setting(repo: Path) -> None:
    """If the user deleted our job but left the marker, the line after it is kept."""
    orphan = f"{cron.marker(repo)}\nMAILTO=me@example.org\n0 1 * * * backup\n"
    text, _ = cron.install(entry(repo), crontab_text=orphan)
    assert text == entry(repo) + "\nMAILTO=me@example.org\n0 1 * * * backup\n"


def test_uninstall_without_an_entry_changes_nothing(repo: Path) -> None:
    """Removing what is not there reports no change."""
    assert cron.uninstall(repo, crontab_text=OTHER_LINES) == (OTHER_LINES, False)


def test_install_refuses_a_line_that_is_not_an_entry() -> None:
    """install() only takes what crontab_line() made."""
    with pytest.raises(ValueError, match="install\\(\\) takes an entry made by crontab_line\\(\\)"):
        cron.install("0 3 * * * true", crontab_text="")


# -- the crontab program ------------------------------------------------------------------


def test_no_crontab_yet_reads_as_empty(fake_crontab: Path) -> None:
    """`crontab -l` failing with "no crontab for" is an empty table, not an error."""
    assert cron.read_crontab() == ""


def test_write_then_read_round_trips(fake_crontab: Path) -> None:
    """What write_crontab sends is what read_crontab gets back."""
    cron.write_crontab(OTHER_LINES)
    assert fake_crontab.read_text() == OTHER_LINES
    assert cron.read_crontab() == OTHER_LINES


def test_other_crontab_failures_are_reported(tmp_path: Path) -> None:
    """A crontab that fails for another reason shows its message."""
    program = tmp_path / "crontab"
    program.write_text("#!/bin/sh\necho 'crontab: permission denied' >&2\nexit 1\n")
    program.chmod(0o755)
    with pytest.raises(UserError) as reading:
        cron.read_crontab(program=str(program))
    assert str(reading.value) == f"`{program} -l` failed: crontab: permission denied"
    with pytest.raises(UserError) as writing:
        cron.write_crontab("", program=str(program))
    assert str(writing.value) == f"`{program} -` failed: crontab: permission denied"


def test_missing_crontab_program_says_what_to_do(tmp_path: Path) -> None:
    """Without cron installed the error says so and points at --print."""
    with pytest.raises(UserError) as caught:
        cron.read_crontab(program=str(tmp_path / "crontab"))
    assert str(caught.value) == (
        f"the {str(tmp_path / 'crontab')!r} program was not found, so no crontab can be installed"
    )
    assert caught.value.hint == (
        "install cron (e.g. `apt install cron`), or add the line from "
        "`dreamgit install-cron --print` to your scheduler yourself"
    )


# -- the command ----------------------------------------------------------------------------


def invoke(repo: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--repo", str(repo), "install-cron", *args])
    return result.exit_code, result.stdout, result.stderr


def test_install_cron_twice_keeps_one_entry(repo: Path, fake_crontab: Path) -> None:
    """The command installs, then reports the entry as already installed."""
    fake_crontab.write_text(OTHER_LINES)
    code, out, _ = invoke(repo)
    assert code == 0 and out.startswith("installed:\n# dreamgit:")
    code, out, _ = invoke(repo)
    assert code == 0 and out.startswith("already installed:\n")
    table = fake_crontab.read_text()
    assert table.startswith(OTHER_LINES)
    assert table.count("# dreamgit:") == 1
    job = table.splitlines()[-1]
    assert job.startswith("17 3 * * * cd ")
    assert f"--repo {shlex.quote(str(repo.resolve()))} run >> " in job
    assert "dreamgit-cron.log" in job


def test_install_cron_with_a_new_schedule_replaces_it(repo: Path, fake_crontab: Path) -> None:
    """--schedule on a second install swaps the schedule of the one entry."""
    invoke(repo)
    code, _, _ = invoke(repo, "--schedule", "0 4 * * 0")
    assert code == 0
    table = fake_crontab.read_text()
    assert table.count("# dreamgit:") == 1 and "\n0 4 * * 0 cd " in table


def test_install_cron_print_touches_nothing(repo: Path, fake_crontab: Path) -> None:
    """--print shows the entry and leaves the crontab alone."""
    code, out, _ = invoke(repo, "--print")
    assert code == 0 and out.startswith(f"# dreamgit:{repo.resolve()}\n17 3 * * * cd ")
    assert not fake_crontab.exists()


def test_install_cron_remove_takes_the_entry_out(repo: Path, fake_crontab: Path) -> None:
    """--remove undoes the install and leaves other lines."""
    fake_crontab.write_text(OTHER_LINES)
    invoke(repo)
    code, out, _ = invoke(repo, "--remove")
    assert (code, out) == (0, "removed\n")
    assert fake_crontab.read_text() == OTHER_LINES
    assert invoke(repo, "--remove")[:2] == (0, "no dreamgit entry for this repository\n")


def test_install_cron_json_reports_entry_and_log(repo: Path, fake_crontab: Path) -> None:
    """--json gives the entry, the log path and whether the table changed."""
    code, out, _ = invoke(repo, "--json")
    data = json.loads(out)
    assert code == 0 and data["changed"] is True and data["installed"] is True
    assert data["entry"] == fake_crontab.read_text().rstrip("\n")
    assert data["log"] == str(repo.resolve() / ".git" / "dreamgit-cron.log")


def test_install_cron_bad_schedule_exits_1_with_the_reason(repo: Path, fake_crontab: Path) -> None:
    """A wrong schedule is a user error naming the field; nothing is written."""
    code, _, err = invoke(repo, "--schedule", "0 25 * * *")
    assert code == 1
    assert err.startswith("error: schedule '0 25 * * *': hour 25 is out of range 0-23\nhint: ")
    assert not fake_crontab.exists()


def test_install_cron_on_a_missing_directory_is_a_user_error(tmp_path: Path) -> None:
    """A --repo that does not exist is reported before cron is touched."""
    code, _, err = invoke(tmp_path / "nope")
    assert code == 1
    assert err == f"error: {tmp_path / 'nope'}: no such directory\nhint: pass --repo PATH\n"


def test_install_cron_print_and_remove_conflict(repo: Path) -> None:
    """--print with --remove is a usage error."""
    code, _, err = invoke(repo, "--print", "--remove")
    assert code == 2 and "--print and --remove do not go together" in err


def test_newline_in_the_repository_path_is_refused_with_the_whole_message(tmp_path: Path) -> None:
    """A path holding a newline would split the crontab entry: refused, saying where."""
    with pytest.raises(UserError) as info:
        cron.crontab_line(schedule="0 3 * * *", repo=tmp_path / "a\nb", command="dreamgit run")
    assert info.value.render() == (
        "a crontab entry must be one line; the path or command holds a newline"
    )
