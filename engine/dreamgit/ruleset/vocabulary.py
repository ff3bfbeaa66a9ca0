"""What a rule file may say: its top-level keys, rule sections, knobs and their kinds.

The words of the rule language's YAML side, in one place: ``ruleset.layer`` checks a
file against them, ``ruleset.merge`` merges layers key by key with them, and the
memory-test gate (``report.gate``) reads its modes from here.
"""

from __future__ import annotations

__all__ = [
    "ACTIONS",
    "EXTRACT_MODES",
    "HOOK_MODES",
    "KNOBS",
    "LANGUAGE_CODE",
    "MAPPING_SECTIONS",
    "ORDER_FIELDS",
    "RULE_KEYS",
    "SECTIONS",
    "TEST_GATES",
    "TOP_KEYS",
]

SECTIONS = ("gather", "consolidate", "prune")
ACTIONS = ("merge", "supersede")
RULE_KEYS = ("name", "when", "score", "description", "action")
ORDER_FIELDS = (
    "priority",
    "updated",
    "created",
    "recalls",
    "confidence",
    "rank",
    "topic",
    "name",
    "chars",
)

# Knobs of the mapping sections: key -> (kind, description used in messages).
KNOBS: dict[str, dict[str, str]] = {
    "limits": {
        "max_changes_per_run": "count",
        "max_adds_per_run": "count",
        "max_new_chars_per_run": "count",
        "max_removals_per_run": "count",
    },
    "budgets": {
        "max_memories": "positive",
        "max_per_topic": "positive",
        "index_chars": "positive",
        "index_line_chars": "positive",
        "gather_chars_ratio": "fraction",
        "gather_min_chars": "count",
        "gather_min_novelty": "fraction",
    },
    "protected": {"topics": "topics", "priorities": "priorities"},
    "proposals": {
        "add_min": "fraction",
        "merge_min": "fraction",
        "replace_min": "fraction",
        "supersession_min": "fraction",
        "remove_min": "fraction",
        "max_priority": "priority",
        "max_chars_per_run": "count",
    },
    "index": {"order": "order"},
}
#: What ``tests: {gate: …}`` may say: hold a run that broke a test, only report it, or
#: run no tests.
TEST_GATES = ("block", "advisory", "off")
TOP_KEYS = (
    "version",
    "extends",
    "disable",
    "gate",
    "limits",
    "budgets",
    "protected",
    *SECTIONS,
    "rank",
    "index",
    "proposals",
    "author",
    "llm",
    "format",
    "branch",
    "hermes",
    "recall",
    "promotion",
    "health",
    "reflect",
    "tests",
    "hooks",
    # Read and checked by integrations/claude_hooks.py (exclude:, recall-chars:).
    "claude-hooks",
    # Read and checked by store/secrets.py (secrets.mode), not by the rules.
    "secrets",
    # Which extractor reads which session; read by dream/gather/choice.py.
    "extract",
    # The language of the repository's sessions when the detectors are unsure of one;
    # read by dream/gather/language.py.
    "language",
)
#: Top-level sections that must be mappings, checked further by the modules that read them.
MAPPING_SECTIONS = ("llm", "recall", "promotion", "health", "reflect", "claude-hooks")
#: What ``hooks:`` may say about the git hooks dreamgit's commits skip: a note, or quiet.
HOOK_MODES = ("note", "quiet")
#: ``extract:`` values: the rules on every session (and the model too, when one is
#: configured), or the model alone on sessions not in English.
EXTRACT_MODES = ("both", "by-language")
#: ``language:`` values: an ISO 639-1 (or 639-3) code in lower case ("de", "pt", "en").
LANGUAGE_CODE = r"[a-z]{2,3}"
