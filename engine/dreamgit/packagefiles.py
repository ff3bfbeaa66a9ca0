"""The files bundled in one of dreamgit's packages (rules, the grammar), read cheaply.

``importlib.resources.files`` is the general way, but importing it (with the
``tempfile`` and ``shutil`` it pulls in) and its readers costs a prompt hook several
milliseconds at every prompt. A package installed as a folder, as pip and an editable
install leave it, is that folder: :func:`package_files` answers it as a ``Path``, which
reads the same files as the reader would; a package anywhere else (a zip) still goes
through ``importlib.resources``.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

__all__ = ["package_files"]


def package_files(package: str) -> Traversable:
    """The files of ``package`` (a dotted name): its folder, or what
    ``importlib.resources.files`` gives when it is not one folder on disk."""
    spec = importlib.import_module(package).__spec__
    places = list(spec.submodule_search_locations or ()) if spec is not None else []
    if len(places) == 1 and Path(places[0]).is_dir():
        return Path(places[0])
    from importlib.resources import files

    return files(package)
