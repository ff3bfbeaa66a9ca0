#!/usr/bin/env bash
# Which dreamgit the dream action installs, printed as a pip requirement.
#
# Usage: package-spec.sh ROOT   (ROOT: the action repository's checkout, three levels up)
# When the action runs at a release tag (vX.Y.Z, the version in ROOT's version.py), the
# released package of that version; from a branch, a commit or a local path, ROOT itself.
# The ref comes from $ACTION_REF (github.action_ref, which can be empty in composite
# actions), else from ROOT's folder name: the runner checks actions out as OWNER/REPO/REF.
set -euo pipefail
root="$(cd "$1" && pwd)"
version="$(sed -n 's/^__version__ = "\([^"]*\)"$/\1/p' "$root/engine/dreamgit/version.py")"
ref="${ACTION_REF:-}"
if [[ -z "$ref" ]]; then
  ref="$(basename "$root")"
fi
if [[ -n "$version" && "$ref" == "v$version" ]]; then
  printf 'dreamgit==%s\n' "$version"
else
  printf '%s\n' "$root"
fi
