"""BM25's scores are Lucene's formula, to the last bit, however the postings repeat."""

from __future__ import annotations

import math
import random

from dreamgit.recall.index import K1, B, bm25_scores


def _lucene(
    postings: dict[str, list[tuple[str, int, int]]], terms: list[str], count: int, avg: float
) -> dict[str, float]:
    """The textbook sum, one posting at a time, query terms in order."""
    scores: dict[str, float] = {}
    for term in terms:
        found = postings.get(term, [])
        idf = math.log(1 + (count - len(found) + 0.5) / (len(found) + 0.5)) if found else 0.0
        for path, tf, length in found:
            part = idf * (tf / (K1 * ((1 - B) + B * length / avg) + tf))
            scores[path] = scores.get(path, 0.0) + part
    return scores


def test_scores_are_the_formulas_bit_for_bit() -> None:
    """Weights shared by memories of one term frequency and length change no score: the
    same floats as the formula per posting, for repeated and missing query terms too."""
    rng = random.Random(11)
    paths = [f"memories/t/m{k}.md" for k in range(400)]
    postings = {
        term: [(p, rng.randint(1, 3), rng.randint(4, 16)) for p in rng.sample(paths, size)]
        for term, size in (("kite", 300), ("tide", 120), ("lamp", 7))
    }
    for terms in (["kite"], ["kite", "tide"], ["tide", "kite", "kite"], ["lamp", "none", "tide"]):
        assert bm25_scores(postings, terms, 400, 9.7) == _lucene(postings, terms, 400, 9.7)
