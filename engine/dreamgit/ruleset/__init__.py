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

from dreamgit.ruleset.load import bundled_names, check_ruleset, load_bundled, load_ruleset
from dreamgit.ruleset.model import Rule, RuleSet

__all__ = ["Rule", "RuleSet", "bundled_names", "check_ruleset", "load_bundled", "load_ruleset"]
