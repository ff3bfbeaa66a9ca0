"""Patterns for facts about the user themselves: name, pronouns, birthday, home, work, role.

Each fills a slot (``user.name``, ``user.home``, ``user.employer``, ...) so that a
newer statement supersedes an older one. Names, places and employers must be
written with capitals ("I live in Berlin", not "I live in a flat"), which keeps
ordinary sentences from being read as identity facts; a clause typed all in lower case
may name a place the gazetteer knows (:mod:`.places`: "i moved to madrid"). Who the user is (name,
pronouns, birthday, origin) goes to the ``identity`` topic, which the default rules
protect: a dream never retires it. Where they live and work, their role and time zone
change in a life and go to ``facts``, so that "I moved to Lisbon" retires "Lives in
Porto" instead of leaving both. All are ``high`` priority, not ``core``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from dreamgit import lazyre
from dreamgit.dream.gather.common import END, NAME, ORG, PLACE, Context, Draft, dangling, tool_of
from dreamgit.dream.gather.phrasing import swap_pronouns
from dreamgit.dream.gather.places import with_known_places
from dreamgit.dream.gather.words import indefinite_article

__all__ = ["IDENTITY_PATTERNS"]

_I = re.IGNORECASE
_SOFT = r"(?:\s+(?:now|currently|still|also|just|recently|finally|actually))*"
_ROLE_NOUNS = (
    "engineer|developer|dev|programmer|coder|designer|manager|scientist|researcher|analyst"
    "|student|teacher|professor|lecturer|writer|author|journalist|editor|consultant|founder"
    "|co-founder|cofounder|architect|administrator|admin|sysadmin|sre|lead|director|ceo|cto"
    "|cfo|coo|vp|intern|freelancer|contractor|nurse|doctor|physician|lawyer|accountant"
    "|artist|musician|photographer|owner|maintainer|specialist|technician|officer"
    "|coordinator|recruiter|marketer|entrepreneur|postdoc|mathematician|statistician"
    "|economist|pm|tester|hacker|chef|pilot|mechanic|electrician|therapist|psychologist"
    "|librarian|translator|producer|instructor|tutor|mentor|strategist|executive|president"
)

_NAME = lazyre.compile(
    rf"^(?:my\s+(?:full\s+|first\s+|real\s+|legal\s+)?name\s+is|my\s+name's"
    rf"|i(?:'m|\s+am)\s+called)\s+(?P<name>{NAME}){END}",
    _I,
)
_NAME_LOWER = lazyre.compile(r"^my\s+name\s+is\s+(?P<name>[a-z][a-z'-]{1,20})$")
_GREETED_NAME = lazyre.compile(rf"^i(?:'m|\s+am)\s+(?P<name>{NAME})(?=$|\s*,)", _I)
_PREFERRED = lazyre.compile(
    rf"^(?:please\s+)?(?:call\s+me|you\s+can\s+call\s+me|i\s+go\s+by"
    rf"|i\s+(?:prefer|like)\s+to\s+be\s+called)\s+(?P<name>{NAME}){END}",
    _I,
)
_PRONOUNS = lazyre.compile(r"^my\s+pronouns\s+are\s+(?P<p>[a-z]+(?:\s*/\s*[a-z]+){1,2})\b", _I)
_BIRTHDAY = lazyre.compile(
    r"^(?:my\s+(?:birthday|date\s+of\s+birth|dob)\s+is(?:\s+on)?|i\s+was\s+born\s+on)"
    r"\s+(?P<d>[\w ,./-]{3,30}?)$",
    _I,
)
_TIMEZONE = lazyre.compile(
    r"^(?:my\s+(?:time\s*zone|tz)\s+is\s+(?P<tz>[\w+:/-]{2,40}(?:\s+time)?)"
    r"|i(?:'m|\s+am)\s+(?:in|on)\s+(?:the\s+)?(?P<tz2>(?:UTC|GMT)\s*[+-]\s*\d{1,2}(?::?\d{2})?"
    r"|[A-Z]{2,5}|\w+/\w+)(?:\s+time\s*zone)?)$",
)
# "I moved to Lisbon", "I'm settling into SF": where the user lives now.
_MOVED = lazyre.compile(
    rf"^(?:i|we)(?:'ve|\s+have|'m|\s+am|'re|\s+are)?{_SOFT}\s+(?:(?:moved|relocated)"
    rf"(?:\s+(?:house|home|back))?(?:\s+from\s+(?P<old>{PLACE}))?\s+to"
    rf"|(?:settling|settled)\s+(?:into|in))\s+(?P<new>{PLACE}){END}",
    _I,
)
_HOME = lazyre.compile(
    rf"^(?:(?:i|we)(?:'m|\s+am|'re|\s+are)?{_SOFT}\s+(?:live|lives|living|based|located"
    rf"|residing|reside|resides)\s+in|my\s+home\s+is(?:\s+in)?)\s+(?P<place>{PLACE}){END}",
    _I,
)
_ORIGIN = lazyre.compile(rf"^i(?:'m|\s+am)\s+(?:originally\s+)?from\s+(?P<place>{PLACE}){END}", _I)
_LEFT = lazyre.compile(
    rf"^(?:i|we)(?:'ve|\s+have)?{_SOFT}\s+(?:left|quit|(?:no\s+longer|don't|do\s+not)\s+work"
    rf"\s+(?:at|for))\s+(?P<org>{ORG}){END}(?P<rest>.*)$",
    _I,
)
_EMPLOYER = lazyre.compile(
    rf"^(?:(?:i|we)(?:'m|\s+am|'ve|\s+have)?{_SOFT}\s+(?:(?P<w>work|working|employed)"
    rf"\s+(?:at|for|by)|joined|started\s+(?:a\s+new\s+job\s+|working\s+)?at)"
    rf"|my\s+(?:employer|company)\s+is)\s+(?P<org>{ORG}){END}(?P<rest>.*)$",
    _I,
)
_ROLE = lazyre.compile(
    rf"^(?:i(?:'m|\s+am){_SOFT}\s+(?:an?|the)\s+(?P<role>(?:[\w+#./-]+\s+){{0,4}}?"
    rf"(?:{_ROLE_NOUNS}))|i\s+work\s+as\s+(?:an?\s+)?(?P<role2>[^,;]{{2,40}}?)"
    rf"|my\s+(?:role|job\s+title|title|job|position)\s+is\s+(?:an?\s+)?"
    rf"(?P<role3>[^,;]{{2,40}}?))(?:\s+(?:at|for|with)\s+(?P<org>{ORG})"
    # "… at a fintech startup": where, said without a name
    r"|(?P<where>\s+(?:at|for)\s+an?\s+(?-i:[a-z])[\w-]*(?:\s+(?-i:[a-z])[\w-]*){0,3}"
    rf"(?:,?\s+in\s+{PLACE})?))?"
    # "I'm a software engineer based in New York City": the role, and where they live
    rf"(?:\s+(?:based|living|located)\s+in\s+(?P<home>{PLACE}))?"
    r"(?=$|\s*[,;(.]|\s+(?:and|but|since|because|who|which|where|now)\b)",
    _I,
)
# "I got promoted to Senior PM": the role the user has now.
_PROMOTED = lazyre.compile(
    rf"^i(?:'ve|\s+have)?{_SOFT}\s+(?:got|been|was)\s+promoted\s+to\s+(?:an?\s+|the\s+)?"
    r"(?P<role>[^,;.!?]{2,40}?)(?=$|\s*[,;.!?]|\s+(?:at|in|on|by|after|last|this|today)\b)",
    _I,
)
_ALLERGY = lazyre.compile(
    r"^i(?:'m|\s+am)\s+(?:severely\s+|very\s+)?allergic\s+to\s+(?P<x>.{2,80})$", _I
)
_DURATION = lazyre.compile(r"\b(?:for|since)\s+\d", _I)


#: Slots whose value changes in a life (home, work, role, time zone): ``facts``, so that
#: "I moved to Lisbon" retires "Lives in Porto"; a protected memory is never retired.
_CHANGING = frozenset({"user.home", "user.employer", "user.role", "user.timezone"})


def _identity(
    text: str, key: str | None, pattern: str, change: tuple[str | None, str | None] | None = None
) -> Draft:
    topic = "facts" if key in _CHANGING or change is not None else "identity"
    return Draft(text, topic, pattern, key, change, priority="high", type="user")


def _name(clause: str, ctx: Context) -> list[Draft]:
    m = _NAME.match(clause) or _NAME_LOWER.match(clause)
    if m is None and ctx.greeted:
        m = _GREETED_NAME.match(clause)
    if m is None:
        return []
    name = m.group("name")
    name = name.title() if name.islower() else name
    return [_identity(f"User's name is {name}.", "user.name", "name")]


# "I'm Marco, backend lead at Ledgerly": a name and a role in one breath.
_NAME_ROLE = lazyre.compile(
    rf"^(?:i'm|i\s+am|this\s+is)\s+(?P<name>{NAME}),\s+(?:an?\s+|the\s+)?"
    rf"(?P<role>[a-z][\w+#./ -]{{1,40}}?)"
    rf"(?:\s+(?:at|for|with|of)\s+(?P<org>{ORG})"
    # "… at a health-tech startup in Bangalore": where, said without a name
    rf"|(?P<where>\s+(?:at|for|with|in|from)\s+(?-i:[a-z])[^;]{{2,80}}))?$",
    _I,
)


def _name_role(clause: str, ctx: Context) -> list[Draft]:
    m = _NAME_ROLE.match(clause)
    if m is None or tool_of(m["name"]):
        return []
    drafts = [_identity(f"User's name is {m['name']}.", "user.name", "name")]
    drafts.append(
        _identity(_role_text(m["role"] + (m["where"] or ""), m["org"]), "user.role", "role")
    )
    if m["org"]:
        drafts.append(_identity(f"Works at {m['org']}.", "user.employer", "employer"))
    return drafts


def _preferred_name(clause: str, ctx: Context) -> list[Draft]:
    m = _PREFERRED.match(clause)
    if m is None:
        return []
    return [
        _identity(f"Prefers to be called {m['name']}.", "user.preferred-name", "preferred-name")
    ]


def _pronouns(clause: str, ctx: Context) -> list[Draft]:
    m = _PRONOUNS.match(clause)
    if m is None:
        return []
    value = re.sub(r"\s*/\s*", "/", m["p"].lower())
    return [_identity(f"User's pronouns are {value}.", "user.pronouns", "pronouns")]


def _birthday(clause: str, ctx: Context) -> list[Draft]:
    m = _BIRTHDAY.match(clause)
    if m is None:
        return []
    return [_identity(f"User's birthday is {m['d'].strip()}.", "user.birthday", "birthday")]


def _timezone(clause: str, ctx: Context) -> list[Draft]:
    m = _TIMEZONE.match(clause)
    if m is None:
        return []
    tz = (m["tz"] or m["tz2"]).strip()
    return [_identity(f"User's timezone is {tz}.", "user.timezone", "timezone")]


# A lower-case clause that may say where the user lives or is from: only these meet the
# gazetteer, which is read (seconds) the first time one does.
_PLACE_CUE = lazyre.compile(
    r"^(?:i|we|my)\b.*\b(?:moved|relocated|settling|settled|live|lives|living|based|located"
    r"|residing|reside|resides|home|from)\s"
)


def _placed(pattern: re.Pattern[str], clause: str) -> re.Match[str] | None:
    """``pattern`` matched on ``clause``, or on it with its lower-case places written as
    the gazetteer spells them ("i moved to madrid")."""
    m = pattern.match(clause)
    if m is None and clause.lower() == clause and _PLACE_CUE.match(clause):
        m = pattern.match(with_known_places(clause))
    return m


def _moved(clause: str, ctx: Context) -> list[Draft]:
    m = _placed(_MOVED, clause)
    if m is None or tool_of(m["new"]) or (m["old"] and tool_of(m["old"])):
        return []
    old, new = m["old"], m["new"]
    text = f"Lives in {new} (moved there from {old})." if old else f"Lives in {new} (moved there)."
    return [_identity(text, "user.home", "moved", change=(old, new))]


def _home(clause: str, ctx: Context) -> list[Draft]:
    m = _placed(_HOME, clause)
    if m is not None:
        return [_identity(f"Lives in {m['place']}.", "user.home", "home")]
    m = _placed(_ORIGIN, clause)
    if m is not None:
        return [_identity(f"Is from {m['place']}.", "user.origin", "origin")]
    return []


def _left(clause: str, ctx: Context) -> list[Draft]:
    m = _LEFT.match(clause)
    if m is None or tool_of(m["org"]):
        return []
    org = m["org"]
    return [_identity(f"No longer works at {org}.", None, "left-employer", change=(org, None))]


def _role_text(role: str, org: str | None) -> str:
    role = role.strip()
    if not re.match(r"(?:an?|the)\s", role, _I):
        role = f"{indefinite_article(role)} {role}"
    return f"Works as {role}" + (f" at {org}." if org else ".")


def _work(clause: str, ctx: Context) -> list[Draft]:
    drafts: list[Draft] = []
    m = _EMPLOYER.match(clause)
    if m is not None and not (m["w"] is None and tool_of(m["org"])):
        drafts.append(_identity(f"Works at {m['org']}.", "user.employer", "employer"))
        as_role = re.match(r"\s+as\s+(?:an?\s+)?(?P<role>[^,;]{2,40})$", m["rest"], _I)
        if as_role is not None:
            drafts.append(_identity(_role_text(as_role["role"], m["org"]), "user.role", "role"))
        return drafts
    m = _ROLE.match(clause)
    if m is None:
        return []
    role: str = m["role"] or m["role2"] or m["role3"]
    if _DURATION.search(role):
        return []
    text = _role_text(role, m["org"])
    if m["where"]:
        text = f"{text.removesuffix('.')}{m['where']}."
    drafts.append(_identity(text, "user.role", "role"))
    if m["org"]:
        drafts.append(_identity(f"Works at {m['org']}.", "user.employer", "employer"))
    if m["home"]:
        drafts.append(_identity(f"Lives in {m['home']}.", "user.home", "home"))
    return drafts


def _promoted(clause: str, ctx: Context) -> list[Draft]:
    m = _PROMOTED.match(clause)
    if m is None:
        return []
    text = _role_text(m["role"], None).removesuffix(".") + " (promoted)."
    return [_identity(text, "user.role", "promoted", change=(None, m["role"]))]


def _allergy(clause: str, ctx: Context) -> list[Draft]:
    m = _ALLERGY.match(clause)
    if m is None or dangling(m["x"]):
        return []
    return [_identity(f"Is allergic to {swap_pronouns(m['x'])}.", None, "allergy")]


IDENTITY_PATTERNS: tuple[Callable[[str, Context], list[Draft]], ...] = (
    _name_role,
    _name,
    _preferred_name,
    _pronouns,
    _birthday,
    _timezone,
    _moved,
    _home,
    _left,
    _work,
    _promoted,
    _allergy,
)
