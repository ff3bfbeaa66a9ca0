"""langid.py's classifier, its model unpacked once per machine instead of once per process.

py3langid ships its model xz-compressed (4.5 MB); unpacking it costs ~0.65 s of CPU in
every process that guesses a language, which is every dream over a short session. The
unpacked arrays (a plain ``.npz``, ~68 MB, no pickles) are kept in the user's cache folder
(:mod:`dreamgit.usercache`), named for py3langid's version and the packed model's size,
and read back in ~0.06 s. Like everything in that folder it is a cache: a missing, partial,
foreign or unreadable file, or a home that cannot be written, only costs the unpacking,
and the classifier built either way is the same (a test compares their answers).
"""

from __future__ import annotations

import lzma
import os
import shutil
from pathlib import Path
from typing import Any

from dreamgit.usercache import user_cache_folder

__all__ = ["identifier"]

#: The arrays of py3langid's model file, by the names its ``.npz`` gives them.
_ARRAYS = ("ptc", "pc", "classes", "nextmove", "nextmove_row", "out_feat")


def identifier(languages: tuple[str, ...]) -> Any:
    """langid.py's classifier over ``languages``, probabilities normalised; None when the
    ``languages`` extra is not installed."""
    try:
        import py3langid
        from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier
    except ImportError:
        return None
    packed = Path(MODEL_DIR) / MODEL_FILE
    found = _from_unpacked(packed, str(py3langid.__version__), LanguageIdentifier)
    if found is None:
        found = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    found.set_languages(list(languages))
    return found


def _from_unpacked(packed: Path, version: str, kind: Any) -> Any:
    """The classifier from the unpacked model in the user's cache (unpacked there first
    when missing or unreadable), or None when that cannot be done: the caller unpacks in
    memory."""
    folder = user_cache_folder()
    if folder is None:
        return None
    kept = folder / f"langid-{version}-{packed.stat().st_size}.npz"
    for _ in range(2):
        try:
            if not kept.is_file():
                _unpack(packed, kept)
            return _read(kept, kind)
        except Exception:  # a cache: a damaged file is unpacked again, once
            kept.unlink(missing_ok=True)
    return None


def _unpack(packed: Path, kept: Path) -> None:
    """Unpack ``packed`` into ``kept``, atomically (a half-written file is never read)."""
    tmp = kept.with_name(f"{kept.name}.{os.getpid()}.tmp")
    try:
        with lzma.open(packed) as src, tmp.open("wb") as dst:
            shutil.copyfileobj(src, dst, length=1 << 20)
        os.replace(tmp, kept)
    finally:
        tmp.unlink(missing_ok=True)


def _read(kept: Path, kind: Any) -> Any:
    """The classifier built from the unpacked arrays, as py3langid builds it from its
    packed file (its own array conversion, so both give the same tables)."""
    import numpy as np
    from py3langid.modelio import _to_array

    with np.load(kept, allow_pickle=False) as data:
        ptc, pc, classes, nextmove, row, out = (data[name] for name in _ARRAYS)
        return kind(
            np.asarray(ptc),
            np.asarray(pc),
            classes.tolist(),
            _to_array(nextmove),
            out.tolist(),
            norm_probs=True,
            tk_row=_to_array(row),
        )
