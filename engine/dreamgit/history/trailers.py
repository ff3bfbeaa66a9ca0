"""Reading the ``Dream-*`` trailers git keeps at the end of every dreamgit commit message."""

from __future__ import annotations

__all__ = ["parse_trailers"]


def parse_trailers(message: str) -> dict[str, str]:
    """The ``Dream-*`` trailers of a commit message (last paragraph), by name."""
    paragraphs = message.strip().split("\n\n")
    found = {}
    for line in paragraphs[-1].splitlines() if len(paragraphs) > 1 else []:
        name, sep, value = line.partition(": ")
        if sep and name.startswith("Dream-"):
            found[name] = value.strip()
    return found
