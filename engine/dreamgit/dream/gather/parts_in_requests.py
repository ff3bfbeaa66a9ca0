"""What a request says the project is, or what a named part of it does.

An agent's user describes the project while asking for work on it: "add a `sync`
command that uploads the cache to the bucket", "create a task to add an `export`
subcommand, which writes one file per table", "update the login function to reject
empty passwords", "initialize a Go project for a web server called harbor". The request
is a task of the moment and is not kept; what it says of the project was lost with it.
:func:`parts_in_request` lifts that by its structure, never by topic:

- a relative clause ("that …", ", which …") whose antecedent is a *named part* of the
  project: a part noun ("command", "function", "rule", …) named by "called X", by a name
  in code marks, or by "with a subcommand X" just before it. A clause whose subject is
  the part ("that uploads …") says what it should do ("The sync command should upload
  …"; of a list of steps, the first); one with a
  subject of its own ("that other teams can add …") says what the part is for ("The
  lint.mdc rule is one that other teams can add …"); one whose subject is "I", "we" or
  "you" is about the people, not the part, and is left.
- a purpose clause after a request to change a part ("update / change / make the X
  command to <verb> …"): how the part must be from now on ("The X command should
  <verb> …"), a rule said of a thing.
- a request to set a project up that names what it is ("initialize a Go project for a
  web server called harbor"): "The project is harbor, a Go project for a web server."

Each lifted clause is an ordinary sentence, read by the same statement rules as any
other; what a part does or must do is then the user's specification of the project (an
instruction, as "each command should …" is), and the request around it stays a task.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from dreamgit import lazyre
from dreamgit.dream.gather.sentence_split import as_sentence

__all__ = ["PartSaid", "parts_in_request"]


class PartSaid(NamedTuple):
    """A statement lifted from a request, and whether it specifies how a part must be
    (what the part does or must do: the user's rule for the project, read as one)."""

    text: str
    spec: bool


_I = re.IGNORECASE

# A part of a project a user names while asking for work on it.
_PART = (
    r"(?:command|subcommand|flag|option|function|module|rule|endpoint|script|service"
    r"|library|package|class|method|hook|plugin|component|job|workflow|backend|page"
    r"|doc|docs|guide|template|tool)"
)
# A name: in code marks, in quotes, or one token that may hold dots, slashes, "@", "-".
_NAME = r"(?:`[^`\n]{1,60}`|\"[^\"\n]{1,60}\"|[\w.@/-]{1,60})"
_ARTICLE = r"(?:a|an|the|new)"
# Up to two words before the part noun ("cli", "cursor", "new"), not a name themselves.
_MODIFIERS = r"(?P<mods>(?:[a-z][\w-]*\s+){0,2}?)"

# The named part just before a relative clause; each reads the text up to the "that".
_ANTECEDENTS = (
    # "a cli command called sync", "the rule named `lint.mdc`"
    lazyre.compile(
        rf"\b{_ARTICLE}\s+{_MODIFIERS}(?P<part>{_PART})\s+(?:called|named)\s+(?P<name>{_NAME})$",
        _I,
    ),
    # "a `sync` command", "the `db reset` cli command"
    lazyre.compile(
        rf"\b{_ARTICLE}\s+(?P<name>`[^`\n]{{1,60}}`)\s+{_MODIFIERS}(?P<part>{_PART})$", _I
    ),
    # "… with a subcommand pull": the part nearest the relative clause
    lazyre.compile(rf"\bwith\s+(?:a|an)\s+(?P<mods>)(?P<part>{_PART})\s+(?P<name>{_NAME})$", _I),
)
_RELATIVE = lazyre.compile(r"(?:,\s*which|\s+that|\s+which)\s+", _I)
# Whose the relative clause is: the part's own verb ("uploads", "will write", "is"), or a
# subject of its own before a verb ("other teams can add").
_PART_DOES = lazyre.compile(
    r"^(?:(?:also|only|always|never|then|[a-z]+ly)\s+)?"
    r"(?:is|has|does|(?:will|can|should|must|may|would)\s+[a-z]+|[a-z]+(?<![su])s)\b",
    _I,
)
_OWN_SUBJECT = lazyre.compile(
    r"^(?!(?:i|we|you|it|this|that|they|there)\b)(?:[\w'-]+\s+){1,3}?"
    r"(?:can|could|will|should|must|may|need\s+to|use|uses|call|calls|add|adds|read|reads)\b",
    _I,
)
# Where a lifted clause ends: a stop, the request going on ("…, and then commit it"), an
# aside in brackets, or another clause taking over.
_CLAUSE_END = lazyre.compile(
    r"\s*(?:[;?!(]|\.(?=\s|$)|,?\s+(?:and\s+)?then\s+|,\s+(?:so|but|which|while|and|as|unless)\s+)",
    _I,
)
_SHORTEST_WORDS = 2
_LONGEST = 200

# "update the session command to take a task id", "make the export function write CSV":
# how the part must be from now on.
_CHANGE = lazyre.compile(
    r"^(?:(?:also|and|so|ok|okay|now|then|next|please|let's|lets|let\s+us)[,\s]+)*"
    r"(?:update|change|modify|extend|refactor|rewrite|adjust|fix|improve|tweak|make)\s+"
    rf"(?P<part>the\s+(?:[\w`@./-]+\s+){{0,4}}?{_PART}s?)\s+(?:to\s+)?"
    r"(?P<rest>(?:(?:always|never|only|also|optionally|[a-z]+ly)\s+)?"
    r"(?!(?:to|the|a|an|this|that|it|them|be|work|pass|use\s+it)\b)[a-z]+\b"
    # "to specify this process": what it points at is in the session, not in the statement
    r"(?!\s+(?:this|that|these|those|it|them)\b).*)$",
    _I,
)
# "initialize a bun typescript project for a CLI tool called minsky"
_SET_UP = lazyre.compile(
    r"^(?:(?:also|and|so|ok|okay|now|first|please|let's|lets)[,\s]+)*"
    r"(?:initiali[sz]e|init|create|set\s+up|scaffold|bootstrap|start)\s+"
    r"(?P<what>(?:a|an)\s+(?:[\w+#.-]+\s+){0,4}?project(?:\s+for\s+(?:a|an)\s+"
    rf"(?:[\w+#.-]+\s+){{0,4}}?[\w+#.-]+)?)\s+(?:called|named)\s+(?P<name>{_NAME})",
    _I,
)


def parts_in_request(sentence: str) -> list[PartSaid]:
    """What a request ``sentence`` says the project is or a named part of it does, each
    as a sentence of its own, in the order said; nothing for a sentence that says
    neither that way (its caller only passes a user's requests). What a part does or
    must do is a specification; what the project is, a fact."""
    out: list[PartSaid] = []
    set_up = _SET_UP.match(sentence.strip())
    if set_up is not None:
        out.append(PartSaid(f"The project is {_plain(set_up['name'])}, {set_up['what']}.", False))
    change = _CHANGE.match(sentence.strip())
    if change is not None:
        must = _until_end(change["rest"])
        if len(must.split()) >= _SHORTEST_WORDS:
            out.append(PartSaid(as_sentence(f"{_plain(change['part'])} should {must}"), True))
    for m in _RELATIVE.finditer(sentence):
        lifted = _of_part(sentence[: m.start()].rstrip(" ,"), _until_end(sentence[m.end() :]))
        if lifted is not None:
            out.append(PartSaid(lifted, True))
    return out


def _of_part(before: str, clause: str) -> str | None:
    """The relative ``clause`` said of the named part ``before`` ends with, as a
    sentence; None when ``before`` ends with no named part or the clause is not the part's."""
    if len(clause.split()) < _SHORTEST_WORDS or len(clause) > _LONGEST:
        return None
    for antecedent in _ANTECEDENTS:
        m = antecedent.search(before)
        if m is None:
            continue
        part = f"The {_plain(m['name'])} {m['mods']}{m['part']}"
        if _PART_DOES.match(clause):
            return as_sentence(f"{part} {_must(clause)}")
        if _OWN_SUBJECT.match(clause):
            return as_sentence(f"{part} is one that {clause}")
        return None
    return None


# A modal already says how the part is to be ("will write", "can take").
_MODAL = lazyre.compile(
    r"^(?:(?:also|only|always|never|then|[a-z]+ly)\s+)?(?:will|can|should|must|may|would)\b", _I
)
# A list of further steps ("…, stashes, pulls, pushes"): the first step is the statement.
_LIST_GOES_ON = lazyre.compile(r",\s+(?!(?:or|and|but)\b)")
# "… and removes the record": a second verb with its object, written like the first.
_AND_VERB = lazyre.compile(
    r"\s+and\s+(?P<verb>[a-z]+s)(?=\s+(?:the|a|an|it|them|all|its|their|this|that)\b)"
)
_VERB_FIRST = lazyre.compile(
    r"^(?P<adverb>(?:(?:also|only|always|never|then|[a-z]+ly)\s+)?)(?P<verb>\S+)(?P<rest>.*)$", _I
)
_BE_HAVE_DO = {"is": "be", "has": "have", "does": "do"}


def _must(clause: str) -> str:
    """What a part does, said while asking for it, as what it should do: "clones a repo
    to the cache" → "should clone a repo to the cache"; a clause with a modal as it is."""
    if _MODAL.match(clause):
        return clause
    clause = _LIST_GOES_ON.split(clause, maxsplit=1)[0]
    verb = _VERB_FIRST.match(clause)
    if verb is None:
        return clause
    rest = _AND_VERB.sub(lambda m: f" and {_base(m['verb'])}", verb["rest"])
    return f"should {verb['adverb']}{_base(verb['verb'])}{rest}"


def _base(verb: str) -> str:
    """A verb said of one thing in its plain form: "clones" → "clone", "pushes" → "push",
    "applies" → "apply", "has" → "have"."""
    low = verb.lower()
    if low in _BE_HAVE_DO:
        return _BE_HAVE_DO[low]
    if low.endswith("ies") and len(low) > 4:
        return verb[:-3] + "y"
    if low.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
        return verb[:-2]
    return verb[:-1] if low.endswith("s") else verb


def _until_end(rest: str) -> str:
    """``rest`` up to where its clause ends."""
    end = _CLAUSE_END.search(rest)
    return (rest[: end.start()] if end is not None else rest).strip(" ,.")


def _plain(name: str) -> str:
    """A name without its code marks or quotes ("`db reset`" → "db reset")."""
    return name.replace("`", "").replace('"', "")
