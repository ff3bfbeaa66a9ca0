"""Every known memory's text as :func:`~dreamgit.dream.gather.compact.normalized` gives it,
read in one pass over all of them.

Gathering tells a statement said again from a new one by its normalized form (lower-case
words, the leading subject left out), and every known memory's form is asked once a run:
at 100,000 memories, one call per text was a quarter of a second. Joined into one string,
the texts are lowered and their non-word characters turned to spaces by C loops
(``str.lower``, ``bytes.translate``); a text that starts with a subject, or holds the
joining character, is read on its own. The same forms either way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from dreamgit.dream.gather.compact import normalized

__all__ = ["normal_forms"]

#: Between two texts in the joined string (a text that holds it is read on its own).
_JOIN = "\x00"
#: Each byte as itself when it is part of a word (a-z, 0-9) or joins two texts, else a space.
_WORD_BYTES = bytes(
    c if (0x61 <= c <= 0x7A or 0x30 <= c <= 0x39 or c == 0) else 0x20 for c in range(256)
)


def normal_forms(texts: Sequence[str], subjects: Iterable[str | None] = ()) -> set[str]:
    """The set of ``normalized(text, subjects)`` over ``texts``."""
    if not texts:
        return set()
    subjects = tuple(subjects)
    leads = tuple(s for s in ("The user", *subjects) if s)
    joined = _JOIN.join(texts)
    if joined.count(_JOIN) != max(len(texts) - 1, 0) or any(
        joined.startswith(lead) or f"{_JOIN}{lead}" in joined for lead in leads
    ):  # some text is read on its own: only those are
        alone = [t for t in texts if t.startswith(leads) or _JOIN in t]
        skip = set(alone)
        joined = _JOIN.join(t for t in texts if t not in skip)
        forms = {normalized(t, subjects) for t in alone}
        if len(skip) == len(set(texts)):
            return forms
    else:
        forms = set()
    # lower() maps each character alone (only a final sigma looks around, and it lowers
    # to no word character); what is not ASCII is no word character either
    words = joined.lower().encode("ascii", "replace").translate(_WORD_BYTES).decode("ascii")
    forms.update(" ".join(part.split()) for part in words.split(_JOIN))
    return forms
