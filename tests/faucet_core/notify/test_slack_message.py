"""Slack Block Kit and text for drift notifications: fixtures compared exactly, and limits."""

from __future__ import annotations

import pathlib

import pytest

from faucet_core.config import OnDrift
from faucet_core.notify import (
    MAX_BLOCKS,
    MAX_CONTEXT_ELEMENTS,
    MAX_FIELD_CHARS,
    MAX_FIELDS,
    MAX_HEADER_CHARS,
    MAX_SECTION_CHARS,
    MAX_TEXT_CHARS,
    CheckSeverity,
    NotifiedFinding,
    plain_text,
    slack_blocks,
    slack_text,
)
from faucet_core.notify.slack_message import clip, mrkdwn_escape
from tests.faucet_core.notify.builders import (
    floor_change,
    mean_shift,
    new_value,
    notification,
    null_rate,
    psi,
    rescale,
    type_mix,
)
from tests.faucet_core.notify.golden import assert_fixture

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
RUN_URL = "https://dagster.example.com/runs/0199a3c4-5e6f-7a8b-9c0d-1e2f3a4b5c6d"

CASES = {
    "null_rate_with_run_link": notification(null_rate(), total=3, run_url=RUN_URL),
    "mean_log_scale": notification(mean_shift(), first_index=1, total=3),
    "new_value_in_partition": notification(NotifiedFinding.of(new_value(), partition="2026-09-24")),
    "type_mix": notification(type_mix()),
    "psi": notification(psi()),
    "rescale": notification(rescale()),
    "floor_on_fail": notification(
        floor_change(), on_drift=OnDrift.FAIL, severity=CheckSeverity.ERROR
    ),
    "classified_new_value": notification(
        NotifiedFinding.of(new_value("email", "ann@example.com"), classified=True)
    ),
    "grouped": notification(
        null_rate(),
        NotifiedFinding.of(new_value(), partition="eu"),
        type_mix(),
        run_url=RUN_URL,
    ),
    "grouped_overflow": notification(*[null_rate(f"c{i:03}") for i in range(120)]),
    "grouped_rest": notification(null_rate("b"), null_rate("c"), first_index=1, total=3),
}


def _blocks_within_limits(blocks: list[dict]) -> None:
    assert len(blocks) <= MAX_BLOCKS
    for block in blocks:
        if block["type"] == "header":
            assert len(block["text"]["text"]) <= MAX_HEADER_CHARS
        elif block["type"] == "section":
            if "text" in block:
                assert len(block["text"]["text"]) <= MAX_SECTION_CHARS
            for f in block.get("fields", []):
                assert len(f["text"]) <= MAX_FIELD_CHARS
            assert len(block.get("fields", [])) <= MAX_FIELDS
        elif block["type"] == "context":
            assert len(block["elements"]) <= MAX_CONTEXT_ELEMENTS
            for e in block["elements"]:
                assert len(e["text"]) <= MAX_SECTION_CHARS


@pytest.mark.parametrize("name", sorted(CASES), ids=sorted(CASES))
def test_default_message_matches_its_fixture(name):
    n = CASES[name]
    blocks = slack_blocks(n)
    _blocks_within_limits(blocks)
    assert_fixture(FIXTURES / f"slack_{name}.json", {"text": slack_text(n), "blocks": blocks})


def test_grouped_overflow_says_how_many_more():
    blocks = slack_blocks(CASES["grouped_overflow"])
    assert len(blocks) == MAX_BLOCKS
    assert blocks[-1]["elements"][0]["text"] == (
        "… and 73 more finding(s): see the check evaluation in Dagster"
    )
    assert sum(1 for b in blocks if b["type"] == "section") == MAX_BLOCKS - 3


def test_a_group_that_just_fits_shows_every_finding():
    n = notification(*[null_rate(f"c{i:02}") for i in range(MAX_BLOCKS - 2)])
    blocks = slack_blocks(n)
    assert len(blocks) == MAX_BLOCKS
    assert all(b["type"] == "section" for b in blocks[2:])


def test_long_texts_are_clipped_to_slack_limits():
    long_message = "amount.null_rate: " + "x" * 10_000
    n = notification(null_rate(message=long_message), asset="a" * 400, check="faucet_profile")
    blocks = slack_blocks(n)
    _blocks_within_limits(blocks)
    assert blocks[0]["text"]["text"].endswith("…")
    assert len(blocks[1]["text"]["text"]) == MAX_SECTION_CHARS
    assert len(slack_text(n)) <= MAX_TEXT_CHARS


def test_grouped_text_stays_under_the_text_limit():
    n = notification(*[null_rate(f"c{i}", message="m" * 3000) for i in range(40)])
    text = slack_text(n)
    assert len(text) <= MAX_TEXT_CHARS
    assert text.splitlines()[-1].startswith("… and ")
    assert text.splitlines()[0] == "Profile drift on sales/orders: 40 finding(s)"


def test_data_cannot_format_or_mention():
    sneaky = new_value("region", "<!channel> & <https://evil.example|click>")
    n = notification(sneaky)
    rendered = str(slack_blocks(n)) + slack_text(n)
    assert "<!channel>" not in rendered
    assert "&lt;!channel&gt; &amp; &lt;https://evil.example|click&gt;" in slack_text(n)
    assert mrkdwn_escape("a<b>&c") == "a&lt;b&gt;&amp;c"


def test_backticks_in_names_do_not_break_code_spans():
    n = notification(null_rate("we`ird"))
    fields = slack_blocks(n)[2]["fields"]
    assert {"type": "mrkdwn", "text": "*Column*\n`we'ird`"} in fields


def test_classified_values_never_reach_the_message():
    n = CASES["classified_new_value"]
    rendered = str(slack_blocks(n)) + slack_text(n)
    assert "ann@example.com" not in rendered
    assert "withheld: classified column" in rendered


def test_clip():
    assert clip("abc", 3) == "abc"
    assert clip("abcd", 3) == "ab…"


def test_plain_text_is_the_same_text_unescaped():
    n = notification(new_value("region", "a<b & c>"))
    assert plain_text(n) == (
        'Profile drift on sales/orders: region.new_value: value "a<b & c>" is 12.5% of the '
        "run; never among the top values in 6 baseline runs"
    )
    assert slack_text(n) == mrkdwn_escape(plain_text(n))
