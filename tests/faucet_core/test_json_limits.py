"""Limits on JSON text checked before parsing: depth, number length, lone surrogates."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core.json_limits import (
    MAX_JSON_DEPTH,
    MAX_NUMBER_CHARS,
    JsonLimitError,
    check_json,
    loads_limited,
)

DEPTH = f"the JSON nests arrays/objects more than {MAX_JSON_DEPTH} levels deep: flatten it"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        pytest.param("[" * 65 + "]" * 65, DEPTH, id="arrays-65"),
        pytest.param('{"a":' * 65 + "1" + "}" * 65, DEPTH, id="objects-65"),
        pytest.param("[" * 50_000, DEPTH, id="unclosed-50000"),
        pytest.param(
            "[" + "9" * 5000 + "]",
            "the JSON holds a number of 5000 characters; the limit is 100: send long numbers "
            "as strings",
            id="digits-5000",
        ),
        pytest.param(
            '{"a": -1.' + "5" * 99 + "}",
            "the JSON holds a number of 102 characters; the limit is 100: send long numbers "
            "as strings",
            id="float-102",
        ),
        pytest.param(
            '["ok", "x\\ud800"]',
            'the JSON string "x\\ud800" escapes a lone surrogate (\\ud800-\\udfff without its '
            "pair), which is not text: send valid UTF-16 pairs or UTF-8",
            id="lone-high",
        ),
        pytest.param(
            '"\\udc00\\ud800"',
            'the JSON string "\\udc00\\ud800" escapes a lone surrogate (\\ud800-\\udfff '
            "without its pair), which is not text: send valid UTF-16 pairs or UTF-8",
            id="reversed-pair",
        ),
    ],
)
def test_refused(text: str, error: str) -> None:
    with pytest.raises(JsonLimitError) as info:
        check_json(text)
    assert str(info.value) == error


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("[" * 64 + "]" * 64, id="depth-64"),
        pytest.param('["' + "[" * 1000 + '"]', id="brackets-inside-a-string"),
        pytest.param('{"id": "' + "9" * 5000 + '"}', id="digits-inside-a-string"),
        pytest.param("[" + "9" * 100 + "]", id="digits-100"),
        pytest.param('"\\ud83d\\ude00"', id="a-surrogate-pair"),
        pytest.param('"\\\\ud800"', id="an-escaped-backslash-not-a-surrogate"),
        pytest.param('"quote \\" then [[[["', id="escaped-quote"),
    ],
)
def test_accepted(text: str) -> None:
    assert check_json(text) is None  # it raises when it refuses
    json.loads(text)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_ordinary_json_passes_unchanged(value: object) -> None:
    text = json.dumps(value)
    assert len(text) < 100_000
    if all(len(t) <= MAX_NUMBER_CHARS for t in _numbers(value)):
        assert loads_limited(text) == value


def _numbers(value: object) -> list[str]:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return []
    if isinstance(value, (int, float)):
        return [json.dumps(value)]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v)]
    assert isinstance(value, dict)
    return [n for v in value.values() for n in _numbers(v)]
