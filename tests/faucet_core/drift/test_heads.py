"""What heads a column's finding is what a person would fix, on real profiles: nulls
head with null_rate, a rescale with the values' level, and a row position is no
measurement."""

from __future__ import annotations

import pyarrow as pa
import pytest

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift import DriftMetric, detect_drift

CONFIG = ProfilingConfig()


def _day(i: int, *, rows: int = 500, scale: float = 1.0, nulls: float = 0.01) -> TableProfile:
    whole = [17 + (k * 31 + i * 7) % 400 for k in range(rows)]  # whole numbers
    values = [v * int(scale) if scale >= 1 else round(v * scale, 4) for v in whole]
    amounts = [None if k < int(rows * nulls) else v for k, v in enumerate(values)]
    return profile(pa.table({"amount": amounts, "position": list(range(rows))}))


BASELINE = [_day(i, rows=480 + 10 * (i % 5)) for i in range(10)]


@pytest.mark.parametrize(
    ("scale", "head"),
    [(100.0, DriftMetric.MEAN), (0.001, DriftMetric.MEAN)],
    ids=["x100", "div1000"],
)
def test_a_rescale_heads_with_the_level_not_the_type(scale: float, head: DriftMetric) -> None:
    (finding,) = detect_drift(_day(10, scale=scale), BASELINE, CONFIG)
    assert (finding.column, finding.metric) == ("amount", head)
    if scale < 1:  # whole numbers became fractional: the type mix is evidence
        assert DriftMetric.TYPE_MIX in {e.metric for e in finding.evidence}


def test_nulls_head_with_the_null_rate() -> None:
    (finding,) = detect_drift(_day(10, nulls=0.4), BASELINE, CONFIG)
    assert (finding.column, finding.metric) == ("amount", DriftMetric.NULL_RATE)


def test_a_row_position_follows_the_row_count_and_is_not_a_measurement() -> None:
    constant = [_day(i) for i in range(10)]  # 500 rows every run: a constant position
    assert detect_drift(_day(10, rows=470), constant, CONFIG) == []  # 6 % fewer rows
    (finding,) = detect_drift(_day(10, rows=250), constant, CONFIG)  # half the rows
    assert finding.metric is DriftMetric.ROW_COUNT
    assert finding.evidence == ()
