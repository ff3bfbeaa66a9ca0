"""The ordered list of extraction patterns, and those for preferences, decisions and projects.

Order matters: the first pattern that finds something in a clause wins, so the
specific ones come first (identity facts, then change statements, then decisions
and preferences) and the broad ones ("I use ...", "I'm working on ...", habits)
last. Preferences may fill ``pref.<category>`` ("prefers pytest over unittest"
→ ``pref.python-test-runner``) so a newer preference in the same slot replaces
the older one; decisions carry a change when they say "X instead of Y".
"""

from __future__ import annotations

import re
from collections.abc import Callable

from dreamgit import lazyre
from dreamgit.dream.gather.common import SUBJ, Context, Draft, clean_term, dangling, tool_of
from dreamgit.dream.gather.identity import IDENTITY_PATTERNS
from dreamgit.dream.gather.phrasing import finish, swap_pronouns, third_person
from dreamgit.dream.gather.tools import LATE_TOOL_PATTERNS, TOOL_PATTERNS
from dreamgit.extract.lexicon import find_tools

__all__ = ["PATTERNS", "Pattern"]

Pattern = Callable[[str, Context], list[Draft]]

_I = re.IGNORECASE
_PREFER = lazyre.compile(
    r"^(?P<subj>i|we)(?P<adv>(?:\s+(?:really|much|strongly|definitely|generally|usually|still"
    r"|also|always|now|personally|honestly))*)(?:'d|\s+would)?\s+(?:prefer|prefers|rather)"
    r"\s+(?P<body>.{2,200})$",
    _I,
)
_LIKE_BETTER = lazyre.compile(
    r"^(?P<subj>i|we)\s+(?:like|likes|love|loves)\s+(?P<x>.{1,60}?)\s+(?:better|more)\s+than\s+"
    r"(?P<y>.{1,60}?)$",
    _I,
)
_SPLIT_PREFERENCE = lazyre.compile(r"\s+(?:over|to|rather\s+than|than|instead\s+of)\s+", _I)
_LIKE = lazyre.compile(
    SUBJ + r"(?P<verb>like|likes|love|loves|enjoy|enjoys|hate|hates|dislike|dislikes|detest"
    r"|can't\s+stand|cannot\s+stand|don't\s+like|do\s+not\s+like|don't\s+enjoy)\s+(?P<x>.{2,150})$",
    _I,
)
_DECISION = lazyre.compile(
    r"^(?:(?P<subj>i|we)(?:'ve|\s+have|'re|\s+are|'ll|\s+will)?(?:\s+(?:finally|just|already|now"
    r"|also|jointly))*\s+(?P<verb>decided|agreed|chose|chosen|picked|settled\s+on|opted"
    r"|committed|going\s+with|go\s+with|went\s+with|made\s+the\s+(?:decision|call))\b\s*"
    r"(?P<body>.{2,200})"
    r"|(?:decision|final\s+decision|the\s+decision\s+is|decided)\s*[:\u2013-]\s*(?P<body2>.{2,200})"
    r"|let's\s+go\s+with\s+(?P<body3>.{2,200}))$",
    _I,
)
_DECIDED_SWITCH = lazyre.compile(
    r"\b(?:switch|move|migrate)\s+(?:\w+\s+){0,2}?from\s+(?P<x>.{1,60}?)\s+to\s+(?P<y>.{1,60}?)"
    r"(?:\s+(?:for|because|since|as|in|at|on)\b.*)?$",
    _I,
)
_DECIDED_INSTEAD = lazyre.compile(
    r"(?P<x>[\w.+#-]+(?:\s+[\w.+#-]+)?)\s*,?\s+(?:instead\s+of|rather\s+than)\s+(?P<y>.{1,60}?)"
    r"(?:\s+(?:for|because|since|as|in|at|on)\b.*)?$",
    _I,
)
_PROJECT = lazyre.compile(
    r"^(?P<subj>i|we)(?:'m|\s+am|'re|\s+are)?(?:\s+(?:currently|now|still|also|mainly|mostly"
    r"|actively))*\s+(?P<verb>working\s+on|work\s+on|works\s+on|building|build|developing|develop"
    r"|writing|maintaining|maintain|running|run|leading|lead|contributing\s+to|contribute\s+to)"
    r"\s+(?P<body>.{2,200})$",
    _I,
)
_PROJECT_BODY = lazyre.compile(r'^(?:an?\s|my\s|our\s|"|the\s+(?-i:[A-Z])|(?-i:[A-Z]))', _I)
_MY_PROJECT = lazyre.compile(
    r"^(?:my|our)\s+(?:(?:current|main|side|latest|new|day-job|big)\s+)*"
    r"(?:project|startup|app|thesis|book|company|product)\s+(?:is|is\s+called|is\s+named)"
    r"\s+(?P<body>.{2,150})$",
    _I,
)
_PROJECT_STACK = lazyre.compile(
    r"^(?:my|our)\s+(?:project|app|service|codebase|repo|backend|frontend|stack|api|website|site)"
    r"\s+(?:uses|is\s+built\s+(?:on|with)|runs\s+on|is\s+written\s+in)\s+(?P<body>.{2,150})$",
    _I,
)
_INSTRUCTION = lazyre.compile(
    r"^(?:please\s+)?(?:(?P<adv>always|never)\s+|(?P<dont>(?:don't|do\s+not)\s+ever)\s+"
    r"|(?P<want>i\s+(?:want|need|'d\s+like|would\s+like)\s+you\s+to)\s+|(?P<from>from\s+now\s+on),?\s+(?:please\s+)?"
    r"|remember\s+to\s+)(?P<rest>(?-i:[a-z])[\w'-]*\s+.{2,200})$",
    _I,
)
_DURABLE = lazyre.compile(
    r"\b(?:always|never|every|whenever|each\s+time|any\s+time|from\s+now\s+on|by\s+default"
    r"|going\s+forward|in\s+(?:the\s+)?future|all\s+(?:my|our|the)|unless\s+I)\b",
    _I,
)
_VAGUE = lazyre.compile(r"\b(?:this|that|it|them|these|those)\b", _I)
_HABIT = lazyre.compile(SUBJ + r"(?P<rest>\S.{2,200})$", _I)


def _pref_key(x: str, y: str | None) -> str | None:
    tools = {t for t, _, _ in find_tools(x, trusted=True)}
    if len(tools) != 1:
        return None
    tool = tools.pop()
    other = tool_of(y) if y else None
    if other is not None and other.category != tool.category:
        return None
    return f"pref.{tool.category}"


def _prefer(clause: str, ctx: Context) -> list[Draft]:
    m = _LIKE_BETTER.match(clause)
    if m is not None:
        better, worse = clean_term(m["x"]), clean_term(m["y"])
        if not better:
            return []
        key = _pref_key(better, worse)
        return [Draft(third_person(clause, ctx.created), "preferences", "prefer", key)]
    m = _PREFER.match(clause)
    if m is None:
        return []
    body: str = m["body"]
    y: str | None = None
    if re.match(r"(?:not\s+)?to\s", body, _I):
        x = body  # "prefer to work mornings": no comparison to split
    else:
        parts = _SPLIT_PREFERENCE.split(body, maxsplit=1)
        x, y = parts[0], (parts[1] if len(parts) > 1 else None)
    if dangling(x) or re.match(r"you\b", x, _I):
        return []
    normal = re.sub(r"^(?P<s>i|we)(?:'d|\s+would)\s+prefer", r"\g<s> prefer", clause, flags=_I)
    text = third_person(normal, ctx.created)
    return [Draft(text, "preferences", "prefer", _pref_key(x, y))]


def _like(clause: str, ctx: Context) -> list[Draft]:
    m = _LIKE.match(clause)
    if m is None or dangling(m["x"]) or re.match(r"(?:you|your)\b", m["x"], _I):
        return []
    if len(m["x"].split()) < 1 or m["x"].lower().startswith(("to be ", "it ")):
        return []
    return [Draft(third_person(clause, ctx.created), "preferences", "like")]


def _decision(clause: str, ctx: Context) -> list[Draft]:
    m = _DECISION.match(clause)
    if m is None:
        return []
    body = m["body"] or m["body2"] or m["body3"] or ""
    if dangling(body):
        return []
    if m["body2"]:
        text = finish("Decided: " + swap_pronouns(body))
    elif m["body3"]:
        text = finish("Decided to go with " + swap_pronouns(body))
    else:
        text = third_person(clause, ctx.created)
    change: tuple[str | None, str | None] | None = None
    key = None
    sw = _DECIDED_SWITCH.search(body)
    inst = _DECIDED_INSTEAD.search(body) if sw is None else None
    if sw is not None:
        old, new = clean_term(sw["x"]), clean_term(sw["y"])
    elif inst is not None:
        old, new = clean_term(inst["y"]), clean_term(inst["x"])
    else:
        old = new = ""
    if old and new:
        change = (old, new)
        cats = {t.category for t in (tool_of(old), tool_of(new)) if t is not None}
        key = f"tool.{cats.pop()}" if len(cats) == 1 else None
    return [Draft(text, "decisions", "decision", key, change, type="project")]


def _project(clause: str, ctx: Context) -> list[Draft]:
    m = _PROJECT.match(clause)
    if m is not None:
        body = m["body"]
        if dangling(body) or not _PROJECT_BODY.match(body):
            return []
        return [Draft(third_person(clause, ctx.created), "projects", "project", type="project")]
    m = _MY_PROJECT.match(clause) or _PROJECT_STACK.match(clause)
    if m is None or dangling(m["body"]):
        return []
    return [Draft(third_person(clause, ctx.created), "projects", "project", type="project")]


def _instruction(clause: str, ctx: Context) -> list[Draft]:
    m = _INSTRUCTION.match(clause)
    if m is None:
        return []
    if m["want"] and not _DURABLE.search(m["rest"]):
        return []  # "I need you to fix the login bug" is a task, not a standing instruction
    rest = swap_pronouns(m["rest"])
    if m["adv"]:
        rest = f"{m['adv'].lower()} {rest}"
    elif m["dont"]:
        rest = f"never {rest}"
    elif m["from"]:
        rest = f"{rest} from now on"
    return [
        Draft(finish(f"Wants the agent to {rest}"), "preferences", "instruction", type="feedback")
    ]


def _habit(clause: str, ctx: Context) -> list[Draft]:
    m = _HABIT.match(clause)
    if m is None or not re.search(r"\b(?:always|never)\b", m["adv"] or "", _I):
        return []
    if dangling(m["rest"]) or _VAGUE.search(m["rest"]):
        return []  # "I always forget the syntax for this" says nothing durable
    return [Draft(third_person(clause, ctx.created), "preferences", "habit", type="user")]


#: Every pattern, most specific first; the first that finds something wins.
PATTERNS: tuple[Pattern, ...] = (
    *IDENTITY_PATTERNS,
    *TOOL_PATTERNS,
    _decision,
    _prefer,
    _like,
    *LATE_TOOL_PATTERNS,
    _project,
    _instruction,
    _habit,
)
