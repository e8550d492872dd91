"""series_bands: the band the detector judges each series against, equal to the band of
every finding the detector reports (so a chart draws what fired, not a copy)."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core.config import ProfilingConfig
from faucet_core.drift import detect_drift
from faucet_core.drift.bands_view import series_bands
from faucet_core.drift.detector import run_detection
from tests.faucet_core.drift.builders import column, numeric, string, table

CONFIG = ProfilingConfig(min_history=3)


def _run(mean: float, rows: int = 1000, nulls: int = 0) -> object:
    return table(
        column(
            "amount", rows=rows, nulls=nulls, distinct=300, num=numeric(mean, count=rows - nulls)
        ),
        column("name", rows=rows, distinct=400, text=string(20.0 + mean / 1000, count=rows)),
    )


def _findings_by_key(findings: list) -> dict:
    out = {}
    for f in findings:
        for g in f.findings:
            out[(g.column, g.statistic)] = g
    return out


@settings(max_examples=40, deadline=None)
@given(
    means=st.lists(st.floats(45.0, 55.0), min_size=3, max_size=8),
    now=st.floats(0.0, 200.0),
    rows=st.lists(st.integers(600, 1400), min_size=9, max_size=9),
    nulls=st.integers(0, 500),
)
def test_every_finding_has_the_band_series_bands_returns(
    means: list[float], now: float, rows: list[int], nulls: int
) -> None:
    baseline = [_run(m, rows[i]) for i, m in enumerate(means)]
    current = _run(now, rows[-1], nulls)
    bands = series_bands(current, baseline, CONFIG)
    found = _findings_by_key(detect_drift(current, baseline, CONFIG))
    for key, finding in found.items():
        band = bands[key]
        assert band.outside
        assert (band.low, band.high) == (finding.expected_low, finding.expected_high)
        assert band.value == finding.value
    for band in bands.values():
        if not band.outside:
            assert band.low <= band.value <= band.high or band.metric.value in ("min", "max")


def test_the_row_count_band_is_the_tables() -> None:
    baseline = [_run(50.0, n) for n in (1000, 1010, 990, 1005)]
    quiet = series_bands(_run(50.0, 1002), baseline, CONFIG)
    rows = quiet[("", "rows")]
    assert rows.column == ""
    assert rows.metric.value == "row_count"
    assert rows.low < 1000 < rows.high
    assert not rows.outside
    lost = series_bands(_run(50.0, 400), baseline, CONFIG)[("", "rows")]
    assert lost.outside
    assert lost.value == 400.0
    (finding,) = [f for f in detect_drift(_run(50.0, 400), baseline, CONFIG) if f.table_level]
    assert (lost.low, lost.high) == (finding.expected_low, finding.expected_high)


def test_no_band_while_warming_up_or_for_an_empty_run() -> None:
    baseline = [_run(50.0), _run(51.0)]
    assert series_bands(_run(50.0), baseline, CONFIG) == {}
    empty = dataclasses.replace(table(), row_count=0)
    assert series_bands(empty, [*baseline, _run(50.0)], CONFIG) == {}


def test_columns_limits_what_is_judged_not_the_budget() -> None:
    baseline = [_run(m) for m in (50.0, 51.0, 49.0, 50.5)]
    every = series_bands(_run(50.2), baseline, CONFIG)
    some = series_bands(_run(50.2), baseline, CONFIG, columns=["amount"])
    assert {c for c, _ in some} == {"amount"}
    assert all(some[k] == every[k] for k in some)
    assert {s for c, s in every if c == "name"} >= {"len_mean", "null_rate"}


def _heavy_tailed(rng: random.Random) -> object:
    """40 means that mostly wander by sampling and now and then jump 8 units."""
    return table(
        *(
            column(
                f"c{c}",
                rows=1000,
                distinct=300,
                num=numeric(50 + rng.gauss(0, 1) + rng.choice([0] * 8 + [8, -8]), stddev=10.0),
            )
            for c in range(40)
        )
    )


def test_the_tables_own_tail_widens_the_bands_as_it_widens_the_findings() -> None:
    rng = random.Random(3)
    baseline = [_heavy_tailed(rng) for _ in range(15)]
    current = _heavy_tailed(rng)
    config = ProfilingConfig()
    detection = run_detection(current, baseline, config)
    assert detection.tail.scale > 1.0  # this table's runs stray more than the model says
    bands = series_bands(current, baseline, config)
    found = _findings_by_key(detection.findings)
    assert found  # a jump that is a finding even with the wider limits
    for key, finding in found.items():
        assert (bands[key].low, bands[key].high) == (finding.expected_low, finding.expected_high)
