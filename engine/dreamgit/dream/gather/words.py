"""Word lists gathering reads: chat glue, pep talk, passing moods, advice, kin.

Kept apart from the logic in :mod:`.statements` so that the lists can grow
without touching it. Each list is about how people talk in general, never
about one conversation.
"""

from __future__ import annotations

import re

from dreamgit import lazyre
from dreamgit.dream.gather.language import SPACED_LETTERS, cjk_terms

__all__ = [
    "ADVERB_OPENERS",
    "ADVICE_VERBS",
    "BACKCHANNEL",
    "EVALUATIVE",
    "IRREGULAR_PAST",
    "OWNED_SLOTS",
    "PAST_VERB",
    "PEP_TALK",
    "RELATIVES",
    "SENTENCE_END",
    "TRANSIENT",
    "content_terms",
    "indefinite_article",
    "lower_content_terms",
    "opens_without_subject",
]

_I = re.IGNORECASE

#: Where a point ends a sentence: not after a title ("Dr. Mendes", "Prof. Zhang") or an initial
#: ("J.R.R. Tolkien"), unless a word that opens sentences follows ("Plan B. It was …").
SENTENCE_END = (
    r"(?:(?<!\b[A-Z]\.)(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bSt\.)(?<!\bMt\.)"
    r"(?<!\bProf\.)"
    r"(?<!\bJr\.)(?<!\bSr\.)(?<!\bvs\.)(?<=[.!?\u2026])"
    r"|(?<=\b[A-Z]\.)(?=\s+(?:I|It|The|We|My|He|She|They|This|That|There|But|And|So)\b))"
)

#: Verbs that open an imperative: advice to the listener in a chat between people,
#: an instruction when a user says it to an agent.
ADVICE_VERBS = "|".join(
    str.split("""keep use avoid add write reply answer respond format run put stop start try take
    check make remember forget let call give tell send go be get look consider follow
    ask note mention include skip show explain summarize summarise prefer treat assume
    read open close commit push test deploy name sign pay bring enjoy hang stay
    believe trust focus drink eat rest relax enjoy cherish embrace celebrate go
    reach chase pursue find hold breathe ignore delete remove mark fix update create rename
    move edit change refactor install build merge revert mix capture turn savor savour share
    spread hug listen learn practice practise watch grab explore visit""")
)

#: Verbs that open a request to an agent ("continue with task 8", "now go ahead and add
#: tests", "lets review the plan"), besides the advice verbs (not repeated here).
REQUEST_VERBS = "|".join(
    str.split("""continue proceed implement review investigate debug document verify ensure
    figure analyze analyse generate draft prepare plan design compare simulate provide list
    describe clean split extract convert migrate port replace rewrite restore retry rerun
    revisit resume finish complete address handle clarify confirm double-check walk print
    search grep lint improve optimize optimise tweak adjust set wire hook drop think""")
)

#: A whole utterance of chat glue.
BACKCHANNEL = frozenset(
    [
        "that's great", "that's cool", "that's awesome", "that's amazing", "that's so cool",
        "that's really cool", "sounds great", "sounds good", "sounds fun", "sounds like fun",
        "that sounds great", "that sounds amazing", "that sounds like fun", "me too",
        "same here", "so true", "totally agree", "i agree", "i know right", "not much",
        "you too", "take care", "see you", "talk soon", "good to see you",
        "good to hear from you", "nice to hear from you", "long time no see",
        "long time no talk", "long time no chat",
    ]
)  # fmt: skip

#: Pep talk and politeness: about the listener or the chat, not about a fact.
PEP_TALK = lazyre.compile(
    r"\b(?:proud\s+of\s+you|here\s+for\s+you|happy\s+for\s+you|glad\s+for\s+you|thank\s+you"
    r"|thanks|good\s+luck|you\s+got\s+this|you've\s+got\s+this|keep\s+it\s+up|keep\s+going"
    r"|hang\s+in\s+there|i\s+hope\s+you|i\s+bet\s+you|rooting\s+for\s+you"
    r"|believe\s+in\s+you|means\s+a\s+lot|appreciate\s+(?:it|you|that)|glad\s+(?:you|to\s+hear)"
    r"|good\s+to\s+(?:see|hear|chat|talk)|great\s+to\s+(?:see|hear|chat|talk)|nice\s+to"
    r"\s+(?:see|hear|chat|talk)|can't\s+wait\s+to\s+(?:see|hear)|let\s+me\s+know"
    r"|talk\s+to\s+you|catch\s+up|how\s+about\s+you|what\s+about\s+you|you're\s+welcome"
    r"|no\s+worries|no\s+problem|(?:couldn't|could\s+not|can't)\s+agree\s+more"
    r"|100%\s+agree|count\s+on\s+me|care\s+to\s+(?:fill|tell|share)|congrats|congratulations"
    r"|(?:that's|that\s+is|this\s+is)\s+(?:exactly\s+|just\s+)?what\s+i\s+(?:needed|wanted"
    r"|was\s+looking\s+for)"
    r"|kudos|(?:sorry|sad)\s+to\s+hear|hope\s+(?:your|you're|you've|you\s+(?:feel|get|had|have|are))"
    r"|(?:keep|kept)\s+you\s+(?:posted|updated|in\s+the\s+loop)|let\s+you\s+know"
    r"|(?:was|were)\s+wondering\s+if\s+you"
    r"|(?:be\s+)?(?:here|there)\s+to\s+(?:support|cheer|help)\s+you"
    r"|(?:i'm|i\s+am)\s+sure\s+(?:\w+\s+){0,5}?(?:you|your)\b"
    r"|fill\s+me\s+in|keep\s+me\s+(?:posted|updated)"
    r"|(?:we|i)\s+last\s+(?:spoke|talked|chatted|caught\s+up))\b",
    _I,
)

#: A passing mood said of now: not a durable memory ("I'm grumpy today haha").
TRANSIENT = lazyre.compile(
    r"^(?:i'm|i\s+am|i\s+feel|i'm\s+feeling|feeling)\s+(?:so\s+|really\s+|a\s+bit\s+|kinda\s+"
    r"|kind\s+of\s+|super\s+|very\s+|pretty\s+|a\s+little\s+)?(?:tired|grumpy|hungry|sleepy"
    r"|bored|exhausted|cranky|stressed|sick|busy|sad|happy|excited|glad|thrilled|stoked"
    r"|nervous|great|good|fine|ok|okay|awesome|amazing|down|blue|meh|off|moody|sore|cold"
    r"|hot|lazy|pumped|grateful|thankful|lucky|blessed)"
    r"(?:\s+(?:today|now|right\s+now|tonight|this\s+morning|at\s+the\s+moment|lately))?"
    r"(?:\s+(?:haha|lol))?$"
    # "Sorry, I need to step away", "I gotta run": leaving the chat now
    r"|^(?:sorry,?\s+)?(?:i\s+(?:need|have)\s+to|i\s+gotta|i\s+must|gotta)\s+(?:step\s+away|go|run"
    r"|head\s+out|leave|jump\s+off|log\s+off|sign\s+off)(?:\s+(?:now|soon|for\s+a\s+bit|for\s+a"
    r"\s+minute))?$",
    _I,
)

#: Evaluations that add nothing when they are all a clause says.
EVALUATIVE = lazyre.compile(
    r"\b(?:so\s+)?(?:cool|awesome|amazing|great|fun|nice|special|powerful|inspiring|wonderful"
    r"|beautiful|incredible|fantastic|lovely|rewarding|fulfilling|exciting|important|vital"
    r"|key|sweet|stunning|relaxing|therapeutic|tough|hard|crazy|wild|insane|huge|worth\s+it"
    r"|a\s+blast|the\s+best|meaningful|helpful|inspirational|empowering|tiring)\b",
    _I,
)

#: Past forms that do not end in "-ed": "went", "took", "wrote".
IRREGULAR_PAST = frozenset(
    str.split("""went left got made chose took bought began built wrote set quit put read ran
    gave found kept lost met paid said sent spent thought told understood won
    became brought came felt heard knew meant did saw had was were drove flew
    grew held sang swam taught sold ate drank fell forgot rode shook stood struck
    threw woke wore broke caught dug fought hid hung led lit rang rose sat
    slept spoke stuck swore tore hit cut let shut upset bet""")
)
#: A verb in the past, as a regular expression: "-ed" or one of :data:`IRREGULAR_PAST`.
PAST_VERB = (
    r"(?:(?!(?:need|seed|feed|speed|indeed|bleed|breed|exceed|proceed|succeed)\b)[a-z]{2,}ed|"
    + "|".join(sorted(IRREGULAR_PAST))
    + r")\b"
)


#: Things of one's own a person names without "my" ("Deadline is June 15th", "Budget is
#: tight", "Flight's at 6"): said by someone about their plans, they are theirs.
OWNED_SLOTS = frozenset(
    str.split("""deadline budget launch release flight appointment meeting interview exam
    salary rent commute stack lease contract shift schedule goal target birthday wedding
    anniversary surgery checkup demo presentation standup""")
)


#: Kin and close relations ("my sister", "our dog"): relationship statements.
RELATIVES = "|".join(
    str.split("""mom mother mum dad father parents sister sisters brother brothers siblings husband
    wife partner spouse boyfriend girlfriend fiance fiancee son sons daughter daughters kids
    children child baby grandma grandmother grandpa grandfather grandparents aunt uncle
    cousin cousins niece nephew friend friends bestie buddy buddies colleague colleagues
    coworker coworkers boss manager mentor team roommate neighbor neighbour family dog dogs
    cat cats pet pets puppy""")
)

#: Adverbs that may open a clause whose "I" went unsaid ("Just got back", "Mostly painted
#: landscapes"); the verb comes after them.
ADVERB_OPENERS = frozenset(
    str.split("just still also really already finally recently currently mostly usually mainly")
)
#: Words that open a clause whose subject "I" went unsaid ("Got to see the old town").
_BARE_OPENERS = ADVERB_OPENERS | frozenset(
    str.split("""got went had made took checked saw met bought found love loved hope think guess
    gonna wanna gotta been can't cannot wish want need feel felt
    miss missed like liked started finished tried learned visited joined spent
    decided did didn't don't won lost ran read wrote began built used am was will would
    could should""")
)


def indefinite_article(words: str) -> str:
    """ "a" or "an" before ``words`` as they are read: "an editor", "a UI designer", "an ML
    engineer" (an acronym is read letter by letter)."""
    first = words.split(" ", 1)[0]
    if len(first) > 1 and first.isupper():
        return "an" if first[:1] in "AEFHILMNORSX" else "a"
    return "an" if first[:1].lower() in "aeiou" else "a"


def opens_without_subject(word: str) -> bool:
    """Whether a clause opening with lower-case ``word`` has its "I" unsaid: "got",
    "been", "visited" ("Visited my aunt in Porto")."""
    return word in _BARE_OPENERS or (word.endswith("ed") and len(word) > 4)


#: Longer words that are chat glue, not content.
_CHAT_GLUE = str.split("""that this these those there their they them then than with have been
    being just really about would could should what when where which while some something thing
    things much many very like also from into your yours it's that's gonna wanna always never
    still even ever make made feel felt know think thought love great good awesome amazing super
    pretty totally definitely actually lots everything anything other others every more most
    such sure yeah thanks time times right well""")
_CHAT_GLUE_SET = frozenset(_CHAT_GLUE)
#: Longer words that carry content (not chat glue): each adds a little salience.
_CONTENT = lazyre.compile(
    rf"\b(?!(?:{'|'.join(_CHAT_GLUE)})\b)[{SPACED_LETTERS}]{{4,}}\b",
    _I,
)
#: The longer words of an ASCII text, glue or not.
_ASCII_WORD = lazyre.compile(r"\b[a-zA-Z]{4,}\b")


def content_terms(text: str) -> list[str]:
    """The longer words of ``text`` that carry content (not chat glue), in any script
    that spaces its words ("Führerschein"), and the terms of its CJK text."""
    if text.isascii():
        # The same words as _CONTENT finds, a third of its time: in ASCII every letter is a
        # word character and case is plain lower case, so a longer word is glue exactly when
        # its lower case is (other scripts fold case and mark words more ways: _CONTENT).
        return [w for w in _ASCII_WORD.findall(text) if w.lower() not in _CHAT_GLUE_SET]
    return [*_CONTENT.findall(text), *cjk_terms(text)]


def lower_content_terms(text: str) -> set[str]:
    """The lower case of each of :func:`content_terms`: an ASCII text's found in its
    lower case at once (the same words: lowering ASCII keeps every word where it is)."""
    if text.isascii():
        return set(_ASCII_WORD.findall(text.lower())) - _CHAT_GLUE_SET
    return {term.lower() for term in content_terms(text)}
