"""Durable or of the moment: what an agent's user says that outlives the session.

A user talking to a coding agent mostly says what they are doing right now: "I'm
trying to wire up the login form", "I'm not sure why the build fails", "I need the
parser to accept tabs". Those are tasks of the moment; kept, they fill memory with
yesterday's work. What outlives the session is a preference, a rule, a project fact,
a decision or a correction — and those are often said *inside* a request: "I'm
trying to keep the app small, so I prefer plain modules over frameworks, can you
…?" keeps the preference and its reason, and drops the task.

:func:`momentary` says why a clause of an agent's user is of the moment (or None), and
:func:`order_after_moment` what order such a clause leads to; the preferences said
inside a request are lifted by :mod:`dreamgit.dream.gather.lifted`. Both read English;
text in other languages is left to the other extractors.
"""

from __future__ import annotations

import re

from dreamgit import lazyre
from dreamgit.dream.gather.pasted import program_line
from dreamgit.dream.gather.words import ADVICE_VERBS, REQUEST_VERBS

__all__ = [
    "STANDING",
    "WISH_FOR_NOW",
    "code_fragment",
    "momentary",
    "one_off",
    "order_after_moment",
]

_I = re.IGNORECASE

# The speaker and a form of "be" / "have" before what they are doing: "I'm", "we've been".
_WHO = (
    r"^(?:(?:so|and|but|also|now|right\s+now|currently|today|honestly|basically),?\s+)?"
    r"(?:i|we)(?:'m|'re|'ve|\s+am|\s+are|\s+have|\s+was|\s+were)?(?:\s+been)?"
    r"(?:\s+(?:also|still|currently|now|kinda|kind\s+of|just|really|already|actually|a\s+bit"
    r"|a\s+little|pretty|so|quite|totally|completely|recently))*\s+"
)
#: What someone is in the middle of, unsure of, or needs now: (why, pattern after "I'm").
_FRAMES: tuple[tuple[str, str], ...] = (
    (
        "trouble",
        # "I keep getting errors", "I seem to have all sorts of problems": trouble again
        r"(?:(?:keep|kept|seem\s+to\s+be|seem\s+to)\s+)?"
        r"(?:struggling|stuck|fighting|wrestling|battling"
        r"|having\s+(?:some\s+|a\s+lot\s+of\s+|real\s+)?(?:trouble|issues?|problems?|difficult(?:y|ies)"
        r"|a\s+(?:hard|tough)\s+time)|getting\s+(?:an?\s+|the\s+|this\s+|these\s+|some\s+)?"
        r"(?:[\w-]+\s+){0,3}(?:errors?|exceptions?|warnings?|failures?|issues?)"
        r"|running\s+into|hitting|seeing\s+(?:an?\s+|this\s+|the\s+)?(?:\w+\s+)?(?:errors?|issues?)"
        r"|can't\s+(?:seem|figure|get|find|make)|cannot\s+(?:seem|figure|get|find|make)"
        r"|couldn't|unable\s+to|staring"
        r"|have\s+(?:(?:all\s+sorts|lots|a\s+lot)\s+of\s+|some\s+|many\s+)?(?:trouble|issues|problems))\b",
    ),
    (
        "doubt",
        r"(?:(?:trying|struggling|attempting)\s+to\s+(?:understand|figure\s+out|grasp|make\s+sense"
        r"|wrap\s+my\s+head|get\s+my\s+head|learn\s+how|work\s+out\s+(?:how|why|what))"
        r"|getting\s+(?:a\s+bit\s+|really\s+|kinda\s+)?(?:confused|lost|frustrated|overwhelmed)"
        r"|not\s+(?:sure|certain|clear)|unsure|uncertain|wondering|curious|confused|worried"
        r"|concerned|afraid|puzzled|lost|overwhelmed|nervous|anxious"
        r"|(?:don't|do\s+not|didn't)\s+(?:know|understand|get|see)|wonder"
        # "I don't think the generated file is right": a doubt about what is on the screen
        r"|(?:don't|do\s+not)\s+think\s+(?:that\s+)?(?:the|this|that|it|these|those)\b[^,;]{0,60}?"
        r"\b(?:is|are|was|were|'s)\s+(?:\w+ly\s+)?(?:correct|right|accurate|working|valid|true)"
        # "I want to understand why the build slowed": a question of the hour, said as a want
        r"|(?:want(?:ed)?|would\s+like)\s+to\s+(?:understand|know|find\s+out"
        r"|figure\s+out)\s+(?:why|how|what|whether|if))\b",
    ),
    ("attempt", r"(?:trying|attempting)\b"),
    (
        "need",
        r"(?:need(?:ed)?\s+(?:to|help|some|a|an|your)|want(?:ed)?\s+to|would\s+like\s+to"
        r"|'d\s+like\s+to|wanna|hoping\s+to|hope\s+to|looking\s+(?:for|to|into|at)"
        r"|planning\s+to\s+(?:add|implement|build|write|create|fix|set\s+up|use)"
        r"|about\s+to|going\s+to\s+(?:try|need|have\s+to|implement|add|write|fix))\b",
    ),
    (
        "report",
        r"(?:tried|tested|noticed|managed|got\s+(?:this|an?|the|some|it)|written\s+(?:this|some|a)"
        r"|wrote\s+(?:this|some|a)|pasted|attached|included|shared|showed|shown|ran|run"
        r"|come\s+up\s+with|put\s+together|added\s+(?:this|some|a)|made\s+(?:some|a\s+few)"
        r"|checked|verified|double-checked|looked\s+at|gone\s+through|went\s+through"
        r"|(?:got|have)\s+(?:this|the\s+following|a\s+few|some)\s+(?:code|error|function|script"
        r"|snippet|output|question|questions|issue|problem|bug|class|query|config)"
        # what the speaker sees on the screen now: "I see two copies of it", "I don't see any"
        r"|(?:can\s+|still\s+)?see\s+(?:a|an|the|that|this|these|those|some|no|two|three|several"
        r"|\d+|errors?|warnings?)|(?:don't|do\s+not|can't|cannot)\s+see"
        # a bare plural on the screen: "I see duplicates", not "I see patients on Mondays"
        r"|(?:can\s+|still\s+)?see\s+(?!(?:my|our|his|her|their|him|them|you|people|friends"
        r"|family|patients|clients)\b)[a-z]+s\b(?!\s+(?:every|each|on|at|weekly|daily|often"
        r"|regularly|as)\b)"
        # what was going on: "we were working on the export when …"
        r"|(?<=was\s|ere\s)(?:just\s+)?(?:working\s+on|in\s+the\s+middle\s+of))\b",
    ),
)
_MOMENT = tuple((why, lazyre.compile(_WHO + frame, _I)) for why, frame in _FRAMES)
# What the agent just did or must do now: "you edited the wrong file", "you need to rerun it".
# Its "you" may go unsaid: "Then told me it can't be done", "and gave me the old file".
_TO_THE_AGENT = lazyre.compile(
    r"^(?:you|you've|you're|you'd|you'll|u)\b|^(?:(?:and|but|then|also|now),?\s+)*"
    r"(?:told|gave|showed|sent|asked|left|handed)\s+me\b",
    _I,
)
# How the work stands right now: "the tests are still failing", "it works now", "same error".
_STATUS = lazyre.compile(
    r"^(?:(?:the|this|that|it|these|those|my|our|your)\b(?:\s+[\w.-]+){0,3}\s+"
    r"(?:is|are|was|were|keeps?|kept|still|now|seems?\s+to\s+be)\s+(?:still\s+|now\s+|also\s+)?"
    r"(?:failing|broken|crashing|not\s+working|working(?:\s+now)?|erroring|throwing|hanging"
    r"|passing|red|green|flaky|fixed|done|timing\s+out|stuck|wrong|missing|empty|undefined|null)"
    r"|(?:it|that|this)\s+(?:works|worked|didn't\s+work|doesn't\s+work|fails|failed|broke)"
    r"|(?:still|again)\s+(?:getting|failing|broken|the\s+same)|same\s+(?:error|issue|problem)"
    # still under way: "it's still running", "this is still loading"
    r"|(?:it|this|that)(?:'s|\s+is|\s+was)\s+still\s+\w+ing"
    # how long the wait has been: "it's been over ten minutes"
    r"|(?:it|this|that)(?:'s|\s+has)\s+been\s+(?:\w+\s+){0,3}?(?:seconds?|minutes?|hours?"
    r"|a\s+while|ages|forever)"
    # a state broken right now: "now the export doesn't open", "but now we have no logs"
    r"|(?:(?:ok|okay|but|and|so)[,\s]+)*now\s+(?:(?:the|this|that|it|we|i|there)\b(?:\s+[\w.-]+)"
    r"{0,2}?\s+(?:don't|doesn't|do\s+not|does\s+not|can't|cannot|isn't|aren't|won't|have\s+no"
    r"|has\s+no)|(?:there's|it's|that's)\s+(?:no|not))(?!.*\b(?:anymore|any\s+more|no\s+longer"
    r"|these\s+days)\b)"
    # the work that remains: "all that's left is the docs", "what's left is a review"
    r"|(?:all\s+(?:that's|that\s+is)|what's|what\s+is|the\s+only\s+thing)\s+left"
    # an impression of the screen: "good, but it looks like the totals are empty"
    r"|(?:(?:good|ok|okay|great|nice|cool|thanks|hmm|well|but|and|so|now)[,!.]?\s+)*"
    r"(?:it\s+)?(?:seems|looks)\s+(?:like|as\s+if|that))\b",
    _I,
)
# A guess at what went wrong, or at what the agent did: "I think you deleted the branch",
# "I suspect the problem is the cache". What was done about it may outlive it; the guess not.
_GUESS = lazyre.compile(
    r"^(?:(?:so|but|and|ok|okay|hmm|well|honestly),?\s+)*(?:i|we)\s+(?:\w+ly\s+)?(?:think"
    r"|guess|suspect|bet|believe|feel\s+like|assume|reckon)\s+(?:that\s+)?(?:you\b|you'\w+"
    # an impression of the work in front of them: "I feel like the two docs overlap"
    r"|(?<=like\s)(?:the|this|that|these|those|it)\b"
    r"|your\b|the\s+(?:issue|problem|bug|error|cause|reason|culprit|failure|fault)\b"
    r"|(?:it|this|that)(?:'s|\s+is)\s+because\b)",
    _I,
)
# The agent's last answer judged: "that's not true", "this is wrong": about this session.
_REBUTTAL = lazyre.compile(
    r"^(?:no,?\s+)?(?:that's|that\s+(?:is|was)|this\s+(?:is|was)|it's|it\s+(?:is|was))\s+"
    r"(?:not\s+(?:true|right|correct"
    r"|what\s+i\s+(?:meant|asked))|wrong|incorrect)(?=\s*(?:[,.;:!\u2013\u2014-]|$))",
    _I,
)
# "…, add a task for it", "…, then commit and push", "…, go ahead and call it that": a
# sentence that ends in an order to the agent is a request of this session.
_ORDER_AFTER = lazyre.compile(
    r",\s+(?:(?:and\s+)?then\s+|now\s+|so\s+)?(?:go\s+ahead\s+and\s+)?"
    rf"(?:{ADVICE_VERBS}|{REQUEST_VERBS})\s+(?!(?:is|are|was|were|has|have)\b)[^,]*$",
    _I,
)
_FIRST_PERSON = lazyre.compile(r"\b(?:i|i'm|i've|i'd|me|my|we|we're|our|us)\b", _I)
# The conversation itself: "as I said earlier in this conversation", "my last message",
# what the speaker meant by what they said ("I meant the header, not the footer"), and a
# reply to one point of the agent's list ("Re 2, the flag stays").
_THIS_TALK = lazyre.compile(
    r"\b(?:(?:this|the|our)\s+(?:conversation|chat|thread)|(?:my|your)\s+(?:last|previous"
    r"|initial|earlier)\s+(?:message|request|reply|answer|prompt)"
    r"|(?:i|we)\s+(?:\w+ly\s+)?(?:meant(?!\s+to\b)|(?:was|were)\s+referring\s+to)"
    # what was asked earlier in it, another chat of the same work
    r"|(?:i|we)(?:'ve|\s+have)?\s+(?:already\s+|just\s+)?asked\s+you\b"
    r"|(?:last|previous|prior|new|next|another|other)\s+(?:chat|conversation|thread))\b"
    r"|^re\s+(?:#|point\s+|item\s+)?\d+\b",
    _I,
)
# A request or a pointer at what follows, without its "I": "Here's my code", "Any ideas".
_ASIDE = lazyre.compile(
    r"^(?:here(?:'s|\s+is|\s+are)|below\s+is|this\s+is\s+(?:my|the|what)|any\s+(?:ideas|help"
    r"|suggestions|thoughts|tips|advice)|help\s+me|please\s+help|thanks|thank\s+you)\b",
    _I,
)
# What a clause of the moment may still carry that outlives it: a standing rule ("I want
# it to always …"), a value that changed ("… which has grown to 165 commits").
_LIKING = lazyre.compile(r"\b(?:prefer|prefers|preferred|rather)\b", _I)
_RULE_OR_LIKING = lazyre.compile(
    r"\b(?:always|never|from\s+now\s+on|every\s+time|whenever|by\s+default|as\s+a\s+rule|prefer|prefers"
    r"|preferred|rather|favou?rite)\b",
    _I,
)
# "… the domain module, not the CLI command", "instead of X, use Y": one way chosen over
# another, which says how the work is done beyond this request.
_ONE_WAY_OVER_ANOTHER = lazyre.compile(
    r",\s+(?:and\s+|but\s+)?not\s+(?:the|a|an|to|by|in|on|from|with|via)\s+\S|^instead\s+of\b",
    _I,
)
_NEW_VALUE = lazyre.compile(
    r"\b(?:(?:has|have|had)\s+(?:now\s+|recently\s+|just\s+|since\s+)?(?:been\s+)?"
    r"(?:improved|increased|grown|risen|dropped|fallen|reached|gone\s+(?:up|down)|climbed"
    r"|decreased|moved|changed|shifted|rescheduled|extended|adjusted|updated|expanded"
    r"|reduced|raised|lowered|bumped|pushed(?:\s+back)?)"
    r"|(?:improved|increased|grew|rose|dropped|fell|went\s+(?:up|down)|climbed|decreased|jumped)"
    r"\s+(?:\w+\s+){0,2}?from\s+\S+\s+to"
    r"|(?:is|are)\s+now|now\s+(?:at|has|have|is|are|stands\s+at)|reached|up\s+to|down\s+to"
    r"|(?:moved|rescheduled|pushed|changed|switched|bumped|extended|adjusted)\s+(?:\w+\s+){0,3}?to)"
    r"\s+(?:\w+\s+){0,3}?[$€£]?\d",
    _I,
)


#: Frames that are of the moment only when nothing concrete is said inside them: "I'm
#: trying to move the API to Litestar 2.x" still tells what the project runs on.
_UNLESS_CONCRETE = frozenset({"attempt", "need"})
#: Frames that are of the moment unless they say on what day something was or will be:
#: "I'm worried about the review on March 3" still tells when the review is.
_UNLESS_DATED = frozenset({"doubt", "trouble", "attempt", "need"})
_MONTH = (
    r"(?:january|february|march|april|(?-i:May)|june|july|august|september|october|november"
    r"|december|(?:jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?)"
)
# "March 3", "Feb 10, 2031", "3 March": a day of the calendar.
_CALENDAR_DATE = lazyre.compile(
    rf"\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b|\b\d{{1,2}}\s+{_MONTH}\b", _I
)
# A name (not the sentence's first word), a number, a file, a version, code.
_CONCRETE = lazyre.compile(
    r"(?<!^)(?<![.!?]\s)\b(?!I(?:'[a-z]+)?\b)[A-Z][\w'&.+#-]*[a-z0-9]|\b[A-Z]{2,}\b|\d|`"
    r"|\b[\w-]+\.(?:py|js|ts|tsx|json|ya?ml|toml|md|sql|go|rs|rb|java|sh|cfg|ini|lock)\b"
)


# Code, not prose: "int) -> int that multiplies", "self.items = []", "def load(path)",
# "12 | return rows" (a line pasted with its number).
_CODE = lazyre.compile(
    r"->|=>|::|[{};]\s*$|[{}]|\w\(\S*\)|\)\s*(?:->|:|\.)|^[^\w\"'(]|^\d+\s*\|"
    r"|\b(?:def|class|import|return|const|let|var|function|async|await|lambda)\s+\w"
    r"|\w\s*[=!<>]=\s*\w|\w\s=\s[\w\[{(\"']"
)
# A rule for this task only: "don't stop until the tests pass", "skip the docs for now".
_ONE_OFF = lazyre.compile(
    r"\b(?:until|till|for\s+now|this\s+time|right\s+now|today|tonight|first|yet"
    r"|for\s+this\s+(?:task|session|pr|change|one|file|branch)|in\s+this\s+(?:pr|file|branch))\b",
    _I,
)
# "I'd rather you not deploy it right now", "I prefer to keep it as is for now": a wish for
# the task at hand, which leaves with it. ("first" is not here: "I prefer writing tests
# first" is a way of working.)
WISH_FOR_NOW = lazyre.compile(
    r"\b(?:right\s+now|for\s+now|for\s+the\s+moment|at\s+the\s+moment|this\s+time|today"
    r"|tonight|for\s+this\s+(?:task|session|pr|change|one|file|branch|ticket|run))\b",
    _I,
)
#: Words that make an imperative a standing rule: "always", "never", "from now on".
STANDING = lazyre.compile(
    r"\b(?:always|never|from\s+now\s+on|every\s+time|whenever|by\s+default|as\s+a\s+rule|next\s+time"
    r"|in\s+(?:the\s+)?future|going\s+forward)\b",
    _I,
)


def code_fragment(clause: str) -> bool:
    """Whether ``clause`` is a piece of code rather than prose (backquoted names aside)."""
    return _CODE.search(re.sub(r"`[^`]*`", "x", clause.strip())) is not None


def one_off(instruction: str) -> bool:
    """Whether an imperative is for the task at hand ("don't stop until the suite passes")
    rather than a standing rule ("never push to main", "always run the linter first")."""
    return _ONE_OFF.search(instruction) is not None and STANDING.search(instruction) is None


# "I want to build a small app that tracks my expenses": what the project is, not a task.
_PROJECT_GOAL = lazyre.compile(
    r"\b(?:create|build|develop|make|write|start|launch|set\s+up)\s+(?:a|an|my|our|the)\s+"
    r"(?:[\w-]+\s+){0,4}?(?:app|application|web\s*app|website|site|tool|service|library|game"
    r"|bot|platform|system|project|tracker|dashboard|portfolio|api|cli|plugin|extension"
    r"|startup|business|course|book|thesis)\b",
    _I,
)


# Work just done, reported in the perfect: "I've reviewed my changes", "we have fixed it".
# What was chosen or moved ("I've switched to uv") is not among these verbs.
_DONE = lazyre.compile(
    r"^(?:(?:ok|okay|so|and|now),?\s+)?(?:i|we)(?:'ve|\s+have)\s+(?:(?:just|now|already"
    r"|finally|also)\s+)*(?:reviewed|fixed|updated|implemented|addressed|resolved|committed"
    r"|pushed|merged|applied|staged|refactored|tested|cleaned\s+up|made\s+the\s+changes)\b",
    _I,
)
# "When I open the page, …": the time a report is of, before the report itself.
_WHEN_CLAUSE = lazyre.compile(
    r"^(?:(?:when|whenever|once|after|if)\s+(?:i|we)\b[^,]{1,80},\s+"
    r"|(?:the\s+)?(?:last|first)\s+time\s+(?:i|we)\s+\w+(?:\s+it)?,?\s+(?=(?:i|we)\b))",
    _I,
)
# What a want or an attempt of the hour does to a thing it names: looks at it, repairs or
# edits it ("I want to compare against `main`"). Naming it tells nothing of the project.
_LOOK_OR_REPAIR = lazyre.compile(
    r"\s*(?:\w+ly\s+)?(?:(?:fix|debug|repair|resolve|solve|troubleshoot|diagnose|compare"
    r"|edit|change|update|check|review|inspect|investigate|see|find|remove|delete|rename"
    r"|clean\s+up|tweak|adjust|rerun|re-run|retry|revert|undo)\b|(?<=to\s)get\s+(?:\S+\s+){1,4}"
    r"(?:working|to\s+work|running|passing))",
    _I,
)


def momentary(clause: str) -> str | None:
    """Why ``clause``, said by an agent's user, is of the moment: "trouble" (stuck, an
    error), "status" (the tests still fail, it works now, it's still running, all that's
    left is …, it looks like …), "doubt" (not sure, wondering), "guess" (I think you …, I
    suspect the problem is …), "report" (tried, ran, I see two copies, we were working
    on …), "aside" (here is my code), "code" (a fragment of it), "output" (a program's
    line: "Error: …"),
    "feedback" (on what the agent just did or said: "you edited the wrong file", "that's
    not true"), "request" (a sentence of no one's own that ends in an order: "the build
    broke, add a task for it"), "conversation" (it points back into this conversation), and
    "wish" (a liking for the task at hand: "I'd rather keep it as is for now"), and
    "attempt" (trying to) or "need" (wants to, needs help) when they name nothing
    concrete nor the project itself; None when it may outlive the session. A clause
    that sets a standing rule or preference, or says a value changed, is never of the
    moment, whatever frames it; nor is one that chooses one way over another ("…, not
    the CLI command") unless it judges what the agent did."""
    text = clause.strip()
    if code_fragment(text):
        return "code"
    if program_line(text):
        return "output"  # "Error: the port is taken": a program's words the user pasted
    if _RULE_OR_LIKING.search(text) or _NEW_VALUE.search(text):
        if _LIKING.search(text) and WISH_FOR_NOW.search(text) and not STANDING.search(text):
            return "wish"  # "I'd rather keep the old config for now": leaves with the task
        return None
    if _ASIDE.match(text):
        return "aside"
    if _TO_THE_AGENT.match(text) or _REBUTTAL.match(text):
        return "feedback"  # on the agent's work of this session; a standing rule says always
    if _GUESS.match(text):
        return "guess"  # "I think you edited X, not Y": a guess at what the agent did
    if _THIS_TALK.search(text):
        return "conversation"  # "I asked you for X, not Y": points back into this session
    if _ONE_WAY_OVER_ANOTHER.search(text):
        return None  # one way over another: how the work is done, not what is done now
    if _ORDER_AFTER.search(text) and not _FIRST_PERSON.search(text):
        return "request"  # "something broke, add a task for it": what to do now, and why
    if _STATUS.match(text):
        return "status"
    if _DONE.match(text):
        return "report"  # "I've reviewed my changes": work just done, reported
    when = _WHEN_CLAUSE.match(text)
    main = text[when.end() :] if when else text  # "When I open it, I don't see the change"
    for why, pattern in _MOMENT:
        m = pattern.match(main)
        if m is not None:
            m_end = m.end() + len(text) - len(main)
            if why in _UNLESS_DATED and _CALENDAR_DATE.search(text, m_end):
                return None  # "I'm worried about meeting my mentor on 10 May": a dated plan
            if (
                why in _UNLESS_CONCRETE
                and not _LOOK_OR_REPAIR.match(text, m_end)
                and (_CONCRETE.search(text, m_end) or _PROJECT_GOAL.search(text, m_end))
            ):
                return None
            return why
    return None


def order_after_moment(clause: str) -> str | None:
    """The order a clause of the moment leads to ("I see two headers, make sure the page
    has one" → "Make sure the page has one"), to be read on its own; else None."""
    m = _ORDER_AFTER.search(clause)
    if m is None or momentary(clause[: m.start()]) is None:
        return None
    order = _ORDER_OPENER.sub("", clause[m.start() :])
    return order[:1].upper() + order[1:]


_ORDER_OPENER = lazyre.compile(
    r"^,\s+(?:(?:and\s+)?then\s+|now\s+|so\s+)?(?:go\s+ahead\s+and\s+)?", _I
)
