"""A standing order the user states while asking for something else.

An agent's user often says how the agent must always work inside a question or a
request about something else: "can we change the workflow doc so that you always run
the linter before committing?", "update the rule to make sure you never edit the
generated files". The question or request is of the moment; the order it carries
("always run the linter before committing") outlives it. :func:`orders_in_request` lifts
that order by its structure: a purpose ("to make sure", "make sure", "ensure", "so
that", "so") whose subject is the agent ("you"), then "always" or "never" (or "don't
ever") and a verb with an object of its own (not "do this"). The lifted order is an
ordinary imperative, read by the same rules as any other, so it becomes the user's
instruction.
"""

from __future__ import annotations

import re

from dreamgit import lazyre
from dreamgit.dream.gather.sentence_split import as_sentence

__all__ = ["orders_in_request"]

_I = re.IGNORECASE

# "… to make sure you always …", "… so that you never …": the agent, then a standing word.
_PURPOSE_YOU = lazyre.compile(
    r"(?:\b(?:make|making|be)\s+sure|\bensure|\bensuring|\bso(?:\s+that)?)\s+(?:that\s+)?"
    r"you(?:'ll|\s+will)?\s+(?P<order>(?:always|never|don't\s+ever|do\s+not\s+ever)\s+[a-z])",
    _I,
)
# Where the order ends: a sentence stop, a semicolon, or the sentence going on to
# something else ("…, and then …", "…, but …").
_ORDER_END = lazyre.compile(
    r"\s*(?:[;?!]|\.(?=\s|$)|,?\s+(?:and\s+)?then\s+|,\s+(?:so|but|which|while|and)\s+)", _I
)
# "always do this going forward", "never do that again": what the order is lies elsewhere.
_PRO_FORM = lazyre.compile(
    r"^(?:always|never)\s+\w+\s+(?:this|that|it|so|these|those|the\s+same)\b", _I
)
_SHORTEST_WORDS = 3
_LONGEST = 200


def orders_in_request(sentence: str) -> list[str]:
    """The standing orders ``sentence`` carries inside a purpose said of the agent, each
    as an imperative of its own ("Always run the linter before committing."), in the
    order said; nothing when the sentence opens with the order itself (read as it is)."""
    out: list[str] = []
    for m in _PURPOSE_YOU.finditer(sentence):
        if not sentence[: m.start()].strip(" ,"):
            continue  # "Make sure you always …" opens the sentence: it is the order
        rest = sentence[m.start("order") :]
        end = _ORDER_END.search(rest)
        order = (rest[: end.start()] if end is not None else rest).strip(" ,")
        order = re.sub(r"^(?:don't|do\s+not)\s+ever\b", "never", order, flags=_I)
        if len(order.split()) < _SHORTEST_WORDS or len(order) > _LONGEST or _PRO_FORM.match(order):
            continue
        out.append(as_sentence(order))
    return out
