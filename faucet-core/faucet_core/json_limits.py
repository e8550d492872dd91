"""Limits on untrusted JSON text, checked before it is parsed into Python objects.

Python's :mod:`json` recurses once per nesting level (a deep enough document raises
``RecursionError`` far from the caller), turns a long digit run into an ``int`` (past
4,300 digits ``int()`` raises ``ValueError``; below that it still costs quadratic time),
and accepts escaped lone surrogates (``"\\ud800"``) that no UTF-8 encoder, database or
JSON response can write back. :func:`check_json` scans the text with a few regular
expressions and one pass over its brackets, and raises :class:`JsonLimitError` naming
the rule; :func:`loads_limited` checks, then parses.
"""

from __future__ import annotations

import json
import re
from typing import Any

from faucet_core.errors import FaucetError

__all__ = [
    "MAX_JSON_DEPTH",
    "MAX_NUMBER_CHARS",
    "JsonLimitError",
    "check_json",
    "loads_limited",
]

MAX_JSON_DEPTH = 64
"""Arrays and objects nested deeper than this are refused."""
MAX_NUMBER_CHARS = 100
"""A number literal longer than this (digits, sign, point, exponent) is refused."""

# A JSON string literal, as the unrolled loop "normal* (escape normal*)*": the parts cannot
# overlap, so a string left open backtracks in linear time (no possessive quantifiers, which
# Python 3.10 lacks).
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
# ASCII outside strings -> "0" for a character of a number literal, " " for any other
_NUMBER_CHARS = str.maketrans(
    {chr(c): "0" if chr(c) in "0123456789.eE+-" else " " for c in range(128)}
)
# ASCII -> itself for a bracket, deleted otherwise
_BRACKETS_ONLY = str.maketrans({chr(c): None for c in range(128) if chr(c) not in "[]{}"})
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL)


class JsonLimitError(FaucetError, ValueError):
    """JSON text breaks a size or shape limit; the message names the limit."""


def _is_high(code: int) -> bool:
    return 0xD800 <= code <= 0xDBFF


def _is_low(code: int) -> bool:
    return 0xDC00 <= code <= 0xDFFF


def _lone_escape(token: str) -> bool:
    """True when the JSON string literal ``token`` escapes a surrogate with no partner."""
    pending_high = -1  # end offset of an unpaired high surrogate escape
    for match in _ESCAPE.finditer(token):
        code = int(match.group(1), 16) if match.group(1) else -1
        if pending_high >= 0:
            if match.start() == pending_high and _is_low(code):
                pending_high = -1
                continue
            return True
        if _is_high(code):
            pending_high = match.end()
        elif _is_low(code):
            return True
    return pending_high >= 0


def check_json(
    text: str,
    *,
    max_depth: int = MAX_JSON_DEPTH,
    max_number: int = MAX_NUMBER_CHARS,
) -> None:
    """Raise :class:`JsonLimitError` when ``text`` nests deeper than ``max_depth``, holds a
    number literal longer than ``max_number`` characters, or escapes a lone surrogate.

    Text that is not JSON at all passes or fails here as it may: the parser reports it.
    """
    if _SURROGATE_ESCAPE.search(text) is not None:
        for match in _STRING.finditer(text):
            token = match.group()
            if "\\u" in token and _lone_escape(token):
                shown = token if len(token) <= 40 else token[:37] + '..."'
                raise JsonLimitError(
                    f"the JSON string {shown} escapes a lone surrogate (\\ud800-\\udfff "
                    "without its pair), which is not text: send valid UTF-16 pairs or UTF-8"
                )
    outside = _STRING.sub('""', text)
    numbers = outside.translate(_NUMBER_CHARS)
    start = numbers.find("0" * (max_number + 1))
    if start >= 0:
        end = start
        while end < len(numbers) and numbers[end] == "0":
            end += 1
        raise JsonLimitError(
            f"the JSON holds a number of {end - start} characters; the limit is "
            f"{max_number}: send long numbers as strings"
        )
    brackets = outside.translate(_BRACKETS_ONLY)
    if not brackets.isascii():  # text outside strings that is not JSON: let the parser say
        brackets = _NOT_BRACKET.sub("", brackets)
    if len(brackets) <= max_depth:
        return
    depth = 0
    for char in brackets:
        if char in "[{":
            depth += 1
            if depth > max_depth:
                raise JsonLimitError(
                    f"the JSON nests arrays/objects more than {max_depth} levels deep: flatten it"
                )
        else:
            depth -= 1


def loads_limited(
    text: str,
    *,
    max_depth: int = MAX_JSON_DEPTH,
    max_number: int = MAX_NUMBER_CHARS,
) -> Any:
    """:func:`check_json`, then :func:`json.loads` (which may raise ``JSONDecodeError``)."""
    check_json(text, max_depth=max_depth, max_number=max_number)
    return json.loads(text)
