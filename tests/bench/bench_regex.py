"""Benchmark of `matches`: the slowest search of hostile patterns on hostile texts.

Run by hand: ``python tests/bench/bench_regex.py``. Rule patterns run on RE2, so
every search is linear in the (bounded) text: the worst case should stay well
under a millisecond, including patterns that take exponential time under ``re``.
"""

from __future__ import annotations

import time

from dreamgit.dsl.regexsafe import MAX_INPUT, compile_pattern, search

PATTERNS = [
    "(a+)+$",
    "(a|aa)+$",
    ".*a.*b",
    ".*\\d+x",
    "(?i)k*\u212ak*\u212ak*\u212ax",
    "(?i)(password|secret|token)\\s*[:=]",
    "[^,]*,[^,]*,.*x",
]
TEXTS = ["a" * 5000, "a" * (MAX_INPUT - 1) + "!", "ab" * 2500, "1" * 5000, "k" * 5000]


def main() -> None:
    """Print the slowest search per pattern."""
    for pattern in PATTERNS:
        compiled = compile_pattern(pattern)
        worst = 0.0
        for text in TEXTS:
            start = time.perf_counter()
            for _ in range(100):
                search(compiled, text)
            worst = max(worst, (time.perf_counter() - start) / 100)
        print(f"{pattern!r:45} worst search {worst * 1e6:8.1f} µs")


if __name__ == "__main__":
    main()
