"""What "it" stands for: the thing a question just named, put back into its answer.

"How long have you been doing that yoga routine?" — "I've been doing it for 3 years":
alone, the answer says nothing of yoga. The question named a thing ("that yoga
routine"); when the sentence right after it uses "it", "that" or "them" as its
object, the thing goes in its place: "I've been doing the yoga routine for 3 years".
Only the object after a verb is replaced, only once, and only by a phrase of the
same number ("them" wants a plural). A bare description right after such a question
("Super cozy and comfy.", asked about the new beds) describes that thing. When in doubt
nothing changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dreamgit import lazyre

__all__ = [
    "Asked",
    "described",
    "named_person",
    "named_thing",
    "ordered_thing",
    "with_antecedent",
    "with_existing_thing",
    "with_person",
    "with_subject",
]

_I = re.IGNORECASE

# "the tough engineering project", "your new guitar", "that pose": a determiner, up to
# three modifiers and a head noun, ending where the question ends or a preposition starts.
_PHRASE = lazyre.compile(
    r"\b(?P<det>the|your|that|this|these|those|my|our)\s+"
    r"(?P<words>(?:[a-z][\w'-]*\s+){0,3}?[a-z][\w'-]*"
    r"(?:\s+of\s+(?:the|your|my|that|this)\s+(?:[a-z][\w'-]*\s+)?[a-z][\w'-]*)?)"
    r"(?=\s*(?:[?,.!]|$|\s(?:with|for|to|in|on|at|of|from|lately|recently|now|yet|before"
    r"|these|this|that|you|so|again|already|too|or|and|last|yesterday|today|called|named)\b))",
    _I,
)
# Words a head noun is never: the phrase is not a thing ("the best", "your own").
_NOT_HEAD = frozenset(
    str.split("""best most same other others one ones own way lot time times day week part
    thing things stuff kind sort type moment moments idea experience feeling""")
)
_NOT_WORD = frozenset(
    str.split("""is are was were be been being do does did have has had going get got
    think feel like love know want make go come say tell""")
)
#: The object after a verb: "I finally wrapped that up", "I bought it in Paris".
_OBJECT = lazyre.compile(
    r"^(?P<lead>(?:i|we|i've|we've|i'm|we're|i'd|we'd|i'll|we'll)\s+(?:\w+\s+){0,2}?"
    r"(?!(?:is|was|are|were|be|been|think|guess|hope|know|mean|feel|felt)\b)[a-z]+(?:ed|ing|s)?)"
    # "that" and "this" before a noun are its determiner ("I took this pic"), not the thing
    r"\s+(?P<pronoun>it|them|(?:that|this)(?=\s*(?:[.,!?;]|$|\s(?:up|out|off|in|on|at|for|to"
    r"|with|from|over|again|back|away|down|last|yesterday|today|when|while|before|after|because"
    r"|and|but|so)\b)))\b(?!\s*(?:'s|is|was|are|were|will|would|has|had)\b)",
    _I,
)
# "… been playing the violin?": the -ing verb whose object the thing is.
_VERB_BEFORE = lazyre.compile(r"\b(?P<verb>[a-z]{2,}ing)\s+$", _I)
_FIRST_PERSON = lazyre.compile(r"^(?:i|we|i've|we've|i'm|we're)\b", _I)
# What follows a verb whose object went unsaid: "for a year", "since May", "every day".
_NO_OBJECT = (
    r"for|since|about|every|each|a\s+lot|all|almost|nearly|over|regularly|daily|weekly"
    r"|now|lately|again|still|too|twice|once|with|at|on|in"
)
# "What's your favorite game?", "Who is your coach?": asks what a thing is.
_IDENTITY = lazyre.compile(r"^(?:what|who|which)(?:'s|\s+is|\s+was|\s+are|\s+were)\s+", _I)
# "It's Zelda", "That was Matt Patterson", "They're Max and Luna".
_IS = lazyre.compile(
    r"^(?P<pronoun>it|that|they)(?P<verb>'s|'re|\s+is|\s+was|\s+are|\s+were)\s+(?=\S)", _I
)
_COPULA = {"'s": "is", "'re": "are"}
# "How was the concert?", "Did you like the book?": asked of what was.
_ASKED_PAST = lazyre.compile(r"\b(?:was|were|did)\b", _I)
_PERSPECTIVE = {"your": "my", "my": "your", "our": "your", "that": "the", "this": "the",
                "these": "the", "those": "the", "the": "the"}  # fmt: skip


@dataclass(frozen=True)
class Asked:
    """What a question named, and whether it asked what that thing is."""

    thing: str  # "my favorite game", as the one answering says it
    identity: bool = False  # "What's your favorite game?": "It's Zelda" names it
    #: The verb the thing was the object of ("playing" the violin): an answer that says
    #: the verb with no object ("I've been playing for a year") means the thing.
    verb: str | None = None
    #: "How was the concert?": the tense a description of the thing takes.
    past: bool = False


# "Super cozy and comfy", "So good, really rich": words that describe, with no verb and
# no subject; said right after a question about a thing, they describe that thing.
_DEGREE = r"(?:(?:super|so|really|very|pretty|quite|totally|absolutely|incredibly|kinda)\s+)?"
_DESCRIPTION = lazyre.compile(
    rf"^{_DEGREE}[a-z][a-z-]+(?:(?:,\s*|\s+and\s+|\s*&\s*){_DEGREE}[a-z][a-z-]+){{0,3}}$",
    _I,
)
# Words that answer or react, not describe: "Sure!", "Yes", "Thanks", "Totally".
_NOT_DESCRIPTION = frozenset(
    str.split("""sure yes yeah yep yup no nope ok okay thanks thank totally definitely
    absolutely maybe perhaps probably haha lol wow oh right true exactly indeed of course
    same agreed nah hey hi hello well anyway also yours mine""")
)


def described(sentence: str, asked: Asked) -> str | None:
    """ "Super cozy and comfy." after "Do you have pictures of the new beds?": "The new
    beds are super cozy and comfy."; None when the sentence is no bare description."""
    text = sentence.strip().rstrip(".!… ")
    words = set(re.findall(r"[a-z']+", text.lower()))
    # one word alone ("Nice.", "Amazing!") is a reaction to the question, not a description
    if not _DESCRIPTION.match(text) or len(text.split()) < 2:
        return None
    if words & _NOT_DESCRIPTION or words & _NOT_WORD:
        return None
    thing = asked.thing
    plural = thing.lower().endswith("s") and not thing.lower().endswith("ss")
    verb = ("were" if plural else "was") if asked.past else ("are" if plural else "is")
    return f"{thing[:1].upper()}{thing[1:]} {verb} {text[:1].lower()}{text[1:]}."


def named_thing(question: str) -> Asked | None:
    """The thing ``question`` names, as its answerer would say it; None if none.

    "What's your favorite game?" asks what the thing is: its first phrase. Otherwise
    the last phrase is what the answer's "it" most often stands for.
    """
    if not question.rstrip().endswith("?"):
        return None
    m = _IDENTITY.match(question.strip())
    if m is not None:
        phrase = _thing(_PHRASE.match(question, m.end()))
        if phrase is not None:
            return Asked(phrase, identity=True)
    found = None
    for match in _PHRASE.finditer(question):
        thing = _thing(match)
        if thing is not None:
            before = _VERB_BEFORE.search(question, 0, match.start())
            found = Asked(
                thing,
                verb=before["verb"].lower() if before else None,
                past=_ASKED_PAST.search(question) is not None,
            )
    return found


def _thing(m: re.Match[str] | None) -> str | None:
    if m is None:
        return None
    words = m["words"].lower().split()
    head = words[: words.index("of")] if "of" in words else words
    if head[-1] in _NOT_HEAD or any(w in _NOT_WORD or w in _PERSPECTIVE for w in head):
        return None
    text = re.sub(r"\b(your|my|that|this)\b", lambda w: _PERSPECTIVE[w.group().lower()], m["words"])
    return f"{_PERSPECTIVE[m['det'].lower()]} {text}"


def with_antecedent(sentence: str, asked: Asked) -> str:
    """``sentence`` with the pronoun that stands for what was asked replaced by it: the
    object ("I bought it in Paris"), or the subject of an answer to what it is ("It's
    Zelda"); only when both agree in number."""
    thing = asked.thing
    text = sentence.strip()
    plural = thing.lower().endswith("s") and not thing.lower().endswith("ss")
    m = _IS.match(text) if asked.identity else None
    if m is not None:
        if (m["pronoun"].lower() == "they") != plural:
            return sentence
        verb = _COPULA.get(m["verb"].lower(), m["verb"].strip())
        return f"{thing[:1].upper()}{thing[1:]} {verb} {text[m.end() :].lstrip()}"
    m = _OBJECT.match(text)
    if m is None:
        return _object_restored(text, asked) or sentence
    if (m["pronoun"].lower() == "them") != plural:
        return sentence
    return f"{text[: m.start('pronoun')]}{thing}{text[m.end('pronoun') :]}"


def _object_restored(text: str, asked: Asked) -> str | None:
    """ "I've been playing for about four months", asked about playing the violin:
    "I've been playing the violin for about four months"."""
    if asked.verb is None or not _FIRST_PERSON.match(text):
        return None
    m = re.search(rf"\b{re.escape(asked.verb)}(?=\s+(?:{_NO_OBJECT})\b|\s*[.!,;]|$)", text, _I)
    if m is None:
        return None
    return f"{text[: m.end()]} {asked.thing}{text[m.end() :]}"


# A name: capitalised, not opening the sentence unless the session never writes it
# in lower case ("Oliver's hilarious!" names Oliver; "Music is life" names no one).
_NAME = lazyre.compile(r"(?<![\w'-])[A-Z][a-z]+(?:'s)?(?![\w-])")
_NOT_NAMES = frozenset(
    str.split("""I I'm I've I'd My Our Your The A An This That These Those It We They He She
    There Here What When Where Why How Mom Dad Monday Tuesday Wednesday Thursday Friday
    Saturday Sunday
    January February March April May June July August September October November December
    Hey Hi Hello Yes Yeah Wow Oh Thanks Haha Lol Omg Ok Okay""")
)
_DATED = lazyre.compile(
    r"\s+(?:is|was|will\s+be)\s+(?:on\s+|in\s+|due\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct"
    r"|nov|dec|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|today|next"
    r"|this|end\s+of)",
    _I,
)
# "He hid his bone", "She's a nurse": a sentence whose subject is a person named before.
_HE_SHE = lazyre.compile(r"^(?P<pronoun>he|she)(?P<rest>'s\b|\s+\w)", _I)


def named_person(sentence: str, common: frozenset[str], people: tuple[str, ...]) -> str | None:
    """The one person ``sentence`` names besides the chat's ``people``; None if none or
    several (then "he" or "she" after it could be either)."""
    names = set()
    for m in _NAME.finditer(sentence):
        word = m.group().removesuffix("'s")
        if word in _NOT_NAMES or word in people or word.lower() in common:
            continue
        if m.start() == 0 and _DATED.match(sentence, m.end()):
            continue  # "Deadline is June 15th": a thing with a date, not a person
        names.add(word)
    return names.pop() if len(names) == 1 else None


def with_person(sentence: str, person: str) -> str:
    """``sentence`` with an opening "he" or "she" replaced by ``person``."""
    text = sentence.strip()
    m = _HE_SHE.match(text)
    if m is None:
        return sentence
    return f"{person}{text[m.end('pronoun') :]}"


# "add a backup command, with …", "please write an export script": an order whose object
# is a new thing ("a"/"an", up to three words before its head), which the sentences after
# it go on about as "it".
_ORDERED = lazyre.compile(
    r"^(?:please\s+)?(?P<verb>[a-z]+)\s+(?:a|an)\s+(?P<words>(?:[a-z][\w-]*\s+){0,3}?"
    r"[a-z][\w-]*)(?=\s*(?:[,.;:!]|$|\s(?:with|that|which|for|to|in|on|called|named|so|and)\b))",
)
# "it should support …", "It reads …": "it" as the subject of a verb, never "it's" or
# "it is" (a remark, or the "it" of "it is easy to …").
_IT_DOES = lazyre.compile(r"^(?P<it>it|It)\s+(?!(?:is|was|isn't|wasn't|seems|looks)\b)(?=[a-z])")
_NOT_ORDER = frozenset(str.split("is was are were be been has have had do does did get got"))


def ordered_thing(sentence: str) -> str | None:
    """The new thing an order to the agent makes ("add a backup command" → "the backup
    command"), for an "it" after it; None when the sentence orders no new thing."""
    m = _ORDERED.match(sentence.strip())
    if m is None or m["verb"] in _NOT_ORDER or m["words"].split()[-1] in _NOT_HEAD:
        return None
    return f"the {m['words']}"


def with_subject(sentence: str, thing: str) -> str | None:
    """``sentence`` with its opening "it" (the subject of a verb) replaced by ``thing``;
    None when it does not open so."""
    text = sentence.strip()
    m = _IT_DOES.match(text)
    if m is None:
        return None
    named = thing[:1].upper() + thing[1:] if m["it"] == "It" else thing
    return f"{named}{text[m.end('it') :]}"


# "there are broken builds, this must be fixed first": a thing said to exist, then
# a rule for it with "this", "that" or "it" as its subject (the rule is the durable part).
_THERE_IS_THEN_RULE = lazyre.compile(
    r"(?:^|(?<=[;:]))(?P<space>\s*)there(?:'s|\s+is|\s+are)\s+"
    r"(?P<thing>(?:[a-z][\w'-]*\s+){0,4}?[a-z][\w'-]*)\s*,\s*(?:so\s+|and\s+)?"
    r"(?:this|that|it)\s+(?=(?:should|must|needs?\s+to|has\s+to|ought\s+to)\s)",
    _I,
)


_INDEFINITE = lazyre.compile(r"^(?:(?:a|an|some|many|several|two|three|few)\s+)?", _I)


def with_existing_thing(sentence: str) -> str:
    """``sentence`` with a rule's "this" after "there are X," made "the X": "there are
    broken builds, this must be fixed first" → "the broken builds must be fixed first".
    Only before a rule's modal (should, must, needs to, has to); else as it was."""

    def named(m: re.Match[str]) -> str:
        thing = m["thing"]
        if not thing.lower().startswith(("the ", "these ", "those ", "this ", "that ")):
            thing = "the " + _INDEFINITE.sub("", thing, count=1)
        return f"{m['space']}{thing} "

    return _THERE_IS_THEN_RULE.sub(named, sentence)
