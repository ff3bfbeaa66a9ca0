"""Patterns for the tools the user works with, and for explicit changes of tool.

Change statements carry ``change = (old, new)``: "switched from Flask to FastAPI"
→ ("Flask", "FastAPI"), "use X instead of Y" → ("Y", "X"), "no longer use Vim" →
("Vim", None), "switched to Neovim" → (None, "Neovim"). Keys: a change or a plain
"I use X" fills ``tool.<category>`` only where the lexicon knows the category and
the slot is plausibly single (an editor or a shell for "use"; any category both
terms of a change share). Two databases can be in use at once; two editors rarely.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from dreamgit import lazyre
from dreamgit.dream.gather.common import (
    SUBJ,
    Context,
    Draft,
    clean_term,
    dangling,
    extend_term,
    slug_word,
    spelled,
    tool_like,
    tool_of,
)
from dreamgit.dream.gather.phrasing import finish, swap_pronouns, third_person
from dreamgit.extract.lexicon import find_tools, lookup_tool

__all__ = ["LATE_TOOL_PATTERNS", "TOOL_PATTERNS"]

_I = re.IGNORECASE
_TERM = r".{1,60}?"
_REST = (
    r"(?P<rest>\s+(?:for|because|since|as|at|in|on|after|when|and|but|anymore|any\s*more|now"
    r"|last|this|earlier|today|yesterday|recently|a\s+while\s+ago|years?\s+ago|months?\s+ago"
    r"|weeks?\s+ago|back\s+in|ever\s+since|next|soon)\b.*)?$"
)
_USE_VERBS = r"use|uses|using|work\s+with|code\s+in|write|run"
_NO_LONGER = lazyre.compile(SUBJ + rf"(?:{_USE_VERBS})\s+(?P<x>{_TERM}){_REST}", _I)
_DONT_ANYMORE = lazyre.compile(
    SUBJ
    + rf"(?:don't|do\s+not|dont)\s+(?:{_USE_VERBS})\s+(?P<x>{_TERM})\s+any\s*more(?P<rest>.*)$",
    _I,
)
_STOPPED = lazyre.compile(
    SUBJ
    + rf"(?:stopped|quit|ceased)\s+(?:using|working\s+with|coding\s+in)\s+(?P<x>{_TERM}){_REST}",
    _I,
)
_DROPPED = lazyre.compile(
    SUBJ + r"(?:dropped|ditched|abandoned|uninstalled|gave\s+up(?:\s+on)?|given\s+up(?:\s+on)?"
    rf"|moved\s+away\s+from|got\s+rid\s+of|quit)\s+(?P<x>{_TERM}){_REST}",
    _I,
)
_USED_TO = lazyre.compile(SUBJ + rf"used\s+to\s+use\s+(?P<x>{_TERM}){_REST}", _I)
_CHOOSE_VERBS = (
    r"(?:use|uses|using|went\s+with|go\s+with|chose|picked|rely\s+on|write|code\s+in"
    r"|switched\s+to|moved\s+to)"
)
_INSTEAD = lazyre.compile(
    SUBJ + rf"{_CHOOSE_VERBS}\s+(?P<x>{_TERM})\s*,?\s+(?:instead\s+of|rather\s+than)\s+"
    rf"(?P<y>{_TERM}){_REST}",
    _I,
)
_NOT = lazyre.compile(SUBJ + rf"{_CHOOSE_VERBS}\s+(?P<x>{_TERM}),\s+not\s+(?P<y>{_TERM})$", _I)
_REPLACED = lazyre.compile(
    SUBJ + rf"replaced\s+(?P<y>{_TERM})\s+with\s+(?P<x>{_TERM}){_REST}",
    _I,
)
_SWITCH_VERBS = (
    r"(?:switch(?:ed|ing)?|mov(?:ed|ing)|migrat(?:ed|ing)|chang(?:ed|ing)|went|transition(?:ed|ing)?"
    r"|convert(?:ed|ing)|jump(?:ed|ing)|port(?:ed|ing))"
)
_OBJECT = r"(?:\s+(?:over|everything|all|(?:my|our|the)\s+[\w.-]+(?:\s+[\w.-]+)?))?"
_SWITCH = lazyre.compile(
    SUBJ + rf"{_SWITCH_VERBS}{_OBJECT}\s+from\s+(?P<x>{_TERM})\s+(?:over\s+)?to\s+"
    rf"(?P<y>{_TERM}){_REST}",
    _I,
)
_SWITCH_TO = lazyre.compile(SUBJ + rf"{_SWITCH_VERBS}{_OBJECT}\s+to\s+(?P<y>{_TERM}){_REST}", _I)
_USE = lazyre.compile(
    SUBJ + r"(?P<verb>use|uses|using|rely\s+on|relies\s+on|work\s+with|code\s+in|write|writes"
    r"|develop\s+in|program\s+in|run|runs)\s+(?P<body>.{2,200})$",
    _I,
)
_ON = lazyre.compile(r"^i(?:'m|\s+am)\s+(?:now\s+|still\s+|mostly\s+)?on\s+(?P<x>.{2,40})$", _I)
_OBJECT_END = lazyre.compile(
    r"\s+(?:for|to|at|because|since|as|in|with|when|on|every|daily|all|most|mostly|mainly"
    r"|instead|over|and\s+(?:it|they|love|like|hate))\b|,",
    _I,
)
_AS_MY = lazyre.compile(
    r"\bas\s+(?:my|our)\s+(?:main\s+|default\s+|daily\s+|primary\s+)?(?P<cat>[\w .-]{2,30}?)$",
    _I,
)
_CATEGORY_WORDS = {
    "editor": "editor", "ide": "editor", "text editor": "editor", "shell": "shell",
    "terminal": "terminal", "terminal emulator": "terminal", "browser": "browser",
    "web browser": "browser", "os": "os", "operating system": "os", "distro": "os",
    "package manager": "package-manager", "test runner": "test-runner", "database": "database",
    "db": "database", "language": "language", "programming language": "language",
    "web framework": "web-framework", "framework": "framework", "notes app": "notes-app",
    "note-taking app": "notes-app", "formatter": "formatter", "linter": "linter",
    "multiplexer": "terminal-multiplexer",
}  # fmt: skip
_MY_TOOL = lazyre.compile(
    r"^my\s+(?:(?P<kind>favou?rite|preferred|go-to|main|default|usual|daily|primary)\s+)?"
    r"(?P<cat>[\w .+#-]{2,40}?)\s+(?:of\s+choice\s+)?(?:is|are)\s+(?:an?\s+)?(?P<y>.{2,80})$",
    _I,
)
_PURPOSE = lazyre.compile(r"^\s*(?P<word>for|in|at|on)\s+(?P<what>.+)$", _I)
_REASON = lazyre.compile(r"^\s*(?:because|since|as)\s+.+$", _I)


def _subject(m: re.Match[str]) -> str:
    return "Their team " if m["subj"].lower() == "we" else ""


def _tail(rest: str | None) -> tuple[str, str]:
    """(" for <purpose>", " because <reason>") from what followed a change statement."""
    rest = (rest or "").strip()
    purpose = _PURPOSE.match(rest)
    if purpose is not None and not re.match(r"\d|the\s+past|the\s+last", purpose["what"], _I):
        return " " + swap_pronouns(rest), ""
    if _REASON.match(rest):
        return "", " " + swap_pronouns(rest)
    return "", ""


def _change_key(old: str | None, new: str | None) -> str | None:
    """``tool.<category>`` when the terms of a change share a known category."""
    cats = {t.category for t in (tool_of(old) if old else None, tool_of(new) if new else None) if t}
    return f"tool.{cats.pop()}" if len(cats) == 1 else None


def _tools_draft(
    text: str,
    pattern: str,
    *,
    change: tuple[str | None, str | None] | None = None,
    key: str | None = None,
    topic: str = "tools",
) -> Draft:
    return Draft(text=text, topic=topic, pattern=pattern, key=key, change=change)


def _stopped(clause: str, ctx: Context) -> list[Draft]:
    for regex, needs_known in (
        (_NO_LONGER, False),
        (_DONT_ANYMORE, False),
        (_STOPPED, False),
        (_USED_TO, False),
        (_DROPPED, True),
    ):
        m = regex.match(clause)
        if m is None:
            continue
        if regex is _NO_LONGER and "longer" not in (m["adv"] or "").lower():
            continue
        x, rest = extend_term(clean_term(m["x"]), m["rest"] or "")
        if not x or not (tool_of(x) if needs_known else tool_like(x)):
            continue
        purpose, reason = _tail(rest)
        text = finish(f"{_subject(m)}no longer uses {spelled(x)}{purpose}{reason}")
        return [_tools_draft(text, "stopped", change=(spelled(x), None))]
    return []


def _instead(clause: str, ctx: Context) -> list[Draft]:
    for regex, name in ((_INSTEAD, "instead"), (_NOT, "instead")):
        m = regex.match(clause)
        if m is None:
            continue
        x, y = clean_term(m["x"]), clean_term(m["y"])
        if not x or not y:
            continue
        old, new = spelled(y), spelled(x)
        return [
            _tools_draft(
                third_person(clause, ctx.created),
                name,
                change=(old, new),
                key=_change_key(old, new),
            )
        ]
    return []


def _replaced(clause: str, ctx: Context) -> list[Draft]:
    m = _REPLACED.match(clause)
    if m is None:
        return []
    x, rest = extend_term(clean_term(m["x"]), m["rest"] or "")
    y = clean_term(m["y"])
    if not x or not y or not (tool_like(x) or tool_like(y)):
        return []
    old, new = spelled(y), spelled(x)
    purpose, reason = _tail(rest)
    text = finish(f"{_subject(m)}uses {new}{purpose} (replaced {old}{reason})")
    return [_tools_draft(text, "replaced", change=(old, new), key=_change_key(old, new))]


def _switch(clause: str, ctx: Context) -> list[Draft]:
    m = _SWITCH.match(clause)
    if m is not None:
        y, rest = extend_term(clean_term(m["y"]), m["rest"] or "")
        x = clean_term(m["x"])
        # "moved from Lisbon to Berlin" is a new home, not a new tool.
        place_verb = re.search(r"\b(?:mov|relocat)", m[0], _I) is not None
        known = tool_of(x) is not None or tool_of(y) is not None
        if x and y and (known or (not place_verb and (tool_like(x) or tool_like(y)))):
            old, new = spelled(x), spelled(y)
            purpose, reason = _tail(rest)
            text = finish(f"{_subject(m)}uses {new}{purpose} (switched from {old}{reason})")
            return [_tools_draft(text, "switch", change=(old, new), key=_change_key(old, new))]
    m = _SWITCH_TO.match(clause)
    if m is None:
        return []
    y, rest = extend_term(clean_term(m["y"]), m["rest"] or "")
    # "moved to X" names a tool only when the lexicon knows X ("moved to Berlin" does not);
    # "went to X" only when X is exactly a tool ("went to a poetry reading" is an outing).
    if not y or not (tool_of(y) or ("switch" in m[0].lower() and tool_like(y))):
        return []
    if re.match(r"\S+\s+went\b", m[0], _I) and lookup_tool(y) is None:
        return []
    new = spelled(y)
    purpose, reason = _tail(rest)
    text = finish(f"{_subject(m)}switched to {new}{purpose}{reason}")
    return [_tools_draft(text, "switch-to", change=(None, new), key=_change_key(None, new))]


def _my_tool(clause: str, ctx: Context) -> list[Draft]:
    m = _MY_TOOL.match(clause)
    if m is None:
        return []
    y, cat_word = m["y"].strip(), " ".join(m["cat"].lower().split())
    kind = (m["kind"] or "").lower()
    tool = tool_of(y)
    favourite = kind.startswith("favo")
    if dangling(y) or (not kind and cat_word not in _CATEGORY_WORDS):
        return []
    category = tool.category if tool else _CATEGORY_WORDS.get(cat_word, slug_word(cat_word))
    if not category:
        return []
    prefix = "pref" if favourite or not (tool or cat_word in _CATEGORY_WORDS) else "tool"
    topic = "tools" if prefix == "tool" else "preferences"
    text = third_person(clause, ctx.created)
    pattern = "favorite" if favourite else "my-tool"
    return [_tools_draft(text, pattern, key=f"{prefix}.{category}", topic=topic)]


def _use(clause: str, ctx: Context) -> list[Draft]:
    on = _ON.match(clause)
    if on is not None:
        # "I'm on macOS": only an operating system reads naturally this way.
        tool = tool_of(clean_term(on["x"]))
        if tool is None or tool.category != "os":
            return []
        return [_tools_draft(finish(f"uses {tool.display}"), "use", key="tool.os")]
    m = _USE.match(clause)
    if m is None:
        return []
    body = m["body"]
    end = _OBJECT_END.search(body)
    raw = body[: end.start()] if end else body
    obj = clean_term(raw) or raw.strip()
    if dangling(obj) or dangling(body):
        return []
    tools = {t for t, _, _ in find_tools(obj, trusted=True)}
    plain_use = m["verb"].lower() in ("use", "uses", "using")
    if not tools and not (plain_use and re.search(r"(?-i:\b[A-Z][\w.+#-]+)", obj)):
        return []
    key = None
    adv = (m["adv"] or "").lower()
    as_my = _AS_MY.search(body)
    if "never" in adv:
        key = None
    elif as_my is not None:
        word = " ".join(as_my["cat"].lower().split())
        only = next(iter(tools)) if len(tools) == 1 else None
        category = only.category if only else _CATEGORY_WORDS.get(word, slug_word(word))
        key = f"tool.{category}" if category else None
    elif len(tools) == 1:
        only = next(iter(tools))
        # "VS Code for Python and Vim for quick edits" names two editors: no single slot.
        same = {t for t, _, _ in find_tools(body, trusted=True) if t.category == only.category}
        key = f"tool.{only.category}" if only.exclusive and len(same) == 1 else None
    return [_tools_draft(third_person(clause, ctx.created), "use", key=key)]


TOOL_PATTERNS: tuple[Callable[[str, Context], list[Draft]], ...] = (
    _stopped,
    _instead,
    _replaced,
    _switch,
)
#: Patterns that run after decisions and preferences.
LATE_TOOL_PATTERNS: tuple[Callable[[str, Context], list[Draft]], ...] = (_my_tool, _use)
