"""Property run over pandas frames, meant for a child process (``python -m``): pandas
conversions are where a crash (SIGSEGV inside pyarrow) used to happen, and a crash must
fail the test that starts this process rather than kill the test run.

Exit status 0: every generated frame was profiled (or refused with a FaucetError) and
its profile round-trips; 1: a property failed (the example is printed).
"""

from __future__ import annotations

import decimal
import sys
import traceback
from typing import Any

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faucet_core import FaucetError, TableProfile, profile
from tests.faucet_core.profile.strategies import assert_sound, floats, python_values, texts

EXAMPLES = 40
NUMPY_ITEMS = st.sampled_from(
    [np.datetime64("2020-01-01"), np.float32(2), np.int64(3), np.datetime64(5, "ns"), "x", None]
)
"""Items of object columns that pyarrow's from_pandas used to crash on (mixed numpy scalars)."""


@st.composite
def pandas_frames(draw: st.DrawFn) -> pd.DataFrame:
    rows = draw(st.integers(min_value=0, max_value=6))

    def values(strategy: st.SearchStrategy[Any]) -> list[Any]:
        return draw(st.lists(strategy, min_size=rows, max_size=rows))

    maybe = lambda s: st.one_of(st.none(), s)  # noqa: E731
    makers = {
        "int64": lambda: pd.Series(values(st.integers(-(2**63), 2**63 - 1)), dtype="int64"),
        "Int64": lambda: pd.Series(values(maybe(st.integers(-(2**63), 2**63 - 1))), dtype="Int64"),
        "float": lambda: pd.Series(values(floats), dtype="float64"),
        "bool": lambda: pd.Series(values(st.booleans()), dtype="bool"),
        "str": lambda: pd.Series(values(maybe(st.text(max_size=5))), dtype="str"),
        "object-text": lambda: pd.Series(values(maybe(texts)), dtype=object),
        "datetime-nat": lambda: pd.to_datetime(
            pd.Series(values(maybe(st.integers(-(2**62), 2**62))), dtype="Int64"), unit="ns"
        ),
        "datetime-tz": lambda: (
            pd.to_datetime(
                pd.Series(values(maybe(st.integers(-(2**50), 2**50))), dtype="Int64"), unit="us"
            )
            .dt.tz_localize("UTC")
            .dt.tz_convert("Pacific/Kiritimati")
        ),
        "category": lambda: pd.Series(values(maybe(st.sampled_from(["a", "b"]))), dtype="category"),
        "decimal": lambda: pd.Series(
            values(
                st.one_of(
                    st.decimals(places=2, min_value=-1000, max_value=1000),
                    st.sampled_from(
                        [
                            decimal.Decimal("-Infinity"),
                            decimal.Decimal("NaN"),
                            decimal.Decimal("1e400"),
                        ]
                    ),
                )
            ),
            dtype=object,
        ),
        "timedelta": lambda: pd.to_timedelta(
            pd.Series(values(maybe(st.integers(-(2**60), 2**60))), dtype="Int64"), unit="ns"
        ),
        "object-mixed": lambda: pd.Series(values(python_values), dtype=object),
        "object-numpy-lists": lambda: pd.Series(
            values(
                st.one_of(st.lists(NUMPY_ITEMS, max_size=3), st.tuples(NUMPY_ITEMS, NUMPY_ITEMS))
            ),
            dtype=object,
        ),
        "object-numpy-scalars": lambda: pd.Series(values(NUMPY_ITEMS), dtype=object),
    }
    names = draw(st.lists(st.sampled_from(sorted(makers)), min_size=1, max_size=4, unique=True))
    return pd.DataFrame({name: makers[name]() for name in names}, index=range(rows))


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(pandas_frames())
def profile_pandas(frame: pd.DataFrame) -> None:
    try:
        prof = profile(frame)
    except FaucetError:
        return
    assert_sound(prof, len(frame))
    data = prof.to_dict()
    assert TableProfile.from_json(prof.to_json()).to_dict() == data


def main() -> int:
    try:
        profile_pandas()
    except Exception:  # a property failed: report it, exit 1 (a crash exits otherwise)
        traceback.print_exc()
        return 1
    print(f"ok: {EXAMPLES} pandas frames")
    return 0


if __name__ == "__main__":
    sys.exit(main())
