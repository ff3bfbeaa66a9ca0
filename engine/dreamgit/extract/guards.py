"""Guards that veto a merge of two similar memories, whatever their similarity.

Two texts may merge only if their signatures (``signature.py``) agree: same keys
(or one unset), same polarity (no negation or antonym on one side only), no reversed
comparison ("X over Y" / "Y over X"), the same numbers, dates and times, the same
names, and no content word put in the place of an unrelated one ("allergic to kiwi" /
"allergic to lupin"). The checks are strict on purpose: a missing number or name
counts as a different one, because a wrong merge loses a fact while a missed merge
only leaves a duplicate for the next dream.
"""

from __future__ import annotations

from dreamgit.extract.frame import Frame, parse_frame
from dreamgit.extract.signature import ANTONYMS, Signature, neighbours, shown, signature
from dreamgit.extract.verbs import RELATION_SYNONYMS
from dreamgit.textsim import canonical_word

__all__ = ["extends", "keys_compatible", "may_merge", "merge_allowed", "subsumes"]


def _show(values: frozenset[str] | set[str], sig: Signature) -> str:
    written = shown(sig.text)
    return ", ".join(sorted(written.get(v, v) for v in values)) or "none"


def _names(sa: Signature, sb: Signature) -> tuple[frozenset[str], frozenset[str]]:
    """Name-like words of either text, as present in each (a first word counts as a
    name when the other text lacks it: "Priya reviews" vs "Marco reviews")."""
    candidates = sa.names | sb.names | (sa.openers - sb.features) | (sb.openers - sa.features)
    return candidates & sa.features, candidates & sb.features


def _names_differ(sa: Signature, sb: Signature) -> bool:
    """Whether :func:`_names` gives the two texts other words, told without building them:
    a word of the candidates differs only if it is in one text's features and not the
    other's, so the two differ exactly when a name or opener present in one text is not a
    feature of the other, or a name one text lacks is a feature of the other (most pairs
    the duplicate finder judges fail here: at 100,000, 154,000 of 191,500)."""
    fa, fb = sa.features, sb.features
    return not (
        sa.present_names <= fb
        and sb.present_names <= fa
        and sa.absent_names.isdisjoint(fb)
        and sb.absent_names.isdisjoint(fa)
    )


def _antonym(sa: Signature, sb: Signature) -> tuple[str, str] | None:
    # An antonym word is in ``antonyms`` whenever it is in the text at all.
    only_a, only_b = sa.antonyms - sb.antonyms, sb.antonyms - sa.antonyms
    if not only_a or not only_b:
        return None
    for x, y in ANTONYMS:
        for p, q in ((x, y), (y, x)):
            if p in only_a and q in only_b:
                return p, q
    return None


def _reversed(sa: Signature, sb: Signature) -> tuple[str, str] | None:
    """A word first in one text's comparison and second in the other's, and vice versa."""
    for first_a, second_a in sa.directions:
        for first_b, second_b in sb.directions:
            x = (first_a - second_a) & (second_b - first_b)
            y = (second_a - first_a) & (first_b - second_b)
            if x and y:
                return min(x), min(y)
    return None


def _related(p: str, q: str) -> bool:
    """Forms of one word (allergy, allergic; play, player): a long common beginning."""
    common = 0
    for x, y in zip(p, q, strict=False):
        if x != y:
            break
        common += 1
    return common >= 5 or (common >= 4 and common == min(len(p), len(q)))


def _swapped(sa: Signature, sb: Signature) -> tuple[str, str] | None:
    """One content word put in the place of another ("allergic to kiwi" / "to lupin")."""
    only_a, only_b = sa.features - sb.features, sb.features - sa.features
    if len(only_a) != 1 or len(only_b) != 1:
        return None
    (p,), (q,) = only_a, only_b
    if _related(p, q):
        return None
    before_a, after_a = neighbours(sa.text).get(p, (None, None))
    before_b, after_b = neighbours(sb.text).get(q, (None, None))
    same_before = before_a is not None and before_a == before_b
    same_after = after_a is not None and after_a == after_b
    return (p, q) if same_before or same_after else None


#: Head nouns a paraphrase adds or drops ("the atlas-api service" / "atlas-api").
_GENERIC_HEADS = frozenset(
    map(
        canonical_word,
        str.split(
            """service team project app application repo codebase system server environment
            tool library package company job"""
        ),
    )
)


#: Verbs that say little themselves: their object names the relation ("is the tech lead
#: for", "has a cloud budget of").
_LIGHT_VERBS = frozenset({"be", canonical_word("have")})


def _absent(words: frozenset[str], other: frozenset[str]) -> set[str]:
    """Words not in ``other``, not even as another form ("player" is in "plays")."""
    return {w for w in words - other if not any(_related(w, o) for o in other)}


def _relation_words(f: Frame) -> frozenset[str]:
    if f.head not in _LIGHT_VERBS:
        return _fold(frozenset({f.head}))
    return f.object - f.numbers - f.dates - f.names


#: Canonical word -> the word its relation group is known by (``verbs.RELATION_SYNONYMS``).
_SYNONYMS = {canonical_word(k): canonical_word(v) for k, v in RELATION_SYNONYMS.items()}


def _fold(words: frozenset[str]) -> frozenset[str]:
    """Verbs of one relation group as one word ("keeps" and "stores" are both "store")."""
    return frozenset(_SYNONYMS.get(w, w) for w in words)


def _evidence(f: Frame, other: Frame) -> frozenset[str]:
    """The words of ``f`` that can show it speaks of what ``other`` does: all of them but
    those of qualifier phrases the two share word for word (a shared tail such as "as
    agreed in the architecture review" proves nothing about subjects or verbs)."""
    shared = f.phrases & other.phrases
    if not shared:
        return f.words
    tail = frozenset().union(*(words for _p, words in shared))
    return (f.words - tail) | f.subject | f.object | {f.head}


def _different_subjects(fa: Frame, fb: Frame, ea: frozenset[str], eb: frozenset[str]) -> bool:
    sa, sb = fa.subject, fb.subject
    if sa == sb:
        return False
    missing_a = set() if fa.implicit else sa - eb
    missing_b = set() if fb.implicit else sb - ea
    if missing_a or missing_b:
        # Only a generic head noun more on one side: "the atlas-api service" / "atlas-api",
        # or "Port 3492 is where nebula-api listens" (an inversion names it elsewhere).
        generic = (missing_a | missing_b) <= _GENERIC_HEADS
        return not (generic and (sa < sb or sb < sa or fa.inverts or fb.inverts))
    # Disjoint subjects, both named, both actions: "Atlas depends on Orion" / "Orion depends
    # on Atlas". A copula or a passive may put its subject last ("The lead is Priya").
    flexible = fa.implicit or fb.implicit or fa.inverts or fb.inverts
    return not sa & sb and not flexible


def _about(fa: Frame | None, fb: Frame | None) -> str | None:
    """ "subject", "relation" or "value" when two sentences are about different things, else None.

    Subjects differ when a word of one subject is missing from the other sentence
    (beyond a generic head noun: "the user's team" / "the user" agree), or both are
    named, share no word and neither sentence is a copula or a passive ("billing api"
    / "search worker"; "Atlas depends on Orion" / "Orion depends on Atlas"). Relations
    differ when neither main verb is in the other sentence ("reports errors to" /
    "depends on"; for "is" and "has", the object's words stand for the verb: "is the
    tech lead for" / "is the product manager for"), or the verbs agree but neither
    one's preposition is in the other ("lives in" / "lives near"; "moved from Berlin to
    Oslo" and "moved to Oslo from Berlin" agree). Values differ when both objects, or
    two qualifiers with the same preposition, hold a word the other sentence lacks
    ("calls the webhook frontend" / "calls the report scheduler"). Words of a qualifier
    both sentences share word for word are no evidence: a long shared tail never
    outweighs a different subject.
    """
    if fa is None or fb is None:
        return None
    ea, eb = _evidence(fa, fb), _evidence(fb, fa)
    if _different_subjects(fa, fb, ea, eb):
        return "subject"
    # A verb is not in the other sentence because its subject holds the word ("The report
    # service caches" / "reports errors"), unless that sentence may put its subject last.
    va = ea if fa.inverts else ea - fa.subject
    vb = eb if fb.inverts else eb - fb.subject
    if _absent(_relation_words(fa), _fold(vb)) and _absent(_relation_words(fb), _fold(va)):
        return "relation"
    if _absent(fa.object, eb) and _absent(fb.object, ea):
        return "value"
    for prep, words in fa.phrases - fb.phrases:
        for other_prep, other in fb.phrases - fa.phrases:
            if prep == other_prep and _absent(words, eb) and _absent(other, ea):
                return "value"
    if fa.head == fb.head and fa.head not in _LIGHT_VERBS and fa.particle and fb.particle:
        preps_a = {fa.particle, *(p for p, _w in fa.phrases)}
        preps_b = {fb.particle, *(p for p, _w in fb.phrases)}
        if fa.particle not in preps_b and fb.particle not in preps_a:
            return "relation"
    return None


def _failure(sa: Signature, sb: Signature) -> str | None:
    """The first check two signatures fail, or None; cheap, no message built."""
    if sa.numbers != sb.numbers:
        return "numbers"
    if sa.dates != sb.dates:
        return "dates"
    if len(sa.negations) % 2 != len(sb.negations) % 2:
        return "polarity"
    if sa.antonyms != sb.antonyms and _antonym(sa, sb):  # equal: none on one side only
        return "polarity"
    if _names_differ(sa, sb):
        return "names"
    if sa.directions and sb.directions and _reversed(sa, sb):
        return "direction"
    if _swapped(sa, sb):
        return "words"
    return _about(parse_frame(sa.text), parse_frame(sb.text))


def _explain(check: str, sa: Signature, sb: Signature) -> str:
    if check in ("subject", "relation", "value"):
        fa, fb = parse_frame(sa.text), parse_frame(sb.text)
        assert fa is not None and fb is not None
        left, right = {
            "subject": (fa.subject_text, fb.subject_text),
            "relation": (fa.relation_text, fb.relation_text),
            "value": (fa.value_text, fb.value_text),
        }[check]
        return f"different {check}s: {left} vs {right}"
    if check == "polarity":
        pair = _antonym(sa, sb)
        if pair is None or len(sa.negations) % 2 != len(sb.negations) % 2:
            left, right = " ".join(sa.negations) or "none", " ".join(sb.negations) or "none"
        else:
            left, right = shown(sa.text)[pair[0]], shown(sb.text)[pair[1]]
        return f"opposite polarity: {left} vs {right}"
    if check == "direction":
        x, y = _reversed(sa, sb) or ("", "")
        x, y = shown(sa.text).get(x, x), shown(sa.text).get(y, y)
        return f"opposite direction: {x}, {y} vs {y}, {x}"
    if check == "words":
        p, q = _swapped(sa, sb) or ("", "")
        return f"different words: {shown(sa.text).get(p, p)} vs {shown(sb.text).get(q, q)}"
    a, b = {
        "numbers": (sa.numbers, sb.numbers),
        "dates": (sa.dates, sb.dates),
        "names": _names(sa, sb),
    }[check]
    label = "dates or times" if check == "dates" else check
    return f"different {label}: {_show(a - b, sa)} vs {_show(b - a, sb)}"


def extends(longer: str, shorter: str) -> bool:
    """Whether ``longer`` says what ``shorter`` says plus whole qualifier phrases only
    ("... over unittest for Python tests" / "... to unittest"): the same subject,
    relation, object, numbers, dates and polarity, no reversed comparison, and every
    phrase of the shorter one in the longer one word for word."""
    fl, fs = parse_frame(longer), parse_frame(shorter)
    if fl is None or fs is None or fl.event != fs.event:
        return False
    same = (fl.subject, fl.head, fl.particle, fl.object, fl.negated, fl.rejected) == (
        fs.subject,
        fs.head,
        fs.particle,
        fs.object,
        fs.negated,
        fs.rejected,
    )
    if not same or not fs.phrases < fl.phrases:
        return False
    return _signatures_agree(longer, shorter)


def _signatures_agree(longer: str, shorter: str) -> bool:
    """The same numbers, dates and negations, and no comparison reversed."""
    sl, ss = signature(longer), signature(shorter)
    if (sl.numbers, sl.dates) != (ss.numbers, ss.dates) or sl.negations != ss.negations:
        return False
    return not (sl.directions and ss.directions and _reversed(sl, ss))


def subsumes(longer: str, shorter: str) -> bool:
    """Whether ``longer`` says what ``shorter`` says with more before it: the shorter's
    relation and object are one of the longer's qualifier phrases ("works at Northwind" /
    "works as a data engineer at Northwind"); the same subject, verb, polarity, numbers
    and dates, and every other phrase of the shorter one in the longer one."""
    fl, fs = parse_frame(longer), parse_frame(shorter)
    if fl is None or fs is None or fl.event != fs.event or not fs.object:
        return False
    same = (fl.subject, fl.head, fl.negated, fl.rejected) == (
        fs.subject,
        fs.head,
        fs.negated,
        fs.rejected,
    )
    said = (fs.particle, fs.object)
    if not same or said not in fl.phrases or not fs.phrases <= fl.phrases - {said}:
        return False
    return _signatures_agree(longer, shorter)


def keys_compatible(a_key: str | None, b_key: str | None) -> bool:
    """Whether two memories' ``key`` slots allow a merge: equal, or at least one unset."""
    a = (a_key or "").strip().lower()
    b = (b_key or "").strip().lower()
    return not a or not b or a == b


def merge_allowed(
    text_a: str, text_b: str, *, key_a: str | None = None, key_b: str | None = None
) -> bool:
    """:func:`may_merge` without the reason: the fast form for scanning many pairs."""
    if (key_a or key_b) and not keys_compatible(key_a, key_b):
        return False
    return _failure(signature(text_a), signature(text_b)) is None


def may_merge(
    text_a: str, text_b: str, *, key_a: str | None = None, key_b: str | None = None
) -> tuple[bool, str]:
    """Whether two memory texts may be merged, and why not (empty reason when they may).

    Refused: different keys; different subjects or relations (``frame.py``); opposite
    polarity (a negation or an antonym on one side
    only); reversed comparisons ("X over Y" / "Y over X"); different numbers, dates or
    times; different names; one content word swapped for an unrelated one.
    """
    if not keys_compatible(key_a, key_b):
        return False, f"different keys: {key_a} vs {key_b}"
    sa, sb = signature(text_a), signature(text_b)
    check = _failure(sa, sb)
    return (True, "") if check is None else (False, _explain(check, sa, sb))
