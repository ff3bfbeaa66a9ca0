"""What a setting is called, read so that one setting named two ways is one slot.

A chat names a setting one way and later another: "the 500 daily upload limit", then "the
new daily upload quota of 800 uploads per day". Both say a bound (limit, quota, cap), the
same rate (daily, per day) and the same counted unit (uploads). :func:`setting_words` writes a
setting's words so those two compare equal: a word of a bound is the one word ``limit``, a
rate adjective is its unit ("daily" is "day"), the words that only say the value is new
("new", "current") leave, and so do the counted noun's words. Anything else in the name
stays, so "the daily upload cap" and "the daily download quota" remain two settings.
:func:`bound_phrase` reads the number-first form ("the 500 daily upload limit"): the noun
phrase after the number ends in a bound, so it names the setting, and what it counts is
the words between. English words; the frames compare these words, the text stays as said.
"""

from __future__ import annotations

from dreamgit.textsim import canonical_word

__all__ = ["RATE_ADJECTIVES", "UNITS", "bound_phrase", "setting_words"]

#: Nouns that name a bound on an amount: one slot whatever word a chat uses for it.
_BOUNDS = frozenset(map(canonical_word, str.split("limit quota cap ceiling allowance maximum")))
_BOUND = canonical_word("limit")
#: Rate adjectives and the unit each is per: "daily" says what "per day" says.
RATE_ADJECTIVES = {
    canonical_word(adjective): canonical_word(unit)
    for adjective, unit in (
        ("hourly", "hour"),
        ("daily", "day"),
        ("weekly", "week"),
        ("monthly", "month"),
        ("yearly", "year"),
        ("annual", "year"),
    )
}
#: Words that say which value of a setting is meant, not which setting.
_VALUE_AGE = frozenset(map(canonical_word, str.split("new current latest updated old")))
#: Counted words that are units of time or size: a count of them needs its setting.
UNITS = frozenset(
    map(
        canonical_word,
        str.split("""minute minutes hour hours day days week weeks month months year years
        second seconds ms percent km mile miles kg pound pounds cm mm gb mb"""),
    )
)


def setting_words(words: frozenset[str], counted: tuple[str, ...] = ()) -> frozenset[str]:
    """A setting's canonical words as one name: bounds as ``limit``, rates as their unit,
    without the words of its value's age or of what it counts."""
    named = set()
    for word in words - _VALUE_AGE - set(counted):
        named.add(_BOUND if word in _BOUNDS else RATE_ADJECTIVES.get(word, word))
    return frozenset(named)


def bound_phrase(phrase: tuple[str, ...]) -> tuple[tuple[str, ...], str, frozenset[str]] | None:
    """``phrase`` (canonical words after a number) as (counted, rate, setting) when it ends
    in a bound: ("daily", "upload", "limit") is ``(("upload",), "day", {"day", "limit"})``;
    None when it names no bound."""
    if not phrase or phrase[-1] not in _BOUNDS:
        return None
    rates = [RATE_ADJECTIVES[w] for w in phrase[:-1] if w in RATE_ADJECTIVES]
    counted = tuple(w for w in phrase[:-1] if w not in RATE_ADJECTIVES)
    return counted, (rates[0] if rates else ""), setting_words(frozenset(phrase), counted)
