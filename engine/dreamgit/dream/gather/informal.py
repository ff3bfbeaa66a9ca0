"""Informal English spellings, read as the words they stand for before the rules see them.

The English rules know "please" ("Please always use uv" is how the user wants the agent
to work); typed in a hurry it is "pls" or "plz", and the same request read as a bare
statement became a fact about the user. A contraction typed without its apostrophe
("dont", "thats", "im") is the same: the rules that know "don't" and "that's" miss it,
and a memory keeps the misspelling. Only whole words are respelled — never inside a
name, a path or a file ("@dont-panic.md") — their first letter's case kept; "lets" and
"its" only where the contraction is the one reading ("lets review it" at the start of
a clause, "its still running"). Thanks that close a line ("…, thx", "…, thank you!") are
left out: the rules would keep them as part of the rule. Nothing else of the text changes.
"""

from __future__ import annotations

import re

from dreamgit import lazyre

__all__ = ["spelled_out"]

#: Short forms and the word each stands for.
_FULL = {"pls": "please", "plz": "please", "plse": "please", "pleez": "please"}
#: Contractions typed without their apostrophe, none of them another English word.
_CONTRACTED = {
    word: f"{word[:-cut]}'{word[-cut:]}"
    for cut, words in (
        (1, "dont didnt doesnt isnt arent wasnt werent couldnt shouldnt wouldnt havent hasnt"
            " hadnt thats whats theres"),
        (2, "youre theyre youve theyve"),
    )
    for word in words.split()
}  # fmt: skip
_FULL.update(_CONTRACTED)
_FULL.update({"im": "I'm", "ive": "I've"})
# A whole word, not a piece of a name, path or file ("dont-panic.md", "@im/cli").
_SHORT = lazyre.compile(
    r"(?<![\w@./-])(?:" + "|".join(_FULL) + r")(?![\w'\u2019]|[-/.@]\w)", re.IGNORECASE
)
# "lets review it", "ok lets go": "let's" where a clause begins; "it lets you" stays.
_LETS = lazyre.compile(
    r"(?:^|(?<=[.!?;:,]\s)|(?<=\bok\s)|(?<=\bso\s)|(?<=\bnow\s)|(?<=\band\s)"
    r"|(?<=\bbut\s)|(?<=\bthen\s)|(?<=\bokay\s))lets(?=\s+[a-z])",
    re.IGNORECASE | re.MULTILINE,
)
# "its still running", "its a bug": "it's" before a word a possessive never takes.
_ITS = lazyre.compile(
    r"(?<![\w@./-])its(?=\s+(?:a|an|the|not|still|just|been|all|only|also|really|probably"
    r"|because|gonna|going|done|fine|ok|okay|working|broken|fixed|there|here|now|so|too"
    r"|very|more|less|better|worse|time|about)\b)",
    re.IGNORECASE,
)


def _full(match: re.Match[str]) -> str:
    word = _FULL[match.group().lower()]
    if word.startswith("I'"):
        return word
    return word.capitalize() if match.group()[0].isupper() else word


def _apostrophe(match: re.Match[str]) -> str:
    word = match.group()
    return f"{word[:-1]}'{word[-1]}"


# "pls always answer in bullet points, thx": thanks that close a line, said to the listener
# and no part of what the line states.
_SIGN_OFF = lazyre.compile(
    r"(?:,\s*|\s+[-\u2013\u2014]\s+)(?:thanks|thank\s+you|thx|thnx|ty|cheers|tia)"
    r"(?:\s+(?:a\s+lot|so\s+much|very\s+much|in\s+advance))?\s*[.!]*[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)


def spelled_out(text: str) -> str:
    """``text`` with its informal short forms written out ("pls" → "please", "dont" →
    "don't") and the thanks that close a line left out ("…, thx")."""
    text = _ITS.sub(_apostrophe, _LETS.sub(_apostrophe, _SHORT.sub(_full, text)))
    return _SIGN_OFF.sub("", text)
