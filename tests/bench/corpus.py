"""Seeded generator of a realistic memory store with planted duplicates and near-misses.

Facts are drawn from the frames in ``corpus_frames.py`` (people, projects, schedules,
preferences, health, hobbies) filled with real names, places and tools. Every fact is
a distinct tuple (frame, slot values, polarity). On top of them:

- about 5 % *duplicates*: the same fact noted again, as an exact copy, with surface
  changes (case, final stop, digits spelled out, a "Reminder:" prefix) or in another
  wording of the frame, which can change a content word or two;
- about 5 % *near-misses*: the same wording with one number, name, date or the
  polarity changed (a different person with the same first name, Python 3.11 vs 3.12,
  "no longer prefers ..."), which must never be merged.

Run ``python tests/bench/corpus.py N [--jsonl FILE]`` to print a sample of the store
(and write it, one memory per line).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import string
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from corpus_frames import FRAMES, Frame, Slots, _cities, _person, _tools
from corpus_vocab import SMALL_NUMBERS

BASE_TIME = datetime(2025, 1, 6, 8, 0, tzinfo=UTC)
PREFIXES = ("Reminder: ", "FYI: ", "Currently, ", "Note: ", "Update: ")


@dataclass
class Fact:
    """A fact: which frame, which values, which polarity, and its current wording."""

    frame: Frame
    slots: Slots
    negative: bool = False
    template: int = 0

    @property
    def identity(self) -> tuple[Any, ...]:
        """What makes two facts the same: the slots the wordings show, and the polarity."""
        shown = _shown_slots(self.frame)
        values = tuple(sorted((k, v) for k, v in self.slots.items() if k in shown))
        return (self.frame.name, self.negative, values)


def _shown_slots(frame: Frame) -> frozenset[str]:
    return frozenset(
        name
        for template in frame.templates + frame.negatives
        for _text, name, _spec, _conv in string.Formatter().parse(template)
        if name
    )


@dataclass
class Corpus:
    """The store and its ground truth."""

    memories: list[dict[str, Any]]
    duplicates: list[tuple[str, str]]  #: planted pairs that must merge
    near_misses: list[tuple[str, str]]  #: planted pairs that must not merge
    duplicate_kinds: dict[tuple[str, str], str] = field(default_factory=dict)


def _draw(frame: Frame, rng: random.Random) -> Slots:
    slots: Slots = {}
    for draw in frame.slots:
        slots.update(draw(rng))
    return slots


def _render(fact: Fact, *, spell: bool = False) -> str:
    wordings = fact.frame.negatives if fact.negative else fact.frame.templates
    slots = dict(fact.slots)
    for name in fact.frame.spell if spell else ():
        if int(slots[name]) < len(SMALL_NUMBERS):
            slots[name] = SMALL_NUMBERS[int(slots[name])]
    template = wordings[fact.template % len(wordings)]
    text = template.format(**slots)
    # Service and library identifiers keep their lower case even at the start.
    return text if template.startswith(("{svc}", "{lib}")) else text[0].upper() + text[1:]


def _paraphrase(fact: Fact, rng: random.Random) -> tuple[str, str]:
    """Another note of the same fact, and what kind of change it is."""
    if rng.random() < 0.1:
        return _render(fact), "exact"
    wordings = fact.frame.negatives if fact.negative else fact.frame.templates
    kind = "surface"
    other = Fact(fact.frame, fact.slots, fact.negative, fact.template)
    if len(wordings) > 1 and rng.random() < 0.75:
        other.template = rng.choice([i for i in range(len(wordings)) if i != fact.template])
        kind = "reworded"
    text = _render(other, spell=bool(fact.frame.spell) and rng.random() < 0.5)
    if rng.random() < 0.15:
        starts_with_name = wordings[other.template % len(wordings)].startswith("{")
        text = rng.choice(PREFIXES) + (text if starts_with_name else text[0].lower() + text[1:])
    if rng.random() < 0.15:
        text = text.lower()
    if rng.random() < 0.4:
        text = text[:-1] if text.endswith(".") else text + "."
    return text, "exact" if text == _render(fact) else kind


def _near_miss(fact: Fact, rng: random.Random) -> Fact:
    """The same wording with one number, name, date or the polarity changed."""
    frame = fact.frame
    if frame.negatives and rng.random() < 0.25:
        return Fact(frame, fact.slots, not fact.negative, fact.template)
    draw = frame.slots[rng.choice(frame.vary)]
    slots = dict(fact.slots)
    if draw is _tools and rng.random() < 0.5:
        slots["a"], slots["b"] = slots["b"], slots["a"]
    elif draw is _person:
        first, last = slots["full"].split(" ", 1)
        new_first, new_last = _person(rng)["full"].split(" ", 1)
        slots["full"] = f"{first} {new_last}" if rng.random() < 0.5 else f"{new_first} {last}"
    elif draw is _cities and rng.random() < 0.5:
        slots["from_city"], slots["to_city"] = slots["to_city"], slots["from_city"]
    else:
        fresh = draw(rng)
        name = rng.choice(sorted(fresh))
        slots[name] = fresh[name]
    return Fact(frame, slots, fact.negative, fact.template)


def _memory_id(seed: int, k: int) -> str:
    digest = hashlib.blake2b(f"{seed}:{k}".encode(), digest_size=5).digest()
    alphabet = "0123456789abcdefghjkmnpqrstvwxyz"
    value = int.from_bytes(digest, "big")
    return "m-" + "".join(alphabet[(value >> (5 * i)) & 31] for i in range(8))


def _key(fact: Fact) -> str | None:
    if fact.frame.key is None:
        return None
    return fact.frame.key.format(**fact.slots).lower().replace(" ", "-")


def generate(n: int, *, seed: int = 20261122, rate: float = 0.05) -> Corpus:
    """A store of ``n`` memories: ``rate`` duplicates, ``rate`` near-misses, the rest distinct."""
    rng = random.Random(seed)
    planted = round(n * rate)
    base_count = n - 2 * planted
    seen: set[tuple[Any, ...]] = set()
    facts: list[Fact] = []
    misses = 0
    while len(facts) < base_count:
        frame = rng.choice(FRAMES)
        fact = Fact(frame, _draw(frame, rng), template=rng.randrange(len(frame.templates)))
        if fact.identity in seen:
            misses += 1
            if misses > 50 * n:
                raise ValueError(f"the vocabulary has too few distinct facts for {n} memories")
            continue
        seen.add(fact.identity)
        facts.append(fact)
    memories: list[dict[str, Any]] = []

    def add(fact: Fact, text: str, created: datetime) -> str:
        memory_id = _memory_id(seed, len(memories))
        memory = {"id": memory_id, "topic": fact.frame.topic, "text": text, "created": created}
        if (key := _key(fact)) is not None:
            memory["key"] = key
        memories.append(memory)
        return memory_id

    ids = []
    for fact in facts:
        created = BASE_TIME + timedelta(seconds=rng.randrange(300 * 86400))
        ids.append(add(fact, _render(fact), created))
    later = [timedelta(seconds=rng.randrange(3600, 30 * 86400)) for _ in range(2 * planted)]
    corpus = Corpus(memories, [], [])
    for k in rng.sample(range(base_count), planted):
        text, kind = _paraphrase(facts[k], rng)
        copy = add(facts[k], text, memories[k]["created"] + later.pop())
        corpus.duplicates.append((ids[k], copy))
        corpus.duplicate_kinds[ids[k], copy] = kind
    for k in rng.sample(range(base_count), planted):
        for _attempt in range(50):
            other = _near_miss(facts[k], rng)
            if other.identity not in seen:
                break
        else:
            continue
        seen.add(other.identity)
        text = _render(other)
        corpus.near_misses.append((ids[k], add(other, text, memories[k]["created"] + later.pop())))
    for memory in memories:
        memory["created"] = memory["created"].strftime("%Y-%m-%dT%H:%M:%SZ")
    memories.sort(key=lambda m: (m["created"], m["id"]))
    return corpus


def main(argv: list[str] | None = None) -> None:
    """Print a sample of a generated store and its planted pairs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, nargs="?", default=1000)
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--sample", type=int, default=15)
    parser.add_argument("--jsonl", help="write the memories to this file, one JSON per line")
    args = parser.parse_args(argv)
    corpus = generate(args.n, seed=args.seed)
    if args.jsonl:
        with open(args.jsonl, "w", encoding="utf-8") as f:
            for m in corpus.memories:
                f.write(json.dumps(m, ensure_ascii=False) + "\n")
    text = {m["id"]: m["text"] for m in corpus.memories}
    out = sys.stdout
    out.write(f"{len(corpus.memories)} memories, {len(corpus.duplicates)} planted duplicates, ")
    out.write(f"{len(corpus.near_misses)} planted near-misses\n\nsample:\n")
    for m in random.Random(1).sample(corpus.memories, min(args.sample, len(corpus.memories))):
        out.write(f"  [{m['topic']}] {m['text']}\n")
    out.write("\nduplicates:\n")
    for a, b in corpus.duplicates[: args.sample]:
        out.write(f"  {text[a]}\n  {text[b]}   ({corpus.duplicate_kinds[a, b]})\n\n")
    out.write("near-misses:\n")
    for a, b in corpus.near_misses[: args.sample]:
        out.write(f"  {text[a]}\n  {text[b]}\n\n")


if __name__ == "__main__":
    main()
