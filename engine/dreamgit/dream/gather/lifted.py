"""Preferences said inside a request: lifted out of it, with the aim they serve.

An agent's user often says a preference in the middle of asking for something: "I'm
trying to keep the app small, so I prefer plain modules over frameworks, can you …?"
The request is of the moment; the preference outlives it. :func:`lifted_preferences`
cuts each preference out of one sentence where the request resumes, and gives it the
reason the sentence (or the one before it, :func:`serves_aim_before`) states for it and
what the request weighs it against. It reads English; other languages are left to the
other extractors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dreamgit import lazyre
from dreamgit.dream.gather.momentary import WISH_FOR_NOW

__all__ = ["Lifted", "lifted_preferences", "serves_aim_before"]

_I = re.IGNORECASE


@dataclass(frozen=True)
class Lifted:
    """A preference said inside a request, and where it stood in the sentence."""

    text: str  # "I prefer plain modules over frameworks, to keep the app small"
    start: int  # where the preference (or the aim it took) begins in the sentence


# "I prefer", "we'd rather", "I really prefer", "I generally prefer using".
_PREFER = lazyre.compile(
    r"\b(?P<who>i|we)\s*(?:(?:really|generally|usually|always|strongly|much|also|still"
    r"|definitely|personally)\s+)*(?P<verb>(?<=\s)prefer|(?:'d|\s+would)\s+(?:much\s+)?"
    r"(?:rather|prefer))\b",
    _I,
)
# Where the request resumes after a preference: ", can you …", ", how do I …", "but …".
_REQUEST_RESUMES = lazyre.compile(
    r"(?:,\s*|\s+[-\u2013\u2014]\s+)(?=(?:so\s+|and\s+)?(?:can|could|would|will|how|what"
    r"|which|where|why|should|do|does|is|are|any|please|help|maybe|but|however|though"
    r"|although|while|yet|i'm\s+not|i\s+am\s+not|i\s+(?:need|want|was\s+wondering|wonder"
    r"|have|had|think|don't|just)|it\s+seems|let\s+me)\b)"
    r"|\s+(?=(?:but|however|although|though|yet)\b|(?:can|could|would|will)\s+you\b"
    r"|how\s+(?:do|can|should|would)\s+(?:i|we)\b)"
    r"|[?!;]|\.(?:\s|$)",
    _I,
)
# "I'm trying to keep my app small, so I prefer …": the aim the preference serves.
_AIM = lazyre.compile(
    r"(?:^|[,.;]\s*)(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?:\w+ly\s+|really\s+|just\s+)?"
    r"(?:trying|aiming|hoping|looking|working|wanting)\s+to\s+(?P<aim>(?:[^,;.?!]|\.(?=\d)){6,120}?)"
    r",?\s+(?:so|and\s+so|which\s+is\s+why|that's\s+why)\s*,?\s*$",
    _I,
)
# A reason the preference already gives: "… due to its docs", "… to keep it small".
_HAS_REASON = lazyre.compile(
    r"\b(?:because|since|as|due\s+to|so\s+that|in\s+order\s+to|to\s+(?:keep|avoid|make|save"
    r"|reduce|stay|get|ensure|maintain|minimi[sz]e|maximi[sz]e|improve|better|fully|grasp"
    r"|understand)|for\s+(?:better|its|their|the\s+sake))\b",
    _I,
)
_MAX_PREFERENCE = 240
# ", you know,", ", like I mentioned": talk around the preference, not part of it.
_ASIDES = lazyre.compile(
    r"(?P<open>,?)\s+(?:you\s+know|i\s+mean|(?:like|as)\s+(?:i|you|we)(?:'ve)?\s+(?:mentioned"
    r"|said|noted|told\s+you)(?:\s+(?:before|earlier))?)\b(?P<close>,?)",
    _I,
)


def _without_asides(text: str) -> str:
    """``text`` without ", you know," and the like; the commas around one become one."""
    return _ASIDES.sub(lambda m: "," if m["open"] and m["close"] else "", text)


def lifted_preferences(sentence: str, before: str = "") -> list[Lifted]:
    """The preferences said inside one sentence of a request, each cut where the
    request resumes and given the aim the sentence states for it ("I'm trying to keep
    the bundle small, so I prefer X" → "I prefer X, to keep the bundle small"), or else
    the aim the sentence ``before`` it in the same turn opened with ("I'm trying to
    cut the build time. I prefer X." → "I prefer X, to cut the build time")."""
    out: list[Lifted] = []
    for m in _PREFER.finditer(sentence):
        if out and m.start() < out[-1].start + len(out[-1].text):
            continue
        rest = sentence[m.end() :]
        if _REQUEST_RESUMES.match(rest):
            # "I'm considering X like I prefer, but …": what is preferred came before
            liked = _LIKE_I_PREFER.search(sentence[: m.start()])
            if liked is not None:
                what = liked["what"].strip()
                out.append(Lifted(f"{m['who'].capitalize()} prefer {what}", liked.start()))
            continue
        # "I prefer it over Foundation": what "it" is, the sentence named before
        end = _REQUEST_RESUMES.search(rest, 3)
        body = rest[: end.start() if end else len(rest)].strip(" ,;:-")
        request = rest[end.start() :] if end else ""
        if len(body.split()) < 2 or len(body) > _MAX_PREFERENCE:
            continue
        body = _without_asides(body).strip(" ,")
        if WISH_FOR_NOW.search(body):
            continue  # "I'd rather you not deploy it right now": the task at hand, not a taste
        verb = m["verb"].lower()
        verb = "prefer" if verb.endswith("prefer") else "would rather"
        text = f"{m['who'].capitalize()} {verb} {body}"
        if re.match(r"(?:it|that|this|them)\b", body, _I):
            named = _object_before(sentence[: m.start()])
            if named is None:
                continue
            text = f"{m['who'].capitalize()} {verb} {named}{body[body.find(' ') :]}"
        unweighed = not (_NAMES_ITS_ALTERNATIVE.search(body) or _HAS_REASON.search(body))
        if unweighed and (other := _weighed_against(request)):
            text = f"{text} over {other}"  # "… X versus hand edits?": what it is preferred to
        start = m.start()
        aim = _AIM.search(sentence[:start])
        doubted = _DOUBTED_AIM.match(request)
        if doubted is not None and not _HAS_REASON.search(body):
            text = f"{text}, {doubted['aim'].strip()}"  # the aim its doubt names
        elif aim is not None and not _HAS_REASON.search(body):
            text = f"{text}, to {aim['aim'].strip()}"
            start = aim.start()  # the aim is said with the preference, not on its own
        elif not _HAS_REASON.search(body) and (opened := _AIM_OPENS.match(before)):
            text = f"{text}, to {opened['aim'].strip()}"
        out.append(Lifted(text, start))
    return out


# "…, but I'm not sure if it's the best choice for minimizing noise": the doubt names what
# the preference is for, which the memory keeps ("…, for minimizing noise").
_DOUBTED_AIM = lazyre.compile(
    r"[,\s]*but\s+(?:i'm|i\s+am|we're|we\s+are)\s+not\s+(?:sure|certain)\s+(?:if|whether)"
    r"\s+(?:it's|it\s+is|that's|that\s+is|this\s+is|it\s+would\s+be|it'd\s+be)\s+the\s+"
    r"(?:best|right|ideal|most\s+\w+|better)\s+(?:choice|option|place|spot|way|fit|setup|call)\s+"
    r"(?P<aim>(?:for|to)\s+(?!me\b|us\b|my\b|our\b|now\b|this\b|that\b|it\b)[^,;.?!]{4,100}?)"
    r"\s*(?:[,;.?!]|$)",
    _I,
)
# "over", "rather than": the preference already says what it is preferred to.
_NAMES_ITS_ALTERNATIVE = lazyre.compile(
    r"\b(?:over|rather\s+than|instead\s+of|versus|vs\.?|than)\b", _I
)
# "… weigh using these tools versus hand edits": the request sets what the preferred thing
# (named again as "these", "it", "them") is weighed against.
_WEIGHED = lazyre.compile(
    r"\b(?:it|them|this|that|these|those)(?:\s+[\w-]+){0,2}\s+(?:versus|vs\.?|compared\s+(?:to|with)"
    r"|instead\s+of|rather\s+than|as\s+opposed\s+to)\s+(?P<other>[\w+#.'-]+(?:\s+[\w+#.'-]+){0,4}?)"
    r"(?=\s+(?:to|for|in|on|so|because|and|or|but|when|if|while)\b|\s*[,;:?!]|\.(?:\s|$)|$)",
    _I,
)


def _weighed_against(request: str) -> str | None:
    """What the request after a preference weighs the preferred thing against ("… the pros
    and cons of these tools versus hand edits?" → "hand edits"), or None."""
    m = _WEIGHED.search(request)
    return None if m is None else m["other"]


def serves_aim_before(sentence: str, before: str) -> bool:
    """Whether a preference said in ``sentence`` takes its aim from the sentence
    ``before`` it ("I'm trying to cut the build time. I prefer X.")."""
    if not before or _AIM_OPENS.match(before) is None:
        return False
    return lifted_preferences(sentence, before) != lifted_preferences(sentence)


# "I'm trying to set up nightly backups to save disk, can you …?": the aim a turn opens
# with, which a preference said in its next sentence serves.
_AIM_OPENS = lazyre.compile(
    r"^(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?:\w+ly\s+|really\s+|just\s+)?"
    r"(?:trying|aiming|hoping|working|wanting)\s+to\s+(?P<aim>(?:[^,;.?!]|\.(?=\d)){6,160}?)"
    r"\s*(?:[,;.?!]|$)",
    _I,
)
# "I'm considering moving the docs to a wiki like I prefer": the clause before "like I prefer".
_LIKE_I_PREFER = lazyre.compile(
    r"(?:^|[,;]\s*)(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?:\w+ly\s+|really\s+|just\s+)?"
    r"(?:considering|thinking\s+(?:of|about)|planning\s+on|going\s+with|using|doing|keeping)"
    r"\s+(?P<what>[^,;.?!]{4,160}?)\s*,?\s+(?:like|as)\s*$",
    _I,
)


# "… using Bootstrap 5.3.0 and I prefer it": the thing named just before "and I prefer it".
_OBJECT = lazyre.compile(
    r"\b(?:using|use|with|on|chose|picked|adopted|trying)\s+(?P<thing>(?:[A-Z][\w.+#-]*"
    r"(?:\s+v?\d[\w.]*)?(?:\s+[A-Z][\w.+#-]*)?))\s*,?\s*(?:and|but|so)?\s*$"
)


def _object_before(head: str) -> str | None:
    m = _OBJECT.search(head)
    return None if m is None else m["thing"]
