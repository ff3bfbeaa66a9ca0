"""Statements, not patterns: every declarative clause a person says, scored for salience.

A turn is split into sentences and clauses. Questions are dropped, but a
statement inside one is kept ("…so I'd rather keep dependencies minimal, how
should I …?" keeps the preference). Greetings, thanks, backchannel, pep talk,
jokes, passing moods and advice to the other person are not facts about
anyone and are dropped; so are announcements ("something awesome happened"), and
a pointer at what someone shares says what it is (:mod:`.pointers`). What is left
gets a *kind* and a *salience* (:mod:`.salience`); the gather rules decide what
salience suffices.

The clause is then written as a memory about its speaker (:mod:`.attribution`),
with relative dates made absolute (:mod:`.dates`).
"""

import re

from dreamgit import lazyre
from dreamgit.dream.gather.clause import Clause, continuation
from dreamgit.dream.gather.momentary import (
    STANDING,
    momentary,
    one_off,
    order_after_moment,
)
from dreamgit.dream.gather.narrated_time import tightened
from dreamgit.dream.gather.not_facts import IMPERATIVE, QUESTION_OPEN, states_nothing
from dreamgit.dream.gather.pointers import shown
from dreamgit.dream.gather.salience import FIRST_PERSON, kind_of
from dreamgit.dream.gather.sentence_split import (
    LEAD,
    MAX_CLAUSE,
    rejoined,
    split_sentences,
    stripped,
)
from dreamgit.dream.gather.specs import choice, invariant_order, spec
from dreamgit.dream.gather.to_the_agent import (
    AGENT_REQUEST,
    POLITE_ORDER,
    STANDING_ORDER,
    TASK_SHAPE,
    said_to_the_agent,
)
from dreamgit.dream.gather.words import indefinite_article

__all__ = ["clauses"]

_I = re.IGNORECASE

# "Total beginner here.", "Long-time Rust dev here!": who the speaker is, said in passing.
_SELF_HERE = lazyre.compile(
    r"^(?:(?:a|an)\s+)?(?P<who>(?:[a-z][\w+#-]*\s+){0,3}(?:beginner|newbie|newcomer|novice"
    r"|dev|developer|engineer|designer|student|teacher|nurse|parent|mom|dad|writer|lurker"
    r"|researcher|scientist|manager|founder|user|fan))\s+here[.!]*$",
    _I,
)


# "Change of plans —", "Plans changed:": the next suggestion is what was decided.
_PLANS_CHANGED = lazyre.compile(
    r"^(?:change\s+of\s+plans?|plans?\s+(?:have\s+)?changed|new\s+plan)\b[\s,:;.!\u2013\u2014-]*",
    _I,
)
# "Prof. Zhang thinks we should pivot …", "the client wants us to …" is not read here
_SUGGESTED = lazyre.compile(
    r"^(?:[A-Z][\w.'-]*\s+){1,3}(?:thinks|says|wants|suggested|suggests|decided|agreed)\s+"
    r"(?:that\s+)?(?P<who>we|I)\s+(?:should|will|need\s+to|have\s+to|must)\s+"
)
_GOING = {"we": "are going to", "i": "am going to"}


def _declarative_parts(sentence: str) -> list[str]:
    """A question's statements: the comma-separated parts before the question begins."""
    kept: list[str] = []
    for part in re.split(r",\s+|\s+[-\u2013\u2014]\s+", sentence.rstrip("?!. ")):
        part = LEAD.sub("", part.strip())
        if not part or QUESTION_OPEN.match(part) or not FIRST_PERSON.search(part):
            break
        if IMPERATIVE.match(part) or part.lower().startswith("remember"):
            break
        kept.append(part)
    return kept


def clauses(
    paragraph: str, *, others: tuple[str, ...] = (), to_agent: bool = False, before: str = ""
) -> list[Clause]:
    """The declarative clauses of one paragraph of a person's turn; ``before`` is the
    sentence of the turn said just before it, if any."""
    out: list[Clause] = []
    follows = False  # the sentence before gave the last clause
    plans_changed = False  # "Change of plans —": what is suggested next is decided
    said = list(split_sentences(paragraph))
    for k, sentence in enumerate(said):
        sentence = stripped(sentence, others)
        if _PLANS_CHANGED.match(sentence):
            rest = _PLANS_CHANGED.sub("", sentence)
            plans_changed, sentence = True, rest[:1].upper() + rest[1:]
            if not sentence:
                continue
        if plans_changed:
            # "Prof. Zhang thinks we should pivot to EMNLP": after "change of plans", done
            sentence = _SUGGESTED.sub(lambda m: f"{m['who']} {_GOING[m['who'].lower()]} ", sentence)
            plans_changed = False
        asked = POLITE_ORDER.match(sentence) if to_agent else None
        if asked is not None and STANDING_ORDER.match(asked["order"]):
            sentence = asked["order"][:1].upper() + asked["order"][1:]  # "Keep it short"
        if to_agent:
            prior = stripped(said[k - 1], others) if k else before
            left, lifted, ruled = said_to_the_agent(sentence, prior)
            out.extend(lifted)
            if left is None:
                continue
            if ruled is not None:
                out.append(ruled)  # "Use uv, not pip: pip broke the lockfile": with its reason
                follows = False
                continue
            sentence = left
        here = _SELF_HERE.match(sentence)
        if here is not None:
            who, first = here["who"], here["who"].split(" ", 1)[0]
            if len(first) < 2 or not first.isupper():  # "ML newbie" keeps its acronym
                who = who[:1].lower() + who[1:]
            sentence = f"I'm {indefinite_article(who)} {who}."  # "Total beginner here": who I am
        if sentence.endswith("?"):
            parts = _declarative_parts(sentence)
        else:
            parts = rejoined(sentence.rstrip(".!… "))
            joined = continuation(out[-1], sentence, others=others) if follows else None
            if joined is not None:
                out[-1] = joined
                continue
        had = len(out)
        for part in parts:
            found = _clause_of(part, others, to_agent=to_agent)
            if found is not None:
                out.append(found)
        follows = len(out) > had
    return out


def _clause_of(part: str, others: tuple[str, ...], *, to_agent: bool) -> Clause | None:
    """One part of a sentence as a clause with its kind, or None when it is not kept."""
    text = shown(tightened(stripped(part, others)))
    if to_agent:
        text = order_after_moment(text) or text  # "I see two headers, make sure …": the order
    if not text or len(text) > MAX_CLAUSE:
        return None
    # "let's use Postgres for the queue", "for the queue, let's use Postgres": a decision
    # (judged as "let's <choice>": what the choice is for may open like a fragment)
    chosen = choice(text) if to_agent else None
    if chosen is not None and not states_nothing(f"let's {chosen}", to_agent=True):
        return Clause(f"I decided to {chosen}", "decision")
    if chosen is not None or states_nothing(text, to_agent=to_agent):
        return None
    imperative = to_agent and bool(
        IMPERATIVE.match(text)
        or re.match(r"(?:please|let's|lets|let\s+us)\b", text, _I)
        or TASK_SHAPE.match(text)
        or AGENT_REQUEST.match(text)
    )
    standing = STANDING_ORDER.match(text) or STANDING.search(text)
    if imperative and not (standing or invariant_order(text)):
        return None  # "fix the login bug", "let's talk": a task for now, not a standing rule
    if imperative and one_off(text):
        return None  # "don't stop until the tests pass": a rule for this task only
    kind = kind_of(text, instruction=imperative)
    if to_agent and not imperative and spec(text):
        kind = "instruction"  # how the project must be: a rule, said of a thing
    elif to_agent and not imperative and momentary(text) is not None:
        kind = "momentary"  # a task, a doubt, a need of this session
    return Clause(text, kind, imperative)
