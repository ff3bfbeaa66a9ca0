"""Explicit statements in a user's sentence: the patterns of gathering.

The pipeline per sentence of a user's turn (:mod:`.extract` finds the turns): drop
questions and hypotheticals, peel wrappers that change how a statement counts ("remember
that" → high, confidence 1.0; "actually," → a correction, high; "I think" → confidence
0.6), put the user in the first person ("User prefers X" → "I prefer X"), split at "; "
and "and I", then try the patterns in order (:mod:`.patterns`). A clause that mentions a
near date ("tomorrow", "tonight", "in the next hour") becomes an ``ephemeral``
``schedule`` candidate with the date made absolute, unless it reports a change already
made ("I switched to FastAPI today"). Work per sentence is bounded: a sentence longer
than :data:`MAX_SENTENCE` characters is not a memory and is skipped unread, so any input
finishes in time linear in its length.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime

from dreamgit import lazyre
from dreamgit.dream.gather.common import Context, Draft, dangling
from dreamgit.dream.gather.patterns import PATTERNS
from dreamgit.dream.gather.phrasing import NEAR_DATE, third_person
from dreamgit.dream.gather.words import SENTENCE_END
from dreamgit.extract.candidate import TOPIC_TYPES, Candidate
from dreamgit.extract.lexicon import find_tools, lookup_tool
from dreamgit.model import priority_rank

__all__ = ["MAX_SENTENCE", "MAX_TEXT", "dedupe", "explicit_candidates", "sentences"]

#: Longer sentences are skipped: memory statements are short.
MAX_SENTENCE = 400
MAX_TAGS = 6
MAX_TEXT = 300
_CONFIDENCE = 0.9
_REMEMBERED = 1.0
_CORRECTED = 0.95
_HEDGED = 0.6

_I = re.IGNORECASE


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_SENTENCE_SPLIT = lazyre.compile(SENTENCE_END + r"\s+")
_LINK = lazyre.compile(r"\[([^\]\n]{1,200})\]\([^)\s]{1,500}\)")
_EMPHASIS = lazyre.compile(r"\*\*|__|`|\*")
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "})
_GREETING = lazyre.compile(
    r"^(?:hi|hello|hey|hiya|howdy|good\s+(?:morning|afternoon|evening))(?:\s+there)?\b[,!.]?\s*",
    _I,
)
_FILLER = lazyre.compile(
    r"^(?:so|also|oh|ok|okay|well|btw|by\s+the\s+way|fyi|and|but|anyway|anyways|just\s+so\s+you"
    r"\s+know|for\s+the\s+record|for\s+context|heads\s+up|quick\s+note|ps|p\.s\.|hmm|yeah|yes"
    r"|right|alright|cool|great|thanks|thank\s+you|lol|also\s+note|one\s+more\s+thing"
    r"|from\s+now\s+on(?=,?\s+(?:i|we|my|our)\b))\b[,:!.]?\s+",
    _I,
)
_REMEMBER = lazyre.compile(
    r"^(?P<ask>(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:(?:always\s+)?remember"
    r"|keep\s+in\s+mind|don't\s+forget|do\s+not\s+forget|note\s+to\s+self|for\s+future\s+reference"
    r"|make\s+a\s+note|save\s+(?:this\s+)?to\s+memory|memori[sz]e)(?:\s+that\b|\s*[:,-])?\s*"
    r"(?P<rest>.+)$",
    _I,
)
_NOT_REMEMBER = lazyre.compile(r"^(?:when|the\s+time|how|what|why|where|who|me|us|this|it)\b", _I)
_CORRECTION = lazyre.compile(
    r"^(?:(?:actually|correction|to\s+correct\s+myself|i\s+meant(?:\s+to\s+say)?|i\s+misspoke"
    r"|let\s+me\s+correct\s+(?:that|myself)|to\s+be\s+clear|to\s+clarify|scratch\s+that)\b"
    r"[,:;.!-]*|(?:no|nope|wait|oops|sorry|my\s+bad)\s*[,:;.!-]+)\s*(?P<rest>.+)$",
    _I,
)
_HEDGE = lazyre.compile(
    r"^(?:i\s+think|i\s+believe|i'm\s+pretty\s+sure|pretty\s+sure|probably|i\s+reckon)"
    r"(?:\s+that)?,?\s+(?P<rest>.+)$",
    _I,
)
_WEAK = lazyre.compile(
    r"^(?:i\s+guess|i\s+suppose|maybe|perhaps|not\s+sure|i'm\s+not\s+sure)\b", _I
)
_POLITE = lazyre.compile(
    r"\b(?:i'd|i\s+would)\s+like\s+you\s+to\b|\b(?:'d|would)\s+(?:prefer|rather)\b", _I
)
_HYPOTHETICAL = lazyre.compile(
    r"\b(?:if|unless|suppose|supposing|imagine|hypothetically|maybe|perhaps|possibly|might"
    r"|could|should|would|wonder|wondering|consider|considering|thinking\s+(?:about|of)"
    r"|not\s+sure|whether|wish|hoping|plan(?:ning)?\s+to|going\s+to\s+(?:switch|move|migrate|try"
    r"|start|use)|want\s+to\s+(?:switch|move|migrate|try)|gonna|eventually|someday|one\s+day"
    r"|soon|in\s+the\s+future|next\s+(?:week|month|quarter|year|sprint|spring|summer|autumn"
    r"|fall|winter))\b",
    _I,
)
_REPORTED = lazyre.compile(
    r"^(?:the\s+)?user\s+(?:mentioned|mentions|said|says|noted|notes|stated|states|explained"
    r"|explains|added|confirmed|confirms|told\s+(?:me|us)|reported|indicated|shared)(?:\s+that)?,?"
    r"\s+(?:they|he|she|the\s+user|user)(?P<rest>(?:'re|'s|'ve|\s).*)$",
    _I,
)
_USER_SUBJECT = lazyre.compile(r"^(?:the\s+)?user(?P<own>'s)?\s+(?P<rest>.+)$", _I)
_THIRD_VERBS = _words(
    """prefers uses likes loves hates dislikes enjoys lives works is has wants needs switched
    moved migrated relocated decided stopped replaced joined left maintains builds codes writes
    runs relies goes favors favours chose doesn't does was"""
)
_OPENING_ADVERBS = _words("also now still really mostly mainly usually generally always never just")
_ADVERB_PREFIX = lazyre.compile(
    r"^(?P<adv>(?:(?:also|now|still|really|mostly|mainly|usually|generally|always|never|just"
    r"|recently|finally|actually|currently|strongly|no\s+longer)\s+){0,3})(?P<verb>[\w']+)"
    r"(?P<rest>.*)$",
    _I,
)
_CLAUSE_SPLIT = lazyre.compile(
    r"[;:]\s+(?=(?:i|we|my|our)\b)|;\s+|,?\s+(?:and|but|so|while)\s+(?=(?:i|we|my|our)\b)"
    r"|,\s+(?:now|then)\s+(?=(?:i|we)\b)|,\s+(?=(?:i|we)(?:'m|'ve|'re)?\s)"
    r"|,?\s+and\s+(?:then\s+)?(?=(?:switched|moved|migrated|started|joined)\b)",
    _I,
)
# "Yesterday I moved to Berlin" → "I moved to Berlin yesterday": patterns start at the subject.
_LEADING_TIME = lazyre.compile(
    r"^(?P<when>(?:earlier\s+|later\s+)?today|tonight|tomorrow(?:\s+(?:morning|afternoon|evening"
    r"|night))?|yesterday(?:\s+(?:morning|afternoon|evening))?|last\s+(?:night|week|month|year"
    r"|weekend)|this\s+(?:morning|afternoon|evening|week|month|year)|recently|lately|these\s+days"
    r"|nowadays|(?:in|within)\s+the\s+next\s+hour|in\s+an\s+hour|a\s+(?:few\s+)?(?:days|weeks"
    r"|months|years)\s+ago|in\s+\d{4})\s*,?\s+(?=(?:i|we|my|our|the\s+user|user)\b)",
    _I,
)
# Every pattern needs one of these words (or a sentence opening with a third-person verb,
# "Prefers X"): sentences without any are dropped before the costlier steps.
_TRIGGER = lazyre.compile(
    r"\b(?:i|i'm|i've|i'd|my|me|we|we're|we've|our|user|remember|mind|forget|note|reference"
    r"|memori[sz]e|decision|decided|let's|always|never|ever|now)\b"
)  # matched against the lower-cased sentence: much faster than IGNORECASE
_FIRST_PERSON = lazyre.compile(r"\b(?:i|i'm|i've|i'll|i'd|me|my|we|we're|our|us)\b", _I)
_PAST_CHANGE = lazyre.compile(
    r"\b(?:switched|moved|migrated|changed|replaced|stopped|quit|dropped|ditched|joined|left"
    r"|relocated|started|decided|chose|agreed|settled)\b",
    _I,
)
_FUTURE = lazyre.compile(r"\b(?:will|'ll|going\s+to|gonna|about\s+to|plan|planning)\b", _I)
_CHANGE_PATTERNS = _words(
    "switch switch-to replaced stopped instead moved employer left-employer decision"
)
_URL = lazyre.compile(r"https?://|www\.|(?:^|\s)[~/][\w.-]+/", _I)


def _base_form(verb: str) -> str:
    """First-person form of a third-person verb ("prefers" → "prefer", "is" → "am")."""
    low = verb.lower()
    irregular = {"is": "am", "has": "have", "does": "do", "doesn't": "don't", "goes": "go"}
    if low in irregular:
        return irregular[low]
    if low.endswith("ies") and len(low) > 4:
        return verb[:-3] + "y"
    if low.endswith(("ches", "shes", "sses", "xes", "zes")):
        return verb[:-2]
    if low.endswith("s") and not low.endswith("ss"):
        return verb[:-1]
    return verb


def _deconjugate(text: str) -> str:
    """``text`` with its leading third-person verb made first-person ("prefers" → "prefer")."""
    m = _ADVERB_PREFIX.match(text)
    if m is None or m["verb"].lower() not in _THIRD_VERBS:
        return text
    return f"{m['adv']}{_base_form(m['verb'])}{m['rest']}"


def _first_person(clause: str) -> str:
    """The clause with the user as "I": "User prefers X" and "Prefers X" → "I prefer X"."""
    m = _REPORTED.match(clause)
    if m is not None:
        rest = m["rest"]
        for tail, mine in (("'re", "'m"), ("'s", "'m"), ("'ve", "'ve")):
            if rest.lower().startswith(tail):
                return "I" + mine + rest[len(tail) :]
        return "I " + _deconjugate(rest.lstrip())
    m = _USER_SUBJECT.match(clause)
    if m is not None:
        return ("my " + m["rest"]) if m["own"] else "I " + _deconjugate(m["rest"])
    m = _ADVERB_PREFIX.match(clause)
    if m is not None and m["verb"].lower() in _THIRD_VERBS:
        return "I " + _deconjugate(clause)
    return clause


def _clean(sentence: str) -> str:
    text = sentence if sentence.isascii() else sentence.translate(_QUOTES)
    if "](" in text:
        text = _LINK.sub(r"\1", text)
    if "*" in text or "_" in text or "`" in text:
        text = _EMPHASIS.sub("", text)
    return " ".join(text.split())


def sentences(paragraph: str, longest: int = MAX_SENTENCE) -> Iterator[str]:
    """The sentences of ``paragraph`` of at most ``longest`` characters; a greeting alone
    ("Hey!") stays with the sentence after it, so that "Hey! I'm Sarah." introduces
    someone."""
    greeting = ""
    for sentence in _SENTENCE_SPLIT.split(paragraph):
        if _GREETING.fullmatch(sentence.strip()):
            greeting += sentence.strip() + " "
            continue
        sentence, greeting = greeting + sentence, ""
        if len(sentence) <= longest:
            yield sentence
    if greeting:
        yield greeting.strip()


class _Found:
    """A sentence's wrappers: what "remember that", "actually" and "I think" said."""

    def __init__(self) -> None:
        self.remember = False
        self.correction = False
        self.confidence = _CONFIDENCE
        self.greeted = False


def _unwrap(sentence: str, found: _Found) -> str | None:
    """The statement inside ``sentence``, or None when it states nothing."""
    question = sentence.rstrip().endswith("?")
    text = sentence.strip().rstrip(" .!?…")
    for _ in range(4):
        stripped = _GREETING.sub("", text, count=1)
        found.greeted = found.greeted or stripped != text
        stripped = _FILLER.sub("", stripped, count=1)
        if stripped == text:
            break
        text = stripped
    m = _REMEMBER.match(text)
    if m is not None and not _NOT_REMEMBER.match(m["rest"]):
        if question and not m["ask"]:
            return None
        found.remember, question = True, False
        text = re.sub(r",?\s+please$", "", m["rest"], flags=_I)
        if re.match(r"to\s", text, _I):
            text = "remember " + text
    if question:
        return None
    for _ in range(3):
        m = _CORRECTION.match(text)
        if m is None:
            break
        found.correction, text = True, m["rest"]
    m = _HEDGE.match(text)
    if m is not None:
        found.confidence, text = _HEDGED, m["rest"]
    if _WEAK.match(text):
        return None
    if not found.remember and _HYPOTHETICAL.search(_POLITE.sub(" prefer ", text)):
        return None
    return text


def _schedule(clause: str, ctx: Context) -> Draft | None:
    if not _FIRST_PERSON.search(clause) or len(clause.split()) < 3 or dangling(clause):
        return None
    return Draft(third_person(clause, ctx.created), "schedule", "near-date", priority="ephemeral")


def _drafts(clause: str, ctx: Context, found: _Found) -> list[Draft]:
    near = NEAR_DATE.search(clause) is not None
    for pattern in PATTERNS:
        drafts = pattern(clause, ctx)
        if not drafts:
            continue
        if near and not (
            drafts[0].pattern in _CHANGE_PATTERNS
            and _PAST_CHANGE.search(clause)
            and not _FUTURE.search(clause)
        ):
            break
        return drafts
    if near:
        draft = _schedule(clause, ctx)
        return [draft] if draft else []
    if found.remember and not dangling(clause) and len(clause.split()) >= 3:
        return [Draft(third_person(clause, ctx.created), "notes", "note")]
    return []


def _tags(draft: Draft) -> tuple[str, ...]:
    tags: list[str] = []
    implied: list[str] = []
    for term in draft.change or ():
        tool = lookup_tool(term) if term else None
        if tool is not None and tool.id not in tags:
            tags.append(tool.id)
    for tool, _, _ in find_tools(draft.text):
        if tool.id not in tags:
            tags.append(tool.id)
        if tool.implies:
            implied.append(tool.implies)
    for lang in implied:
        if lang not in tags:
            tags.append(lang)
    return tuple(tags[:MAX_TAGS])


def _candidate(
    draft: Draft, found: _Found, corrected: bool, session_id: str, created: datetime
) -> Candidate:
    priority, confidence, pattern = draft.priority, found.confidence, draft.pattern
    if corrected:
        pattern = "correction+" + pattern
        confidence = max(confidence, _CORRECTED)
        if priority != "ephemeral":
            priority = max(priority, "high", key=priority_rank)
    if found.remember:
        pattern = "remember+" + pattern if pattern != "note" else "remember"
        confidence = _REMEMBERED
        if priority != "ephemeral":
            priority = max(priority, "high", key=priority_rank)
    topic = draft.topic
    kind = draft.type or TOPIC_TYPES[topic]
    if topic == "notes" and _URL.search(draft.text):
        kind = "reference"
    return Candidate(
        text=draft.text,
        topic=topic,
        priority=priority,
        type=kind,
        tags=_tags(draft),
        key=draft.key,
        confidence=confidence,
        session_id=session_id,
        created=created,
        change=draft.change,
        pattern=pattern,
    )


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[^\W_]+", text.lower()))  # any script: "记住" is a word


def dedupe(candidates: list[Candidate]) -> list[Candidate]:
    """One candidate per normalised text, at its first place, keeping the strongest values."""
    first: dict[str, int] = {}
    out: list[Candidate] = []
    for c in candidates:
        norm = _norm(c.text)
        if norm not in first:
            first[norm] = len(out)
            out.append(c)
            continue
        i = first[norm]
        kept = out[i]
        if (priority_rank(c.priority), c.confidence) > (
            priority_rank(kept.priority),
            kept.confidence,
        ):
            out[i] = replace(c)
    return out


def explicit_candidates(sentence: str, session_id: str, created: datetime) -> list[Candidate]:
    """The candidates the patterns find in one sentence of a user's (most state none)."""
    lower = sentence.lower()
    if not _TRIGGER.search(lower):
        first = lower.lstrip(" -*>#_`").split(" ", 1)[0]
        if first not in _THIRD_VERBS and first not in _OPENING_ADVERBS:
            return []
    sentence = _clean(sentence)
    found = _Found()
    statement = _unwrap(sentence, found)
    if not statement:
        return []
    out: list[Candidate] = []
    ctx = Context(created=created, greeted=found.greeted)
    for clause in _CLAUSE_SPLIT.split(statement):
        clause = clause.strip(" ,;:-")
        lead = _LEADING_TIME.match(clause)
        if lead is not None:
            clause = f"{clause[lead.end() :]} {lead['when'].lower()}"
        clause = _first_person(clause)
        if len(clause) < 4:
            continue
        # "I use pnpm, not npm" corrects whatever was said before.
        corrected = found.correction or ", not " in clause.lower()
        for draft in _drafts(clause, ctx, found):
            if draft.text and len(draft.text) <= MAX_TEXT:
                out.append(_candidate(draft, found, corrected, session_id, created))
    return out
