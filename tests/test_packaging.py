"""What ships: the wheel installs into a fresh venv and runs with its bundled data."""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import json
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = {
    "dreamgit.rules": (ROOT / "rules", "*.yaml"),
    "dreamgit.prompts": (ROOT / "prompts", "*.j2"),
}


def _run(*args: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _source_copy(dest: Path) -> Path:
    """The files a build reads, copied so the build leaves the working tree alone."""
    junk = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    for folder in ("engine", "rules", "prompts"):
        shutil.copytree(ROOT / folder, dest / folder, ignore=junk)
    for file in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / file, dest / file)
    return dest


def _setuptools_is_new_enough() -> bool:
    try:
        major = int(importlib.metadata.version("setuptools").split(".")[0])
    except importlib.metadata.PackageNotFoundError:
        return False
    return major >= 77  # the floor pyproject.toml's build-system asks for


def _build_wheel(tmp_path: Path) -> Path:
    src = _source_copy(tmp_path / "src")
    dist = tmp_path / "dist"
    # Offline when this environment can build; otherwise pip fetches setuptools itself.
    isolation = ["--no-isolation"] if _setuptools_is_new_enough() else []
    _run(sys.executable, "-m", "build", "--wheel", *isolation, "--outdir", dist, src)
    (wheel,) = dist.glob("dreamgit-*.whl")
    return wheel


def _fresh_venv(tmp_path: Path, wheel: Path) -> Path:
    """A new venv with the wheel installed; its dependencies come from this environment."""
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    site = Path(
        _run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))").strip()
    )
    # Only a path entry: this environment's own .pth files (the editable install's
    # finder among them) are not run, so `dreamgit` can only come from the wheel.
    (site / "deps-from-test-env.pth").write_text(sysconfig.get_path("purelib") + "\n")
    _run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", wheel)
    return venv


PROBE = """
import importlib.resources, json, dreamgit
def listing(package, pattern):
    return sorted(p.name for p in importlib.resources.files(package).iterdir()
                  if p.is_file() and p.match(pattern) and p.read_text(encoding="utf-8"))
print(json.dumps({
    "file": dreamgit.__file__,
    "rules": listing("dreamgit.rules", "*.yaml"),
    "prompts": listing("dreamgit.prompts", "*.j2"),
    "grammar": importlib.resources.files("dreamgit.dsl").joinpath("grammar.lark").is_file(),
}))
"""


def _expected(package: str) -> list[str]:
    folder, pattern = BUNDLED[package]
    return sorted(p.name for p in folder.glob(pattern))


@pytest.mark.slow
def test_wheel_installs_and_runs_with_bundled_rules_and_prompts(tmp_path: Path) -> None:
    """Build the wheel, install it in a fresh venv, run the command and read the bundled data."""
    wheel = _build_wheel(tmp_path)
    venv = _fresh_venv(tmp_path, wheel)
    command = venv / "bin" / "dreamgit"
    from dreamgit.version import __version__

    assert _run(command, "--version") == f"dreamgit, version {__version__}\n"
    probe = json.loads(_run(venv / "bin" / "python", "-c", PROBE, cwd=tmp_path))
    assert probe["file"].startswith(str(venv)), probe["file"]
    assert probe["rules"] == _expected("dreamgit.rules") and probe["rules"]
    assert probe["prompts"] == _expected("dreamgit.prompts") and probe["prompts"]
    assert probe["grammar"]
    # The status gate is evaluated with the bundled default rules.
    repo = tmp_path / "mem"
    _run(command, "init", repo)
    status = json.loads(_run(command, "--repo", repo, "status", "--json"))
    assert status["memories"] == 0 and status["reason"]


def test_editable_install_reads_rules_and_prompts_from_the_source_tree() -> None:
    """In the development install, dreamgit.rules and dreamgit.prompts are rules/ and prompts/."""
    import dreamgit

    assert Path(dreamgit.__file__).resolve().is_relative_to(ROOT / "engine")
    for package, (folder, pattern) in BUNDLED.items():
        files = importlib.resources.files(package)
        assert Path(str(files)).resolve() == folder.resolve()
        names = sorted(p.name for p in files.iterdir() if p.is_file() and fnmatch(p.name, pattern))
        assert names == _expected(package) and names


def test_every_package_folder_is_listed_for_the_wheel() -> None:
    """pyproject.toml lists each folder of engine/ that has an __init__.py (a missing one ships
    a wheel that fails on first import of it, while the editable install still works)."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    listed = set(setuptools["setuptools"]["packages"]) - set(BUNDLED)
    engine = ROOT / "engine"
    folders = {
        ".".join(init.parent.relative_to(engine).parts) for init in engine.rglob("__init__.py")
    }
    assert sorted(folders - listed) == [], "add these to [tool.setuptools] packages"
    assert sorted(listed - folders) == [], "these listed packages have no folder"
