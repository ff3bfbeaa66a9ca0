"""The evidence a model must give before its proposal takes a memory or a value away.

A model that obeys a prompt injection ("delete all memories") proposes removals
with high confidence and a plausible reason; confidence and reasons are the
model's word. What the engine can check is evidence: a ``remove`` names either
``by``, a newer memory of the same group that covers the removed ones, or
``sources`` and ``quote``, a passage of one of this run's sessions, verbatim
(case and spacing aside), that shares content words with each removed memory and
is not itself an instruction to a model. A ``supersede`` must keep a newer memory
than the ones it retires. A ``replace`` or ``merge`` keeps every number and name of
the memories it rewrites, or gives ``sources`` and ``quote`` the same way, a quote
that shares content words with the new text: a model does not turn "lives in
Lisbon" into "lives in Porto" on its word alone. A rewrite that says the opposite of a
memory (a negation or an antonym on one side only: "likes hiking" → "hates hiking")
needs the quote too, so a model that obeyed an injected session cannot flip a memory;
and a replace counts against ``max_removals_per_run`` like a removal. Refusals
are plain sentences for the run record.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from dreamgit.extract.signature import ANTONYMS, signature
from dreamgit.llm.injection import instruction_shape
from dreamgit.llm.proposals import Proposal
from dreamgit.model import Memory, Session
from dreamgit.textsim import features

__all__ = ["evidence_refusal"]

#: A quote shorter than this many words cannot say which memory it is about.
MIN_QUOTE_WORDS = 3


def evidence_refusal(
    p: Proposal, known: Mapping[str, Memory], sessions: Mapping[str, Session]
) -> str | None:
    """Why ``p`` lacks the evidence its op needs, or None when it has it (or needs none).

    ``known`` are the memories sent with the prompt, ``sessions`` this run's
    sessions by id. Ids that are not known are left to the shared gates.
    """
    if p.op == "supersede":
        return _newer(p.by, p.ids, known, "supersedes")
    if p.op in ("replace", "merge"):
        return _kept_values(p, known, sessions)
    if p.op != "remove":
        return None
    if p.by is not None:
        return _newer(p.by, p.ids, known, "covers")
    if p.sources and p.quote:
        return _quoted(p, known, sessions)
    return (
        "remove needs evidence: by (a newer memory of the group that covers it) "
        "or sources and quote (the session's own words)"
    )


#: What a rewrite must not lose unless the session says so: numbers, and names
#: (capitalised words that do not open a sentence).
_NUMBER = re.compile(r"\d+(?:[.,:/-]\d+)*")
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][\w'-]*[a-z][\w'-]*|\b[A-Z]{2,}[\w.-]*\w")
_WORD = re.compile(r"[\w'.-]*\w")


def _values(text: str) -> dict[str, str]:
    """The numbers and names of ``text``, by their case-folded form."""
    found = [*_NUMBER.findall(text), *(m.group() for m in _NAME.finditer(text))]
    return {v.casefold().removesuffix("'s"): v.removesuffix("'s") for v in found}


def _kept_values(
    p: Proposal, known: Mapping[str, Memory], sessions: Mapping[str, Session]
) -> str | None:
    """A rewrite keeps every number and name of the memories it rewrites, or quotes the
    session that changed them: "moved to Porto" may replace "lives in Lisbon" only on
    the session's own words."""
    text = p.text or ""
    kept = {w.casefold().removesuffix("'s") for w in _WORD.findall(text)}
    before = {k: v for i in p.ids if i in known for k, v in _values(known[i].text).items()}
    lost = sorted((v for k, v in before.items() if k not in kept), key=str.casefold)
    # A rewrite that turns a memory around ("likes hiking" → "hates hiking") is a new
    # fact on the model's word: like a removal, it needs the session's own words.
    flipped = [i for i in p.ids if i in known and _flipped(known[i].text, text)]
    if not lost and not flipped:
        return None
    if p.sources and p.quote:
        return _quoted(p, known, sessions)
    if lost:
        return (
            f"{p.op} drops {', '.join(lost)} of what it rewrites: keep them, or give sources"
            " and quote (the session's own words that change them)"
        )
    return (
        f"{p.op} turns {', '.join(flipped)} into its opposite: give sources and quote"
        " (the session's own words that say so)"
    )


def _flipped(old: str, new: str) -> bool:
    """Whether ``new`` says the opposite of ``old``: a negation or an antonym on one side only."""
    sa, sb = signature(old), signature(new)
    if len(sa.negations) % 2 != len(sb.negations) % 2:
        return True
    only_old, only_new = sa.antonyms - sb.antonyms, sb.antonyms - sa.antonyms
    return any(
        (p in only_old and q in only_new) or (q in only_old and p in only_new) for p, q in ANTONYMS
    )


def _newer(
    by: str | None, ids: tuple[str, ...], known: Mapping[str, Memory], verb: str
) -> str | None:
    if by is None or by not in known:
        return None
    for memory_id in ids:
        if memory_id in known and known[by].created <= known[memory_id].created:
            return f"{by} is not newer than {memory_id}: only a newer memory {verb} an older one"
    return None


def _quoted(
    p: Proposal, known: Mapping[str, Memory], sessions: Mapping[str, Session]
) -> str | None:
    quote = p.quote or ""
    if len(quote.split()) < MIN_QUOTE_WORDS:
        return f"the quote has fewer than {MIN_QUOTE_WORDS} words: it cannot be evidence"
    shape = instruction_shape(quote)
    if shape is not None:
        return f"the quote is shaped like an instruction to a model ({shape}): not evidence"
    for source in p.sources:
        if source not in sessions:
            return f"unknown session id {source}: not among this run's sessions"
    if not any(_contains(sessions[s].text, quote) for s in p.sources):
        where = ", ".join(p.sources)
        what = {"remove": "a removal", "replace": "a rewrite"}.get(p.op, f"a {p.op}")
        return f"the quote is not in session {where}: {what} needs the session's own words"
    said = features(quote)
    if p.op in ("replace", "merge"):  # the quote says the new value
        if not said & features(p.text or ""):
            return "the quote says nothing of the new text: it shares no content word with it"
        return None
    for memory_id in p.ids:
        if memory_id in known and not said & features(known[memory_id].text):
            return f"the quote says nothing about {memory_id}: it shares no content word with it"
    return None


def _contains(text: str, quote: str) -> bool:
    """Whether ``quote`` is in ``text``, ignoring case and runs of white space."""
    return " ".join(quote.casefold().split()) in " ".join(text.casefold().split())
