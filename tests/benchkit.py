"""The scripts under ``tests/bench/`` loaded as modules, for the tests of their parts.

A bench is a script, not a package module: it is loaded from its file once per process,
with its folder on ``sys.path`` so that what it imports from beside it (the corpus
generator, the scorer's helpers) is found as when it runs."""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH_DIR = Path(__file__).parent / "bench"


@functools.cache
def load_bench(name: str) -> ModuleType:
    """The bench script ``tests/bench/<name>.py`` as a module."""
    if str(BENCH_DIR) not in sys.path:
        sys.path.insert(0, str(BENCH_DIR))
    spec = importlib.util.spec_from_file_location(name, BENCH_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
