"""What is said to the agent: standing orders, rules with their reasons, tasks for now.

A sentence said to an agent is read before its clauses (:func:`said_to_the_agent`): "note
that X" keeps X, "From now on, never …" and "When …, never …" put the rule first, the
preferences in a request are lifted out, and "Use uv, not pip: pip broke the lockfile"
stays one instruction with its reason; "I want you to …" is the order it says, and a
request for one change to the work at hand is left (:mod:`.work_at_hand`). The patterns
tell a standing order ("keep answers short") from a task ("fix the bug", "Sum a numeric
column").
"""

from __future__ import annotations

import re

from dreamgit import lazyre
from dreamgit.dream.gather.clause import Clause
from dreamgit.dream.gather.lifted import lifted_preferences
from dreamgit.dream.gather.momentary import STANDING, one_off
from dreamgit.dream.gather.not_facts import IMPERATIVE, QUESTION_OPEN
from dreamgit.dream.gather.sentence_split import LEAD
from dreamgit.dream.gather.specs import without_note
from dreamgit.dream.gather.words import ADVICE_VERBS, REQUEST_VERBS
from dreamgit.dream.gather.work_at_hand import order_on_any, wanted_order, without_request

__all__ = [
    "AGENT_REQUEST",
    "POLITE_ORDER",
    "STANDING_ORDER",
    "TASK_SHAPE",
    "as_order",
    "said_to_the_agent",
]

_I = re.IGNORECASE

# Imperatives that set how the agent works from now on ("keep answers short", "don't use
# emojis", "always run the linter"), as opposed to a task ("fix the bug", "delete it").
STANDING_ORDER = lazyre.compile(
    # "write commit messages in …" sets a rule; "write a function that …" is a task
    r"^(?:please\s+)?(?:don't|do\s+not|never|always|keep|use|avoid|prefer|reply|answer"
    r"|write(?!\s+(?:a|an|the|this|that|these|those|me|us|it|some|my|our)\b)"
    r"|respond|format|call\s+me|address\s+me|name|stop|be|stick\s+to|default\s+to"
    r"|remember\s+to)\b",
    _I,
)
# "Can you keep explanations short and direct?": a standing order, asked politely.
POLITE_ORDER = lazyre.compile(
    r"^(?:(?:also|and|so|oh),?\s+)?(?:can|could|would|will)\s+you\s+(?:please\s+)?"
    r"(?P<order>[a-z].*?)(?:,?\s+please)?\?$",
    _I,
)
# "Sum a numeric column", "Convert the CSV to Parquet": to an agent, a word and then a
# determiner is a verb and its object, unless the word only links ("About the deadline").
TASK_SHAPE = lazyre.compile(
    r"^(?!(?:about|after|all|at|before|both|by|during|for|from|in|into|like|near|of|on|over"
    r"|since|through|to|under|until|with|without|within|and|but|or|so|just|not|only|also|even"
    r"|then|maybe|once|when|while|if|because|as|than|per|via|plus|around|between|behind|across"
    r"|along|among|against|inside|outside|toward|towards|upon|what|which|who|how|why|where"
    r"|thanks|sorry|hey|hi|hello|yes|no|ok|okay|sure|well|oh|half|most|some|any|each|every"
    r"|none|one|neither|either|here|there|now|today|yesterday|tomorrow)\b)"
    # "Got the model down to 25M params": what the user did, its "I" unsaid
    r"(?![a-z]{2,}ed\s|(?:got|went|had|made|took|saw|met|bought|found|did|won|lost|ran|wrote"
    r"|began|built|spent|sold|ate|gave|brought|thought|felt|heard)\s)[a-z]+\s+"
    r"(?:a|an|the|this|that|these|those|each|every|some|all)\s",
    _I,
)


def said_to_the_agent(sentence: str, prior: str) -> tuple[str | None, list[Clause], Clause | None]:
    """What a sentence said to an agent holds before it is read as clauses: the rest of
    it (None when nothing is left), the preferences lifted out of it, and a standing rule
    said with its reason (which is then the whole sentence)."""
    sentence = without_note(sentence)  # "note that X": X is what to keep
    sentence = wanted_order(sentence) or sentence  # "I want you to use pnpm": an order
    sentence = _STANDING_FROM_NOW.sub(_from_now_on, sentence)
    sentence = _CONDITION_FIRST.sub(_rule_first, sentence)
    # "I'm trying to keep it small, so I prefer X, can you …": the preference outlives
    # the request; what comes before it is read on as usual; the sentence before may
    # give the aim: "I'm trying to … . I prefer X."
    found = lifted_preferences(sentence, prior)
    lifted = [Clause(each.text, "preference") for each in found]
    if found:
        head = sentence[: found[0].start].rstrip(" ,;:-")
        # "Let's use Vitest because I prefer …": the choice stays, without its "because"
        sentence = re.sub(
            r"[\s,]+(?:so|and|but|which\s+is\s+why|because|since|as)$", "", head, flags=_I
        )
        if not sentence:
            return None, lifted, None
    # "I'd like the button to sit …", "the chart is cut off, please move …": of the moment
    left = without_request(sentence, standing_order=STANDING_ORDER)
    if left is None:
        return None, lifted, None
    on_any = order_on_any(left, imperative=_an_order)  # "After editing any file, run …"
    if on_any is not None:
        return left, lifted, Clause(on_any, "instruction", True)
    return left, lifted, _rule_with_reason(left)


def _an_order(text: str) -> bool:
    """Whether ``text`` opens as an order to the agent ("run …", "bump the version")."""
    return bool(IMPERATIVE.match(text) or AGENT_REQUEST.match(text) or TASK_SHAPE.match(text))


# "Use uv, not pip: pip broke the lockfile", "Never force-push because CI reads the tags".
_RULE_REASON = lazyre.compile(
    r"^(?P<rule>[^:;\u2014]{4,200}?)(?P<sep>\s*:\s+|\s+[-\u2013\u2014]\s+"
    r"|,?\s+(?:because|since|as)\s+)(?P<why>[^;:]{8,240}?)[.!\u2026 ]*$",
    _I,
)


def _rule_with_reason(sentence: str) -> Clause | None:
    """A standing rule said to the agent with the reason for it, as one instruction."""
    m = _RULE_REASON.match(sentence)
    if m is None:
        return None
    rule, why = LEAD.sub("", m["rule"].strip()), m["why"].strip()
    standing = STANDING_ORDER.match(rule) or STANDING.search(rule)
    if not (IMPERATIVE.match(rule) and standing) or one_off(rule):
        return None
    if len(why.split()) < 3 or QUESTION_OPEN.match(why) or IMPERATIVE.match(why):
        return None
    sep = m["sep"].strip(" ,")
    joiner = " \u2014 " if sep in (":", "-", "\u2013", "\u2014") else f" {sep.lower()} "
    return Clause(f"{rule}{joiner}{why}", "instruction", True)


# "Now go ahead and add tests", "continue with task 8", "next, review the plan", "just
# rerun it", "think it over": a request.
AGENT_REQUEST = lazyre.compile(
    r"^(?:(?:now|next|then|first|finally|ok|okay|alright|great|perfect|good|also|and|so|just)"
    r"[,\s]+)*"
    rf"(?:go\s+ahead\s+and\s+)?(?:{ADVICE_VERBS}|{REQUEST_VERBS})\b"
    r"(?!\s+(?:is|was|are|were|has|have|had|can|will|makes|helps)\b)",
    _I,
)
# "When parsing CSV exports, never trust the header row": the rule, then when it holds.
_CONDITION_FIRST = lazyre.compile(
    r"^(?P<when>(?:when|whenever|if|for)\s+[^,]{3,120}),\s+(?P<rule>(?:please\s+)?(?:always"
    r"|never|don't|do\s+not)\s+(?!(?:[a-z]+ed|went|was|were|had|did|got|made|took|came)\b)"
    r"[^?]+?)(?P<end>[.!]*)$",
    _I,
)


def _rule_first(m: re.Match[str]) -> str:
    rule, when = m["rule"], m["when"]
    return f"{rule[:1].upper()}{rule[1:]} {when[:1].lower()}{when[1:]}{m['end']}"


# "From now on, never ask me …": the rule, then since when.
_STANDING_FROM_NOW = lazyre.compile(
    r"^(?:from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future|henceforth)\s*,?\s+"
    r"(?P<rule>(?:please\s+)?(?:always|never|don't|do\s+not)\b.+?)(?P<end>[.!]*)$",
    _I,
)


def _from_now_on(m: re.Match[str]) -> str:
    rule = m["rule"]
    return f"{rule[:1].upper()}{rule[1:]} from now on{m['end']}"


# "You should never push to main", "you must always run the linter", "you shouldn't be
# editing the vendored files": a rule for the agent, said as what it must (not) do. Only
# with "never", "always" or a negation: "you should run the tests" is advice of the moment.
_YOU_MUST = lazyre.compile(
    r"^(?:(?:and|also|so|but|again|ok|okay),?\s+)?you\s+"
    r"(?:(?:should|must|shall)(?:n't|\s+not)(?P<never>\s+ever)?|(?:should|must|shall)\s+"
    r"(?P<word>never|always)|(?:need|have)\s+to\s+(?P<need>always))\s+"
    # "you should never have deleted it": a reproach of what was done, no rule
    r"(?!(?:have|had|been)\b)(?P<rule>[a-z][^?]*?)(?P<end>[.!]*)$",
    _I,
)


def as_order(sentence: str) -> str:
    """``sentence`` said as the order it gives when it tells the agent what it must
    never, always or not do ("you should never push to main": "Never push to main");
    ``sentence`` itself otherwise."""
    m = _YOU_MUST.match(sentence)
    if m is None:
        return sentence
    word = m["word"] or m["need"] or ("Never" if m["never"] else "Do not")
    return f"{word[:1].upper()}{word[1:].lower()} {m['rule']}{m['end']}"
