"""recall: BM25 candidates, the rule set's weighting, grouping, budgets, filters and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from dreamgit.api import DreamEngine
from dreamgit.cli import cli
from dreamgit.errors import ConfigError, UserError
from dreamgit.recall.query import RecallQuery
from dreamgit.store import layout
from dreamgit.store.repo import MemoryRepo
from dreamgit.store.signals import read_spool
from gitcheck import NOW, NOW_TEXT, subjects

FACTS = [
    ("Prefers pytest over unittest for Python tests", "preferences", "normal"),
    ("Lives in Lisbon with two cats named Miso and Tofu", "identity", "normal"),
    ("The deploy pipeline runs on GitHub Actions every night", "project", "high"),
    ("Prefers dark mode in every editor", "preferences", "low"),
    ("Works at a bakery on weekends", "identity", "low"),
]


@pytest.fixture
def engine(tmp_path: Path) -> DreamEngine:
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    eng = DreamEngine(repo, now=NOW)
    for text, topic, priority in FACTS:
        eng.add_memory(text, topic=topic, priority=priority)
    return eng


def test_recall_ranks_the_memory_that_answers_first(engine: DreamEngine) -> None:
    """A question about cats finds the Lisbon memory at the top."""
    result = engine.recall("what are the names of the cats?")
    assert result.hits[0].memory.text.startswith("Lives in Lisbon")
    assert 0 < result.hits[0].relevance <= 1


def test_recall_finds_inflected_words(engine: DreamEngine) -> None:
    """Stemming matches 'deploying pipelines' to 'deploy pipeline'."""
    result = engine.recall("deploying pipelines")
    assert [h.memory.text for h in result.hits][:1] == [FACTS[2][0]]


def test_recall_of_nothing_known_returns_nothing_and_a_signal_without_hits(
    engine: DreamEngine,
) -> None:
    """Words no memory holds give no hits; the signal (no ids) feeds the recall hit rate."""
    result = engine.recall("quantum chromodynamics")
    assert result.hits == [] and result.recorded
    (spooled,) = read_spool(engine.repo.store.git_dir)
    assert json.loads(spooled[1])["hits"] == []


def test_recall_filters_by_topic_type_and_scope(engine: DreamEngine) -> None:
    """--topic keeps only that topic; a scope matches a tag or topic."""
    assert {h.memory.topic for h in engine.recall("prefers", topic="preferences").hits} == {
        "preferences"
    }
    assert engine.recall("prefers", topic="identity").hits == []
    assert engine.recall("prefers", type="project").hits == []
    assert engine.recall("bakery weekends", scope="identity").hits


def test_recall_cuts_to_a_character_budget(engine: DreamEngine) -> None:
    """--chars never returns more text than asked, and fills it with what fits."""
    result = engine.recall("prefers lisbon deploy bakery", chars=60)
    assert 0 < result.chars <= 60
    assert len(engine.recall("prefers lisbon deploy bakery", top_k=1).hits) == 1


def test_near_duplicates_are_grouped_under_the_best(engine: DreamEngine) -> None:
    """A paraphrase joins the group of the memory it repeats."""
    twin = engine.add_memory("Prefers pytest to unittest for Python testing", topic="preferences")
    result = engine.recall("pytest unittest")
    assert any(twin.id in h.group for h in result.hits)
    assert twin.id not in [h.memory.id for h in result.hits]


def test_each_recall_spools_one_signal_without_a_commit(engine: DreamEngine) -> None:
    """The signal holds the query hash, ids and relevance; main does not move."""
    before = engine.repo.tip()
    result = engine.recall("cats")
    assert engine.repo.tip() == before
    spooled = read_spool(engine.repo.store.git_dir)
    assert len(spooled) == 1
    signal = json.loads(spooled[0][1])
    assert signal["at"] == NOW_TEXT
    assert [h[0] for h in signal["hits"]] == [h.memory.id for h in result.hits]
    assert "cats" not in spooled[0][1].decode()  # the query itself is not kept


def test_no_record_leaves_no_signal(engine: DreamEngine) -> None:
    """record=False (--no-record) recalls without a trace."""
    engine.recall("cats", record=False)
    assert read_spool(engine.repo.store.git_dir) == []


def test_the_weight_expression_comes_from_the_config(tmp_path: Path) -> None:
    """A config that weights by priority alone puts the high memory first."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    eng = DreamEngine(repo, now=NOW)
    eng.add_memory("Prefers tea in the morning", topic="preferences", priority="low")
    eng.add_memory("Prefers tea with lemon", topic="preferences", priority="high")
    config = repo.read_text(layout.CONFIG) or ""
    config += 'recall:\n  weight: "rank(priority)"\n'
    repo.commit_main("config", lambda _t: {layout.CONFIG: config.encode()}, now=NOW)
    assert eng.recall("prefers tea").hits[0].memory.priority == "high"


def test_a_bad_weight_expression_names_the_key_and_the_caret(tmp_path: Path) -> None:
    """An unknown name in recall.weight is a ConfigError with the key path."""
    repo = MemoryRepo.init(tmp_path / "mem", now=NOW)
    config = (repo.read_text(layout.CONFIG) or "") + 'recall:\n  weight: "relevanse * 2"\n'
    repo.commit_main("config", lambda _t: {layout.CONFIG: config.encode()}, now=NOW)
    with pytest.raises(ConfigError) as err:
        DreamEngine(repo, now=NOW).recall("tea")
    assert err.value.render().startswith(
        ".dreamgit/config.yaml: recall.weight: unknown name 'relevanse'"
    )
    assert "    relevanse * 2\n    ^^^^^^^^^" in err.value.render()


def test_empty_query_and_bad_budgets_are_user_errors(engine: DreamEngine) -> None:
    """The messages say what is wrong."""
    with pytest.raises(UserError, match="the recall query is empty"):
        engine.recall("  ")
    with pytest.raises(UserError, match="--top-k must be at least 1, not 0"):
        engine.recall("cats", top_k=0)
    with pytest.raises(UserError, match="--chars must be at least 1, not -5"):
        engine.recall("cats", chars=-5)


def test_recall_command_prints_json_with_ids_scores_and_texts(engine: DreamEngine) -> None:
    """`dreamgit recall --json` carries what an agent needs."""
    repo_path = str(engine.repo.store.workdir)
    out = CliRunner().invoke(
        cli, ["--repo", repo_path, "--now", NOW_TEXT, "recall", "cats Lisbon", "--json"]
    )
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    top = doc["results"][0]
    assert set(top) >= {"id", "score", "relevance", "text", "group", "path"}
    assert top["text"].startswith("Lives in Lisbon")
    assert doc["recorded"] is True
    answer = "\n".join(r["text"] for r in doc["results"])
    assert doc["tokens"] == -(-len(answer.encode("utf-8")) // 4)  # bytes / 4, rounded up


def test_recall_command_text_output_and_no_match(engine: DreamEngine) -> None:
    """Text output is one line per memory; no match says so on stderr."""
    repo_path = str(engine.repo.store.workdir)
    runner = CliRunner()
    out = runner.invoke(cli, ["--repo", repo_path, "--now", NOW_TEXT, "recall", "bakery"])
    assert out.exit_code == 0
    assert out.output.split("\t")[2].startswith("Works at a bakery")
    none = runner.invoke(cli, ["--repo", repo_path, "--now", NOW_TEXT, "recall", "zebra"])
    assert none.exit_code == 0 and none.stderr == "no memory matches\n"


def test_writers_commit_spooled_signals_in_one_batch(engine: DreamEngine) -> None:
    """The next write commits every spooled signal as one file and empties the spool."""
    engine.recall("cats")
    engine.recall("pytest")
    engine.log_session("User: hello there, this is a session.")
    repo = engine.repo
    batches = repo.store.files(repo.tip(), layout.RECALL_SIGNALS)
    assert len(batches) == 1
    (blob,) = batches.values()
    assert len(repo.store.read(blob).splitlines()) == 2
    assert read_spool(repo.store.git_dir) == []
    assert subjects(repo.store.workdir)[:2] == [  # type: ignore[arg-type]
        f"log: session {repo.session_paths().popitem()[0]}",
        "recall: 2 recall signal(s) recorded",
    ]


def test_the_index_is_kept_while_memories_and_counters_stay(engine: DreamEngine) -> None:
    """A logged session reuses the index; a new memory is found at once."""
    from dreamgit.recall import index as index_module

    engine.recall("cats")
    before = dict(index_module._CACHE)
    engine.log_session("User: nothing about memories here, just a chat.")
    engine.recall("cats")
    assert dict(index_module._CACHE) == before
    engine.add_memory("Keeps a parrot called Kiwi", topic="pets")
    assert engine.recall("parrot").hits[0].memory.text == "Keeps a parrot called Kiwi"


def test_recall_works_on_another_agents_memory_format(tmp_path: Path) -> None:
    """A Hermes MEMORY.md is recalled entry by entry, and a dream folds the signal."""
    folder = tmp_path / "hermes"
    folder.mkdir()
    (folder / "MEMORY.md").write_text(
        "User prefers tabs over spaces\n§\nUser lives in Porto with a dog named Rex\n",
        encoding="utf-8",
    )
    runner = CliRunner()
    base = ["--repo", str(folder), "--now", NOW_TEXT]
    assert runner.invoke(cli, [*base, "init", "--format", "hermes", str(folder)]).exit_code == 0
    out = runner.invoke(cli, [*base, "recall", "dog name", "--json"])
    assert out.exit_code == 0, out.output
    (hit,) = json.loads(out.output)["results"]
    assert hit["text"] == "User lives in Porto with a dog named Rex"
    assert runner.invoke(cli, [*base, "run", "--force"]).exit_code == 0
    recalled = MemoryRepo.open(folder).get_memory(hit["id"], now=NOW)
    assert recalled.recall is not None and recalled.recall.count == 1


def test_a_recall_query_value_answers_as_its_text_and_options_do(engine: DreamEngine) -> None:
    """One RecallQuery carries recall's options down; options beside it are refused."""
    ask = RecallQuery("prefers", topic="preferences", top_k=1, record=False)
    by_value = engine.recall(ask)
    by_options = engine.recall("prefers", topic="preferences", top_k=1, record=False)
    assert [h.memory.id for h in by_value.hits] == [h.memory.id for h in by_options.hits]
    assert len(by_value.hits) == 1 and by_value.hits[0].memory.topic == "preferences"
    assert not by_value.recorded
    with pytest.raises(TypeError, match="give recall's options in the RecallQuery"):
        engine.recall(ask, top_k=3)
