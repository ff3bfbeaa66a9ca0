"""A request for one change to the work at hand, told from a rule that outlives it.

An agent's user asks for changes politely and in many shapes: "I'd like the export
button to sit next to the search box", "the chart is cut off, please move the legend",
"I'd like to please see the diff", "after writing the migration, show me the SQL", "I
want them to match the mockup", "use the cached token for each". Each names one change
to a thing of the session (a definite "the …", or a pro-form pointing back: "it",
"them", "for each") and leaves with it; so does what is said of a thing only pointed at
("right now it is slow", "I thought that ran only on CI"). A rule has
another shape: a standing word ("always", "never", "from now on", "by default"), a
generic thing ("commit messages", "any file"), or the speaker's own way of working ("we
deploy from main, please …" keeps "we deploy from main").

:func:`without_request` reads a sentence said to the agent by that structure and returns
what of it is left to read as statements: the sentence as it is, the report before a
polite request when it is the speaker's own ("In this project we …"), or None when the
whole sentence is the request and its occasion. :func:`wanted_order` reads "I want you to
…" and "I'd like you to …" as the order it is, so that an order is judged as one (a task
is left, "use pnpm, not npm" is kept).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from dreamgit import lazyre
from dreamgit.dream.gather.momentary import STANDING

__all__ = ["order_on_any", "wanted_order", "without_request"]

_I = re.IGNORECASE

# A thing of the session: a definite noun phrase or a pro-form ("the export button",
# "this page", "them"); "commit messages", "a file", "my answers" are not pointed at.
_THIS_THING = r"(?:(?:the|this|that|these|those)\s+(?:[\w.@/`'-]+\s+){0,4}?|it\s+|them\s+)"
# Verbs that keep a thing as it is: a constraint outlives the session ("I want the API to
# stay backward compatible").
_KEEPS = r"(?:stay|remain|keep|continue|always|never|only)\b"

# "I'd like the export button to sit …", "I want them to match …", "I'd love it if the
# headers stayed …": the state a thing of the session is wanted in.
_WANTED_STATE = lazyre.compile(
    r"^(?:i|we)(?:'d|\s+would|'ll|\s+will)?\s+(?:really\s+)?(?:like|love|want|need|prefer)\s+"
    rf"(?:{_THIS_THING}(?:[\w.@/`'-]+\s+)?to\s+(?!{_KEEPS})[a-z]+"
    rf"|it\s+if\s+{_THIS_THING}(?:[\w.@/`'-]+\s+)?(?!{_KEEPS})[a-z]+)",
    _I,
)
# "I'd like to please have a look": a request, its "please" says so.
_WANT_PLEASE = lazyre.compile(
    r"^(?:i|we)(?:'d|\s+would)?\s+(?:really\s+)?(?:like|love|want|need)\s+(?:you\s+)?to\s+please\b",
    _I,
)
# "After writing the migration, show me …": an order with the moment it is for.
_AFTER_THIS = lazyre.compile(
    r"^(?:after|before|once|when|as\s+soon\s+as)\s+(?:you\s+)?(?:[a-z]+ing\s+|(?:are\s+|have\s+)"
    rf"?(?:done|finished)\s+(?:with\s+)?|[a-z]+\s+){_THIS_THING}[^,]{{0,80}},\s+"
    r"(?:please\s+)?(?P<order>[a-z]+\b.*)$",
    _I,
)
# "After editing any file, run the formatter": an order for every such moment, a rule.
_AFTER_ANY = lazyre.compile(
    r"^(?P<when>(?:after|before|once|when|whenever)\s+(?:you\s+)?(?:[a-z]+\s+)?"
    r"(?:any|each|every|a|an)\s+[^,]{1,80}),\s+(?:please\s+)?(?P<order>[a-z]+\b[^,;?]*?)[.!]*$",
    _I,
)
# "… for each", "… with it": what the order is for lies in the session.
_POINTS_BACK = lazyre.compile(
    r"\b(?:for|to|with|on|in|into|from|like)\s+(?:each|it|them|this|that|these|those)[.!]*$",
    _I,
)
# "…, please move the legend", "… also, please remove …": a polite request after a report.
_PLEASE_AFTER = lazyre.compile(
    r"(?:[,;]\s*|\s+)(?:(?:also|and|so|then|now|but)[,\s]+)*please\s+(?P<order>[a-z]+\b.*)$", _I
)
# "Right now it is slow", "I thought that ran only on CI": how a thing pointed
# at in the session is, or was believed to be; what it is lies in the session.
_POINTED_AT = lazyre.compile(
    r"^(?:(?:right\s+now|now|currently|at\s+the\s+moment|so\s+far)[,\s]+"
    r"|(?:i|we)\s+(?:thought|assumed|figured|believed)\s+(?:that\s+)?)"
    r"(?:it|this|that|these|those)(?:'s|\s+(?:is|was|were|are|seems|seemed|looks|looked|would"
    r"|will|did|does|had|has|ran|runs|went|meant|[a-z]+ed))\b",
    _I,
)
# A value: a number said is what a later question may ask for.
_VALUE = lazyre.compile(r"\d")
# "… can you please", "could you please": the request is a question, read as one.
_ASKS_YOU = lazyre.compile(r"\b(?:can|could|would|will)\s+you$", _I)
# The speaker going on after the request ("…, I've done eight of them"): more than a request.
_SAYS_MORE = lazyre.compile(r"[,;]\s+(?:and\s+|but\s+)?(?:i|we)(?:'\w+)?\s", _I)
# What "please" opens that is no request: what to keep in mind is the statement.
_KEEP_IN_MIND = lazyre.compile(
    r"^(?:note|remember|keep\s+in\s+mind|bear\s+in\s+mind|be\s+aware|know|understand)\b", _I
)
# The speaker's own way of working, said as the reason for a request ("we deploy from main").
_OWN = lazyre.compile(r"\b(?:i|we|my|our|us|i'm|we're|i've|we've)\b", _I)
# "I want you to …", "I'd like you to …", "I need you to …": an order, said as a wish.
_WANT_YOU_TO = lazyre.compile(
    r"^(?:i|we)(?:'d|\s+would)?\s+(?:really\s+)?(?:like|want|need)\s+you\s+to\s+"
    r"(?!please\b)(?P<order>[a-z].*)$",
    _I,
)


def without_request(sentence: str, *, standing_order: re.Pattern[str]) -> str | None:
    """What of ``sentence`` (said to the agent) is left to read once a request of the moment
    is taken out: the sentence itself when it holds none, the speaker's own report before
    "…, please <change>", or None when it is all the request and its occasion.
    ``standing_order`` tells an imperative that sets how the agent works ("keep …", "use
    …"); a request of that shape, or with a standing word, is a rule and stays."""
    text = sentence.strip()
    if STANDING.search(text):
        return sentence
    if _POINTED_AT.match(text):
        return None
    # "I want the image to be 150 px wide": a value said is kept, even in a request
    if (_WANTED_STATE.match(text) or _WANT_PLEASE.match(text)) and not _VALUE.search(text):
        return None
    after = _AFTER_THIS.match(text)
    if after is not None and not standing_order.match(after["order"]):
        return None
    if standing_order.match(text) and _POINTS_BACK.search(text):
        return None
    asked = _PLEASE_AFTER.search(text)
    if asked is None or not asked.start() or _KEEP_IN_MIND.match(asked["order"]):
        return sentence
    if _ASKS_YOU.search(text[: asked.start()]) or _SAYS_MORE.search(asked["order"]):
        return sentence  # "can you please …", "please check it, I've done 8 of them": read whole
    if standing_order.match(asked["order"]):
        return sentence  # "we use tabs, please keep it so": a rule with its reason
    head = text[: asked.start()].rstrip(" ,;")
    head = re.sub(r"[\s,]+(?:also|and|so|then|now|but)$", "", head, flags=_I)
    return head if _OWN.search(head) else None


def wanted_order(sentence: str) -> str | None:
    """The order a wish said to the agent is ("I want you to use pnpm" → "Use pnpm"),
    capitalised; None for any other sentence."""
    m = _WANT_YOU_TO.match(sentence.strip())
    if m is None:
        return None
    order = m["order"]
    return order[:1].upper() + order[1:]


def order_on_any(sentence: str, *, imperative: Callable[[str], bool]) -> str | None:
    """The rule an order said for any moment of a kind is ("After editing any file, run the
    formatter" → "Run the formatter after editing any file."); None for another sentence,
    or when what follows the moment is no order (``imperative``)."""
    m = _AFTER_ANY.match(sentence.strip())
    if m is None or not imperative(m["order"]):
        return None
    order, when = m["order"], m["when"]
    return f"{order[:1].upper()}{order[1:]} {when[:1].lower()}{when[1:]}."
