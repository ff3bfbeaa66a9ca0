"""Check that a release tag names the package's version, and that the built files carry it.

Usage: python .github/scripts/check_release.py TAG [DIST_DIR]

The version is written once, in engine/dreamgit/version.py (packaging reads it
from there); a tag vX.Y.Z releases exactly that version. With DIST_DIR, every
file there must be this version's sdist or wheel, and both must be present.
Exit 0 when all holds; otherwise exit 1 with what is wrong.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

VERSION_FILE = Path(__file__).resolve().parents[2] / "engine" / "dreamgit" / "version.py"


def package_version(path: Path = VERSION_FILE) -> str:
    """``__version__`` as written in ``path``, read without importing the package."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if (
            isinstance(node, ast.Assign)
            and [getattr(t, "id", None) for t in node.targets] == ["__version__"]
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            return node.value.value
    raise SystemExit(f"error: {path} does not set __version__ to a string")


def problems(tag: str, version: str, dist: Path | None) -> list[str]:
    """What is wrong with releasing ``tag`` (and the files in ``dist``); empty when nothing."""
    found = []
    if tag != f"v{version}":
        found.append(
            f"tag {tag} does not match dreamgit's version {version} "
            f"(engine/dreamgit/version.py): tag v{version}, or change the version first"
        )
    if dist is not None:
        names = sorted(p.name for p in dist.iterdir()) if dist.is_dir() else []
        expected = {f"dreamgit-{version}.tar.gz", f"dreamgit-{version}-py3-none-any.whl"}
        for name in names:
            if name not in expected:
                found.append(f"{dist}/{name} is not dreamgit {version}'s sdist or wheel")
        for name in sorted(expected - set(names)):
            found.append(f"{dist}/{name} is missing")
    return found


def main(argv: list[str]) -> int:
    """Check ``argv`` (TAG [DIST_DIR]); print each problem and return 1, or return 0."""
    if len(argv) not in (1, 2):
        print("usage: check_release.py TAG [DIST_DIR]", file=sys.stderr)
        return 2
    version = package_version()
    found = problems(argv[0], version, Path(argv[1]) if len(argv) == 2 else None)
    for problem in found:
        print(f"error: {problem}", file=sys.stderr)
    if not found:
        print(f"releasing dreamgit {version}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
