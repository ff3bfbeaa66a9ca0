"""GitHub: the dream workflow template, the composite action and the project's CI workflow."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pygit2
import pytest
from ruamel.yaml import YAML

from dreamgit.errors import UserError
from dreamgit.integrations.github import (
    DEFAULT_ACTION,
    WORKFLOW_PATH,
    workflow_text,
    write_workflow,
)
from dreamgit.version import __version__

ROOT = Path(__file__).resolve().parents[1]
ACTION = ROOT / ".github" / "actions" / "dream" / "action.yml"
CI = ROOT / ".github" / "workflows" / "ci.yml"
RELEASE = ROOT / ".github" / "workflows" / "release.yml"
CHECK_RELEASE = ROOT / ".github" / "scripts" / "check_release.py"
PACKAGE_SPEC = ACTION.parent / "package-spec.sh"
PINNED = re.compile(r"^[\w.-]+/[\w.-]+(/[\w./-]+)?@[0-9a-f]{40}$")


def load(text: str) -> Any:
    return YAML(typ="safe").load(text)


def tool(name: str) -> str | None:
    """A linter from PATH or from this interpreter's bin directory (a test extra)."""
    return shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))


# -- the workflow template ---------------------------------------------------------------


def test_template_schedules_an_odd_minute_and_allows_a_forced_manual_run() -> None:
    """Cron at a minute past the hour, plus workflow_dispatch with a boolean force input."""
    data = load(workflow_text())
    on = data["on"]
    minute = on["schedule"][0]["cron"].split()[0]
    assert minute.isdigit() and int(minute) % 2 == 1
    assert on["workflow_dispatch"]["inputs"]["force"] == {
        "description": "Dream even if the rules' gate says no dream is due",
        "type": "boolean",
        "default": False,
    }


def test_template_grants_write_only_to_the_job_and_never_cancels_a_dream() -> None:
    """Read-only default, contents and pull-requests write on the job, one dream at a time."""
    data = load(workflow_text())
    assert data["permissions"] == {"contents": "read"}
    assert data["concurrency"] == {
        "group": "dreamgit-${{ github.repository }}",
        "cancel-in-progress": False,
    }
    job = data["jobs"]["dream"]
    assert job["permissions"] == {"contents": "write", "pull-requests": "write"}


def test_template_checks_out_full_history_then_uses_the_action() -> None:
    """A pinned checkout with fetch-depth 0, then the dream action with force passed on."""
    steps = load(workflow_text())["jobs"]["dream"]["steps"]
    assert PINNED.match(steps[0]["uses"]) and steps[0]["uses"].startswith("actions/checkout@")
    assert steps[0]["with"] == {"fetch-depth": 0}
    assert steps[1] == {
        "uses": DEFAULT_ACTION,
        "with": {"force": "${{ inputs.force == true }}"},
    }


def test_default_action_is_pinned_to_this_release() -> None:
    """The nightly dream runs the dreamgit version that wrote the workflow."""
    assert DEFAULT_ACTION.endswith(f"/.github/actions/dream@v{__version__}")


@pytest.mark.parametrize(
    "action",
    [
        "someone/dreamgit/.github/actions/dream@0123456789abcdef0123456789abcdef01234567",
        "someone/dreamgit/.github/actions/dream@main",
        "./.github/actions/dream",
    ],
)
def test_workflow_accepts_tag_sha_and_local_action_references(action: str) -> None:
    """Any well-formed reference lands verbatim in the uses: line."""
    assert f"      - uses: {action}\n" in workflow_text(action)


@pytest.mark.parametrize(
    "action",
    [
        "someone/dreamgit/.github/actions/dream",
        "dream@v1\n    run: echo pwned",
        "someone/dreamgit@v1 # x",
        "./../outside",
        "",
    ],
)
def test_workflow_rejects_a_malformed_action_reference(action: str) -> None:
    """No ref, newlines, spaces or escapes from the repository are refused with a hint."""
    with pytest.raises(UserError) as caught:
        workflow_text(action)
    assert str(caught.value) == f"{action!r} is not a GitHub action reference"
    assert caught.value.hint == (
        "write OWNER/REPO/.github/actions/dream@REF (a release tag or a commit SHA), "
        "or ./PATH for an action inside the memory repository"
    )


def test_write_workflow_creates_the_file_and_is_idempotent(tmp_path: Path) -> None:
    """The file lands at .github/workflows/dream.yml; writing again is a no-op."""
    path = write_workflow(tmp_path)
    assert path == tmp_path / ".github" / "workflows" / "dream.yml"
    assert path.read_text(encoding="utf-8") == workflow_text()
    assert write_workflow(tmp_path) == path


def test_write_workflow_never_overwrites_an_edited_file(tmp_path: Path) -> None:
    """A workflow the user changed is left alone and the error says so."""
    path = write_workflow(tmp_path)
    path.write_text("name: mine\n", encoding="utf-8")
    with pytest.raises(UserError) as caught:
        write_workflow(tmp_path)
    assert str(caught.value) == (
        f"{path} already exists and differs from dreamgit's workflow; it was left as it is"
    )
    assert caught.value.hint == (
        "move it away and run again to get the current workflow, or edit it by hand"
    )
    assert path.read_text(encoding="utf-8") == "name: mine\n"


def test_add_workflow_commits_it_on_main_of_a_bare_repository(tmp_path: Path) -> None:
    """add_workflow commits the file; a second call commits nothing."""
    from dreamgit.integrations.github import add_workflow
    from dreamgit.store.repo import MemoryRepo

    now = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
    repo = MemoryRepo.init(tmp_path / "mem.git", bare=True, now=now)
    assert add_workflow(repo, now=now) is not None
    assert repo.read_text(WORKFLOW_PATH) == workflow_text()
    assert add_workflow(repo, now=now) is None
    with pytest.raises(UserError, match="already exists and differs"):
        add_workflow(repo, now=now, action="./.github/actions/dream")


# -- the composite action ------------------------------------------------------------------


def action_steps() -> list[dict[str, Any]]:
    data = load(ACTION.read_text(encoding="utf-8"))
    assert data["runs"]["using"] == "composite"
    steps: list[dict[str, Any]] = data["runs"]["steps"]
    return steps


def test_every_action_run_step_declares_bash() -> None:
    """Composite run steps must name their shell; ours are all bash."""
    runs = [s for s in action_steps() if "run" in s]
    assert runs and all(s.get("shell") == "bash" for s in runs)


def test_action_scripts_take_inputs_only_through_env() -> None:
    """No ${{ }} inside a run script: expressions reach scripts as environment variables."""
    for step in action_steps():
        assert "${{" not in step.get("run", ""), step.get("name")


def test_action_uses_are_pinned_by_sha() -> None:
    """Every action the composite action calls is pinned to a commit."""
    uses = [s["uses"] for s in action_steps() if "uses" in s]
    assert uses and all(PINNED.match(u) for u in uses)


def test_action_refers_only_to_inputs_it_declares() -> None:
    """Each inputs.X used in the action is declared, and each declared input is used."""
    text = ACTION.read_text(encoding="utf-8")
    declared = set(load(text)["inputs"])
    used = set(re.findall(r"\binputs\.([a-z][a-z0-9-]*)", text))
    assert used == declared


def test_action_runs_the_dream_on_a_branch_and_opens_a_pr_only_for_changes() -> None:
    """dreamgit run --no-merge --push origin --summary … --json; the PR step is gated."""
    steps = {s.get("id"): s for s in action_steps()}
    script = steps["dream"]["run"]
    assert (
        'run --no-merge --push origin --summary "$summary" --json' in script
        and 'summary="$RUNNER_TEMP/dream-summary.md"' in script
    )
    assert steps["pr"]["if"] == (
        "steps.dream.outputs.branch != '' && steps.dream.outputs.operations != '0'"
    )
    assert "gh pr create" in steps["pr"]["run"] and "gh pr edit" in steps["pr"]["run"]
    assert steps["pr"]["env"]["GH_TOKEN"] == "${{ inputs.token }}"


def test_action_installs_dreamgit_from_its_own_repository_root() -> None:
    """The package is three levels above the action's folder."""
    install = next(s for s in action_steps() if s.get("name") == "Install dreamgit")
    assert '"$GITHUB_ACTION_PATH/../../.."' in install["run"]
    assert (ACTION.parent / "../../../pyproject.toml").resolve() == ROOT / "pyproject.toml"


@pytest.mark.skipif(tool("shellcheck") is None, reason="shellcheck is not installed")
def test_action_scripts_pass_shellcheck(tmp_path: Path) -> None:
    """actionlint does not shellcheck composite actions, so the scripts are checked here."""
    for i, step in enumerate(s for s in action_steps() if "run" in s):
        script = tmp_path / f"step{i}.sh"
        script.write_text("#!/usr/bin/env bash\n" + step["run"], encoding="utf-8")
        done = subprocess.run(
            [str(tool("shellcheck")), "--shell=bash", str(script)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stdout


# -- the project's CI --------------------------------------------------------------------------


def test_ci_runs_the_ci_script_on_python_311_with_read_permissions() -> None:
    """CI is `bash .ci/run` on ubuntu with Python 3.11, actions pinned, token read-only."""
    data = load(CI.read_text(encoding="utf-8"))
    assert data["permissions"] == {"contents": "read"}
    [job] = data["jobs"].values()
    assert job["runs-on"] == "ubuntu-latest"
    uses = [s["uses"] for s in job["steps"] if "uses" in s]
    assert uses and all(PINNED.match(u) for u in uses)
    python = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/setup-python"))
    assert python["with"]["python-version"] == "3.11"
    assert job["steps"][-1]["run"] == "bash .ci/run"


# -- actionlint ----------------------------------------------------------------------------


def actionlint(cwd: Path, *files: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(tool("actionlint")), "-no-color", "-oneline", *files],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.skipif(tool("actionlint") is None, reason="actionlint is not installed")
def test_actionlint_passes_the_template_using_the_local_action(tmp_path: Path) -> None:
    """Linted as a user's repository would hold it, with the action vendored beside it.

    actionlint reads a composite action only through a workflow that uses it by path:
    then it checks the action's metadata (steps, shell) and the workflow's inputs to it.
    """
    pygit2.init_repository(str(tmp_path))
    (tmp_path / ".github" / "actions" / "dream").mkdir(parents=True)
    shutil.copy(ACTION, tmp_path / ".github" / "actions" / "dream" / "action.yml")
    write_workflow(tmp_path, action="./.github/actions/dream")
    done = actionlint(tmp_path, WORKFLOW_PATH)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.skipif(tool("actionlint") is None, reason="actionlint is not installed")
def test_actionlint_catches_a_wrong_input_to_the_action(tmp_path: Path) -> None:
    """The check above can fail: a misspelt input is reported against action.yml."""
    pygit2.init_repository(str(tmp_path))
    (tmp_path / ".github" / "actions" / "dream").mkdir(parents=True)
    shutil.copy(ACTION, tmp_path / ".github" / "actions" / "dream" / "action.yml")
    path = write_workflow(tmp_path, action="./.github/actions/dream")
    path.write_text(path.read_text().replace("force:", "forse:"), encoding="utf-8")
    done = actionlint(tmp_path, WORKFLOW_PATH)
    assert done.returncode == 1
    assert 'input "forse" is not defined in action "dreamgit dream"' in done.stdout


@pytest.mark.skipif(tool("actionlint") is None, reason="actionlint is not installed")
def test_actionlint_passes_the_template_as_written_and_the_ci_workflow(tmp_path: Path) -> None:
    """The template with its default remote reference, and ci.yml, lint clean."""
    pygit2.init_repository(str(tmp_path))
    write_workflow(tmp_path)
    assert actionlint(tmp_path, WORKFLOW_PATH).returncode == 0
    done = actionlint(ROOT, str(CI.relative_to(ROOT)))
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.skipif(tool("actionlint") is None, reason="actionlint is not installed")
def test_actionlint_passes_the_release_workflow() -> None:
    """release.yml lints clean, as CI lints every workflow."""
    done = actionlint(ROOT, str(RELEASE.relative_to(ROOT)))
    assert done.returncode == 0, done.stdout + done.stderr


# -- releases ------------------------------------------------------------------------------


def test_release_runs_on_version_tags_and_builds_without_publishing_rights() -> None:
    """A v* tag; the build job checks the tag, builds, runs twine check and keeps read rights."""
    data = load(RELEASE.read_text(encoding="utf-8"))
    assert data["on"] == {"push": {"tags": ["v*"]}}
    assert data["permissions"] == {"contents": "read"}
    build = data["jobs"]["build"]
    assert "permissions" not in build
    scripts = "\n".join(s.get("run", "") for s in build["steps"])
    assert 'python .github/scripts/check_release.py "$TAG"' in scripts
    assert "python -m build" in scripts and "twine check --strict dist/*" in scripts
    assert 'check_release.py "$TAG" dist' in scripts
    assert all(
        s["env"]["TAG"] == "${{ github.ref_name }}"
        for s in build["steps"]
        if "TAG" in s.get("run", "")
    )


def test_release_runs_the_tests_before_it_builds_with_pinned_tools() -> None:
    """The build waits for `bash .ci/run` (tests and linters); build and twine are pinned."""
    jobs = load(RELEASE.read_text(encoding="utf-8"))["jobs"]
    assert jobs["build"]["needs"] == "test"
    assert jobs["test"]["steps"][-1]["run"] == "bash .ci/run"
    scripts = "\n".join(s.get("run", "") for s in jobs["build"]["steps"])
    assert re.search(r"pip install --quiet build==[\d.]+ twine==[\d.]+", scripts)


def test_release_publishes_with_trusted_publishing_then_creates_the_github_release() -> None:
    """Only the publish job may mint an OIDC token; the release job attaches the built files."""
    jobs = load(RELEASE.read_text(encoding="utf-8"))["jobs"]
    publish, release = jobs["publish"], jobs["github-release"]
    assert publish["needs"] == "build" and publish["permissions"] == {"id-token": "write"}
    assert publish["environment"] == "pypi"
    assert publish["steps"][-1]["uses"].startswith("pypa/gh-action-pypi-publish@")
    assert "with" not in publish["steps"][-1]  # no password: trusted publishing
    assert release["needs"] == "publish" and release["permissions"] == {"contents": "write"}
    assert 'gh release create "$TAG" dist/*' in release["steps"][-1]["run"]
    assert [j for j, job in jobs.items() if "id-token" in job.get("permissions", {})] == ["publish"]
    uses = [s["uses"] for job in jobs.values() for s in job["steps"] if "uses" in s]
    assert uses and all(PINNED.match(u.split(" ")[0]) for u in uses)


def _check_release(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CHECK_RELEASE), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def test_release_check_accepts_the_tag_of_the_package_version(tmp_path: Path) -> None:
    """vX.Y.Z of version.py passes, with this version's sdist and wheel in dist."""
    assert _check_release(f"v{__version__}").stdout == f"releasing dreamgit {__version__}\n"
    (tmp_path / f"dreamgit-{__version__}.tar.gz").write_bytes(b"")
    (tmp_path / f"dreamgit-{__version__}-py3-none-any.whl").write_bytes(b"")
    assert _check_release(f"v{__version__}", str(tmp_path)).returncode == 0


@pytest.mark.parametrize("tag", ["v9.9.9", __version__, f"v{__version__}.post1", "main"])
def test_release_check_refuses_a_tag_that_is_not_the_package_version(tag: str) -> None:
    """A tag that names another version fails the release before anything is built."""
    done = _check_release(tag)
    assert done.returncode == 1
    assert done.stderr == (
        f"error: tag {tag} does not match dreamgit's version {__version__} "
        f"(engine/dreamgit/version.py): tag v{__version__}, or change the version first\n"
    )


def test_release_check_refuses_files_of_another_version(tmp_path: Path) -> None:
    """A stale wheel in dist, and the sdist missing: both are named."""
    (tmp_path / "dreamgit-0.0.1-py3-none-any.whl").write_bytes(b"")
    (tmp_path / f"dreamgit-{__version__}-py3-none-any.whl").write_bytes(b"")
    done = _check_release(f"v{__version__}", str(tmp_path))
    assert done.returncode == 1
    assert done.stderr == (
        f"error: {tmp_path}/dreamgit-0.0.1-py3-none-any.whl is not dreamgit {__version__}'s "
        "sdist or wheel\n"
        f"error: {tmp_path}/dreamgit-{__version__}.tar.gz is missing\n"
    )


def test_the_version_has_one_source_that_packaging_reads() -> None:
    """pyproject.toml takes the version from dreamgit.version, which the check reads too."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in data["project"] and "version" in data["project"]["dynamic"]
    assert data["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "dreamgit.version.__version__"
    }


def _package_spec(root: Path, version: str | None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ["PATH"]}
    if version is not None:
        env["DREAMGIT_VERSION"] = version
    return subprocess.run(
        ["bash", str(PACKAGE_SPEC), str(root)], capture_output=True, text=True, env=env, check=False
    )


def _action_checkout(tmp_path: Path, ref: str) -> Path:
    """The action repository as the runner checks it out: _actions/OWNER/REPO/REF."""
    root = tmp_path / "_actions" / "someone" / "dreamgit" / ref
    (root / "engine" / "dreamgit").mkdir(parents=True)
    shutil.copy(ROOT / "engine" / "dreamgit" / "version.py", root / "engine" / "dreamgit")
    return root


@pytest.mark.parametrize(
    "folder",
    [f"v{__version__}", "main", "0123456789abcdef0123456789abcdef01234567"],
    ids=["tag", "branch", "commit"],
)
@pytest.mark.parametrize("version", [None, ""], ids=["unset", "empty"])
def test_action_installs_its_own_checkout_at_any_ref(
    folder: str, version: str | None, tmp_path: Path
) -> None:
    """A release tag installs the checkout too: a tag pinned before it is published works."""
    root = _action_checkout(tmp_path, folder)
    done = _package_spec(root, version)
    assert done.returncode == 0 and done.stdout == f"{root.resolve()}\n"


@pytest.mark.parametrize("version", ["0.1.0", "v0.1.0", "1.2.0rc1"])
def test_action_installs_the_release_a_user_names(version: str, tmp_path: Path) -> None:
    """`version:` names a released package, installed from the index."""
    done = _package_spec(_action_checkout(tmp_path, "main"), version)
    assert done.returncode == 0 and done.stdout == f"dreamgit=={version.removeprefix('v')}\n"


def test_action_refuses_a_version_that_is_not_one(tmp_path: Path) -> None:
    """Anything but a version (a path, a second requirement) stops the install."""
    done = _package_spec(_action_checkout(tmp_path, "main"), "0.1 ; rm -rf /")
    assert done.returncode == 1
    assert done.stderr == "error: version '0.1 ; rm -rf /' is not a dreamgit version (e.g. 0.1.0)\n"


def test_action_install_step_uses_the_package_spec_script() -> None:
    """The install step passes `version:` through env and installs what the script says."""
    install = next(s for s in action_steps() if s.get("name") == "Install dreamgit")
    assert install["env"] == {"DREAMGIT_VERSION": "${{ inputs.version }}"}
    assert (
        'bash "$GITHUB_ACTION_PATH/package-spec.sh" "$GITHUB_ACTION_PATH/../../.."'
        in (install["run"])
    )
    assert 'pip install --quiet "$package"' in install["run"]


def test_action_caches_pips_downloads_before_installing() -> None:
    """pip's cache directory is restored, keyed by the Python and what is installed."""
    steps = action_steps()
    names = [s.get("name") for s in steps]
    cache = next(s for s in steps if str(s.get("uses", "")).startswith("actions/cache@"))
    assert names.index(cache["name"]) < names.index("Install dreamgit")
    assert cache["with"]["path"] == "${{ steps.pip-cache.outputs.dir }}"
    assert cache["with"]["key"] == "${{ steps.pip-cache.outputs.key }}"
    find = next(s for s in steps if s.get("id") == "pip-cache")
    assert "python -m pip cache dir" in find["run"]
    assert "pyproject.toml" in find["run"] and "$DREAMGIT_VERSION" in find["run"]


@pytest.mark.skipif(tool("shellcheck") is None, reason="shellcheck is not installed")
def test_package_spec_script_passes_shellcheck() -> None:
    """The script the action runs is shellchecked like its inline steps."""
    done = subprocess.run(
        [str(tool("shellcheck")), str(PACKAGE_SPEC)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout


@pytest.mark.skipif(tool("actionlint") is None, reason="actionlint is not installed")
def test_actionlint_passes_the_template_with_a_log_step(tmp_path: Path) -> None:
    """`init --github --log-from` writes a `log-from:` input the action declares."""
    pygit2.init_repository(str(tmp_path))
    (tmp_path / ".github" / "actions" / "dream").mkdir(parents=True)
    shutil.copy(ACTION, tmp_path / ".github" / "actions" / "dream" / "action.yml")
    path = write_workflow(
        tmp_path, action="./.github/actions/dream", log_from=[("claude-code", "sessions/claude")]
    )
    with_ = load(path.read_text(encoding="utf-8"))["jobs"]["dream"]["steps"][-1]["with"]
    assert with_["log-from"] == "claude-code sessions/claude\n"
    done = actionlint(tmp_path, WORKFLOW_PATH)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("folder", ["../elsewhere", "/home/me/.claude", "two words", ""])
def test_workflow_refuses_a_log_folder_outside_the_repository(folder: str) -> None:
    """The runner sees only the checkout: a folder outside it (or not one word) is refused."""
    with pytest.raises(UserError) as caught:
        workflow_text(log_from=[("claude-code", folder)])
    assert caught.value.message == (
        f"--log-from folder {folder!r} is not a path inside the memory repository"
    )


def test_action_logs_the_sessions_it_is_given_before_the_dream() -> None:
    """The log step runs only with `log-from:`, before the dream, one `log --from` a line."""
    steps = action_steps()
    names = [s.get("name") for s in steps]
    log = steps[names.index("Log agent sessions")]
    assert names.index("Log agent sessions") < names.index("Dream")
    assert log["if"] == "inputs.log-from != ''"
    assert log["env"] == {"LOG_FROM": "${{ inputs.log-from }}"}


@pytest.mark.skipif(tool("dreamgit") is None, reason="the dreamgit command is not installed")
def test_action_log_step_logs_each_agent_folder(tmp_path: Path) -> None:
    """The log step's script, run as the runner would, logs the Claude Code sessions once."""
    import json as json_

    from dreamgit.store.repo import MemoryRepo

    work = tmp_path / "work"
    MemoryRepo.init(work, now=datetime(2026, 11, 22, 3, 0, tzinfo=UTC))
    folder = work / "sessions-in" / "claude"
    folder.mkdir(parents=True)
    record = {
        "type": "user",
        "uuid": "u-1",
        "sessionId": "5e55a0b1-0000-4000-8000-0000000000c3",
        "timestamp": "2026-11-21T10:00:00Z",
        "message": {"role": "user", "content": "I switched the CI runners to arm64."},
    }
    (folder / "5e55a0b1-0000-4000-8000-0000000000c3.jsonl").write_text(
        json_.dumps(record) + "\n", encoding="utf-8"
    )
    venv_bin = tmp_path / "temp" / "dreamgit-venv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "dreamgit").symlink_to(str(tool("dreamgit")))
    step = next(s for s in action_steps() if s.get("name") == "Log agent sessions")
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ["HOME"],
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.environ["GIT_CONFIG_GLOBAL"],
        "RUNNER_TEMP": str(tmp_path / "temp"),
        "DREAMGIT_NOW": "2026-11-22T03:17:00Z",
        "LOG_FROM": "# agents\nclaude-code sessions-in/claude\n",
    }
    run = ["bash", "-c", step["run"]]
    done = subprocess.run(run, cwd=work, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "logged 1 Claude Code session(s); 0 already logged" in done.stderr
    again = subprocess.run(run, cwd=work, env=env, capture_output=True, text=True, check=False)
    assert "logged 0 Claude Code session(s); 1 already logged" in again.stderr
    env["LOG_FROM"] = "claude-code\n"
    bad = subprocess.run(run, cwd=work, env=env, capture_output=True, text=True, check=False)
    assert bad.returncode == 1
    assert "::error::log-from: 'claude-code' has no folder" in bad.stdout


# -- the action's dream step, run for real against a local remote --------------------------


def _dream_step(work: Path, temp: Path, now: str) -> dict[str, str]:
    """Run the action's "Dream" script as the runner would; returns its step outputs."""
    venv_bin = temp / "dreamgit-venv" / "bin"
    venv_bin.mkdir(parents=True, exist_ok=True)
    for name, target in (("python", sys.executable), ("dreamgit", tool("dreamgit"))):
        if not (venv_bin / name).exists():
            (venv_bin / name).symlink_to(str(target))
    output, summary = temp / "output", temp / "step-summary"
    output.write_text("", encoding="utf-8")
    step = next(s for s in action_steps() if s.get("id") == "dream")
    env = {
        **{k: v for k, v in step["env"].items() if not str(v).startswith("${{")},
        "PATH": os.environ["PATH"],
        "HOME": os.environ["HOME"],
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.environ["GIT_CONFIG_GLOBAL"],
        "RUNNER_TEMP": str(temp),
        "GITHUB_OUTPUT": str(output),
        "GITHUB_STEP_SUMMARY": str(summary),
        "DREAM_FORCE": "false",
        "DREAM_RULES": "",
        "DREAM_EXTRA_ARGS": "",
        "DREAMGIT_NOW": now,
        "GIT_AUTHOR_NAME": "github-actions[bot]",
        "GIT_AUTHOR_EMAIL": "bot@example.com",
        "GIT_COMMITTER_NAME": "github-actions[bot]",
        "GIT_COMMITTER_EMAIL": "bot@example.com",
    }
    done = subprocess.run(
        ["bash", "-c", step["run"]], cwd=work, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = output.read_text(encoding="utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines)


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.slow
@pytest.mark.skipif(tool("dreamgit") is None, reason="the dreamgit command is not installed")
def test_action_dream_step_replaces_the_open_dream_branch_instead_of_piling_up(
    tmp_path: Path,
) -> None:
    """Two nights, two fresh checkouts: the remote keeps one dream branch, the newest."""
    from dreamgit.store import operations
    from dreamgit.store.repo import MemoryRepo

    origin, agent = tmp_path / "origin.git", tmp_path / "agent"
    _git(tmp_path, "init", "--quiet", "--bare", "-b", "main", str(origin))
    _git(tmp_path, "-c", "init.defaultBranch=main", "clone", "--quiet", str(origin), str(agent))
    now = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
    repo = MemoryRepo.init(agent, now=now)
    branches = []
    for night, facts in enumerate((["tea", "vim", "zsh"], ["rye", "tabs", "jazz"]), start=1):
        for n, fact in enumerate(facts):
            operations.log_session(repo, f"User: I prefer {fact}.", now=now.replace(minute=n))
        _git(agent, "push", "--quiet", "origin", "main")
        work = tmp_path / f"night{night}"
        _git(tmp_path, "clone", "--quiet", str(origin), str(work))
        out = _dream_step(work, tmp_path / f"temp{night}", f"2026-11-2{2 + night}T03:17:00Z")
        assert out["branch"].startswith("dream/") and out["operations"] != "0"
        branches.append(out["branch"])
        remote = _git(origin, "for-each-ref", "--format=%(refname:short)", "refs/heads/dream/")
        assert remote.split() == [out["branch"]]
        now = now.replace(day=now.day + 1)
    assert out["replaced"] == branches[0]


# -- the Action's install step, offline -------------------------------------------------------

_PYTHON_SHIM = """#!/bin/sh
# `python` as the runner has it, except that a new venv also sees the test's packages
# (a path entry only), so pip installs from the checkout with no index to reach. The
# venv's bundled setuptools is older than the build needs (online, pip's isolated build
# fetches a newer one): it goes, and the test's own is used.
"$REAL_PYTHON" "$@" || exit $?
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
  "$3/bin/python" -m pip uninstall --quiet --yes setuptools
  site="$("$3/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"
  printf '%s\\n' "$DEPS_PATH" > "$site/deps-from-test-env.pth"
fi
"""


def _checkout_copy(dest: Path) -> Path:
    """The files the Action's install step reads: the package and the action's folder."""
    junk = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    for folder in ("engine", "rules", "prompts", ".github/actions/dream"):
        shutil.copytree(ROOT / folder, dest / folder, ignore=junk)
    for file in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / file, dest / file)
    return dest


@pytest.mark.slow
def test_action_install_step_installs_the_checkout_offline(tmp_path: Path) -> None:
    """The step's own script, run as the runner runs it with no package index: the
    checkout is built and installed into the step's venv, whose dreamgit is this one."""
    import sysconfig

    checkout = _checkout_copy(tmp_path / "checkout")
    shims = tmp_path / "shims"
    shims.mkdir()
    (shims / "python").write_text(_PYTHON_SHIM, encoding="utf-8")
    (shims / "python").chmod(0o755)
    install = next(s for s in action_steps() if s.get("name") == "Install dreamgit")
    env = {
        **os.environ,
        "PATH": f"{shims}{os.pathsep}{os.environ['PATH']}",
        "REAL_PYTHON": sys.executable,
        "DEPS_PATH": sysconfig.get_path("purelib"),
        "GITHUB_ACTION_PATH": str(checkout / ".github" / "actions" / "dream"),
        "RUNNER_TEMP": str(tmp_path / "runner"),
        "DREAMGIT_VERSION": "",
        # No index to reach; the build uses the setuptools the venv sees (pip reads
        # PIP_NO_BUILD_ISOLATION=0 as --no-build-isolation).
        "PIP_NO_INDEX": "1",
        "PIP_NO_BUILD_ISOLATION": "0",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    (tmp_path / "runner").mkdir()
    done = subprocess.run(
        ["bash", "-c", install["run"]], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"dreamgit, version {__version__}"
    venv = tmp_path / "runner" / "dreamgit-venv"
    where = subprocess.run(
        [venv / "bin" / "python", "-c", "import dreamgit; print(dreamgit.__file__)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert where.startswith(str(venv)), where  # installed from the checkout, not the editable
