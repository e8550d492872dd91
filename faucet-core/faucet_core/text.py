"""Text shortened for a message: one rule, whichever mark ends a cut text."""

from __future__ import annotations

__all__ = ["clip"]


def clip(text: str, limit: int, mark: str = "...") -> str:
    """``text`` when it holds at most ``limit`` characters, else its start and ``mark``,
    ``limit`` characters in all."""
    return text if len(text) <= limit else text[: limit - len(mark)] + mark
