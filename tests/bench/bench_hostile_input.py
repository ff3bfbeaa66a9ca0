"""Benchmark of hostile input: five megabytes of adversarial transcript through the extractor.

Run by hand: ``python tests/bench/bench_hostile_input.py``. Work per sentence is
bounded, so each five-megabyte text should take seconds at most, not minutes
(target: under 15 s each on a shared 2-core machine).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

from dreamgit.dream.gather.extract import extract_candidates

TEXTS = {
    "one-line": "x" * 5_000_000,
    "i-i-i": "I " * 2_500_000,
    "long-sentences": ("I prefer " + "a" * 390 + ". ") * 12_500,
    "mixed": "\n".join(
        f"User: I use Tool{i} and prefer option{i} over other{i}." for i in range(2_000)
    )
    + "\nUser: "
    + " ".join(f"lorem ipsum {i} dolor." for i in range(250_000)),
    # One turn of many short paragraphs: the turn's language is detected once, not
    # once a paragraph (that was quadratic).
    "short-paragraphs": "User: " + "\n\n".join(f"Ok bien {i}." for i in range(20_000)),
    # One turn of short sentences no detector is sure of (1.2 MB), so langid.py is asked
    # about the whole turn without its names, and each sentence is weighed on its own:
    # reading all that lay before each word was quadratic (a fifth of this took 40 s).
    "short-sentences": "User: " + " ".join(f"lorem ipsum {i} dolor." for i in range(50_000)),
}


def main() -> None:
    """Print the time each hostile text takes."""
    for name, text in TEXTS.items():
        start = time.perf_counter()
        found = extract_candidates(
            text, session_id="s-1", created=datetime(2026, 11, 20, tzinfo=UTC)
        )
        print(f"{name:15} {time.perf_counter() - start:6.2f} s  {len(found)} candidates")


if __name__ == "__main__":
    main()
