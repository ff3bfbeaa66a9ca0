"""Test isolation: no developer's home, git config or clock reaches a test or its fixtures.

Also the knobs that keep the suite fast: ``short_lock_wait`` shortens how long a
writer waits on a stuck git lock (``$DREAMGIT_LOCK_WAIT``, in this process and in
the installed command it starts) for the tests that wait one out on purpose; the
user's cache folder (``$XDG_CACHE_HOME``: lark's parser tables, parsed rule files,
langid.py's unpacked model) is one per worker, not one per test, so that neither a test
nor each command it starts parses the bundled rules again (``empty_user_cache`` gives the
tests of that cache their own); ``templates`` makes a repository several end-to-end tests
start from once a worker and gives each test a copy (``clikit.RepositoryTemplates``).
Property tests take their example counts from a hypothesis profile: ``suite`` (50 a test)
unless ``--hypothesis-profile thorough`` (500) asks for the nightly depth.
``--cpu-durations N`` lists the tests that spent the most CPU, theirs and their
commands', which a busy machine does not inflate as it does ``--durations``. Bytecode
is kept even where ``$PYTHONDONTWRITEBYTECODE`` says not to (``pytest_configure``), and
the older sessions' temporary folders pytest removes go while the tests run, not after
the last one (``staletemp``). Each test's home and ``tmp_path`` are numbered by a counter
(``folderkit``), and each xdist worker imports its share of the test modules before
collecting (``workershare``), so a fresh checkout rewrites each module's asserts once,
not once a worker.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pygit2
import pytest
from hypothesis import HealthCheck, settings
from pygit2.enums import ConfigLevel

from clikit import RepositoryTemplates
from cpuspent import CpuSpent
from folderkit import FolderMaker
from staletemp import pytest_configure as remove_stale_temp
from workershare import import_share, worker_share

#: Examples a property test tries in the README's test command: each run draws new ones
#: (and replays any failure hypothesis keeps in ``.hypothesis/``), so the depth adds up over
#: runs. ``--hypothesis-profile thorough`` is the nightly's: more than any test ever asked
#: for on its own (400 at most).
settings.register_profile(
    "suite", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("suite")


def pytest_configure(config: pytest.Config) -> None:
    """Keep bytecode, in this process and in the commands the tests start, even where
    ``$PYTHONDONTWRITEBYTECODE`` is set: a process that may not keep it compiles every
    module it imports from source, each time (about 0.3 s more CPU for a ``dreamgit review``,
    more for a dream, and again after every change to the package, since nothing then
    writes the new bytecode); pytest's rewritten test modules are kept too. It goes to the
    ``__pycache__`` folders git ignores."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False
    shown = config.getoption("--cpu-durations")
    if shown is not None:
        config.pluginmanager.register(CpuSpent(shown), "cpuspent")
    remove_stale_temp(config)


def pytest_sessionstart(session: pytest.Session) -> None:
    """On an xdist worker collecting the whole folder, import this worker's share of the
    test modules first (``workershare``): on a fresh checkout each module's asserts are
    then rewritten by one worker, not by every worker."""
    share = worker_share(session.config)
    folder = Path(__file__).parent
    start = session.config.invocation_params.dir
    if share is not None and folder in {(start / arg).resolve() for arg in session.config.args}:
        import_share(folder, *share)


@pytest.fixture(scope="session")
def worker_user_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The cache folder the tests of one worker share: only dreamgit's caches live there,
    and deleting them changes no answer (``dreamgit.usercache``), so sharing it saves
    each test the cold start (about 0.4 s of CPU a test that runs the command)."""
    return tmp_path_factory.mktemp("user-cache")


@pytest.fixture(scope="session")
def worker_folders(tmp_path_factory: pytest.TempPathFactory) -> FolderMaker:
    """New folders for this worker's tests, numbered by a counter (``FolderMaker``)."""
    return FolderMaker(tmp_path_factory.mktemp("t"))


@pytest.fixture(scope="session")
def templates(tmp_path_factory: pytest.TempPathFactory) -> RepositoryTemplates:
    """Repositories made once a worker, copied for each test that starts from one."""
    return RepositoryTemplates(tmp_path_factory.mktemp("templates"))


#: What a developer's shell may hold that would change what dreamgit or git does.
_UNSET = (
    "DREAMGIT_REPO",
    "DREAMGIT_NOW",
    "DREAMGIT_LOCK_WAIT",
    "GIT_AUTHOR_NAME",
    "GIT_AUTHOR_EMAIL",
    "GIT_COMMITTER_NAME",
    "GIT_COMMITTER_EMAIL",
    "GIT_DIR",
    "GIT_WORK_TREE",
)


#: The git config levels libgit2 (pygit2) reads besides a repository's own.
_LEVELS = (ConfigLevel.GLOBAL, ConfigLevel.XDG, ConfigLevel.SYSTEM)


@contextmanager
def _isolated(home: Path, user_cache: Path) -> Iterator[None]:
    """HOME, XDG and git's config search paths at ``home`` (the cache at ``user_cache``;
    libgit2's search paths at a folder under ``home`` that is never made, so it finds no
    config there) until the block ends, when everything is put back.

    It runs around every test, so it sets ``os.environ`` itself rather than through a
    ``MonkeyPatch`` and makes no folder but ``home``: about 1 ms of CPU a test less."""
    values = {name: str(home) for name in ("HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME")}
    values |= {
        "XDG_CACHE_HOME": str(user_cache),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
    }
    saved_env = {name: os.environ.get(name) for name in (*values, *_UNSET)}
    saved_paths = {level: pygit2.settings.search_path[level] for level in _LEVELS}
    for name in _UNSET:
        os.environ.pop(name, None)
    os.environ.update(values)
    empty = str(home / "no-git-config")
    for level in _LEVELS:
        pygit2.settings.search_path[level] = empty
    try:
        yield
    finally:
        for level, path in saved_paths.items():
            pygit2.settings.search_path[level] = path
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@pytest.fixture(scope="module", autouse=True)
def isolated_module(worker_folders: FolderMaker, worker_user_cache: Path) -> Iterator[None]:
    """The isolation of ``isolated_environment`` for a module's own fixtures: a module-scoped
    fixture is made before any test's autouse fixture, so without this one it would see
    the developer's HOME and git config (and a test that ran before it could change what
    it saw)."""
    with _isolated(worker_folders.new("module-home"), worker_user_cache):
        yield


@pytest.fixture(autouse=True)
def isolated_environment(
    worker_folders: FolderMaker, isolated_module: None, worker_user_cache: Path
) -> Iterator[None]:
    """Point HOME, XDG and git's config search paths at empty folders of this test's own
    (the cache at the worker's own)."""
    with _isolated(worker_folders.new("home"), worker_user_cache):
        yield


@pytest.fixture
def tmp_path(request: pytest.FixtureRequest, worker_folders: FolderMaker) -> Path:
    """This test's own empty folder, named after the test as pytest names it, made in O(1)
    (``FolderMaker``) rather than by pytest's own ``tmp_path``, which lists the worker's
    whole temporary folder to number each one: late in a run that listing held thousands
    of entries and cost a few milliseconds a test."""
    return worker_folders.new(request.node.name)


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


# -- CPU time of each test ----------------------------------------------------------------
# Wall times say little on a machine other jobs share; the CPU a test spends, its own and
# that of the commands it waited for, is the same however busy the machine is. Counted only
# when ``--cpu-durations`` asks (``cpuspent``): six ``getrusage`` calls a test otherwise.


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--cpu-durations",
        type=int,
        default=None,
        metavar="N",
        help="show the N tests that spent the most CPU (theirs and their processes'), "
        "setup, call and teardown each",
    )
