"""Loading rule sets: bundled sets, extends, overrides by name, disable, and the result's API."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path

import pytest

from dreamgit.dsl import Priority
from dreamgit.errors import RuleError
from dreamgit.llm.proposals import Thresholds
from dreamgit.model import Memory
from dreamgit.ruleset import bundled_names, check_ruleset, load_bundled, load_ruleset
from dreamgit.ruleset.context import CANDIDATE_DEFAULTS, gate_env, memory_env, pair_env

DATA = Path(__file__).parent / "data" / "rules"
NOW = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)


def memory(
    ident: str = "m-1",
    *,
    text: str = "Prefers pytest over unittest for Python tests",
    topic: str = "preferences",
    priority: str = "normal",
    age: timedelta = timedelta(days=1),
    idle: timedelta | None = None,
    recalls: int = 0,
    key: str | None = None,
    confidence: float = 0.9,
) -> Memory:
    """A memory created ``age`` before NOW and updated ``idle`` before NOW."""
    return Memory(
        id=ident,
        topic=topic,
        slug=ident,
        text=text,
        created=NOW - age,
        updated=NOW - (idle if idle is not None else age),
        priority=priority,
        recalls=recalls,
        key=key,
        confidence=confidence,
    )


def pruned_by(ruleset_name: str, m: Memory) -> str | None:
    """The first prune rule of a bundled set that holds for ``m`` (protection applied)."""
    rs = load_bundled(ruleset_name)
    if rs.is_protected(m):
        return None
    env = memory_env(m, NOW)
    return next((r.name for r in rs.prune if r.when.evaluate(env)), None)


def test_bundled_sets_are_default_and_conservative() -> None:
    """Both documented sets ship as package data."""
    assert bundled_names() == ("conservative", "default", "recall-tracked")


@pytest.mark.parametrize("name", ["default", "conservative"])
def test_every_bundled_set_checks_clean(name: str) -> None:
    """`rules check` passes on each bundled file."""
    text = (resources.files("dreamgit.rules") / f"{name}.yaml").read_text(encoding="utf-8")
    assert check_ruleset(text, filename=f"{name}.yaml") == []


def test_no_config_means_the_bundled_default() -> None:
    """A repository without .dreamgit/config.yaml runs the default rules."""
    assert load_ruleset(None) is load_bundled("default")


@pytest.mark.parametrize(
    ("m", "rule"),
    [
        (memory(priority="ephemeral", age=timedelta(hours=25)), "expire-ephemeral"),
        (memory(priority="ephemeral", age=timedelta(hours=23)), None),
        (memory(priority="low", age=timedelta(days=8)), "expire-low"),
        (memory(priority="low", age=timedelta(days=8), recalls=2), None),
        # Issue 11: no recall is ever recorded, so no durable memory ages out for want of one.
        (memory(priority="normal", age=timedelta(days=100)), None),
        (memory(priority="normal", age=timedelta(days=100), idle=timedelta(days=5)), None),
        (memory(priority="high", age=timedelta(days=100)), None),
        (memory(priority="high", age=timedelta(days=400)), None),
        (memory(priority="core", age=timedelta(days=4000)), None),
        (memory(priority="ephemeral", topic="identity", age=timedelta(days=9)), None),
    ],
)
def test_default_priority_lifecycle(m: Memory, rule: str | None) -> None:
    """Ephemeral after 24 h, low after 7 days; normal, high and core are durable."""
    assert pruned_by("default", m) == rule


@pytest.mark.parametrize(
    ("m", "rule"),
    [
        (memory(priority="ephemeral", age=timedelta(hours=25)), "expire-ephemeral"),
        (memory(priority="normal", age=timedelta(days=100)), None),
        (memory(priority="normal", age=timedelta(days=200)), None),
        (memory(priority="high", age=timedelta(days=4000)), None),
    ],
)
def test_conservative_prunes_more_slowly(m: Memory, rule: str | None) -> None:
    """Conservative keeps normal memories six months and never ages out high ones."""
    assert pruned_by("conservative", m) == rule


@pytest.mark.parametrize("name", ["default", "conservative", "recall-tracked"])
def test_bundled_sets_evaluate_against_sample_memories(name: str) -> None:
    """Every expression of each bundled set evaluates on sample memories and pairs."""
    rs = load_bundled(name)
    samples = [
        memory("m-1"),
        memory("m-2", text="Prefers pytest over unittest for Python tests!", key="py.tests"),
        memory("m-3", text="password: hunter2", priority="low", age=timedelta(days=30)),
        memory("m-4", text="ok", priority="ephemeral", confidence=0.2),
        memory("m-5", text="Deploys go through staging", topic="identity", priority="core"),
    ]
    # Gather rules read a statement's kind, salience and speaker besides the memory.
    envs = [{**memory_env(m, NOW), **CANDIDATE_DEFAULTS} for m in samples]
    gathered = {
        m.id: [r.name for r in rs.gather if r.when.evaluate(e)]
        for m, e in zip(samples, envs, strict=True)
    }
    assert gathered["m-1"] == []
    assert gathered["m-3"] == ["skip-secrets"]
    assert gathered["m-4"] == ["skip-trivial", "skip-unsure"]
    for env in envs:
        assert isinstance(rs.rank.evaluate(env), float)
        for rule in rs.prune:
            assert isinstance(rule.when.evaluate(env), bool)
    pair = pair_env(samples[1], samples[0], NOW)
    matched = [r.name for r in rs.consolidate if r.when.evaluate(pair)]
    assert matched == ["merge-near-duplicates"]
    assert rs.gate is not None
    assert rs.gate.evaluate(
        gate_env(new_sessions=3, last_dream=None, memories=5, pending_chars=0, now=NOW)
    )


def test_rank_puts_priority_first() -> None:
    """A recalled, fresh normal memory still ranks below a stale, unrecalled high one."""
    rs = load_bundled("default")
    normal = memory_env(memory(priority="normal", recalls=50, confidence=1.0), NOW)
    high = memory_env(memory(priority="high", age=timedelta(days=300), confidence=0.1), NOW)
    assert rs.rank.evaluate(high) > rs.rank.evaluate(normal)


def test_conservative_has_hermes_limits_and_thresholds() -> None:
    """Hermes: 3 changes, 1 add, 250 chars; add .88, replace .80 (supersession .75), remove .85."""
    rs = load_bundled("conservative")
    assert (rs.limits.max_changes_per_run, rs.limits.max_adds_per_run) == (3, 1)
    assert rs.limits.max_new_chars_per_run == 250
    t = Thresholds.from_mapping(rs.proposals.as_dict())
    assert (t.add_min, t.replace_min, t.supersession_min, t.remove_min) == (0.88, 0.80, 0.75, 0.85)
    assert rs.disabled == ()
    assert rs.sources == ("default.yaml", "conservative.yaml")


@pytest.mark.parametrize(
    ("m", "rule"),
    [
        (memory(priority="normal", age=timedelta(days=100)), "stale-normal-unrecalled"),
        (memory(priority="normal", age=timedelta(days=100), recalls=1), None),
        (memory(priority="high", age=timedelta(days=400)), "stale-high-unrecalled"),
        (memory(priority="core", age=timedelta(days=4000)), None),
    ],
)
def test_recall_tracked_retires_what_nobody_recalls(m: Memory, rule: str | None) -> None:
    """Where recalls are recorded, the recall-tracked set ages out unrecalled memories."""
    assert pruned_by("recall-tracked", m) == rule


def test_default_knobs() -> None:
    """Budget 500, protected identity and core, index budget, gate of 3 sessions and 1 hour."""
    rs = load_bundled("default")
    assert rs.budgets.max_memories == 500
    assert rs.budgets.index_chars == 8000
    assert rs.budgets.index_line_chars == 150
    assert rs.protected.topics == ("identity",)
    assert rs.protected.priorities == ("core",)
    assert rs.gate_text == "new_sessions >= 3 and hours_since_last_dream >= 1"
    assert [(k.field, k.descending) for k in rs.index_order] == [
        ("priority", True),
        ("updated", True),
    ]


def test_override_by_name_changes_only_the_given_fields() -> None:
    """A rule with an inherited name replaces those fields and keeps its place and the rest."""
    base = load_bundled("default")
    rs = load_ruleset('prune:\n  - name: expire-low\n    when: "priority == low and age > 14d"\n')
    rule = rs.rule("expire-low")
    assert rule is not None
    assert rule.when.text == "priority == low and age > 14d"
    assert rule.description == base.rule("expire-low").description  # type: ignore[union-attr]
    assert [r.name for r in rs.prune] == [r.name for r in base.prune]
    assert str(rule.location) == ".dreamgit/config.yaml:2:5"


def test_new_rules_are_appended_and_disable_removes_by_name() -> None:
    """New names go to the end of their phase; `disable` drops inherited rules."""
    rs = load_ruleset(
        "disable: [expire-low, skip-unsure]\n"
        "prune:\n  - name: drop-scratch\n    when: \"topic == 'scratch'\"\n"
    )
    assert [r.name for r in rs.prune] == [
        "expire-ephemeral",
        "expire-past-plans",
        "drop-scratch",
    ]
    assert "skip-unsure" not in [r.name for r in rs.gather]
    assert rs.disabled == ("expire-low", "skip-unsure")


def test_sections_merge_key_by_key_and_lists_replace() -> None:
    """Inside limits/budgets/protected/proposals one key changes; a list is replaced whole."""
    rs = load_ruleset(
        "extends: conservative\nlimits: {max_adds_per_run: 2}\nprotected: {topics: [team]}\n"
    )
    assert (rs.limits.max_changes_per_run, rs.limits.max_adds_per_run) == (3, 2)
    assert rs.protected.topics == ("team",)
    assert rs.protected.priorities == ("core",)


def test_settings_outside_the_rules_are_accepted() -> None:
    """author and any llm mapping live in the same file and are not rule errors."""
    rs = load_ruleset(
        "author: {name: A, email: a@example.com}\nllm: {provider: x, anything: [1]}\n"
    )
    assert rs.limits == load_bundled("default").limits


def test_gate_can_be_switched_off() -> None:
    """`gate: null` means every run is due."""
    assert load_ruleset("gate: null\n").gate is None
    assert load_ruleset("gate: null\n").gate_text is None


def test_gate_env_treats_never_as_long_ago() -> None:
    """Before the first dream the hours since it are huge, so an hours condition holds."""
    env = gate_env(new_sessions=0, last_dream=None, memories=0, pending_chars=0, now=NOW)
    assert env["hours_since_last_dream"] == 1e9
    later = gate_env(
        new_sessions=3, last_dream=NOW - timedelta(minutes=30), memories=0, pending_chars=0, now=NOW
    )
    assert later["hours_since_last_dream"] == 0.5
    assert later["since_last_dream"] == timedelta(minutes=30)


def test_extends_a_file_by_relative_path(tmp_path: Path) -> None:
    """A config can extend a team file, which extends a bundled set; paths are relative."""
    text = (DATA / "repo_config.yaml").read_text(encoding="utf-8")
    rs = load_ruleset(text, filename=str(DATA / "repo_config.yaml"))
    assert rs.protected.topics == ("identity", "team")
    assert rs.limits.max_changes_per_run == 3  # from conservative
    assert rs.rule("drop-scratch") is not None
    assert rs.rule("expire-ephemeral").when.text.endswith("48h")  # type: ignore[union-attr]
    assert [Path(s).name for s in rs.sources] == [
        "default.yaml",
        "conservative.yaml",
        "team.yaml",
        "repo_config.yaml",
    ]
    via_base_dir = load_ruleset(text, filename=".dreamgit/config.yaml", base_dir=DATA)
    assert via_base_dir.to_dict() == rs.to_dict()


def test_extends_cycle_is_an_error() -> None:
    """a extends b extends a: reported at the extends value, naming the whole cycle."""
    path = DATA / "cycle_a.yaml"
    errors = check_ruleset(path.read_text(encoding="utf-8"), filename="cycle_a.yaml", base_dir=DATA)
    assert [e.render() for e in errors] == [
        f"{DATA / 'cycle_b.yaml'}:2:10: extends: cycle: cycle_a.yaml -> {DATA / 'cycle_b.yaml'}"
        " -> cycle_a.yaml\n    extends: ./cycle_a.yaml\n             ^^^^^^^^^^^^^^"
    ]


def test_missing_extended_file_is_an_error() -> None:
    """A path that does not exist is reported at the extends value."""
    errors = check_ruleset("extends: ./no-such-rules.yaml\n", filename="config.yaml", base_dir=DATA)
    assert [e.render() for e in errors] == [
        "config.yaml:1:10: extends: cannot read './no-such-rules.yaml': no such file\n"
        "    extends: ./no-such-rules.yaml\n"
        "             ^^^^^^^^^^^^^^^^^^^^"
    ]


def test_errors_in_an_extended_file_name_that_file() -> None:
    """A broken file further up the chain is reported with its own name and line."""
    errors = check_ruleset("extends: ./many_errors.yaml\n", filename="config.yaml", base_dir=DATA)
    assert {Path(e.file or "").name for e in errors} == {"many_errors.yaml"}


def test_check_lists_every_error_not_just_the_first() -> None:
    """rules check reports all mistakes of a file, in line order."""
    text = (DATA / "many_errors.yaml").read_text(encoding="utf-8")
    errors = check_ruleset(text, filename="many_errors.yaml")
    assert [(e.line, e.reason) for e in errors] == [
        (3, "unknown key 'limts'; did you mean 'limits'?"),
        (5, "limits.max_adds_per_run: must be a whole number, not a string"),
        (6, "disable: no rule named 'expire-lwo'; did you mean 'expire-low'?"),
        (9, "prune[expire-low].when: unknown name 'agee'; did you mean 'age'?"),
        (10, "prune[no-condition]: a rule needs 'when' (its condition)"),
        (
            13,
            "prune[bad-duration].when: bad duration '7x'; a duration is a number followed by"
            " ms, s, m, h, d or w (30m, 24h, 7d)",
        ),
    ]


def test_load_raises_the_first_error_and_counts_the_rest() -> None:
    """load_ruleset raises one RuleError whose hint says how many more there are."""
    text = (DATA / "many_errors.yaml").read_text(encoding="utf-8")
    with pytest.raises(RuleError) as info:
        load_ruleset(text, filename="many_errors.yaml")
    assert info.value.line == 3
    assert info.value.hint == "and 5 more errors: `dreamgit rules check` lists them all"
    assert info.value.exit_code == 1


def test_repeated_loads_of_a_broken_config_do_not_accumulate_errors() -> None:
    """The cached bundled sets stay clean: the same mistakes give the same errors each time."""
    text = "disable: [nope]\n"
    assert len(check_ruleset(text)) == len(check_ruleset(text)) == 1


def test_unknown_bundled_name_for_load_bundled() -> None:
    """load_bundled of an unknown name is a RuleError listing the sets."""
    with pytest.raises(RuleError) as info:
        load_bundled("strict")
    assert info.value.render() == (
        "no bundled rule set named 'strict'\nhint: bundled sets: conservative, default,"
        " recall-tracked"
    )


@pytest.mark.parametrize("name", ["default", "conservative"])
def test_to_yaml_is_a_rule_file_that_loads_to_the_same_set(name: str) -> None:
    """`rules show` output, loaded again, gives the same effective rules."""
    rs = load_bundled(name)
    again = load_ruleset(rs.to_yaml(), filename="shown.yaml")
    assert again.to_dict() == rs.to_dict()


def test_to_yaml_comments_where_each_rule_came_from() -> None:
    """Each rule in the shown YAML says its file and line."""
    rs = load_ruleset('prune:\n  - name: extra\n    when: "age > 1d"\n', filename="config.yaml")
    shown = rs.to_yaml()
    assert shown.startswith("# Effective rules, merged from: default.yaml <- config.yaml\n")
    assert "- name: extra  # from config.yaml:2:5\n" in shown
    assert '    when: "age > 1d"\n' in shown


def test_is_protected_by_topic_or_priority() -> None:
    """Protected topics and priorities are exempt; others are not."""
    rs = load_bundled("default")
    assert rs.is_protected(memory(topic="identity"))
    assert rs.is_protected(memory(priority="core"))
    assert not rs.is_protected(memory())


def test_memory_env_holds_every_documented_name() -> None:
    """The environment matches the schema: names, types and derived values."""
    m = memory(key=None, age=timedelta(days=3), idle=timedelta(hours=5), recalls=2)
    env = memory_env(m, NOW)
    assert set(env) == {
        "id",
        "topic",
        "priority",
        "key",
        "tags",
        "type",
        "text",
        "name",
        "description",
        "chars",
        "age",
        "idle",
        "recalls",
        "confidence",
        "sources",
        "supersedes",
        "valid_from",
        "superseded",
        "since_day",
        "recurs",
        "recall",
        "recalls_recorded",
    }
    assert env["priority"] is Priority.normal
    assert env["key"] == ""
    assert env["chars"] == len(m.text)
    assert (env["age"], env["idle"]) == (timedelta(days=3), timedelta(hours=5))
    assert (env["valid_from"], env["superseded"]) == (timedelta(days=3), False)


def test_extends_in_a_repository_tree_stays_inside_it() -> None:
    """TreeFiles: relative to the extending file; absolute paths and `..` past the root refused."""
    from dreamgit.ruleset.files import TreeFiles

    files = {
        ".dreamgit/team.yaml": "extends: ../shared/base.yaml\n",
        "shared/base.yaml": "extends: conservative\n",
    }
    tree = TreeFiles(files.get)
    rs = load_ruleset("extends: ./team.yaml\n", filename=".dreamgit/config.yaml", files=tree)
    assert rs.sources[-3:] == ("shared/base.yaml", ".dreamgit/team.yaml", ".dreamgit/config.yaml")
    for target in ("/etc/passwd", "../../x.yaml", "..\\\\x.yaml"):
        errors = check_ruleset(
            f"extends: '{target}'\n", filename=".dreamgit/config.yaml", files=tree
        )
        assert [e.reason for e in errors] == [
            f"extends: '{target}' is outside the repository: a rule set extends a bundled set"
            " or a file in it"
        ]


def test_aliases_and_bad_identities_in_a_rule_file_are_errors_with_positions() -> None:
    """A YAML alias and an author with a line break are reported at their line and column."""
    errors = check_ruleset(
        "limits: &l {max_adds_per_run: 2}\nbudgets: *l\n", filename="config.yaml"
    )
    assert [(e.line, e.column, e.reason) for e in errors] == [
        (
            2,
            1,
            "YAML aliases (*name) are not allowed: each one repeats a value, and nested ones"
            " can make a small file expand without bound",
        )
    ]
    errors = check_ruleset('author: {name: "a\\rb", email: x@y}\n', filename="config.yaml")
    assert [(e.line, e.column, e.reason) for e in errors] == [
        (
            1,
            16,
            "author.name: '\\r' cannot be part of a git identity (no line breaks, control"
            " characters, < or >)",
        )
    ]


def test_merge_keys_in_a_rule_file_are_read_and_errors_point_where_a_key_was_written() -> None:
    """A YAML merge (``<<:``) of an inline mapping: its keys are read as the mapping's own,
    and a wrong key is reported at its own line (the check raised KeyError on it)."""
    rs = load_ruleset(
        'version: 1\n<<:\n  gate: "new_sessions >= 7"\n', filename=".dreamgit/config.yaml"
    )
    assert rs.gate is not None and rs.gate.text == "new_sessions >= 7"
    text = "version: 1\nprotected:\n  topics: [identity]\n<<:\n  priorities: [core]\n"
    errors = check_ruleset(text, filename="config.yaml")
    assert [(e.line, e.column, e.reason) for e in errors] == [(5, 3, "unknown key 'priorities'")]
    rule = "prune:\n  - name: x\n    when: 'age > 3d'\n    <<: {score: 1, whenn: 2}\n"
    errors = check_ruleset(rule, filename="config.yaml")
    assert [(e.line, e.column) for e in errors] == [(4, 20)]
    assert "unknown key 'whenn'" in errors[0].reason
