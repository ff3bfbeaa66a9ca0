"""langid.py's model unpacked once into the user's cache: the same classifier as from the
packed file, and any trouble with the kept file costs only the unpacking."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from dreamgit.dream.gather.langid_model import identifier
from dreamgit.dream.gather.language_guess import LATIN_LANGUAGES

py3langid = pytest.importorskip("py3langid.langid")

SENTENCES = (
    "Ich trinke jeden Morgen Tee mit Honig.",
    "Nous partons en vacances la semaine prochaine.",
    "Eu moro em Porto desde o ano passado.",
    "We keep the release notes in the wiki.",
    "Ze werkt sinds maart bij een bank in Utrecht.",
)


def _answers(found: object) -> list[tuple[str, float]]:
    return [found.classify(text) for text in SENTENCES]  # type: ignore[attr-defined]


@functools.cache
def _packed_answers() -> list[tuple[str, float]]:
    """What a classifier read from the packed file answers (read once for the module)."""
    packed = py3langid.LanguageIdentifier.from_model_file(py3langid.MODEL_FILE, norm_probs=True)
    packed.set_languages(list(LATIN_LANGUAGES))
    return _answers(packed)


def _kept(cache: Path) -> list[Path]:
    return sorted((cache / "dreamgit").glob("langid-*.npz"))


def test_the_unpacked_model_classifies_as_the_packed_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = identifier(LATIN_LANGUAGES)  # unpacks into the cache
    [kept] = _kept(tmp_path)
    again = identifier(LATIN_LANGUAGES)  # reads the kept file
    assert _answers(first) == _answers(again) == _packed_answers()
    assert kept.stat().st_size > 10 * 1024 * 1024  # the arrays, not the packed 4.5 MB


def test_a_damaged_kept_model_costs_only_the_unpacking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    identifier(LATIN_LANGUAGES)
    [kept] = _kept(tmp_path)
    whole = kept.stat().st_size
    kept.write_bytes(kept.read_bytes()[: 1 << 20])  # cut short, as by a full disk
    assert _answers(identifier(LATIN_LANGUAGES)) == _packed_answers()
    assert kept.stat().st_size == whole  # unpacked again for the next process


def test_a_home_that_cannot_be_written_unpacks_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would be\n", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert _answers(identifier(LATIN_LANGUAGES)) == _packed_answers()
    assert not list(tmp_path.rglob("*.npz")) and not list(tmp_path.rglob("*.tmp"))
