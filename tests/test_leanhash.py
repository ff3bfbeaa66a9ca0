"""The kernel's hashlib-free SHA-1 and SHA-256 give hashlib's digests."""

from __future__ import annotations

import hashlib

import pytest

from dreamgit.ids import memory_id
from dreamgit.leanhash import sha1, sha256

_INPUTS = [b"", b"blob 0\0", "Prefers tea — 茶 — \U0001f375".encode(), bytes(range(256)) * 300]


@pytest.mark.parametrize("data", _INPUTS, ids=["empty", "header", "unicode", "large"])
def test_each_digest_is_hashlibs(data: bytes) -> None:
    assert sha1(data).hexdigest() == hashlib.sha1(data).hexdigest()
    assert sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()


def test_a_digest_fed_in_pieces_is_the_whole_ones() -> None:
    whole = b"".join(_INPUTS)
    pieces = sha256()
    for data in _INPUTS:
        pieces.update(data)
    assert pieces.digest() == hashlib.sha256(whole).digest()


def test_a_memory_id_is_the_sha256_of_its_parts_joined() -> None:
    import base64

    digest = hashlib.sha256("\x1f".join(["agent", "Prefers tea"]).encode()).digest()
    assert memory_id("agent", "Prefers tea") == "m-" + base64.b32encode(digest).decode().lower()[:8]
