"""Rule sets as data: YAML read into layers, merged along ``extends:``, compiled and frozen.

``source`` (files and locations) → ``layer`` (one YAML file, checked against
``vocabulary``, what a rule file may say) → ``merge`` (bundled sets and overrides) →
``model`` (the ``RuleSet`` the dream reads, and its YAML dump);
``context`` gives the names expressions may use and their values; ``explain`` traces
every rule over one memory; ``files`` says where ``extends:`` may read (the repository,
or a checked file's folder, never beyond); ``repo_rules`` loads a repository's own set.

May import: ``dsl``, ``store``, ``textsim`` and the kernel.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dreamgit.ruleset.load import bundled_names, check_ruleset, load_bundled, load_ruleset
    from dreamgit.ruleset.model import Rule, RuleSet

__all__ = ["Rule", "RuleSet", "bundled_names", "check_ruleset", "load_bundled", "load_ruleset"]

#: Where each name lives: imported on first use, so a reader of ``ruleset.context``
#: alone (recall's weighting) does not load the YAML reader and the merger.
_HOMES = {
    "Rule": "model",
    "RuleSet": "model",
    "bundled_names": "load",
    "check_ruleset": "load",
    "load_bundled": "load",
    "load_ruleset": "load",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'dreamgit.ruleset' has no attribute {name!r}")
    return getattr(import_module(f"dreamgit.ruleset.{home}"), name)
