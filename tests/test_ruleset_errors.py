"""Every rule-set mistake a user can make has a pinned message pointing at the right place.

Each case is a config text and the full rendering of its first error: file, line,
column, message, the YAML line and a caret under the offending characters.
"""

from __future__ import annotations

import pytest

from dreamgit.ruleset import check_ruleset

CASES = [
    pytest.param(
        ("limts:\n  max_changes_per_run: 3\n"),
        ("config.yaml:1:1: unknown key 'limts'; did you mean 'limits'?\n    limts:\n    ^^^^^"),
        id="a misspelt top-level key",
    ),
    pytest.param(
        ("limits:\n  max_change_per_run: 3\n"),
        (
            "config.yaml:2:3: limits: unknown key 'max_change_per_run'; did you mean 'max_changes"
            "_per_run'?\n"
            "      max_change_per_run: 3\n"
            "      ^^^^^^^^^^^^^^^^^^"
        ),
        id="a misspelt key inside a section",
    ),
    pytest.param(
        ('prune:\n  - name: quick\n    wehn: "age > 1d"\n'),
        (
            "config.yaml:3:5: prune[quick]: unknown key 'wehn'; did you mean 'when'?\n"
            '        wehn: "age > 1d"\n'
            "        ^^^^"
        ),
        id="a misspelt key inside a rule",
    ),
    pytest.param(
        ("prune:\n  - name: dupes\n    when: \"simlarity(text, 'x') > 0.9\"\n"),
        (
            "config.yaml:3:12: prune[dupes].when: unknown function 'simlarity'; did you mean 'sim"
            "ilarity'?\n"
            "        when: \"simlarity(text, 'x') > 0.9\"\n"
            "               ^^^^^^^^^"
        ),
        id="an unknown function",
    ),
    pytest.param(
        ('prune:\n  - name: old\n    when: "priority == low and agee > 7d"\n'),
        (
            "config.yaml:3:32: prune[old].when: unknown name 'agee'; did you mean 'age'?\n"
            '        when: "priority == low and agee > 7d"\n'
            "                                   ^^^^"
        ),
        id="an unknown name",
    ),
    pytest.param(
        ("prune:\n  - name: old\n    when: \"a.topic == 'x'\"\n"),
        (
            "config.yaml:3:12: prune[old].when: unknown name 'a.topic': a.<field> and b.<field> e"
            "xist only in consolidate rules\n"
            "        when: \"a.topic == 'x'\"\n"
            "               ^^^^^^^"
        ),
        id="a pair name outside consolidate",
    ),
    pytest.param(
        ("consolidate:\n  - name: same\n    action: merge\n    when: \"topic == 'x'\"\n"),
        (
            "config.yaml:4:12: consolidate[same].when: unknown name 'topic': a consolidate rule c"
            "ompares two memories: write a.topic or b.topic\n"
            "        when: \"topic == 'x'\"\n"
            "               ^^^^^"
        ),
        id="a memory name in a pair rule",
    ),
    pytest.param(
        ('prune:\n  - name: old\n    when: "(age > 7d and recalls == 0"\n'),
        (
            "config.yaml:3:12: prune[old].when: unbalanced parenthesis: '(' is never closed\n"
            '        when: "(age > 7d and recalls == 0"\n'
            "               ^"
        ),
        id="an unbalanced parenthesis",
    ),
    pytest.param(
        ('prune:\n  - name: old\n    when: "age > 7x"\n'),
        (
            "config.yaml:3:18: prune[old].when: bad duration '7x'; a duration is a number followe"
            "d by ms, s, m, h, d or w (30m, 24h, 7d)\n"
            '        when: "age > 7x"\n'
            "                     ^^"
        ),
        id="a bad duration",
    ),
    pytest.param(
        'gate: "new_sessions = 3"\n',
        (
            "config.yaml:1:21: gate: '=' is not an operator; use '==' to compare\n"
            '    gate: "new_sessions = 3"\n'
            "                        ^"
        ),
        id="= for ==",
    ),
    pytest.param(
        ("prune:\n  - name: old\n    when: \"recalls > 'many'\"\n"),
        (
            "config.yaml:3:12: prune[old].when: cannot compare a number with a string\n"
            "        when: \"recalls > 'many'\"\n"
            "               ^^^^^^^^^^^^^^^^"
        ),
        id="a string compared with a number",
    ),
    pytest.param(
        ("prune:\n  - name: old\n    when: \"age > '7d'\"\n"),
        (
            "config.yaml:3:12: prune[old].when: cannot compare a duration with a string\n"
            "        when: \"age > '7d'\"\n"
            "               ^^^^^^^^^^"
        ),
        id="a duration compared with a string",
    ),
    pytest.param(
        ("prune:\n  - name: old\n    when: \"priority == 'urgent'\"\n"),
        (
            "config.yaml:3:24: prune[old].when: unknown priority 'urgent'\n"
            "        when: \"priority == 'urgent'\"\n"
            "                           ^^^^^^^^\n"
            "hint: priorities are ephemeral, low, normal, high, core"
        ),
        id="an unknown priority in an expression",
    ),
    pytest.param(
        ("protected:\n  priorities: [core, hihg]\n"),
        (
            "config.yaml:2:22: protected.priorities: unknown priority 'hihg'; did you mean 'high'"
            "?\n"
            "      priorities: [core, hihg]\n"
            "                         ^^^^\n"
            "hint: priorities are ephemeral, low, normal, high, core"
        ),
        id="an unknown priority in protected",
    ),
    pytest.param(
        ("gather:\n  - name: secrets\n    when: \"text matches 'key[0-9'\"\n"),
        (
            "config.yaml:3:25: gather[secrets].when: bad regular expression: unterminated charact"
            "er set at position 4\n"
            "        when: \"text matches 'key[0-9'\"\n"
            "                            ^^^^^^^^^"
        ),
        id="a bad regular expression",
    ),
    pytest.param(
        ("gather:\n  - name: secrets\n    when: \"text matches '(?=a)b'\"\n"),
        (
            "config.yaml:3:25: gather[secrets].when: look-arounds are not allowed in rule pattern"
            "s: rule patterns run on RE2, which matches in linear time and has no such thing\n"
            "        when: \"text matches '(?=a)b'\"\n"
            "                            ^^^^^^^^"
        ),
        id="a look-around the linear-time engine cannot run",
    ),
    pytest.param(
        "extends: defualt\n",
        (
            "config.yaml:1:10: extends: no bundled rule set named 'defualt'; did you mean 'defaul"
            "t'?\n"
            "    extends: defualt\n"
            "             ^^^^^^^\n"
            "hint: bundled sets: conservative, default, recall-tracked; or give a path such as"
            " ./team.yaml"
        ),
        id="an unknown bundled set",
    ),
    pytest.param(
        ("prune:\n  - name: forgetful\n    description: no condition\n"),
        (
            "config.yaml:2:5: prune[forgetful]: a rule needs 'when' (its condition)\n"
            "      - name: forgetful\n"
            "        ^"
        ),
        id="a rule without when",
    ),
    pytest.param(
        ('prune:\n  - name: twice\n    when: "age > 1d"\n  - name: twice\n    when: "age > 2d"\n'),
        (
            "config.yaml:4:5: prune[twice]: duplicate rule name 'twice' (first at line 2)\n"
            "      - name: twice\n"
            "        ^"
        ),
        id="duplicate rule names",
    ),
    pytest.param(
        "limits: 5\n",
        ("config.yaml:1:9: limits: must be a mapping, not a number\n    limits: 5\n            ^"),
        id="a number where a mapping belongs",
    ),
    pytest.param(
        ("limits:\n  max_changes_per_run: many\n"),
        (
            "config.yaml:2:24: limits.max_changes_per_run: must be a whole number, not a string\n"
            "      max_changes_per_run: many\n"
            "                           ^"
        ),
        id="a string where a whole number belongs",
    ),
    pytest.param(
        "prune: expire-everything\n",
        (
            "config.yaml:1:8: prune: must be a list of rules, not a string\n"
            "    prune: expire-everything\n"
            "           ^"
        ),
        id="a string where a list of rules belongs",
    ),
    pytest.param(
        "disable: [expire-lwo]\n",
        (
            "config.yaml:1:11: disable: no rule named 'expire-lwo'; did you mean 'expire-low'?\n"
            "    disable: [expire-lwo]\n"
            "              ^^^^^^^^^^"
        ),
        id="disabling an unknown rule",
    ),
    pytest.param(
        ('consolidate:\n  - name: same-name\n    when: "a.name == b.name"\n'),
        (
            "config.yaml:2:5: consolidate[same-name]: a consolidate rule needs 'action: merge' or"
            " 'action: supersede'\n"
            "      - name: same-name\n"
            "        ^"
        ),
        id="a consolidate rule without an action",
    ),
    pytest.param(
        ('prune:\n  - name: old\n    when: "recalls + 1"\n'),
        (
            "config.yaml:3:12: prune[old].when: a condition must be true or false, but this is a "
            "number\n"
            '        when: "recalls + 1"\n'
            "               ^^^^^^^^^^^"
        ),
        id="a condition that is not true/false",
    ),
    pytest.param(
        ('prune:\n  - name: old\n    when: "len(text, tags) > 3"\n'),
        (
            "config.yaml:3:12: prune[old].when: len(x) takes 1 argument, not 2\n"
            '        when: "len(text, tags) > 3"\n'
            "               ^^^^^^^^^^^^^^^"
        ),
        id="a call with the wrong arity",
    ),
    pytest.param(
        ("prune:\n  - name: old\n    when: >\n      priority == low and\n      agee > 7d\n"),
        (
            "config.yaml:5:7: prune[old].when: unknown name 'agee'; did you mean 'age'?\n"
            "          agee > 7d\n"
            "          ^^^^"
        ),
        id="a mistake inside a folded block scalar",
    ),
    pytest.param(
        ('prune:\n  - name: old\n    when: "age > 1d\n'),
        (
            "config.yaml:3:11: invalid YAML: while scanning a quoted scalar, found unexpected end"
            " of stream\n"
            '        when: "age > 1d\n'
            "              ^"
        ),
        id="an unterminated YAML string",
    ),
    pytest.param(
        ("limits:\n  max_adds_per_run: 1\n  max_adds_per_run: 2\n"),
        (
            "config.yaml:3:3: duplicate key 'max_adds_per_run' (the mapping starts at line 2)\n"
            "      max_adds_per_run: 2\n"
            "      ^"
        ),
        id="a duplicate YAML key",
    ),
    pytest.param(
        ('prune:\n  - name: Expire Old\n    when: "age > 1d"\n'),
        (
            "config.yaml:2:11: prune[Expire Old]: rule name 'Expire Old' must be lowercase letter"
            "s, digits, - and _\n"
            "      - name: Expire Old\n"
            "              ^^^^^^^^^^"
        ),
        id="a badly formed rule name",
    ),
    pytest.param(
        ('prune:\n  - name: merge-near-duplicates\n    when: "age > 1d"\n'),
        (
            "config.yaml:2:5: prune[merge-near-duplicates]: 'merge-near-duplicates' is already a "
            "consolidate rule; give this rule another name\n"
            "      - name: merge-near-duplicates\n"
            "        ^"
        ),
        id="a rule name taken by another phase",
    ),
    pytest.param(
        "version: 2\n",
        (
            "config.yaml:1:10: version: this dreamgit reads rule sets of version 1, not 2\n"
            "    version: 2\n"
            "             ^"
        ),
        id="an unsupported version",
    ),
    pytest.param(
        ("proposals:\n  add_min: 1.5\n"),
        (
            "config.yaml:2:12: proposals.add_min: must be from 0 to 1, not 1.5\n"
            "      add_min: 1.5\n"
            "               ^"
        ),
        id="a threshold out of range",
    ),
    pytest.param(
        ('index:\n  order: "priority desc, updatd"\n'),
        (
            "config.yaml:2:26: index.order: 'updatd' is not 'FIELD [asc|desc]'; did you mean 'upd"
            "ated'? (fields: priority, updated, created, recalls, confidence, rank, topic, name, "
            "chars)\n"
            '      order: "priority desc, updatd"\n'
            "                             ^^^^^^"
        ),
        id="a misspelt index order field",
    ),
    pytest.param(
        ('prune:\n  - name: old\n    action: merge\n    when: "age > 1d"\n'),
        (
            "config.yaml:3:5: prune[old]: unknown key 'action' (only consolidate rules have an ac"
            "tion)\n"
            "        action: merge\n"
            "        ^^^^^^"
        ),
        id="an action outside consolidate",
    ),
    pytest.param(
        ("prune:\n  - name: old\n    when: \"text matches '\\\\d+' and agee > 1d\"\n"),
        (
            "config.yaml:3:36: prune[old].when: unknown name 'agee'; did you mean 'age'?\n"
            "        when: \"text matches '\\\\d+' and agee > 1d\"\n"
            "                                       ^^^^"
        ),
        id="a quoted expression with escapes",
    ),
]


@pytest.mark.parametrize(("text", "rendered"), CASES)
def test_mistake_is_reported_with_its_location_and_caret(text: str, rendered: str) -> None:
    """The one error of each broken config renders exactly as pinned."""
    errors = check_ruleset(text, filename="config.yaml")
    assert [e.render() for e in errors] == [rendered]


def test_a_character_that_is_not_text_is_a_rule_error_at_its_place() -> None:
    """A lone surrogate (a string no file can hold) is reported where it stands."""
    errors = check_ruleset("version: 1\ngate: \ud800\n", filename="config.yaml")
    assert [(e.line, e.column, e.reason) for e in errors] == [
        (2, 7, "character U+D800 is not valid Unicode text")
    ]
