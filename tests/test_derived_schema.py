"""The persisted recall index names the code that tokenized it, so a change cannot go unseen.

``derived.sqlite3`` keeps each file's postings until the file changes, and a file that
leaves the tree has its postings deleted by the terms its record gives now. Postings
made by another tokenizer would then stay behind (wrong answers from a cache, which a
cache must never give) unless the database is rebuilt, which happens when ``SCHEMA``
changes. This test pins what the index makes of a fixed set of texts to the schema
number: change the tokenizer, stop words or ``said_key`` and it fails until ``SCHEMA`` is
bumped and the digest below is updated with it.
"""

from __future__ import annotations

import hashlib
import json

from dreamgit.store import derived
from dreamgit.store.derived import memory_terms, said_key

#: Texts written for this test: words, numbers, versions, paths, accents, other scripts.
SAMPLES = (
    "The user prefers uv over pip; pip broke the lockfile twice.",
    "Deploys run on Fridays after 16:00 (UTC+1), never on the 24th or 31st.",
    "Zoë's café in Łódź serves crêpes — naïve façade, 3½ stars!",
    "Use Python 3.12.1 and Node v20.11; see docs/setup.md and C:\\tools\\bin.",
    "以后默认用pnpm，测试服务器的端口是8080。",
    "Der Server läuft jetzt auf Port 5433, nicht mehr auf 5432.",
    "e-mail, re-run, don't, it's, O'Brien, #tags, @handles, user_name, CamelCase",
    "",
)
#: The schema number and what the index made of ``SAMPLES`` under it.
RECORDED = ("4", "0b62caf03f7251501ffee579bb9dd254096f94d132de56364cd0e9d9ff9fad5f")


def _digest() -> str:
    made = [(memory_terms(text, ("tag-one", "lang-zh")), said_key(text)) for text in SAMPLES]
    return hashlib.sha256(json.dumps(made, ensure_ascii=False).encode()).hexdigest()


def test_the_index_terms_of_fixed_texts_belong_to_the_schema_number() -> None:
    """A new tokenizer without a new schema number would leave old postings in old
    databases: bump ``derived.SCHEMA`` and record the new digest under it."""
    assert (derived.SCHEMA, _digest()) == RECORDED, (
        "the recall index's terms or schema changed: if the terms did, bump SCHEMA in "
        f"store/derived.py; then record ({derived.SCHEMA!r}, {_digest()!r}) here"
    )
