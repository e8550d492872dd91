"""Column names as a profile keeps them: UTF-8 writable text, each once.

Shared by the in-memory profiler and the SQL pushdown's column choice; no heavy imports,
so the pushdown path can use it without pyarrow.
"""

from __future__ import annotations

from faucet_core.errors import ProfilingInputError

__all__ = ["is_utf8", "scrub_text", "unique_name"]


def is_utf8(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (it has no lone surrogate)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def scrub_text(text: str) -> str:
    """``text`` with each lone surrogate (a code point UTF-8 cannot hold) as U+FFFD; a
    surrogate pair written as two code points becomes the character it encodes."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def unique_name(name: str, seen: set[str]) -> str:
    """``name`` made UTF-8 writable and added to ``seen``; a name already there (the
    input holds the column twice) is an error that says how to fix it."""
    if not is_utf8(name):
        name = scrub_text(name)
    if name in seen:
        raise ProfilingInputError(f"column {name!r} appears twice in the input; rename one of them")
    seen.add(name)
    return name
