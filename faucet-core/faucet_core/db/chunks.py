"""Long ``IN (...)`` lists, sent in chunks small enough for every supported database."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar

__all__ = ["CHUNK", "chunks"]

T = TypeVar("T")

CHUNK = 900
"""Values per ``IN (...)`` list: below SQLite's oldest limit of 999 bound variables per
statement (SQLite before 3.32), leaving room for the statement's few other parameters.
PostgreSQL has no such limit that matters here."""


def chunks(items: Sequence[T], size: int = CHUNK) -> Iterator[Sequence[T]]:
    """``items`` in consecutive slices of at most ``size``."""
    for start in range(0, len(items), size):
        yield items[start : start + size]
