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

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from dreamgit.dream.gather.dates import DATE_WORDS, JUST_DONE, past_times
from dreamgit.dream.gather.momentary import (
    STANDING,
    dated_worry,
    lifted_preferences,
    momentary,
    one_off,
)
from dreamgit.dream.gather.pointers import announces_only, shown
from dreamgit.dream.gather.salience import FIRST_PERSON, NUMBER, PROPER, TITLE, kind_of
from dreamgit.dream.gather.specs import choice, invariant_order, spec, without_note
from dreamgit.dream.gather.words import (
    ADVICE_VERBS,
    BACKCHANNEL,
    EVALUATIVE,
    PEP_TALK,
    REQUEST_VERBS,
    SENTENCE_END,
    TRANSIENT,
    indefinite_article,
    opens_without_subject,
)

__all__ = [
    "Clause",
    "addressed_to_listener",
    "chatter",
    "clauses",
    "continuation",
    "narrated_then",
    "spoken",
    "time_set",
    "time_told",
    "without_lead",
]

_I = re.IGNORECASE
MAX_CLAUSE = 400

_STAGE = re.compile(r"\[[^\[\]]{0,400}\]\s*(?!\()")  # "[shares a photo: …]", not [links](…)
_EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\ufe0f\u200d]+")
# A dash ends a sentence when a new one starts after it ("… last month - it's been rough"),
# not when a list or an aside goes on ("me-time - running, reading or my violin - which …").
_SENTENCE = re.compile(
    SENTENCE_END + r"[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])"
    r"|\s+[-\u2013\u2014]\s+(?=[A-Z0-9\"']|(?:i|i'm|i've|i'd|i'll|we|we're|we've|my|our|it|it's"
    r"|that|that's|this|they|they're|he|she|there|but|and|so|plus|last|yesterday|today"
    r"|tonight|tomorrow|next)\b)"
    r"|\s*\n\s*"
)
# "since we last talked", "since our last chat": when the chat was, not when a fact began.
_CATCH_UP = (
    r"since\s+(?:we|i)\s+(?:last\s+)?(?:spoke|talked|talk|chatted|chat|caught\s+up|met)"
    r"(?:\s+last)?|since\s+(?:our\s+|the\s+)?last\s+(?:chat|talk|conversation|time)"
    r"|since\s+(?:speaking|talking|chatting)\s+last"
    # "Haven't talked in a few days, wanted to let you know …": the news is what follows
    r"|(?:we\s+)?haven't\s+(?:talked|chatted|spoken|caught\s+up)\s+in\s+(?:a\s+)?(?:few|couple"
    r"(?:\s+of)?|while|ages|\w+)(?:\s+(?:days|weeks|months))?"
    r"|(?:i\s+)?wanted\s+to\s+let\s+you\s+know(?:\s+that)?|as\s+you\s+know"
)
_CATCH_UP_INSIDE = re.compile(rf",?\s+(?:{_CATCH_UP})\b", _I)
# "…, and I went": a new clause; "My girlfriend, Toby and I are going": one subject;
# "ever since I was a kid": when, part of the clause before.
_CLAUSE = re.compile(
    r"[;:]\s+|,?\s+(?:and|but|so|because|(?<!\bever\s)since(?!\s+(?:i\s+was|we\s+were)\b)|as"
    r"|though|although)\s+(?=(?:i(?!\s+(?:are|were)\b)"
    r"|i'm|i've|i'd|we|we're|we've|my|our|it|it's|that|that's|this|they|there)\b)",
    _I,
)
_LEAD = re.compile(
    r"^(?:(?:hi|hey|hello|hiya|yo|wow|whoa|woah|oh|ooh|ah|aw|aww|omg|yeah|yep|yup|yes|ya|no"
    r"|nope|ok|okay|sure|well|so(?!\s+far\b)|also|and|but|anyway|anyways|btw|by\s+the\s+way|fyi|lol|haha"
    r"|hahaha|hehe|hmm+|um|uh|phew|gotcha|totally|honestly|seriously|definitely|absolutely"
    r"|indeed|right|thankfully|luckily|moreover|besides\s+that|anyhow|bummer|ugh|oof|nah|yea"
    r"|dang|darn|gosh|geez|jeez|yikes|whew|true(?=,)|man(?=,)|on\s+another\s+note|funny\s+thing"
    r"|speaking\s+of\s+which"
    r"|alright|cool|great|awesome|nice|thanks|thank\s+you|thx|sorry|guess\s+what|you\s+know"
    # "Update: …" opens news; "update the changelog" is an order, its verb kept
    r"|to\s+be\s+honest|tbh|plus|heads\s+up|fyi|(?:quick\s+)?update(?=\s*[:,!.\u2013\u2014-])"
    r"|actually(?=,)"
    rf"|{_CATCH_UP})\b"
    r"[\s,!.:;\u2013\u2014-]*)+",
    _I,
)
_TRAIL = re.compile(
    r"(?:[\s,;:-]+(?:haha+|hahaha|lol|lmao|hehe|:\)|:d|;\)|(?:if\s+)?you\s+know(?:\s+what\s+i"
    r"\s+mean)?|eh|right|though|too|speaking\s+of"
    r"|for\s+sure|tbh|honestly|(?:and\s+)?all\s+(?:of\s+)?that|and\s+stuff|and\s+so\s+on"
    r"|(?:and\s+)?(?:things|stuff)\s+like\s+that"
    r"|etc))+[\s.!?…]*$",
    _I,
)
_QUESTION_OPEN = re.compile(
    r"^(?:how|what|what's|why|when|where|who|which|whose|can|could|would|should|do|does|did"
    r"|is|are|was|were|have|has|had|will|shall|may|any|anything|got|know|ever|wanna|want"
    r"|isn't|aren't|don't|didn't|doesn't|right|huh|or)\b",
    _I,
)
_SECOND = re.compile(r"\b(?:you|you're|you've|you'd|you'll|your|yours|yourself)\b", _I)
_SECOND_OPEN = re.compile(r"^(?:you|you're|you've|you'd|you'll|your|ya|u)\b", _I)
# "Mix it up with sauces", "Capture the joy": advice; "Practice is key", "Share prices
# fell": a noun, said of.
_IMPERATIVE = re.compile(
    rf"^(?:please\s+)?(?:(?:don't|do\s+not|never|always)\s+\w+|(?:{ADVICE_VERBS})\b"
    r"(?!\s+(?:is|was|are|were|has|have|had|can|will|makes|helps|prices|sessions?)\b))",
    _I,
)
_HYPOTHETICAL = re.compile(
    r"^(?:if|unless|maybe|perhaps|imagine|i\s+wonder|i\s+hope\s+you|i\s+guess|i\s+suppose"
    r"|i\s+wish|not\s+sure)\b|\b(?:should|might|could|may|possibly|probably)\b",
    _I,
)
# "I'd go", "it would be": a wish or a guess, unless it says what someone liked ("I'd
# rather …") or did again and again back then ("as a kid we'd go through the fields").
_WOULD = re.compile(
    r"\b(?:would|'d)\b(?!\s+(?:rather|love|like|prefer|really\s+like|be\s+happy))", _I
)
_HABITUAL = re.compile(
    r"\b(?:when\s+(?:i|we)\s+(?:was|were)|as\s+(?:a\s+)?(?:kid|kids|child|children)|growing\s+up"
    r"|used\s+to)\b",
    _I,
)


def _hypothetical(low: str) -> bool:
    """Whether a clause says what might be rather than what is or was."""
    if _HYPOTHETICAL.search(low):
        return True
    return _WOULD.search(low) is not None and _HABITUAL.search(low) is None


# "I prefer it over the old one", "I like that", "I love you": the object is only a pronoun.
# What follows the pronoun may only colour it ("I love it so much"); "I bought it in Paris
# a year ago" says where and when, and is kept.
_PRONOUN_OBJECT = re.compile(
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
# "She prefers Vim": whose? A pronoun subject nobody named is no one's fact.
# "Here is the traceback", "check this out", "see you": pointers and sign-offs.
_SIGNPOST = re.compile(
    r"^(?:let\s+me\s+know|talk\s+(?:to\s+you\s+)?soon|see\s+you|here\s+is|here's|here\s+are"
    r"|check\s+(?:this|it)\s+out|take\s+a\s+look|look\s+at\s+this)\b",
    _I,
)
_PRONOUN_SUBJECT = re.compile(r"^(?:he|she|they|he's|she's|they're|him|her)\b", _I)
# "I need you to fix the bug": a one-off request, unless it says always / never / from now on.
_REQUEST = re.compile(r"^(?:i\s+(?:need|want)|can\s+you|could\s+you)\s+you\s+to\b", _I)
# Imperatives that set how the agent works from now on ("keep answers short", "don't use
# emojis", "always run the linter"), as opposed to a task ("fix the bug", "delete it").
# "Total beginner here.", "Long-time Rust dev here!": who the speaker is, said in passing.
_SELF_HERE = re.compile(
    r"^(?:(?:a|an)\s+)?(?P<who>(?:[a-z][\w+#-]*\s+){0,3}(?:beginner|newbie|newcomer|novice"
    r"|dev|developer|engineer|designer|student|teacher|nurse|parent|mom|dad|writer|lurker"
    r"|researcher|scientist|manager|founder|user|fan))\s+here[.!]*$",
    _I,
)


# "Can you keep explanations short and direct?": a standing order, asked politely.
_POLITE_ORDER = re.compile(
    r"^(?:(?:also|and|so|oh),?\s+)?(?:can|could|would|will)\s+you\s+(?:please\s+)?"
    r"(?P<order>[a-z].*?)(?:,?\s+please)?\?$",
    _I,
)
_STANDING_ORDER = re.compile(
    # "write commit messages in …" sets a rule; "write a function that …" is a task
    r"^(?:please\s+)?(?:don't|do\s+not|never|always|keep|use|avoid|prefer|reply|answer"
    r"|write(?!\s+(?:a|an|the|this|that|these|those|me|us|it|some|my|our)\b)"
    r"|respond|format|call\s+me|address\s+me|name|stop|be|stick\s+to|default\s+to"
    r"|remember\s+to)\b",
    _I,
)
_REPORTED = re.compile(r"\b(?:the\s+assistant|you)\s+(?:said|told|suggested|think|thought)\b", _I)
# "Sum a numeric column", "Convert the CSV to Parquet": to an agent, a word and then a
# determiner is a verb and its object, unless the word only links ("About the deadline").
_TASK_SHAPE = re.compile(
    r"^(?!(?:about|after|all|at|before|both|by|during|for|from|in|into|like|near|of|on|over"
    r"|since|through|to|under|until|with|without|within|and|but|or|so|just|not|only|also|even"
    r"|then|maybe|once|when|while|if|because|as|than|per|via|plus|around|between|behind|across"
    r"|along|among|against|inside|outside|toward|towards|upon|what|which|who|how|why|where"
    r"|thanks|sorry|hey|hi|hello|yes|no|ok|okay|sure|well|oh|half|most|some|any|each|every"
    r"|none|one|here|there|now|today|yesterday|tomorrow)\b)"
    # "Got the model down to 25M params": what the user did, its "I" unsaid
    r"(?![a-z]{2,}ed\s|(?:got|went|had|made|took|saw|met|bought|found|did|won|lost|ran|wrote"
    r"|began|built|spent|sold|ate|gave|brought|thought|felt|heard)\s)[a-z]+\s+"
    r"(?:a|an|the|this|that|these|those|each|every|some|all)\s",
    _I,
)


@dataclass(frozen=True)
class Clause:
    """One declarative clause of a turn, cleaned, before attribution."""

    text: str
    kind: str
    #: The clause is an instruction to the agent (imperative, in a turn addressed to it).
    instruction: bool = False


def spoken(text: str) -> str:
    """``text`` without its stage directions ("[shares a photo: …]") and emoji; an emoji
    between a word and a capitalised one ends a sentence ("Inspiring 💪 I emailed …")."""
    text = _STAGE.sub("", text)
    text = re.sub(rf"(?<=[\w)])\s*(?:{_EMOJI.pattern})\s+(?=[A-Z])", ". ", text)
    return _EMOJI.sub("", text)


def addressed_to_listener(text: str) -> bool:
    """Whether ``text`` speaks of the listener ("you", "your", "yourself")."""
    return _SECOND.search(text) is not None


def _sentences(paragraph: str) -> Iterator[str]:
    paragraph = spoken(paragraph)
    for sentence in _SENTENCE.split(paragraph):
        sentence = sentence.strip()
        if sentence and len(sentence) <= 2 * MAX_CLAUSE:
            yield sentence


def _declarative_parts(sentence: str) -> list[str]:
    """A question's statements: the comma-separated parts before the question begins."""
    kept: list[str] = []
    for part in re.split(r",\s+|\s+[-\u2013\u2014]\s+", sentence.rstrip("?!. ")):
        part = _LEAD.sub("", part.strip())
        if not part or _QUESTION_OPEN.match(part) or not FIRST_PERSON.search(part):
            break
        if _IMPERATIVE.match(part) or part.lower().startswith("remember"):
            break
        kept.append(part)
    return kept


def without_lead(text: str) -> str:
    """``text`` without the greetings, interjections and glue that open it ("Yeah, so …")."""
    return _LEAD.sub("", text)


def _strip(text: str, others: tuple[str, ...]) -> str:
    for _ in range(3):
        before = text
        text = _CATCH_UP_INSIDE.sub("", _LEAD.sub("", text))
        for name in others:
            text = re.sub(rf"^{re.escape(name)}\b[\s,!.:]*", "", text)
            text = re.sub(rf"[\s,]+{re.escape(name)}\s*([.!?]*)$", r"\1", text)
        text = _TRAIL.sub("", text)
        if text == before:
            break
    return _unquoted(text.strip(" ,;:-'"))


def _unquoted(text: str) -> str:
    """``text`` without a quote mark at either end that closes nothing; a title's stay
    ("I loved \"Becoming Nicole\"")."""
    while text[:1] == '"' and text.count('"') % 2:
        text = text[1:].strip(" ,;:-'")
    while text[-1:] == '"' and text.count('"') % 2:
        text = text[:-1].strip(" ,;:-'")
    return text


# Words that only colour a statement ("I just really love it"), and a closing evaluation
# (", which was so much fun"): a memory is shorter without them and says the same.
_FILLER_WORDS = re.compile(
    rf"\s+(?:very\s+much(?=\s+(?:a|an|the)\s)|really|just(?!\s+{JUST_DONE})"
    r"|so(?=\s+(?:much|many|\w+ly|\w+ful|happy|glad|proud|excited|cool|good|great))|pretty|super|totally|actually|kinda|kind\s+of|definitely|honestly"
    r"|literally|basically|seriously|absolutely|truly|quite|very)(?=\s)",
    _I,
)
_EVALUATION_TAIL = re.compile(
    r",?\s+(?:which|and\s+it|it)\s+(?:is|was|'s|has\s+been)\s+(?:\w+\s+){0,3}?"
    r"(?:fun|great|awesome|amazing|cool|nice|special|exciting|wonderful|rewarding|a\s+blast"
    r"|incredible|fantastic|lovely|powerful|inspiring|relaxing|therapeutic)\b.*$",
    _I,
)


# "Last week was wild, I got noticed by editors": how the time was, then what happened.
def _time_was(units: str) -> str:
    """ "Last week was", "yesterday has been": a time and how it went, ``units`` the
    words "last" may take."""
    return (
        rf"^(?P<time>(?:last|this\s+past|past|this)\s+(?:{units}|[a-z]+day)|yesterday|today)"
        r"\s+(?:was|has\s+been|is|'s)\s+"
    )


_TIME_WAS = re.compile(
    _time_was("week|weekend|month|year|night|summer|winter|spring|fall|autumn")
    + r"(?:\w+\s+){0,3}?\w+(?:[,;!:]|\s+[-\u2013\u2014])\s+(?P<rest>\S.*)$",
    _I,
)


# "Last week was wild": how a time went, and nothing that happened in it.
_TIME_WAS_ONLY = re.compile(
    _time_was("week|weekend|month|year|night") + r"(?:\w+[\s-]+){0,2}\w+$", _I
)


def time_told(sentence: str) -> str | None:
    """ "Last night was a blast!": the time a sentence only tells how it went, so that the
    next one ("We jammed till two") can say when it happened."""
    last = _SENTENCE.split(sentence.strip())[-1]  # "news to share - last night was a blast"
    m = _TIME_WAS_ONLY.match(_tighten(_LEAD.sub("", last)).rstrip(".!… "))
    return None if m is None else m["time"].lower()


# "I participated in …", "We also went …", "My sister and I drove …": what was done next.
_NARRATES = re.compile(
    r"^(?:(?:then|and|so|also|afterwards|after\s+that),?\s+)?"
    r"(?:i|we|my\s+\w+(?:\s+and\s+i)?|our\s+\w+)\s+(?:also\s+|then\s+|finally\s+)?" + JUST_DONE,
    _I,
)
_NOT_ONCE = re.compile(r"\b(?:always|never|usually|often|every|used\s+to|since)\b", _I)


def time_set(sentence: str) -> str | None:
    """ "Last weekend I did something new.": the past time the sentence sets, which the
    sentences narrating what was done then (:func:`narrated_then`) share."""
    found = past_times(sentence)
    if len(found) != 1 or _NOT_ONCE.search(sentence):
        return None
    return found[0]


def narrated_then(sentence: str) -> bool:
    """Whether ``sentence`` tells, undated, what its speaker did ("I participated in a
    5K run"): it happened when the sentence before said."""
    text = _LEAD.sub("", sentence.strip())
    return (
        _NARRATES.match(text) is not None
        and DATE_WORDS.search(text) is None
        and _NOT_ONCE.search(text) is None
    )


def _tighten(text: str) -> str:
    """``text`` without filler words and a closing evaluation."""
    if not text:
        return text
    m = _TIME_WAS.match(text)
    if m is not None:
        text = f"{m['rest'].rstrip(' .!')} {m['time'].lower()}"
    text = _EVALUATION_TAIL.sub("", text)
    return _FILLER_WORDS.sub("", text)


# A reply that only makes sense beside the question before it.
_FRAGMENT = re.compile(
    r"^(?:for|because|cause|'cause|to|with|like|by|from(?!\s+now\s+on)|mostly(?!\s+\w+(?:ing|ed)\b)|probably)\b",
    _I,
)
_SUBJECT = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|we|we're|we've|we'd|we'll)\b", _I)
# "Had a rough commute today", "I had the worst flight back": a passing mishap.
_BAD_DAY = re.compile(
    r"^(?:i\s+|we\s+)?(?:just\s+)?had\s+(?:a|an|the|such\s+a)\s+(?:\w+\s+)?(?:rough|terrible|bad|awful"
    r"|horrible|long|crazy|hectic|tough|stressful|worst|brutal|exhausting|nightmare)\s+"
    r"(?:\w+\s+)?(?:day|morning|afternoon|evening|night|commute|flight|drive|week|shift|ride)\b"
)
# "Since I was 17 or so", "When we were kids": when, with no clause it is the time of.
_WHEN_ONLY = re.compile(
    r"^(?:ever\s+)?(?:since|when|whenever|while|once|until|till|after|before|although|though)"
    r"\s+(?:i|we)\b(?![^,]*\b(?:i|i'm|i've|i'd|i'll|we|we're|we've|we'd|we'll|my|our)\b)[^,]*$",
    _I,
)


_QUOTED = re.compile(r'"[^"]{3,200}"')
# A question typed without its mark: an auxiliary, then who or what it asks about.
_ASKED_UNMARKED = re.compile(
    r"^(?:did|do|does|can|could|would|will|is|are|was|were|have|has|had)\s+"
    r"(?:you|i|we|it|there|this|that|they|these|those)\b"
)


def _dropped(clause: str, *, to_agent: bool) -> bool:
    """True for what states nothing about anyone: chat glue, moods, pep talk, advice."""
    # a quoted question or wish is what is spoken of, not the speaker's own hypothesis:
    # 'never ask me "Would you like to proceed?"'
    low = _QUOTED.sub('"…"', clause.lower()).rstrip(".!")
    words = low.split()
    if len(words) < 3 or low in BACKCHANNEL:
        return True
    if PEP_TALK.search(low) or TRANSIENT.match(low) or _TIME_WAS_ONLY.match(low):
        return True
    if _hypothetical(low) and not (to_agent and spec(low)):
        return True  # "we should go hiking" is a guess; "each module should …" a spec
    if _PRONOUN_OBJECT.search(low) or _PRONOUN_SUBJECT.match(low):
        return True
    if _REPORTED.search(low) or (_REQUEST.match(low) and not STANDING.search(low)):
        return True
    if _FRAGMENT.match(low) and not _SUBJECT.search(low):
        return True  # "For love and to teach my kids": the answer to a question, not a fact
    if _BAD_DAY.match(low):
        return True  # "Had a rough commute today": how a day went, gone tomorrow
    if _WHEN_ONLY.match(low) or re.match(r"like\s*['\"\u2018\u201c]", low):
        return True  # "Since I was 17", "Like 'this part sums the rows'": no fact alone
    if to_agent and _ASKED_UNMARKED.match(low):
        return True  # "did you rebuild the index": a question without its mark
    if not to_agent and (_SECOND_OPEN.match(low) or _IMPERATIVE.match(low)):
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
_REACTION = re.compile(
    r"^(?:(?:sounds|looks|seems)\s+(?:like|so|really|super|great|good|fun|amazing|awesome|cool"
    r"|nice|lovely|interesting|exciting|delicious|yummy|tasty|wonderful|beautiful|incredible)"
    r"|(?:so\s+)?glad|fingers\s+crossed)\b"
)
# "Glad we can be on this trip together", "Glad you liked it": glad of the moment ("I'm
# glad we both love hiking" says what they love).
_GLAD = re.compile(r"^(?:so\s+)?glad,?\s+(?:we|you|they|it|that|to|all)\b")


def chatter(sentence: str, others: tuple[str, ...] = ()) -> bool:
    """True for a whole sentence of chat glue: a greeting, thanks, a passing mood."""
    text = _strip(_EMOJI.sub("", sentence).strip(), others).rstrip(".!… ")
    low = text.lower()
    return not text or low in BACKCHANNEL or TRANSIENT.match(low) is not None


def clauses(
    paragraph: str, *, others: tuple[str, ...] = (), to_agent: bool = False, before: str = ""
) -> list[Clause]:
    """The declarative clauses of one paragraph of a person's turn; ``before`` is the
    sentence of the turn said just before it, if any."""
    out: list[Clause] = []
    follows = False  # the sentence before gave the last clause
    plans_changed = False  # "Change of plans —": what is suggested next is decided
    said = list(_sentences(paragraph))
    for k, sentence in enumerate(said):
        sentence = _strip(sentence, others)
        if _PLANS_CHANGED.match(sentence):
            rest = _PLANS_CHANGED.sub("", sentence)
            plans_changed, sentence = True, rest[:1].upper() + rest[1:]
            if not sentence:
                continue
        if plans_changed:
            # "Prof. Zhang thinks we should pivot to EMNLP": after "change of plans", done
            sentence = _SUGGESTED.sub(lambda m: f"{m['who']} {_GOING[m['who'].lower()]} ", sentence)
            plans_changed = False
        asked = _POLITE_ORDER.match(sentence) if to_agent else None
        if asked is not None and _STANDING_ORDER.match(asked["order"]):
            sentence = asked["order"][:1].upper() + asked["order"][1:]  # "Keep it short"
        if to_agent:
            prior = _strip(said[k - 1], others) if k else before
            left, lifted, ruled = _said_to_the_agent(sentence, prior)
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
            parts = _rejoin(sentence.rstrip(".!… "))
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


def _said_to_the_agent(sentence: str, prior: str) -> tuple[str | None, list[Clause], Clause | None]:
    """What a sentence said to an agent holds before it is read as clauses: the rest of
    it (None when nothing is left), the preferences lifted out of it, and a standing rule
    said with its reason (which is then the whole sentence)."""
    sentence = without_note(sentence)  # "note that X": X is what to keep
    sentence = _STANDING_FROM_NOW.sub(_from_now_on, sentence)
    sentence = _CONDITION_FIRST.sub(_rule_first, sentence)
    # "I'm trying to keep it small, so I prefer X, can you …": the preference outlives
    # the request; what comes before it is read on as usual; the sentence before may
    # give the aim: "I'm trying to … . I prefer X."
    found = lifted_preferences(sentence, prior)
    lifted = [Clause(each.text, "preference") for each in found]
    if found:
        head = sentence[: found[0].start].rstrip(" ,;:-")
        sentence = re.sub(r"[\s,]+(?:so|and|but|which\s+is\s+why)$", "", head, flags=_I)
        if not sentence:
            return None, lifted, None
    return sentence, lifted, _rule_with_reason(sentence)


def _clause_of(part: str, others: tuple[str, ...], *, to_agent: bool) -> Clause | None:
    """One part of a sentence as a clause with its kind, or None when it is not kept."""
    text = shown(_tighten(_strip(part, others)))
    if to_agent:
        text = dated_worry(text) or text  # "I'm worried that I booked it for May 4"
    if not text or len(text) > MAX_CLAUSE or _dropped(text, to_agent=to_agent):
        return None
    imperative = to_agent and bool(
        _IMPERATIVE.match(text)
        or re.match(r"(?:please|let's|lets|let\s+us)\b", text, _I)
        or _TASK_SHAPE.match(text)
        or _AGENT_REQUEST.match(text)
    )
    chosen = choice(text) if to_agent else None
    if chosen is not None:  # "let's use Postgres for the queue": a decision
        return Clause(f"I decided to {chosen}", "decision")
    standing = _STANDING_ORDER.match(text) or STANDING.search(text)
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


# "Use uv, not pip: pip broke the lockfile", "Never force-push because CI reads the tags".
_RULE_REASON = re.compile(
    r"^(?P<rule>[^:;\u2014]{4,200}?)(?P<sep>\s*:\s+|\s+[-\u2013\u2014]\s+"
    r"|,?\s+(?:because|since|as)\s+)(?P<why>[^;:]{8,240}?)[.!\u2026 ]*$",
    _I,
)


def _rule_with_reason(sentence: str) -> Clause | None:
    """A standing rule said to the agent with the reason for it, as one instruction."""
    m = _RULE_REASON.match(sentence)
    if m is None:
        return None
    rule, why = _LEAD.sub("", m["rule"].strip()), m["why"].strip()
    standing = _STANDING_ORDER.match(rule) or STANDING.search(rule)
    if not (_IMPERATIVE.match(rule) and standing) or one_off(rule):
        return None
    if len(why.split()) < 3 or _QUESTION_OPEN.match(why) or _IMPERATIVE.match(why):
        return None
    sep = m["sep"].strip(" ,")
    joiner = " \u2014 " if sep in (":", "-", "\u2013", "\u2014") else f" {sep.lower()} "
    return Clause(f"{rule}{joiner}{why}", "instruction", True)


# "Now go ahead and add tests", "continue with task 8", "next, review the plan": a request.
_AGENT_REQUEST = re.compile(
    r"^(?:(?:now|next|then|first|finally|ok|okay|alright|great|perfect|good|also|and|so)[,\s]+)*"
    rf"(?:go\s+ahead\s+and\s+)?(?:{ADVICE_VERBS}|{REQUEST_VERBS})\b"
    r"(?!\s+(?:is|was|are|were|has|have|had|can|will|makes|helps)\b)",
    _I,
)
# "When parsing CSV exports, never trust the header row": the rule, then when it holds.
_CONDITION_FIRST = re.compile(
    r"^(?P<when>(?:when|whenever|if|for)\s+[^,]{3,120}),\s+(?P<rule>(?:please\s+)?(?:always"
    r"|never|don't|do\s+not)\s+(?!(?:[a-z]+ed|went|was|were|had|did|got|made|took|came)\b)"
    r"[^?]+?)(?P<end>[.!]*)$",
    _I,
)


def _rule_first(m: re.Match[str]) -> str:
    rule, when = m["rule"], m["when"]
    return f"{rule[:1].upper()}{rule[1:]} {when[:1].lower()}{when[1:]}{m['end']}"


# "From now on, never ask me …": the rule, then since when.
_STANDING_FROM_NOW = re.compile(
    r"^(?:from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future|henceforth)\s*,?\s+"
    r"(?P<rule>(?:please\s+)?(?:always|never|don't|do\s+not)\b.+?)(?P<end>[.!]*)$",
    _I,
)


def _from_now_on(m: re.Match[str]) -> str:
    rule = m["rule"]
    return f"{rule[:1].upper()}{rule[1:]} from now on{m['end']}"


# "Change of plans —", "Plans changed:": the next suggestion is what was decided.
_PLANS_CHANGED = re.compile(
    r"^(?:change\s+of\s+plans?|plans?\s+(?:have\s+)?changed|new\s+plan)\b[\s,:;.!\u2013\u2014-]*",
    _I,
)
# "Prof. Zhang thinks we should pivot …", "the client wants us to …" is not read here
_SUGGESTED = re.compile(
    r"^(?:[A-Z][\w.'-]*\s+){1,3}(?:thinks|says|wants|suggested|suggests|decided|agreed)\s+"
    r"(?:that\s+)?(?P<who>we|I)\s+(?:should|will|need\s+to|have\s+to|must)\s+"
)
_GOING = {"we": "are going to", "i": "am going to"}


# "She's called Coco", "It has a red roof": a sentence that goes on about what the one
# before named. Alone it says nothing of whom; joined to that sentence it is a fact.
_BACK_REFERENCE = re.compile(
    r"^(?:he|she|they|it|its|his|her|their|this|that|these|those|he's|she's|they're|it's"
    r"|that's|there)\b",
    _I,
)


def continuation(before: Clause, sentence: str, *, others: tuple[str, ...] = ()) -> Clause | None:
    """``before`` joined with ``sentence`` when that sentence goes on about what ``before``
    named ("Her name is Coco") and says something itself; else None."""
    text = _tighten(_strip(sentence, others).rstrip(".!…? "))
    low = text.lower()
    if before.instruction or sentence.rstrip().endswith("?") or not _BACK_REFERENCE.match(low):
        return None
    if len(before.text) + len(text) + 2 > MAX_CLAUSE or len(text.split()) < 3:
        return None
    if PEP_TALK.search(low) or _hypothetical(low) or _REPORTED.search(low):
        return None
    concrete = bool(PROPER.search(text) or NUMBER.search(text) or TITLE.search(text))
    if not concrete:
        return None  # "They're so much fun to play with": colour, not a fact of its own
    joined = f"{before.text}; {low[:1]}{text[1:]}"
    return Clause(joined, kind_of(joined, instruction=False))


# "I got it as a gift": a clause whose object is what the clause before named.
_REFERS_BACK = re.compile(r"^(?:i|we|i've|we've|i'm|we're)\b.*\b\w+\s+(?:it|them)\b", _I)


# "… till Toby", "… when my sister": a clause opening whose subject goes on after "and I".
_ENDS_WITH_NAME = re.compile(
    r"\b(?:till|until|when|while|because|if|since|after|before|that|where)\s+"
    r"(?:[A-Z][a-z]+|(?:my|our)\s+\w+)$"
)


# "My best friend from school and I opened …": a sentence's opening person, no verb in it.
_PERSON_FIRST = re.compile(
    r"^(?:my|our)\s+(?!(?:[\w'-]+\s+){0,4}?(?:is|are|was|were|has|have|had|will|would|can"
    r"|[a-z]+ed)\b)(?:[\w'-]+\s+){0,4}[\w'-]+$",
    _I,
)


# "and my faith", "or our garden": a possession, with no verb after it.
_LISTED = re.compile(r"^(?:my|our)\s+(?:own\s+)?[\w'-]+(?:\s+[\w'-]+)?$", _I)


_ANNOUNCES_LIST = re.compile(r"\b(?:are|is|were|was|include|includes|including)$", _I)


def _in_title(sentence: str, m: re.Match[str]) -> bool:
    """Whether the colon ``m`` is inside a title: "Animal Crossing: New Horizons", or
    between quotes ("Monster Hunter: World")."""
    if not m.group().startswith(":"):
        return False
    before, after = sentence[: m.start()], sentence[m.end() :]
    if before.count('"') % 2 == 1:
        return True
    return bool(re.search(r"\b[A-Z][\w'-]*$", before) and re.match(r"[A-Z][a-z]", after))


def _rejoin(sentence: str) -> list[str]:
    """The clauses of a sentence. One too short to stand alone ("and it was fun") is
    left out; one that goes on about what the clause before named ("… a vintage
    guitar, and I got it as a gift", "I volunteered and they gave me a medal") stays
    with it."""
    out: list[str] = []
    start, joiner, subject = 0, "", False
    for m in [*(m for m in _CLAUSE.finditer(sentence) if not _in_title(sentence, m)), None]:
        part = sentence[start : m.start() if m else len(sentence)]
        if part:
            low = part.lower()
            weak = len(part.split()) < 4 or (
                re.match(r"^(?:it|it's|that|that's|this|they|there)\b", low)
                and EVALUATIVE.search(low)
                and not PROPER.search(part)
            )
            # "… closer to a community and my faith": one more thing, not a new clause
            listed = weak and joiner.strip() in ("and", "or") and _LISTED.match(part)
            # "Our priorities are: 1) the dashboard, 2) …": the list is what they are
            announced = joiner.strip() == ":" and out and _ANNOUNCES_LIST.search(out[-1])
            if out and (
                _REFERS_BACK.search(part)
                or _PRONOUN_SUBJECT.match(part)
                or subject
                or listed
                or announced
            ):
                out[-1] = f"{out[-1]}{joiner}{part}"
            elif not (weak and out):
                out.append(part)
            # "My wife and I left", "… till Toby and I bond": the words before "and I" were
            # part of its subject
            subject = (
                m is not None
                and m.group().strip() == "and"
                and re.match(r"i\b", sentence[m.end() :], _I) is not None
                and (
                    (len(out) == 1 and (weak or _PERSON_FIRST.match(part) is not None))
                    or _ENDS_WITH_NAME.search(part) is not None
                )
            )
        if m is not None:
            start, joiner = m.end(), m.group()
    return out
