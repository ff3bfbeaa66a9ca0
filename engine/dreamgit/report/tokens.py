"""A token estimate for text an agent loads: MEMORY.md and each recall answer.

The rule, documented so a reader can redo it: one token per four bytes of UTF-8,
rounded up. English prose runs close to four characters a token in the common
byte-pair tokenizers; text in scripts that take three bytes a character (Chinese,
Japanese) comes out near one token a character, as those tokenizers give. It is an
estimate for budgets and trends, not a count any one model bills; no tokenizer
library is loaded, so a report costs no model files and no network.
"""

from __future__ import annotations

__all__ = ["BYTES_PER_TOKEN", "estimate_tokens"]

#: UTF-8 bytes per token in the estimate.
BYTES_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    """About how many tokens ``text`` costs a model: UTF-8 bytes / 4, rounded up."""
    size = len(text.encode("utf-8"))
    return -(-size // BYTES_PER_TOKEN)
