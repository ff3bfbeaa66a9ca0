"""How the project must be: what an agent's user lays down while asking for work.

A coding agent's user rarely says "I prefer …". They say how the thing being built
must be, inside the request for it: "each plugin should live in its own folder",
"there should be no network calls in unit tests", "make sure the exporter never
writes to stdout", "note that this is a prototype, not for production". Between
people, "should" is a guess or advice and is dropped; said to an agent about a thing
(not about "I", "we", "you" or "it"), it is a specification that outlives the
session. "Note that …" announces a statement the user wants known. "Make sure …" is
a standing rule when it states an invariant (a negation or a quantifier: never, no,
only, each, all), and a check of the moment otherwise ("make sure the tests pass").
"Let's use X" / "let's go with X" is a choice made for the project, where "let's add a
flag" is a task; "for the Y, let's use X" makes it for Y; "let's X instead of Y" weighs
one way against another, and is a choice whatever its verb.

Each function reads the structure of one clause (its subject, its modal, its
opening), never a list of topics; all read English and leave other languages alone.
"""

from __future__ import annotations

import re

from dreamgit import lazyre

__all__ = ["choice", "invariant_order", "spec", "without_note"]

_I = re.IGNORECASE

# "Each plugin should live …", "the `pr` command must not …", "there should be no …":
# a subject that is a thing (up to six words), then a modal of obligation.
_SPEC = lazyre.compile(
    r"^(?!(?:i|we|you|u|it|this|that|they|he|she|maybe|perhaps|which|what|who|how|why|where"
    r"|when|if|unless|so|but|then)\b)"
    r"[\w`@.'/#$-]+(?:\s+[\w`@.'/#$-]+){0,5}?\s+"
    r"(?:should(?:n't|\s+not)?|must(?:n't|\s+not)?|shall(?:\s+not)?)\s+"
    # "… should work now", "… should be fixed": how the work stands, not how it must be
    r"(?!(?:be\s+|now\s+|all\s+)?(?:work|working|works|fixed|done|fine|good|ok|okay|passing"
    r"|pass|green|resolved|ready|better|enough|there|here|now|already|probably)\b)\w",
    _I,
)
# A guess besides the modal: "it might …", "maybe the cache should …" is not a rule.
_GUESS = lazyre.compile(r"\b(?:might|could|may|maybe|perhaps|possibly|probably|i\s+think)\b", _I)

# "Note that …", "keep in mind that …", "FYI, …": the statement that follows is the point.
_NOTE = lazyre.compile(
    r"^(?:(?:also|and|btw|oh),?\s+)?(?:please\s+)?(?:note|notice|keep\s+in\s+mind|bear\s+in\s+mind"
    r"|remember|be\s+aware|fyi)(?:\s+that)?[\s,:]+(?=\S)",
    _I,
)

# "Make sure …", "ensure …", "be sure to …": an order about how something must be.
_ENSURE = lazyre.compile(
    r"^(?:(?:also|and|now|so),?\s+)?(?:please\s+)?(?:make\s+sure|ensure|be\s+sure)\b", _I
)
# What makes such an order an invariant rather than a check: "never", "doesn't", "no",
# "only", "each", "every", "all", "its own" — it says how things stay, not how they are now.
_INVARIANT = lazyre.compile(
    r"\b(?:never|not|no|none|nothing|only|each|every|all|any|own|doesn't|don't|isn't|aren't"
    r"|won't|can't|cannot|mustn't|shouldn't)\b",
    _I,
)


def spec(clause: str) -> bool:
    """Whether ``clause`` says how a thing of the project must (not) be: "each command
    should live in its own folder", "there must be no globals"; not "it should work
    now" (status), "maybe the cache should move" (a guess), nor "we should …" (a plan)."""
    text = clause.strip()
    return _SPEC.match(text) is not None and _GUESS.search(text) is None


def without_note(sentence: str) -> str:
    """``sentence`` without a "note that" / "keep in mind that" opening, its first letter
    as it was; the sentence itself when it has none."""
    m = _NOTE.match(sentence)
    return sentence if m is None else sentence[m.end() :]


# "… and then merge": the order goes on to the next step of today's work.
_NEXT_STEP = lazyre.compile(r"\b(?:then|go\s+ahead|afterwards|after\s+that)\b", _I)


def invariant_order(order: str) -> bool:
    """Whether an order opening with "make sure" / "ensure" / "be sure" states an
    invariant ("make sure no command prints debug output") rather than a check of the
    moment ("make sure the build passes", "make sure all is committed, then merge")."""
    m = _ENSURE.match(order)
    return (
        m is not None
        and _INVARIANT.search(order, m.end()) is not None
        and _NEXT_STEP.search(order, m.end()) is None
    )


# "Let's use Postgres for the queue", "lets go with tabs": a choice, not a task.
_CHOICE = lazyre.compile(
    r"^(?:(?:ok|okay|so|then|now),?\s+)?(?:let's|lets|let\s+us)\s+(?=(?:use|go\s+with|stick\s+with"
    r"|switch\s+to|standardi[sz]e\s+on|keep\s+using|store|call\s+(?:it|them|the)|name)\b)",
    _I,
)


# "Let's …" of any verb, and "instead of" / "rather than": an order that weighs one way
# against another ("let's keep one config loader instead of copying it") is a choice.
_LETS = lazyre.compile(r"^(?:(?:ok|okay|so|then|now),?\s+)?(?:let's|lets|let\s+us)\s+(?=[a-z])", _I)
_OVER_ANOTHER = lazyre.compile(r"\b(?:instead\s+of|rather\s+than)\s+\S", _I)


# "For the cache key, let's use the tenant id": what the choice is for, said first.
_FRAME = lazyre.compile(r"^(?:for|in|on)\s+(?P<what>(?:the|our|my|a|an)\s+[^,]{2,60}?),\s+", _I)
# "…, unless you have a better idea": the choice stands until someone offers better.
_OPEN_TAIL = lazyre.compile(r",?\s+(?:and\s+)?(?:unless|if|but|or)\b.*$", _I)
# A hedge after the choice ("…, unless you object", "… perhaps"): not part of it.
_HEDGE = lazyre.compile(r",?\s+(?:unless|but|or)\b.*$", _I)
_MAYBE = lazyre.compile(r"\s+(?:perhaps|maybe)$", _I)
# "…, and if the repo is a local path, use "local" for the org": the choice for another case.
_OTHERWISE = lazyre.compile(
    r",?\s+and\s+(?P<case>(?:if|when|for)\s+[^,]{2,80},\s+(?:use|go\s+with)\s+\S.*)$", _I
)


def choice(order: str) -> str | None:
    """The choice an order opening with "let's use / go with / store …" makes, without its
    "let's" ("use Postgres for the queue"), what it is for when said first ("for the
    cache key, let's use the tenant id" → "use the tenant id for the cache key"); None
    for any other order."""
    frame = _FRAME.match(order)
    rest = order if frame is None else order[frame.end() :]
    m = _CHOICE.match(rest)
    if m is None:
        weighed = _LETS.match(order)  # "let's X instead of Y": X chosen over Y
        return order[weighed.end() :] if weighed and _OVER_ANOTHER.search(order) else None
    if frame is None:
        return rest[m.end() :]
    chosen = _MAYBE.sub("", _HEDGE.sub("", rest[m.end() :]).rstrip(" .,"))
    other = _OTHERWISE.search(chosen)
    if other is not None:  # "…, and if the repo is local, use "local"": the choice's other case
        return f"{chosen[: other.start()]} for {frame['what']}, and {other['case']}"
    return f"{_OPEN_TAIL.sub('', chosen).rstrip(' .,')} for {frame['what']}"
