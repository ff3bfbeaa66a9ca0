"""Seeded generator of an adversarial store: facts that share their whole tail.

Every memory is "<subject> <relation> <object> <qualifier>", and the object and the
qualifier come from small pools while the qualifiers are long ("unless the platform
team says otherwise in writing", "as agreed in the architecture review of the
ingestion cluster"), so two different facts often share most of their words and differ only in
the subject ("the billing api" / "the search worker"; "Priya Raman" / "Marco Rossi")
or the relation ("reports errors to" / "depends on"). Services talk to each other,
so a swapped pair ("billing-api calls search-worker" / "search-worker calls
billing-api") is in there too. On top of the distinct facts:

- *duplicates* (about 5 %): the same fact noted again, with a label ("Note: "), the
  qualifier moved to the front, another case, a dropped or added final stop, or
  "the X service" for "X";
- *near-misses* (about 5 %): the same subject, relation and qualifier with another
  object, which must never merge.

``python tests/bench/corpus_adversarial.py N`` prints a sample.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field


def _split(text: str, sep: str = " ") -> list[str]:
    return [w for w in text.split(sep) if w]


SERVICE_WORDS = _split(
    "billing search checkout ledger invoice payment report notification identity audit"
    " catalog pricing shipping inventory session export import media profile webhook"
)
SERVICE_KINDS = _split("api worker gateway scheduler indexer service queue frontend backend")
PEOPLE = _split(
    "Priya Raman|Marco Rossi|Aisha Okafor|Chen Novak|Ingrid Schmidt|Kwame Tanaka|Sofia Haddad"
    "|Dmitri Larsen|Hana Mendes|Lukas Kowalski|Amara Nguyen|Rafael Fischer|Yuki Osei",
    "|",
)
TEAMS = _split("platform data mobile payments growth security infra search")
#: (relation, what the object is: tool | store | service | person)
RELATIONS = (
    ("is tested with", "tool"),
    ("is deployed with", "tool"),
    ("is monitored with", "tool"),
    ("is linted with", "tool"),
    ("reports errors to", "store"),
    ("depends on", "store"),
    ("sends logs to", "store"),
    ("reads from", "store"),
    ("writes to", "store"),
    ("caches responses in", "store"),
    ("calls", "service"),
    ("is owned by", "person"),
    ("is reviewed by", "person"),
)
OBJECTS = {
    "tool": _split("pytest Jest Playwright Terraform Helm Ansible Grafana Datadog Ruff ESLint"),
    "store": _split("Sentry Redis Postgres Kafka S3 Elasticsearch BigQuery RabbitMQ"),
}
QUALIFIERS = (
    "unless told otherwise",
    "unless the platform team says otherwise in writing",
    "in production and staging",
    "as agreed in the architecture review of the ingestion cluster",
    "according to the platform runbook",
    "since the March migration to the new cluster",
    "for every release candidate before it ships",
    "as the team agreed during the last quarterly planning",
)
LABELS = ("Note: ", "FYI: ", "Reminder: ", "Currently, ")


@dataclass(frozen=True)
class Fact:
    """What a memory says: who or what, which relation, to what, with which tail."""

    subject: str
    relation: str
    obj: str
    qualifier: str


@dataclass
class Corpus:
    """The store, each memory's fact, and the planted pairs."""

    memories: list[dict[str, str]]
    facts: dict[str, Fact]  #: memory id -> its fact
    duplicates: list[tuple[str, str]]  #: planted pairs that must merge
    near_misses: list[tuple[str, str]]  #: planted pairs that must not merge
    kinds: dict[tuple[str, str], str] = field(default_factory=dict)


def _service(rng: random.Random) -> str:
    word, kind = rng.choice(SERVICE_WORDS), rng.choice(SERVICE_KINDS)
    # One service is written one way throughout: "the billing api" is not billing-api.
    return f"the {word} {kind}" if (word + kind).__len__() % 2 else f"{word}-{kind}"


def _subject(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.7:
        return _service(rng)
    if roll < 0.85:
        return f"the {rng.choice(TEAMS)} team's {rng.choice(SERVICE_WORDS)} pipeline"
    return f"{rng.choice(SERVICE_WORDS)}-{rng.choice(SERVICE_KINDS)} for {rng.choice(TEAMS)}"


def _object(kind: str, rng: random.Random) -> str:
    if kind == "service":
        return _service(rng)
    if kind == "person":
        return rng.choice(PEOPLE)
    return rng.choice(OBJECTS[kind])


def _fact(rng: random.Random) -> Fact:
    relation, kind = rng.choice(RELATIONS)
    return Fact(_subject(rng), relation, _object(kind, rng), rng.choice(QUALIFIERS))


def render(fact: Fact) -> str:
    """The plain wording of a fact."""
    text = f"{fact.subject} {fact.relation} {fact.obj} {fact.qualifier}."
    return text[0].upper() + text[1:] if text.startswith("the ") else text


def _paraphrase(fact: Fact, rng: random.Random) -> tuple[str, str]:
    roll = rng.random()
    if roll < 0.25 and "," not in fact.qualifier:
        text = f"{fact.qualifier[0].upper()}{fact.qualifier[1:]}, {fact.subject} {fact.relation} "
        return text + f"{fact.obj}.", "fronted"
    if roll < 0.45:
        return rng.choice(LABELS) + render(fact), "label"
    if roll < 0.6 and fact.subject.startswith("the ") and fact.subject.count(" ") == 2:
        _the, word, kind = fact.subject.split(" ")
        return render(Fact(f"the {word}-{kind} service", *_tail(fact))), "service"
    text = render(fact)
    text = text.lower() if rng.random() < 0.5 else text
    return (text[:-1] if text.endswith(".") else text + "."), "surface"


def _tail(fact: Fact) -> tuple[str, str, str]:
    return fact.relation, fact.obj, fact.qualifier


def _near_miss(fact: Fact, rng: random.Random) -> Fact:
    kind = next(k for r, k in RELATIONS if r == fact.relation)
    return Fact(fact.subject, fact.relation, _object(kind, rng), fact.qualifier)


def generate(n: int, *, seed: int = 11, rate: float = 0.05) -> Corpus:
    """``n`` memories: ``rate`` duplicates, ``rate`` near-misses, the rest distinct facts."""
    rng = random.Random(seed)
    planted = round(n * rate)
    facts: list[Fact] = []
    seen: set[Fact] = set()
    while len(facts) < n - 2 * planted:
        fact = _fact(rng)
        if fact not in seen and fact.subject != fact.obj:
            seen.add(fact)
            facts.append(fact)
    corpus = Corpus([], {}, [], [])

    def add(fact: Fact, text: str) -> str:
        ident = f"m-{len(corpus.memories):07d}"
        corpus.memories.append({"id": ident, "topic": "projects", "text": text})
        corpus.facts[ident] = fact
        return ident

    ids = [add(f, render(f)) for f in facts]
    for k in rng.sample(range(len(facts)), planted):
        text, kind = _paraphrase(facts[k], rng)
        pair = (ids[k], add(facts[k], text))
        corpus.duplicates.append(pair)
        corpus.kinds[pair] = kind
    for k in rng.sample(range(len(facts)), planted):
        other = _near_miss(facts[k], rng)
        if other in seen or other.subject == other.obj:
            continue
        seen.add(other)
        corpus.near_misses.append((ids[k], add(other, render(other))))
    order = list(range(len(corpus.memories)))
    rng.shuffle(order)  # planted copies do not all come last
    corpus.memories = [corpus.memories[k] for k in order]
    return corpus


def main(argv: list[str] | None = None) -> None:
    """Print a sample of a generated store."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, nargs="?", default=1000)
    args = parser.parse_args(argv)
    corpus = generate(args.n)
    for m in random.Random(1).sample(corpus.memories, 12):
        print(m["text"])
    text = {m["id"]: m["text"] for m in corpus.memories}
    for a, b in corpus.duplicates[:6]:
        print(f"dup: {text[a]}  ~  {text[b]}")


if __name__ == "__main__":
    main()
