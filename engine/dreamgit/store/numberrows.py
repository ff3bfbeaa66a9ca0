"""Whole numbers as a SQLite row's value: unsigned 32-bit, little-endian.

The kept indexes (recall's postings, gathering's word postings) hold each row as a run of
numbers. A git directory may be copied to a machine of the other byte order, so a row is
little-endian wherever it was written, and swapped on a machine that is not.
"""

from __future__ import annotations

import sqlite3
import sys
from array import array

__all__ = ["TYPE", "packed", "unpacked"]

#: Unsigned ints of 32 bits ("I" is 4 bytes wherever CPython runs on 32 or 64 bits).
TYPE = "I"
#: Whether the machine's order is not the rows' (little-endian): each row is swapped then.
_SWAP = sys.byteorder != "little"


def unpacked(data: object, *, group: int = 1) -> array[int]:
    """A row's numbers; sqlite3.DatabaseError when its value is not whole groups of
    ``group`` numbers (the callers take it as a damaged database, as sqlite's own errors)."""
    found = array(TYPE)
    if not isinstance(data, bytes) or len(data) % (group * found.itemsize):
        raise sqlite3.DatabaseError("a row that is not whole numbers")
    found.frombytes(data)
    if _SWAP:
        found.byteswap()
    return found


def packed(numbers: array[int]) -> bytes:
    """A row's value: ``numbers`` little-endian."""
    if _SWAP:
        numbers = array(TYPE, numbers)
        numbers.byteswap()
    return numbers.tobytes()
