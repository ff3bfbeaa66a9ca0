"""The words counts are read by: what links a setting to its value, what marks a change.

:mod:`.counts` reads every number of a sentence with the noun it counts and the setting it
is the value of; these tables say which words join a number to its setting ("limit *of*
500"), which say the value is new ("the *new* limit", "*now*"), which make it an addition
("3 *more*"), which verbs hold a count rather than do it once, and which words are never
what is counted (people, particles, words for an amount). English words, one place each.
"""

from __future__ import annotations

from dreamgit.extract.verbs import (
    AUXILIARIES,
    CHANGE_VERBS,
    DETERMINERS,
    GROUP_ADVERBS,
    PREPOSITIONS,
)
from dreamgit.textsim import canonical_word

__all__ = [
    "AMOUNTS",
    "CHANGES",
    "CONJUNCTIONS",
    "HELD_NOW",
    "INCREMENT",
    "LINKS",
    "NOW_WORDS",
    "PARTICLES",
    "PEOPLE",
    "RATE_OPENERS",
    "RECURRING",
    "RELATIVES",
    "STATES",
    "STOP",
]

CONJUNCTIONS = frozenset({"and", "or", "but", "so", "while", "because"})
#: "…, which has now reached 240": the number is the value of what stands before.
RELATIVES = frozenset({"which", "that", "who", ","})
#: Who has the count, not what is counted.
PEOPLE = frozenset({"user", "i", "we", "you", "it", "they", "he", "she", "them", "me", "us"})
#: Words that make a number an addition, not the count: "3 more", "another 2", "an extra 4".
INCREMENT = frozenset({"more", "extra", "additional", "another", "other", "further"})
#: Words before a number that say it is the value now: "the new limit of", "a total of".
NOW_WORDS = frozenset({"now", "new", "total", "currently", "updated", "latest"})
#: Words near a number that say it is the whole count now, whatever was done before it:
#: "so now they have a total of 12 tiles" after "designing the grid with 9 tiles".
HELD_NOW = frozenset({"now", "total", "currently", "altogether"})
#: Words that say what a count is per: "per day", "a week", "each month".
RATE_OPENERS = frozenset({"per", "a", "an", "each", "every"})
#: Words the signature reads as dates that say how often, not which day: "the daily step
#: goal" names no day of its own, so beside "… in March 2026" it is no second dated event.
RECURRING = frozenset(
    {
        "hourly",
        "daily",
        "weekly",
        "biweekly",
        "fortnightly",
        "monthly",
        "quarterly",
        "yearly",
        "annually",
    }
)
#: What links a setting to its value: "limit of 500", "size is 50", "timeout at 30".
LINKS = frozenset({"of", "is", "are", "was", "at", "to", "reached", "hit", "totals", "by"})
STOP = DETERMINERS | PREPOSITIONS | AUXILIARIES | GROUP_ADVERBS | CONJUNCTIONS | PEOPLE
STOP |= RELATIVES
CHANGES = frozenset(canonical_word(v) for v in CHANGE_VERBS) | {
    canonical_word(v) for v in ("adjust", "improve", "set", "boost", "expand", "scale")
}
#: Verbs that hold a count rather than do it once.
STATES = frozenset(
    canonical_word(w)
    for w in ("have", "be", "own", "hold", "contain", "include", "total", "keep", "run", "use")
)
#: Particles of a phrasal verb ("went up to"): never the noun a setting is named by.
PARTICLES = frozenset({"up", "down", "out", "off", "back", "away"})
#: Words for an amount of anything: what they count is said elsewhere.
AMOUNTS = frozenset(canonical_word(w) for w in ("number", "total", "count", "amount"))
