"""The ``dreamgit`` command line: click over the library.

Each ``cmd_*`` module parses its arguments, calls the library and renders the
result. The root group in ``app.py`` names every command and its module, loads
a module only when one of its commands runs, and is the one place where
exceptions become exit codes. ``dreamgit --version`` alone is answered here,
before click is imported (half the cost of that process), in click's words, and so
are a Claude Code hook's command line (``cli/hookrun.py``), a plain ``recall`` that the
derived store answers (``cli/recallrun.py``), a plain ``status`` (``cli/statusrun.py``)
and a plain ``add`` (``cli/addrun.py``).

May import: everything in the package; nothing imports it (``__main__`` and the
console script aside).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dreamgit.cli.app import cli

__all__ = ["cli", "main"]

#: New objects per pass of the collector over the youngest generation during a plain add.
_YOUNG_THRESHOLD = 50_000


def main(argv: list[str] | None = None) -> None:
    """Run the command line and exit with its code."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--version"]:
        from dreamgit.version import __version__

        # What click.version_option prints, word for word (tests/test_cli_startup.py).
        print(f"dreamgit, version {__version__}")
        return
    if "recall" in args:  # an agent's recall, at every prompt: no click when it need not
        from dreamgit.cli.recallrun import recall_call, run_recall

        asked = recall_call(args)
        if asked is not None and run_recall(asked):
            return
    if "hook" in args:  # a Claude Code hook, at every prompt: no click when it need not
        from dreamgit.cli.hookrun import hook_call, run_hook

        call = hook_call(args)
        if call is not None:
            run_hook(call)
            return
    if "status" in args:  # asked often, by agents too: no click when it need not
        from dreamgit.cli.statusrun import run_status, status_call

        plain = status_call(args)
        if plain is not None and run_status(plain):
            _ending()
            return
    if "add" in args:  # an agent adds as it works: no click when it need not
        with _rare_collections():
            from dreamgit.cli.addrun import add_call, run_add

            adding = add_call(args)
            if adding is not None and run_add(adding):
                _ending()
                return
    from dreamgit.cli.app import main as run

    run(argv)


def _ending() -> None:
    """A plain command answered, and the process ends: every object alive is put out of
    the collector's reach (``gc.freeze``).

    Python collects every generation as it finalizes, and a plain add's imports and work
    leave ~57,000 objects the collector tracks (a status ~16,000), walked again by that
    collection and by the youngest generation's pass when :func:`_rare_collections` gives
    its threshold back: with them frozen, an add in a work tree at 10,000 memories costs
    ~25 ms less CPU. They are still freed as the modules are cleared; only garbage held in
    cycles is left to the process's end, which frees it.
    """
    gc.freeze()


@contextmanager
def _rare_collections() -> Iterator[None]:
    """Python's collector held to a pass per :data:`_YOUNG_THRESHOLD` new objects, as it
    was after.

    A plain add's imports and work leave ~20,000 objects more than they free, nearly all
    of them alive until it ends (modules, classes, the memory and its commit): at the
    default threshold (700) the collector made ~30 passes over the youngest objects and 3
    over the middle generation, ~7 ms of an add's ~170, and freed ~400 objects. A cycle
    dropped meanwhile is freed at the next pass, or when the process ends.
    """
    young, middle, oldest = gc.get_threshold()
    gc.set_threshold(max(young, _YOUNG_THRESHOLD), middle, oldest)
    try:
        yield
    finally:
        gc.set_threshold(young, middle, oldest)


def __getattr__(name: str) -> Any:
    # The click group, imported on first use so that --version never loads click.
    if name == "cli":
        from dreamgit.cli.app import cli

        return cli
    raise AttributeError(f"module 'dreamgit.cli' has no attribute {name!r}")
