"""Test isolation: no developer's home, git config or clock leaks into a test.

Also the knobs that keep the suite fast: ``short_lock_wait`` shortens how long a
writer waits on a stuck git lock (``$DREAMGIT_LOCK_WAIT``, in this process and in
the installed command it starts) for the tests that wait one out on purpose; the
user's cache folder (``$XDG_CACHE_HOME``: lark's parser tables, parsed rule files) is
one per worker, not one per test, so that neither a test nor each command it starts
parses the bundled rules again (``empty_user_cache`` gives the tests of that cache
their own); ``templates`` makes a repository several end-to-end tests start from once
a worker and gives each test a copy (``clikit.RepositoryTemplates``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygit2
import pytest
from pygit2.enums import ConfigLevel

from clikit import RepositoryTemplates


@pytest.fixture(scope="session")
def worker_user_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The cache folder the tests of one worker share: only dreamgit's caches live there,
    and deleting them changes no answer (``dreamgit.usercache``), so sharing it saves
    each test the cold start (about 0.4 s of CPU a test that runs the command)."""
    return tmp_path_factory.mktemp("user-cache")


@pytest.fixture(scope="session")
def templates(tmp_path_factory: pytest.TempPathFactory) -> RepositoryTemplates:
    """Repositories made once a worker, copied for each test that starts from one."""
    return RepositoryTemplates(tmp_path_factory.mktemp("templates"))


@pytest.fixture(autouse=True)
def isolated_environment(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    worker_user_cache: Path,
) -> Iterator[None]:
    """Point HOME, XDG and git's config search paths at empty folders (the cache at the
    worker's own)."""
    home = tmp_path_factory.mktemp("home")
    for name in ("HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(worker_user_cache))
    for name in (
        "DREAMGIT_REPO",
        "DREAMGIT_NOW",
        "DREAMGIT_LOCK_WAIT",
        "GIT_AUTHOR_NAME",
        "GIT_AUTHOR_EMAIL",
        "GIT_COMMITTER_NAME",
        "GIT_COMMITTER_EMAIL",
        "GIT_DIR",
        "GIT_WORK_TREE",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    empty = Path(home) / "empty-git-config"
    empty.mkdir()
    saved = {}
    for level in (ConfigLevel.GLOBAL, ConfigLevel.XDG, ConfigLevel.SYSTEM):
        saved[level] = pygit2.settings.search_path[level]
        pygit2.settings.search_path[level] = str(empty)
    try:
        yield
    finally:
        for level, value in saved.items():
            pygit2.settings.search_path[level] = value


#: The wait on a stuck git lock in the tests that sit one out (the default is 11 s).
SHORT_LOCK_WAIT = "0.3"


@pytest.fixture
def short_lock_wait(monkeypatch: pytest.MonkeyPatch) -> str:
    """Writers here and in started commands give up on a stuck git lock after 0.3 s."""
    monkeypatch.setenv("DREAMGIT_LOCK_WAIT", SHORT_LOCK_WAIT)
    return SHORT_LOCK_WAIT


@pytest.fixture
def empty_user_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """A cache folder of this test's own, empty, for the tests of what is cached there."""
    folder = tmp_path_factory.mktemp("empty-cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder
