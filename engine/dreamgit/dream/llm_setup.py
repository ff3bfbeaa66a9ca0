"""Choosing a run's LLM: ``--llm NAME``, an adapter object, or ``llm:`` in the config.

Without any of them a dream is deterministic. The settings under ``llm:`` apply
to the adapter they name; answers are cached in the git directory, so running
a reviewed dream again asks the model nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dreamgit.errors import ConfigError
from dreamgit.llm.base import LLMAdapter
from dreamgit.ruleset import RuleSet
from dreamgit.ruleset.repo_rules import EDITED_NOTE, edited_config
from dreamgit.store import layout

if TYPE_CHECKING:
    from dreamgit.dream.llm_phase import LLMRun
    from dreamgit.store.repo import MemoryRepo

__all__ = ["open_llm"]


def _adapter(
    repo: MemoryRepo, choice: LLMAdapter | str | None, use_config: bool
) -> LLMAdapter | None:
    if isinstance(choice, LLMAdapter):
        return choice
    settings = repo.config().get("llm") or {}
    if not isinstance(settings, dict):
        raise ConfigError(f"{layout.CONFIG}: llm must be a mapping of settings")
    if choice is None:
        if not use_config or not settings:
            return None
        name = settings.get("adapter")
        if not isinstance(name, str) or not name:
            raise ConfigError(
                f"{layout.CONFIG}: llm.adapter is missing",
                hint="name the adapter, e.g. `llm: {adapter: openai, model: gpt-4o-mini}`",
            )
        choice = name
    elif settings.get("adapter", choice) != choice:
        settings = {}
    from dreamgit.llm.registry import get_adapter  # only for a run that names a model

    return get_adapter(choice, settings)


def open_llm(
    repo: MemoryRepo,
    ruleset: RuleSet,
    choice: LLMAdapter | str | None,
    *,
    use_config: bool = True,
) -> LLMRun | None:
    """The LLM for one run, or None for a deterministic run."""
    try:
        adapter = _adapter(repo, choice, use_config)
    except ConfigError as exc:
        if edited_config(repo) is None:
            raise
        # The setting may well be in the file the user edited: say which file counts.
        raise ConfigError(
            f"{exc.message} (in the committed {layout.CONFIG})",
            hint=f"{EDITED_NOTE}" + (f"; or {exc.hint}" if exc.hint else ""),
        ) from None
    if adapter is None:
        return None
    # The contract, the asking and the cache: loaded only for a run that asks a model.
    from dreamgit.dream.llm_phase import LLMRun
    from dreamgit.llm.ask import CharBudget
    from dreamgit.llm.cache import AnswerCache
    from dreamgit.llm.proposals import Thresholds

    proposals = ruleset.proposals
    return LLMRun(
        adapter=adapter,
        budget=CharBudget(proposals.max_chars_per_run),
        thresholds=Thresholds.from_mapping(proposals.as_dict()),
        cache=AnswerCache(repo.store.git_dir / "dreamgit" / "llm-cache"),
        overrides=repo.list_dir(layout.PROMPTS),
    )
