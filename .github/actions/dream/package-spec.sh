#!/usr/bin/env bash
# Which dreamgit the dream action installs, printed as a pip requirement.
#
# Usage: package-spec.sh ROOT   (ROOT: the action repository's checkout, three levels up)
# The released package when $DREAMGIT_VERSION names one (the action's `version:` input);
# otherwise ROOT itself, the checkout of the ref the workflow pinned: a tag, a branch or a
# commit works the same, whether or not its release is on the package index yet.
set -euo pipefail
root="$(cd "$1" && pwd)"
version="${DREAMGIT_VERSION:-}"
if [[ -n "$version" ]]; then
  if [[ ! "$version" =~ ^v?[0-9]+(\.[0-9]+)*([a-z0-9.+-]*)$ ]]; then
    echo "error: version '$version' is not a dreamgit version (e.g. 0.1.0)" >&2
    exit 1
  fi
  printf 'dreamgit==%s\n' "${version#v}"
else
  printf '%s\n' "$root"
fi
