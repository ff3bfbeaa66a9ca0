"""What a clause points at or announces, rather than tells.

In a chat people point at what they share ("Here's a pic I took when I volunteered
last month", "Check out my new camera") and announce news before telling it
("Something awesome happened on Friday!"). A pointer says what is shown, and that
is a fact about the speaker: "I showed a pic I took when I volunteered". An
announcement says nothing yet: the next sentence holds the news, and a memory of
the announcement alone would only hold its date.
"""

from __future__ import annotations

import re

from dreamgit import lazyre
from dreamgit.dream.gather.salience import FIRST_PERSON
from dreamgit.dream.gather.words import content_terms

__all__ = ["announces_only", "shown"]

_I = re.IGNORECASE

# "Here's a pic of the car I'm restoring", "Check out my new camera": what someone shows.
_SHOWS = lazyre.compile(
    r"^(?:here's|here\s+is|here\s+are|check\s+out|take\s+a\s+look\s+at|look\s+at)\s+"
    r"(?P<what>(?:my|our|a|an|the|this|these|some)\s+.+)$",
    _I,
)
#: Words about the showing itself, not what is shown: "this cool pic I snapped last week".
_PICTURE = frozenset(
    str.split("""photo photos picture pictures pics image images shot shots snap snapped took
    taken captured moment recent recently example week weekend night morning evening today
    yesterday last during after from when cool nice cute lovely beautiful""")
)

# "Something awesome happened", "I did something new": news announced, not yet told.
_VAGUE = lazyre.compile(r"\b(?:something|anything|stuff)\b", _I)
_ANNOUNCING = frozenset(
    str.split("""something anything stuff happened happen happening going goin lots new cool
    awesome amazing incredible special crazy exciting interesting wild huge tried tackled
    recently lately last past this week weekend night month year today yesterday morning
    evening""")
)

_WITH_WHOM = lazyre.compile(r"\b(happened|happening)\s+with\s+(?:my|our)(?:\s+[a-z]+){1,3}$")


def shown(text: str) -> str:
    """ "Here's a pic I took when I volunteered" → "I showed a pic I took when I
    volunteered"; ``text`` itself when it points at nothing of the speaker's ("Here's
    the poster", "look at this photo")."""
    m = _SHOWS.match(text)
    if m is None or not FIRST_PERSON.search(m["what"]):  # not the speaker's
        return text
    if len(set(content_terms(m["what"].lower())) - _PICTURE) < 2:
        return text
    return f"I showed {m['what']}"


def announces_only(low: str) -> bool:
    """Whether a lower-case clause only announces news ("something exciting happened
    to me", "lots of cool stuff happening"): fewer than two words of what happened."""
    if not _VAGUE.search(low):
        return False
    # "something fun happened with my school friends": with whom is not yet what
    low = _WITH_WHOM.sub(r"\1", low)
    told = [w for w in content_terms(low) if w not in _ANNOUNCING and not w.isdigit()]
    return len(told) < 2
