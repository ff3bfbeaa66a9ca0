"""A choice among the options the turn before offered: "let's go with the second one".

An assistant often answers with a short list of options ("**SQLite** — one file, no
server", "**Redis** — fast, needs a server"), and the user picks one by its place in the
first sentence of the next turn ("let's go with the second one", "I'll take option 2",
"the last one", "the second one sounds good"), or says one back as taken ("Redis it
is"). Alone, "the second one" says nothing; :func:`chosen` says the sentence
again with the option it points at ("I'll go with Redis, …"), and the extractor reads
that as the user's decision. What the assistant offered is kept only because the user
chose it. Only a run of two or more items that each open with a name (in bold, or before
a dash or a colon), only a pick by place or a name of the list said back as taken, only
right after the list: when in doubt nothing changes.
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
# "OK,", "Yes,", "Sounds good.": what a pick may open with.
_OPENING = (
    r"^(?:(?:ok(?:ay)?|great|perfect|thanks|cool|sounds\s+good|alright|all\s+right|yes|yeah|yep"
    r"|sure|right|hmm+)[,!.]?\s+)*"
)
# "the second one", "option 2", "#3": an option by its place.
_PLACE = (
    r"(?:the\s+)?(?P<which>first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th"
    r"|(?:option|number|choice)\s+(?:\d|[a-e])\b|#\d)(?:\s+(?:one|option|choice|approach))?\b"
)
# "… sounds good", "… it is", "…, please": an option said back as the one taken.
_TAKEN = (
    r"(?:\s+(?:sounds|looks|seems)\s+(?:good|great|best|right|perfect|fine|like\s+the\s+(?:best"
    r"|right)\s+(?:fit|choice|one))|\s+it\s+is|\s+works\s+for\s+(?:me|us)|,?\s+please)\b"
)
# "Let's go with the second one", "OK, I'll take option 2", "Yes, let's do the last one".
_PICK = lazyre.compile(
    _OPENING + r"(?:let'?s|i'?ll|i\s+will|we'?ll|we\s+will|i'?d\s+like\s+to|i\s+want\s+to)\s+"
    r"(?:go\s+with|stick\s+with|take|pick|choose|use|try|do|opt\s+for|settle\s+on)\s+" + _PLACE,
    _I,
)
# "The second one sounds good", "Option 2, please", "Option B it is".
_PLACE_TAKEN = lazyre.compile(_OPENING + _PLACE + _TAKEN, _I)
# "Traefik sounds good", "Traefik it is": an option named back (checked against the list).
_NAME_TAKEN = lazyre.compile(_OPENING + r"(?P<name>[\w .+#/'-]{1,40}?)" + _TAKEN, _I)


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
    …?"), or None when it picks nothing by place, says no option of the list back as
    taken, or points past the list."""
    said = sentence.strip()
    if len(options) < 2:
        return None
    named = _NAME_TAKEN.match(said)
    if named is not None:
        for option in options:
            if named["name"].lower() == option.lower():
                return f"I'll go with {option}{_after_pick(said[named.end() :])}"
    m = _PICK.match(said) or _PLACE_TAKEN.match(said)
    if m is None:
        return None
    which = m["which"].lower()
    if which in _PLACES:
        place = _PLACES[which]
    else:
        mark = which[-1]
        place = int(mark) - 1 if mark.isdigit() else ord(mark) - ord("a")
    if not -len(options) <= place < len(options):
        return None
    return f"I'll go with {options[place]}{_after_pick(said[m.end() :])}"


def _after_pick(rest: str) -> str:
    """What follows a pick, kept with it unless it is another thing asked ("…, and show me
    the labels"): then the pick ends there."""
    return "." if re.match(r",?\s+and\s", rest) else rest
