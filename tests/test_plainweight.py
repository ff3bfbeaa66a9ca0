"""The bundled recall weight in plain Python: the compiled expression's scores, float for
float, over many memories; the bundled rules' text is the one it knows; any other text,
and a memory the plain function cannot weigh, goes to the compiler."""

from __future__ import annotations

import dataclasses
import random
from datetime import timedelta
from importlib.resources import files

import pytest
from ruamel.yaml import YAML

from dreamgit.dsl import ExpressionError
from dreamgit.dsl.types import NUMBER
from dreamgit.model import PRIORITIES, Memory, RecallStats
from dreamgit.recall.plainweight import BUNDLED_WEIGHT, plain_weight
from dreamgit.recall.weightenv import WeightEnv
from dreamgit.recall.weighting import expression_at, recall_settings, weight_schema
from gitcheck import NOW

#: Memories weighed against the compiled expression.
SAMPLES = 3000


def _memory(rng: random.Random, k: int) -> Memory:
    """A memory of a random priority (a name the rules do not know too), age, idle time
    (ahead of now too) and recall count (never recalled too)."""
    created = NOW - timedelta(days=rng.uniform(0, 900), seconds=rng.randint(0, 86_399))
    updated = created + timedelta(days=rng.uniform(-5, 400), microseconds=rng.randint(0, 999_999))
    count = rng.choice([None, 0, 1, 2, 4, 5, 6, 11, 40])
    return Memory(
        id=f"m-{k:08d}",
        topic="t",
        slug=f"s{k}",
        text=f"Fact number {k}",
        created=created,
        updated=updated,
        priority=rng.choice([*PRIORITIES, "urgent"]),
        recall=None if count is None else RecallStats(count=count),
    )


def _compiled(text: str, memory: Memory, relevance: float, bm25: float) -> object:
    expression = expression_at(text, "recall.weight", weight_schema(), NUMBER)
    return expression.evaluate(WeightEnv(memory, NOW, relevance, bm25))


def test_the_bundled_rules_weight_is_the_one_computed_in_plain_python() -> None:
    """``rules/default.yaml``'s ``recall.weight`` has a plain function: a recall with the
    bundled rules imports no compiler (a change to the text must change both)."""
    rules = YAML(typ="safe").load(files("dreamgit.rules").joinpath("default.yaml").read_text())
    assert rules["recall"]["weight"] == BUNDLED_WEIGHT
    assert plain_weight(BUNDLED_WEIGHT) is not None


def test_the_plain_weight_scores_as_the_compiled_expression_does() -> None:
    """Over thousands of memories and relevances, the same float as the compiled weight."""
    rng = random.Random(27)
    plain = plain_weight(BUNDLED_WEIGHT)
    assert plain is not None
    expression = expression_at(BUNDLED_WEIGHT, "recall.weight", weight_schema(), NUMBER)
    weight = recall_settings({"weight": BUNDLED_WEIGHT}).weight
    seen = set()
    for k in range(SAMPLES):
        memory = _memory(rng, k)
        relevance = rng.choice([0.0, 1.0, rng.random()])
        bm25 = rng.uniform(0, 12)
        want = expression.evaluate(WeightEnv(memory, NOW, relevance, bm25))
        assert plain(memory, NOW, relevance, bm25) == want, memory
        assert weight(memory, NOW, relevance, bm25) == want
        seen.add(want)
    assert len(seen) > SAMPLES // 2  # the samples vary the weight


def test_another_weight_is_compiled_and_evaluated() -> None:
    """A weight other than the bundled one scores as its own expression says."""
    rng = random.Random(5)
    text = "relevance * 2 + rank(priority) - min(recall.count, 3)"
    assert plain_weight(text) is None
    weight = recall_settings({"weight": text}).weight
    for k in range(200):
        memory = _memory(rng, k)
        relevance = rng.random()
        assert weight(memory, NOW, relevance, 1.0) == _compiled(text, memory, relevance, 1.0)


def test_a_memory_the_plain_weight_cannot_weigh_gets_the_compilers_error() -> None:
    """Updated far ahead of now, ``exp`` overflows: the compiled expression's own error."""
    memory = _memory(random.Random(1), 0)
    ahead = dataclasses.replace(memory, updated=NOW + timedelta(days=200_000))
    weight = recall_settings({"weight": BUNDLED_WEIGHT}).weight
    with pytest.raises(ExpressionError) as compiled:
        _compiled(BUNDLED_WEIGHT, ahead, 0.5, 1.0)
    with pytest.raises(ExpressionError) as plain:
        weight(ahead, NOW, 0.5, 1.0)
    assert str(plain.value) == str(compiled.value)
    assert "exp() failed" in str(plain.value)
