"""Word lists the frame parser (``frame.py``) reads sentences with.

English verbs that memories use, with their regular and irregular inflections, and the
closed classes around them: auxiliaries, determiners, prepositions, the adverbs that
may sit inside a verb group ("is now on", "no longer uses") and the words that open a
fronted phrase ("For Python tests, ..."). Lists, not a tagger: a word the lists do not
know is a noun or a name.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = [
    "AUXILIARIES",
    "BE_FORMS",
    "CHANGE_VERBS",
    "DATE_WORDS",
    "DETERMINERS",
    "FRONT_WORDS",
    "GROUP_ADVERBS",
    "HAVE_FORMS",
    "NUMBER_WORDS",
    "PAST_FORMS",
    "PREPOSITIONS",
    "PRONOUN_USER",
    "RELATION_SYNONYMS",
    "verb_base",
]


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


AUXILIARIES = _set(
    "is are was were am be been being has have had do does did will would shall should can"
    " could may might must"
)
#: The forms of "be" and of "have": a verb group's head when no other verb follows.
BE_FORMS = _set("is are was were am be been being")
HAVE_FORMS = _set("has have had")
DETERMINERS = _set(
    "the a an my your his her their our its this that these those every each some any both"
    " another all no whose which what"
)
PREPOSITIONS = _set(
    "on in at to from with for by of into over as about near under behind after before off"
    " without within across through than via per until since during unless because so while"
    " when if except instead like toward towards onto upon between among around outside inside"
    " against beside besides despite"
)
GROUP_ADVERBS = _set(
    "now still also always usually often already just currently recently really only mostly"
    " generally typically sometimes rarely finally actually officially soon then even again"
    " normally regularly nowadays lately never not"
)
#: Words a sentence may open with before its subject; a connective ("However, …") links
#: the sentence to the one before and says nothing of its subject.
FRONT_WORDS = (
    PREPOSITIONS
    | GROUP_ADVERBS
    | _set("every each today starting however meanwhile anyway besides therefore")
)
PRONOUN_USER = _set("i me myself user")
#: Verbs that say a value changed: the newer statement replaces the older value.
CHANGE_VERBS = _set(
    "move switch change migrate upgrade downgrade reschedule postpone push delay update grow"
    " increase decrease drop rise reach become replace relocate transfer shift bump raise lower"
    " cut extend advance climb fall hit leave quit sell finish stop expand shrink"
)
_VERBS = CHANGE_VERBS | _set(
    """accept add adopt advise agree aim allow answer appear apply approve arrange arrive ask
    attend avoid bake be become begin believe belong book borrow break bring build buy call care
    carry catch cause celebrate check choose clean climb close coach code collect come commit
    complete configure consider contact contain continue contribute control cook cost cover
    create cycle dance date decide define delete deliver depend deploy describe design develop
    die dislike do donate draw dream dress drink drive earn eat edit email emit employ enable
    end enjoy enter expect experience explain expose feel fight file fill find finish fish fix
    fly focus follow forget format found garden get give go graduate grow guide handle hang hate
    have head hear help hike hire hold host hope host identify ignore implement import include
    install intend invite join keep kill know lack land last launch lead learn leave lend let
    like limit link list listen live load lock log look lose love maintain make manage mark
    marry matter mean measure meet mention mentor mind miss name need note notice offer open
    operate order organise organize own paint participate pass pay perform pick pin plan plant
    play post practice practise prefer prepare present print process produce promise protect
    provide publish pull purchase put quit rank rate read receive recommend record recover
    reduce refer refuse register reject release rely remember remind remove rent repair repeat
    report represent request require research reside respond rest restart retire return review
    ride ring run save say schedule see seek sell send serve set share ship shop show sign sing
    sit skip sleep solve speak spend stand start stay stop store study submit suffer suggest
    support surf swim take talk target teach tell tend test thank think throw track train
    translate travel treat try turn understand unlock use value visit volunteer vote wait wake
    walk want watch wear welcome win wish work worry write cache lint monitor authenticate
    query fetch sync index subscribe consume stream proxy route validate parse render scan
    backup restore archive encrypt compress mirror poll retry alert notify own upload
    download migrate merge rebase release tag deprecate"""
)
DATE_WORDS = _set(
    "january february march april may june july august september october november december"
    " jan feb mar apr jun jul aug sep sept oct nov dec"
    " monday tuesday wednesday thursday friday saturday sunday"
)
NUMBER_WORDS = _set(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
    " fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy"
    " eighty ninety hundred thousand million dozen twice first second third fourth fifth"
)
#: Simple past forms (that are not also participles of "have" tenses we read as states).
PAST_FORMS = _set(
    "went gave got made took saw came bought brought thought told found left met ran sent spent"
    " won lost paid built kept held wrote rode drove ate drank sang began flew grew knew threw"
    " wore taught caught fought sold felt heard read"
)
#: Verbs that name one relation: a paraphrase may use either ("keeps its data in" /
#: "stores its data in"). Each word maps to the first of its group.
_SYNONYM_GROUPS = (
    "store keep hold save",
    "need require",
    "speak talk present",
    "cover staff",
    "start begin",
    "finish end complete",
    "own maintain",
    "lead head manage",
)
RELATION_SYNONYMS = {w: group.split()[0] for group in _SYNONYM_GROUPS for w in group.split()}
_IRREGULAR = {
    "went": "go", "gone": "go", "gave": "give", "given": "give", "got": "get", "gotten": "get",
    "made": "make", "took": "take", "taken": "take", "saw": "see", "seen": "see",
    "came": "come", "bought": "buy", "brought": "bring", "thought": "think", "told": "tell",
    "found": "find", "left": "leave", "met": "meet", "ran": "run", "sent": "send",
    "spent": "spend", "won": "win", "lost": "lose", "paid": "pay", "built": "build",
    "kept": "keep", "held": "hold", "wrote": "write", "written": "write", "rode": "ride",
    "drove": "drive", "driven": "drive", "ate": "eat", "eaten": "eat", "drank": "drink",
    "sang": "sing", "began": "begin", "begun": "begin", "flew": "fly", "flown": "fly",
    "grew": "grow", "grown": "grow", "knew": "know", "known": "know", "threw": "throw",
    "wore": "wear", "taught": "teach", "caught": "catch", "fought": "fight", "sold": "sell",
    "felt": "feel", "heard": "hear", "became": "become", "chose": "choose", "chosen": "choose",
    "spoke": "speak", "spoken": "speak", "understood": "understand", "led": "lead",
    "fell": "fall", "rose": "rise", "risen": "rise", "woke": "wake", "stood": "stand",
    "sat": "sit", "slept": "sleep", "swam": "swim", "lent": "lend", "meant": "mean",
}  # fmt: skip


@lru_cache(maxsize=1 << 14)
def verb_base(low: str) -> str | None:
    """The base form of a lower-case verb form ("uses" → "use", "went" → "go"), else None."""
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low in _VERBS:
        return low
    candidates: list[str] = []
    if low.endswith("ies"):
        candidates.append(low[:-3] + "y")
    if low.endswith("es"):
        candidates.append(low[:-2])
    if low.endswith("s"):
        candidates.append(low[:-1])
    if low.endswith("ied"):
        candidates.append(low[:-3] + "y")
    if low.endswith("ed"):
        candidates += [low[:-2], low[:-1], low[:-3]]
    if low.endswith("ing"):
        candidates += [low[:-3], low[:-3] + "e", low[:-4]]
    return next((c for c in candidates if len(c) > 1 and c in _VERBS), None)
