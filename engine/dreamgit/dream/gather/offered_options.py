"""A choice among the options the turn before offered: "let's go with the second one".

An assistant often answers with a short list of options ("**SQLite** — one file, no
server", "**Redis** — fast, needs a server"), and the user picks one by its place in the
first sentence of the next turn ("let's go with the second one", "I'll take option 2",
"the last one"). Alone, "the second one" says nothing; :func:`chosen` says the sentence
again with the option it points at ("I'll go with Redis, …"), and the extractor reads
that as the user's decision. What the assistant offered is kept only because the user
chose it. Only a run of two or more items that each open with a name (in bold, or before
a dash or a colon), only a pick by place, only right after the list: when in doubt
nothing changes.
"""

from __future__ import annotations

import re

from dreamgit import lazyre

__all__ = ["chosen", "offered"]

_I = re.IGNORECASE

# "**Redis** — fast", "Redis — fast", "Redis: fast": an item that opens with its name.
_ITEM = lazyre.compile(
    r"^(?:\*\*|__)(?P<bold>[^*_\n]{1,60}?)(?:\*\*|__)"
    r"|^(?P<name>[A-Z0-9][\w .+#/'-]{0,40}?)\s+[\u2014\u2013-]\s+\S"
    r"|^(?P<label>[A-Z0-9][\w .+#/'-]{0,40}?):\s+\S"
)
_PLACES = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2}
_PLACES |= {"fourth": 3, "4th": 3, "fifth": 4, "5th": 4, "last": -1}
# "Let's go with the second one", "OK, I'll take option 2", "I choose the last one".
_PICK = lazyre.compile(
    r"^(?:(?:ok(?:ay)?|great|perfect|thanks|cool|sounds\s+good|alright)[,!.]?\s+)*"
    r"(?:let'?s|i'?ll|i\s+will|we'?ll|we\s+will|i'?d\s+like\s+to|i\s+want\s+to)\s+"
    r"(?:go\s+with|stick\s+with|take|pick|choose|use|try)\s+(?:the\s+)?"
    r"(?P<which>first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th"
    r"|(?:option|number|choice)\s+(?:\d|[a-e])\b|#\d)(?:\s+(?:one|option|choice|approach))?\b",
    _I,
)


def offered(paragraphs: list[str]) -> tuple[str, ...]:
    """The names of the last run of two or more options in a turn's ``paragraphs`` (each
    item a paragraph, its list marker already gone), or ()."""
    runs: list[list[str]] = [[]]
    for paragraph in paragraphs:
        m = _ITEM.match(paragraph.strip())
        if m is None:
            runs.append([])
            continue
        name = (m["bold"] or m["name"] or m["label"]).strip(" .:;,")
        runs[-1].append(name)
    found = [run for run in runs if len(run) >= 2]
    return tuple(found[-1]) if found else ()


def chosen(sentence: str, options: tuple[str, ...]) -> str | None:
    """``sentence`` with the option its pick points at named ("I'll go with Redis, can you
    …?"), or None when it picks nothing by place or points past the list."""
    m = _PICK.match(sentence.strip())
    if m is None or len(options) < 2:
        return None
    which = m["which"].lower()
    if which in _PLACES:
        place = _PLACES[which]
    else:
        mark = which[-1]
        place = int(mark) - 1 if mark.isdigit() else ord(mark) - ord("a")
    if not -len(options) <= place < len(options):
        return None
    rest = sentence.strip()[m.end() :]
    return f"I'll go with {options[place]}{rest}"
