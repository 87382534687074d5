"""Walking a whole history a chunk at a time: SQLite refuses IN lists of about a thousand ids, and
a match brings up to 4 seats and dozens of hands, so prefetches and bulk reads go by chunks; and a
download is sent in a few large pieces."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from typing import TypeVar

T = TypeVar("T")

# Matches per prefetch when walking a whole history.
PREFETCH_CHUNK = 100


def chunked(items: Iterable[T], size: int | None = None) -> Iterator[list[T]]:
    """`items` in lists of `size` (PREFETCH_CHUNK), the last one shorter."""
    size = size or PREFETCH_CHUNK
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def batched_text(pieces: Iterable[str], size: int = 64 * 1024) -> Iterator[str]:
    """`pieces` joined into pieces of at least `size` characters (the last one may be shorter),
    so that a download is sent in a few large writes instead of one per match or row."""
    pending: list[str] = []
    length = 0
    for piece in pieces:
        pending.append(piece)
        length += len(piece)
        if length >= size:
            yield "".join(pending)
            pending, length = [], 0
    if pending:
        yield "".join(pending)
