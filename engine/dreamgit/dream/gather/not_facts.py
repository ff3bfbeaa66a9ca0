"""What states nothing about anyone: chat glue, moods, pep talk, guesses, advice, questions.

:func:`states_nothing` drops a clause that is a greeting or thanks, a passing mood, a
hypothesis, a pronoun with nobody named, a reaction to what was just said, advice to the
listener or a question typed without its mark; :func:`chatter` says a whole sentence is
chat glue, and :func:`after_dismissal` drops what an opening "never mind …" takes back.
The patterns of questions and imperatives are shared with the readers of what is said to
the agent.
"""

from __future__ import annotations

import re

from dreamgit import lazyre
from dreamgit.dream.gather.momentary import STANDING
from dreamgit.dream.gather.narrated_time import TIME_WAS_ONLY
from dreamgit.dream.gather.pointers import announces_only
from dreamgit.dream.gather.salience import FIRST_PERSON
from dreamgit.dream.gather.sentence_split import EMOJI, PRONOUN_SUBJECT, stripped
from dreamgit.dream.gather.specs import spec
from dreamgit.dream.gather.words import (
    ADVICE_VERBS,
    BACKCHANNEL,
    PEP_TALK,
    TRANSIENT,
    opens_without_subject,
)

__all__ = [
    "IMPERATIVE",
    "QUESTION_OPEN",
    "REPORTED",
    "addressed_to_listener",
    "after_dismissal",
    "chatter",
    "hypothetical",
    "states_nothing",
]

_I = re.IGNORECASE
QUESTION_OPEN = lazyre.compile(
    r"^(?:how|what|what's|why|when|where|who|which|whose|can|could|would|should|do|does|did"
    r"|is|are|was|were|have|has|had|will|shall|may|any|anything|got|know|ever|wanna|want"
    r"|isn't|aren't|don't|didn't|doesn't|right|huh|or)\b",
    _I,
)
_SECOND = lazyre.compile(r"\b(?:you|you're|you've|you'd|you'll|your|yours|yourself)\b", _I)
_SECOND_OPEN = lazyre.compile(r"^(?:you|you're|you've|you'd|you'll|your|ya|u)\b", _I)
# "Mix it up with sauces", "Capture the joy": advice; "Practice is key", "Share prices
# fell": a noun, said of.
IMPERATIVE = lazyre.compile(
    rf"^(?:please\s+)?(?:(?:don't|do\s+not|never|always)\s+\w+|(?:{ADVICE_VERBS})\b"
    r"(?!\s+(?:is|was|are|were|has|have|had|can|will|makes|helps|prices|sessions?)\b))",
    _I,
)
_HYPOTHETICAL = lazyre.compile(
    r"^(?:if|unless|maybe|perhaps|imagine|i\s+wonder|i\s+hope\s+you|i\s+guess|i\s+suppose"
    r"|i\s+wish|not\s+sure)\b|\b(?:should|might|could|may|possibly|probably|perhaps)\b",
    _I,
)
# "I'd go", "it would be": a wish or a guess, unless it says what someone liked ("I'd
# rather …") or did again and again back then ("as a kid we'd go through the fields").
_WOULD = lazyre.compile(
    r"\b(?:would|'d)\b(?!\s+(?:rather|love|like|prefer|really\s+like|be\s+happy))", _I
)
_HABITUAL = lazyre.compile(
    r"\b(?:when\s+(?:i|we)\s+(?:was|were)|as\s+(?:a\s+)?(?:kid|kids|child|children)|growing\s+up"
    r"|used\s+to)\b",
    _I,
)


# The month, not the modal: "reached 4,700 words on may 13", "in early may", "13 may".
_MONTH_MAY = lazyre.compile(
    r"\b(?:(?:in|on|by|since|until|till|of|from|through|early|late|mid|last|next|this)\s+may"
    r"|may\s+\d{1,2}(?:st|nd|rd|th)?|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?may)\b"
)


# "never mind the flag; …", "nvm, …": what it names is taken back, what follows is said.
_DISMISSAL = lazyre.compile(
    r"^(?:(?:oh|ok|okay|ah|well)[,!]?\s+)?(?:never\s*mind|nvm)\b(?P<named>[^;,:.!?\u2014]*)"
    r"(?:[;,:.!?\u2014]+\s*|$)",
    _I,
)


def after_dismissal(sentence: str) -> str:
    """``sentence`` without its opening "never mind …" (up to its first stop, comma or
    semicolon): "never mind the flag; we deploy with Helm" says "we deploy with Helm", and
    "never mind that" alone says nothing (""). Any other sentence as it was."""
    m = _DISMISSAL.match(sentence)
    if m is None:
        return sentence
    return sentence[m.end() :].strip()


def hypothetical(low: str) -> bool:
    """Whether a clause says what might be rather than what is or was."""
    if _HYPOTHETICAL.search(_MONTH_MAY.sub(" ", low)):
        return True
    return _WOULD.search(low) is not None and _HABITUAL.search(low) is None


# "I prefer it over the old one", "I like that", "I love you": the object is only a pronoun.
# What follows the pronoun may only colour it ("I love it so much"); "I bought it in Paris
# a year ago" says where and when, and is kept.
# "… to open a ticket, not work on it": the "it" of a contrast is the thing named just
# before it in the clause, so the clause says what it is about.
_CONTRAST_BACK = lazyre.compile(
    r"\b(?:a|an|the)\s+[\w-]+[^,]*,\s+(?:but\s+)?not\s+(?:to\s+)?\w+(?:\s+\w+)?\s+(?:it|them)$"
)
_PRONOUN_OBJECT = lazyre.compile(
    r"^(?:i|we|i'm|we're)\s+(?:\w+ly\s+|always\s+|really\s+|just\s+|still\s+)?\w+\s+"
    r"(?:it|that|this|them|those|these|you|one)(?:\s+(?:(?:so\s+|very\s+)?much|a\s+lot|too|now|again|already"
    r"|anymore|all|though|as\s+well|more|here|there|every\s+(?:day|week|time)|daily"
    r"|often|sometimes|all\s+the\s+time|(?:over|than|to|instead\s+of)"
    r"\s+(?:the\s+)?(?:old|other|new|previous|last|first)?\s*(?:one|ones|it|that|this)))*$"
    r"|\b(?:for|with|about|of|to|on|at|in|enjoy|love|like|try|know|reading|doing|seeing|see"
    r"|get|do)\s+(?:this|that|it|them|one)$"
    r"|^(?:i|we)\s+(?:\w+\s+)?(?:did|do|done|doing)\s+(?:it|that|this)\b",
    _I,
)
# "Here is the traceback", "check this out", "see you": pointers and sign-offs.
_SIGNPOST = lazyre.compile(
    r"^(?:let\s+me\s+know|talk\s+(?:to\s+you\s+)?soon|see\s+you|here\s+is|here's|here\s+are"
    r"|check\s+(?:this|it)\s+out|take\s+a\s+look|look\s+at\s+this)\b",
    _I,
)
# "I need you to fix the bug": a one-off request, unless it says always / never / from now on.
_REQUEST = lazyre.compile(r"^(?:i\s+(?:need|want)|can\s+you|could\s+you)\s+you\s+to\b", _I)
REPORTED = lazyre.compile(
    r"\b(?:the\s+assistant|you)\s+(?:said|told|suggested|think|thought)\b", _I
)


def addressed_to_listener(text: str) -> bool:
    """Whether ``text`` speaks of the listener ("you", "your", "yourself")."""
    return _SECOND.search(text) is not None


_FRAGMENT = lazyre.compile(
    r"^(?:for|because|cause|'cause|to|with|like|by|from(?!\s+now\s+on)|mostly(?!\s+\w+(?:ing|ed)\b)|probably)\b",
    _I,
)
# A "that" clause standing alone, cut from the sentence it completes ("… so that I can …").
_THAT_CLAUSE = lazyre.compile(r"^(?:so\s+)?that\s+(?:i|we|you|they|he|she)\b")
_SUBJECT = lazyre.compile(r"\b(?:i|i'm|i've|i'd|i'll|we|we're|we've|we'd|we'll)\b", _I)
# "Had a rough commute today", "I had the worst flight back": a passing mishap.
_BAD_DAY = lazyre.compile(
    r"^(?:i\s+|we\s+)?(?:just\s+)?had\s+(?:a|an|the|such\s+a)\s+(?:\w+\s+)?(?:rough|terrible|bad|awful"
    r"|horrible|long|crazy|hectic|tough|stressful|worst|brutal|exhausting|nightmare)\s+"
    r"(?:\w+\s+)?(?:day|morning|afternoon|evening|night|commute|flight|drive|week|shift|ride)\b"
)
# "Since I was 17 or so", "When we were kids": when, with no clause it is the time of.
_WHEN_ONLY = lazyre.compile(
    r"^(?:ever\s+)?(?:since|when|whenever|while|once|until|till|after|before|although|though)"
    r"\s+(?:i|we)\b(?![^,]*\b(?:i|i'm|i've|i'd|i'll|we|we're|we've|we'd|we'll|my|our)\b)[^,]*$",
    _I,
)


_QUOTED = lazyre.compile(r'"[^"]{3,200}"')
# A question typed without its mark: an auxiliary, then who or what it asks about.
_ASKED_UNMARKED = lazyre.compile(
    r"^(?:did|do|does|can|could|would|will|is|are|was|were|have|has|had)\s+"
    r"(?:you|i|we|it|there|this|that|they|these|those)\b"
)


def states_nothing(clause: str, *, to_agent: bool) -> bool:
    """True for what states nothing about anyone: chat glue, moods, pep talk, advice."""
    # a quoted question or wish is what is spoken of, not the speaker's own hypothesis:
    # 'never ask me "Would you like to proceed?"'
    low = _QUOTED.sub('"…"', clause.lower()).rstrip(".!")
    words = low.split()
    if len(words) < 3 or low in BACKCHANNEL:
        return True
    if PEP_TALK.search(low) or TRANSIENT.match(low) or TIME_WAS_ONLY.match(low):
        return True
    if hypothetical(low) and not (to_agent and spec(low)):
        return True  # "we should go hiking" is a guess; "each module should …" a spec
    pronoun_object = _PRONOUN_OBJECT.search(low) and not _CONTRAST_BACK.search(low)
    if pronoun_object or PRONOUN_SUBJECT.match(low):
        return True
    if REPORTED.search(low) or (_REQUEST.match(low) and not STANDING.search(low)):
        return True
    if _THAT_CLAUSE.match(low):
        return True  # "that I can clear it out later": what a request is for, cut from it
    if _FRAGMENT.match(low) and not _SUBJECT.search(low):
        return True  # "For love and to teach my kids": the answer to a question, not a fact
    if _BAD_DAY.match(low):
        return True  # "Had a rough commute today": how a day went, gone tomorrow
    if _WHEN_ONLY.match(low) or re.match(r"like\s*['\"\u2018\u201c]", low):
        return True  # "Since I was 17", "Like 'this part sums the rows'": no fact alone
    if to_agent and _ASKED_UNMARKED.match(low):
        return True  # "did you rebuild the index": a question without its mark
    if not to_agent and (_SECOND_OPEN.match(low) or IMPERATIVE.match(low)):
        return True  # "You'd be a great counselor", "Don't forget to …": about the listener
    # "Twist your torso to one side": advice, or the listener's, said by another;
    # "Been reading the book you recommended" has its "I" unsaid
    about_listener = addressed_to_listener(low) and not FIRST_PERSON.search(low)
    if not to_agent and about_listener and not opens_without_subject(words[0]):
        return True
    if announces_only(low):
        return True  # "Something awesome happened on Friday": the news is in what follows
    if _GLAD.match(low):
        return True
    if _REACTION.match(low) and not FIRST_PERSON.search(low):
        return True  # "Sounds like a plan", "Glad the therapy is helping": about what was just said
    return bool(_SIGNPOST.match(low))


# A reaction to what the other person said, its subject unsaid: "Sounds like a plan".
_REACTION = lazyre.compile(
    r"^(?:(?:sounds|looks|seems)\s+(?:like|so|really|super|great|good|fun|amazing|awesome|cool"
    r"|nice|lovely|interesting|exciting|delicious|yummy|tasty|wonderful|beautiful|incredible)"
    r"|(?:so\s+)?glad|fingers\s+crossed)\b"
)
# "Glad we can be on this trip together", "Glad you liked it": glad of the moment ("I'm
# glad we both love hiking" says what they love).
_GLAD = lazyre.compile(r"^(?:so\s+)?glad,?\s+(?:we|you|they|it|that|to|all)\b")


def chatter(sentence: str, others: tuple[str, ...] = ()) -> bool:
    """True for a whole sentence of chat glue: a greeting, thanks, a passing mood."""
    text = stripped(EMOJI.sub("", sentence).strip(), others).rstrip(".!… ")
    low = text.lower()
    return not text or low in BACKCHANNEL or TRANSIENT.match(low) is not None
