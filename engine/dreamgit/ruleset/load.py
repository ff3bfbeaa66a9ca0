"""Rule sets: load a repository's rules, check them, and get the bundled ones.

A rule set is YAML (structure, thresholds, budgets) with conditions and scores
written in the expression language of :mod:`dreamgit.dsl`. A repository's
``.dreamgit/config.yaml`` extends a bundled set (``default`` unless it names
another set or a file), overrides rules by name and disables rules by name. Every
expression is compiled and type-checked here, at load time, so a dream never meets
a broken rule: mistakes are :class:`~dreamgit.errors.RuleError` with the file,
line, column and a caret under the offending text.

The reading lives in ``ruleset.layer``, the merging in ``ruleset.merge`` and the
values and their YAML output in ``ruleset.model``.
"""

from __future__ import annotations

import functools
from pathlib import Path

from dreamgit.errors import RuleError
from dreamgit.ruleset.files import FolderFiles, RuleFiles
from dreamgit.ruleset.layer import read_layer
from dreamgit.ruleset.merge import bundled_names, bundled_text, merge
from dreamgit.ruleset.model import Rule, RuleSet
from dreamgit.ruleset.source import Location

__all__ = [
    "Location",
    "Rule",
    "RuleSet",
    "bundled_names",
    "check_ruleset",
    "load_bundled",
    "load_ruleset",
]

DEFAULT = "default"


def load_ruleset(
    text: str | None,
    *,
    filename: str = ".dreamgit/config.yaml",
    base_dir: Path | None = None,
    files: RuleFiles | None = None,
) -> RuleSet:
    """The effective rule set of a config text; None (no config) is the bundled ``default``.

    ``filename`` names the text in messages. ``extends:`` paths are relative to the
    file that gives them and read from ``files`` (a repository's tree, where
    ``filename`` is the path in it); without ``files``, from the folder ``base_dir``
    (default: the folder of ``filename``), and never from outside that folder.
    Raises the first :class:`RuleError`; :func:`check_ruleset` returns them all.
    """
    if text is None:
        return load_bundled(DEFAULT)
    ruleset, errors = _load(text, filename, base_dir, files)
    if errors:
        first = errors[0]
        if len(errors) > 1 and first.hint is None:
            more = len(errors) - 1
            plural = "s" if more > 1 else ""
            first.hint = f"and {more} more error{plural}: `dreamgit rules check` lists them all"
        raise first
    assert ruleset is not None
    return ruleset


def check_ruleset(
    text: str | None,
    *,
    filename: str = ".dreamgit/config.yaml",
    base_dir: Path | None = None,
    files: RuleFiles | None = None,
) -> list[RuleError]:
    """Every error in a config text and the files it extends (empty when it is valid)."""
    if text is None:
        return []
    return _load(text, filename, base_dir, files)[1]


@functools.cache
def load_bundled(name: str) -> RuleSet:
    """A rule set shipped with dreamgit (``default``, ``conservative``)."""
    names = bundled_names()
    if name not in names:
        raise RuleError(
            f"no bundled rule set named '{name}'", hint=f"bundled sets: {', '.join(names)}"
        )
    ruleset, errors = merge(read_layer(f"{name}.yaml", bundled_text(name)), None, name)
    if errors:  # pragma: no cover - the bundled sets are checked by the test suite
        raise errors[0]
    assert ruleset is not None
    return ruleset


def _load(
    text: str, filename: str, base_dir: Path | None, files: RuleFiles | None
) -> tuple[RuleSet | None, list[RuleError]]:
    layer = read_layer(filename, text)
    if files is not None:
        return merge(layer, files, filename)
    folder = base_dir if base_dir is not None else Path(filename).parent
    return merge(layer, FolderFiles(folder), str(folder / Path(filename).name))
