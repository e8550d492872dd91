"""type_mix needs values before: a column null in every baseline run mixes nothing when
its first values arrive, and a column that held numbers still reports text."""

from __future__ import annotations

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift import detect_drift

CONFIG = ProfilingConfig()


def _run(values: list[object]) -> TableProfile:
    return profile([{"reply_to": v, "n": float(i)} for i, v in enumerate(values)])


def test_the_first_values_of_an_always_null_column_are_no_type_mix() -> None:
    baseline = [_run([None] * 6) for _ in range(20)]
    first = _run([None, None, None, None, 25073877.0, None])
    found = detect_drift(first, baseline, CONFIG)
    assert not [f for f in found if f.metric.value == "type_mix"]


def test_text_where_the_baseline_held_numbers_is_still_a_type_mix() -> None:
    baseline = [_run([None] * 4 + [float(i), float(i + 1)]) for i in range(20)]
    text = _run([None, None, None, None, "unknown", "n/a"])
    found = detect_drift(text, baseline, CONFIG)
    assert [f for f in found if f.column == "reply_to" and f.metric.value == "type_mix"]
