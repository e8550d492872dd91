"""profile_sql on a PostgreSQL table past the exact bounds: distinct from the theta sketch
computed in SQL, p50 / p95 from a Bernoulli sample, timestamp lengths from one evaluation
of the microseconds per row; each checked against the exact figure."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
import sqlalchemy as sa

from faucet_core.profile import SqlTable, profile_sql, sql_theta
from faucet_core.profile import sql as sql_module
from faucet_core.profile.sql_dialects import _FRACTION_TABLE

ROWS = 150_000  # past EXACT_DISTINCT_BELOW

_TABLE = """
CREATE TABLE big AS
SELECT g AS id,
       'ref-' || (g * 7919) AS ref,
       mod(g * 31, 60000) AS mid,
       mod(g, 7) AS small,
       CASE WHEN mod(g, 10) = 0 THEN NULL ELSE ln(g::float8) * 100 END AS x,
       TIMESTAMP '2024-01-01' + make_interval(secs => g * 0.000137) AS at
FROM generate_series(1, {rows}) g
"""


_SAMPLE_ROWS = 20_000  # QUANTILE_SAMPLE_ROWS for these tables: their quantiles are sampled


@pytest.fixture(scope="module")
def loaded(postgres_url_module: str):  # type: ignore[no-untyped-def]
    saved = sql_module.QUANTILE_SAMPLE_ROWS, sql_module.EXACT_QUANTILES_UP_TO
    sql_module.QUANTILE_SAMPLE_ROWS, sql_module.EXACT_QUANTILES_UP_TO = (
        _SAMPLE_ROWS,
        2 * _SAMPLE_ROWS,
    )
    try:
        yield from _loaded(postgres_url_module)
    finally:
        sql_module.QUANTILE_SAMPLE_ROWS, sql_module.EXACT_QUANTILES_UP_TO = saved


def _loaded(postgres_url_module: str):  # type: ignore[no-untyped-def]
    engine = sa.create_engine(postgres_url_module)
    with engine.begin() as conn:
        conn.exec_driver_sql(_TABLE.format(rows=ROWS))
        conn.exec_driver_sql("ANALYZE big")
    sent: list[str] = []
    sa.event.listen(engine, "before_cursor_execute", lambda *a: sent.append(a[2]))
    prof = profile_sql(SqlTable(engine, "big"))
    with engine.connect() as conn:
        exact = conn.exec_driver_sql(
            # PostgreSQL's text of a timestamp drops the fraction's trailing zeros, as ISO
            # text here does ('T' for the space: the same length)
            "SELECT count(DISTINCT ref), count(DISTINCT at), min(length(at::text)), "
            "max(length(at::text)), sum(length(at::text)) FROM big"
        ).one()
        xs = np.sort([r[0] for r in conn.exec_driver_sql("SELECT x FROM big WHERE x IS NOT NULL")])
    yield prof, exact, xs, sent
    engine.dispose()


def test_distinct_is_the_theta_sketch_within_its_error(loaded) -> None:  # type: ignore[no-untyped-def]
    prof, exact, _xs, sent = loaded
    # three standard errors of 1 / sqrt(4096)
    for column, truth in (("id", ROWS), ("ref", exact[0]), ("at", exact[1])):
        assert truth == ROWS
        assert abs(prof[column].distinct - truth) <= 0.049 * truth, column
    # one scan for every large column: the distinct hashes below each one's threshold
    assert sum("count(DISTINCT anon_1.h" in s for s in sent) == 1
    assert not any("count(DISTINCT big.id)" in s for s in sent)


def test_columns_below_the_bound_are_exact(loaded) -> None:  # type: ignore[no-untyped-def]
    prof, _exact, _xs, sent = loaded
    assert prof["mid"].distinct == 60_000
    assert any("SELECT DISTINCT big.mid" in s for s in sent)
    assert prof["small"].distinct == 7
    # a categorical column by the planner's statistics: counted from its top-values groups,
    # in one query
    assert not any("SELECT DISTINCT big.small" in s for s in sent)
    assert sum("GROUP BY big.small" in s for s in sent) == 1
    # 150,000 = 7 * 21,428 + 4: values 1..4 once more; ties by JSON text
    assert [t.value for t in prof["small"].top_values] == [1, 2, 3, 4, 0, 5, 6]
    assert [t.count for t in prof["small"].top_values] == [21_429] * 4 + [21_428] * 3


def test_quantiles_from_the_sample_are_within_kll_error(loaded) -> None:  # type: ignore[no-untyped-def]
    prof, _exact, xs, sent = loaded
    # QUANTILE_SAMPLE_ROWS lowered to 20,000 for this module: 135,000 values, a 25 % sample
    assert any("TABLESAMPLE bernoulli(" in s and "REPEATABLE" in s for s in sent)
    n = len(xs)
    for q, got in ((0.5, prof["x"].numeric.p50), (0.95, prof["x"].numeric.p95)):
        rank = np.searchsorted(xs, got, side="left") / n
        assert abs(rank - q) <= 0.0133, (q, rank)  # KLL's normalized rank error, k = 200
    assert prof["x"].numeric.count == n


def test_timestamp_lengths_are_exact(loaded) -> None:  # type: ignore[no-untyped-def]
    prof, exact, *_ = loaded
    lengths = prof["at"].string
    assert (lengths.len_min, lengths.len_max) == (exact[2], exact[3])
    assert math.isclose(lengths.len_mean, exact[4] / ROWS, rel_tol=1e-12)


def test_the_fraction_table_matches_iso_text() -> None:
    micros = [0, 1, 10, 100, 1000, 10_000, 100_000, 999_999, 500_000, 120_000, 2**6, 5**6]
    micros += random.Random(26).sample(range(1_000_000), 5_000)
    for m in micros:
        text = ("." + f"{m:06d}").rstrip("0").rstrip(".") if m else ""
        assert _FRACTION_TABLE[math.gcd(m, 1_000_000) % 73] == len(text), m


@pytest.mark.parametrize("n", [0, 1, 50, 3_000, 40_000, 400_000])
@pytest.mark.parametrize("hint_factor", [1.0, 0.1, 30.0])
def test_the_estimator_on_known_hashes(n: int, hint_factor: float) -> None:
    """The theta estimate, counted again while too few hashes are kept (as the profiler
    does), from an expected distinct count that is right, 10x too low or 30x too high."""
    rng = np.random.default_rng(n)
    hashes = rng.integers(-(2**63), 2**63 - 1, size=n, dtype=np.int64, endpoint=True)
    fraction = sql_theta.fraction_for(max(n, 1) * hint_factor)
    for _ in range(4):
        bound = sql_theta.threshold(fraction)
        kept = len({h for h in hashes.tolist() if bound is None or h < bound})
        got = sql_theta.estimate(kept, fraction)
        if sql_theta.settled(kept, fraction):
            break
        fraction = sql_theta.next_fraction(kept, fraction)
    assert sql_theta.settled(kept, fraction)
    assert abs(got - n) <= 0.049 * n + (1 if n else 0), (n, got)


def test_the_bounds_are_what_the_docs_say() -> None:
    assert sql_module.EXACT_DISTINCT_BELOW == 100_000


_DUCKDB_TABLE = f"""
CREATE TABLE big AS
SELECT g AS id, ln(g::DOUBLE) * 100 AS x, g % 7 AS small
FROM range(1, {ROWS} + 1) t(g)
"""

_NO_PANDAS = """
import sys
import sqlalchemy as sa
from faucet_core.profile import SqlTable, profile_sql
from faucet_core.profile import sql as sql_module
sql_module.QUANTILE_SAMPLE_ROWS, sql_module.EXACT_QUANTILES_UP_TO = 20_000, 40_000
engine = sa.create_engine("duckdb:///" + sys.argv[1])
sent = []
sa.event.listen(engine, "before_cursor_execute", lambda *a: sent.append(a[2]))
prof = profile_sql(SqlTable(engine, "big"))
sampled = any("USING SAMPLE" in s for s in sent)
print(prof["x"].numeric.p50, prof["x"].numeric.p95, "pandas" in sys.modules, sampled)
"""


def test_duckdb_quantiles_of_a_large_table_come_from_a_sample(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    import duckdb

    path = tmp_path / "big.duckdb"
    with duckdb.connect(str(path)) as conn:
        conn.execute(_DUCKDB_TABLE)
    # a fresh process: no pandas imported on the way (pa.array would import it)
    done = subprocess.run(
        [sys.executable, "-c", _NO_PANDAS, str(path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    p50, p95, pandas, sampled = done.stdout.split()
    assert (pandas, sampled) == ("False", "True")
    xs = np.log(np.arange(1, ROWS + 1, dtype=np.float64)) * 100
    for q, got in ((0.5, float(p50)), (0.95, float(p95))):
        rank = np.searchsorted(xs, got, side="left") / ROWS
        assert abs(rank - q) <= 0.0133, (q, rank)
