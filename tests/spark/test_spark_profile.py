"""A Spark DataFrame profiled on its executors equals the single-process profile.

The same rows are profiled both ways: ``profile(df)`` (one partial per partition, merged
on the driver) and ``profile(df.toArrow())`` (one process).
"""

from __future__ import annotations

import json
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from faucet_core import PolicyConfig, PolicyRule, ProfilingConfig, ValueDetector, profile
from faucet_core.errors import ProfilingInputError
from faucet_core.profile import Profiler, TableProfile
from faucet_core.profile.spark import is_spark_dataframe, partial_payloads

ROWS = 20_000
PARTITIONS = 4
KLL_RANK_ERROR = 0.0165  # the quantile sketch's documented normalized rank error (k=200)
HLL_RELATIVE_ERROR = 3 * 0.016  # three standard errors of the lg_k=12 HyperLogLog


@pytest.fixture(scope="module")
def table_df(spark: Any) -> Any:
    """Mixed columns over 4 partitions; ``contact`` holds 30 distinct emails in partition 0
    and 10 distinct other strings in each of partitions 1-3 (30 in all): half emails."""
    from pyspark.sql import functions as F

    part = F.spark_partition_id()
    return (
        spark.range(0, ROWS, numPartitions=PARTITIONS)
        .withColumn(
            "amount", F.when(F.col("id") % 7 == 0, None).otherwise(F.col("id") * 1.5 - 3000)
        )
        .withColumn(
            "region",
            F.when(F.col("id") % 11 == 0, None).otherwise(
                F.element_at(
                    F.array(*[F.lit(r) for r in ["eu", "us", "apac", "latam", "mea"]]),
                    (F.col("id") % 5 + 1).cast("int"),
                )
            ),
        )
        .withColumn("user_id", F.concat(F.lit("u-"), F.col("id").cast("string")))
        .withColumn("flag", F.col("id") % 3 == 0)
        .withColumn("empty", F.lit(None).cast("string"))
        .withColumn(
            "contact",
            F.when(
                part == 0,
                F.concat(F.lit("user"), (F.col("id") % 30).cast("string"), F.lit("@example.com")),
            ).otherwise(
                F.concat(
                    F.lit("name"),
                    (F.col("id") % 10).cast("string"),
                    F.lit("-p"),
                    part.cast("string"),
                )
            ),
        )
        .withColumn(
            "card_number", F.concat(F.lit("4111-"), (F.col("id") % 9000 + 1000).cast("string"))
        )
        .cache()
    )


def _local(df: Any, config: ProfilingConfig | None = None) -> TableProfile:
    return profile(df.toArrow(), config)


def _rank(values: pa.Array, q: float) -> float:
    """Normalized rank of ``q`` in ``values`` (share of values below or equal)."""
    return float(pc.sum(pc.less_equal(values, q)).as_py()) / len(values)


def test_spark_dataframe_is_detected_without_importing_pyspark_for_others(table_df: Any) -> None:
    assert is_spark_dataframe(table_df)
    assert not is_spark_dataframe(table_df.toArrow())
    assert not is_spark_dataframe([{"a": 1}])


def test_same_profile_as_one_process(table_df: Any) -> None:
    arrow = table_df.toArrow()
    spark_prof = profile(table_df)
    local_prof = profile(arrow)
    assert spark_prof.row_count == local_prof.row_count == ROWS
    assert list(spark_prof.columns) == list(local_prof.columns)
    assert spark_prof.skipped_columns == local_prof.skipped_columns == 0
    for name, local in local_prof.columns.items():
        got = spark_prof[name]
        assert (got.row_count, got.null_count, got.null_rate) == (
            local.row_count,
            local.null_count,
            local.null_rate,
        ), name
        assert got.types == local.types, name
        assert got.high_cardinality == local.high_cardinality, name
        assert got.classified == local.classified, name
        assert got.string == local.string or (
            got.string is not None
            and local.string is not None
            and (got.string.len_min, got.string.len_max, got.string.count)
            == (local.string.len_min, local.string.len_max, local.string.count)
            and got.string.len_mean == pytest.approx(local.string.len_mean, rel=1e-12)
        ), name
        assert got.distinct == pytest.approx(local.distinct, rel=HLL_RELATIVE_ERROR), name
        if local.numeric is None:
            assert got.numeric is None, name
            continue
        assert got.numeric is not None
        assert (got.numeric.min, got.numeric.max, got.numeric.count) == (
            local.numeric.min,
            local.numeric.max,
            local.numeric.count,
        ), name
        assert got.numeric.mean == pytest.approx(local.numeric.mean, rel=1e-12, abs=1e-9), name
        assert got.numeric.stddev == pytest.approx(local.numeric.stddev, rel=1e-12), name
        values = pc.cast(arrow.column(name).drop_null(), pa.float64())
        for q, value in ((0.5, got.numeric.p50), (0.95, got.numeric.p95)):
            assert abs(_rank(values, value) - q) <= KLL_RANK_ERROR, (name, q)
    # low-cardinality columns: exact top values, same order
    for name in ("region", "flag"):
        assert spark_prof[name].top_values == local_prof[name].top_values
    assert {t.value for t in spark_prof["region"].top_values or ()} == {
        "eu",
        "us",
        "apac",
        "latam",
        "mea",
    }
    assert spark_prof["user_id"].top_values is None  # high cardinality, both ways
    assert spark_prof["empty"].null_rate == 1.0


def test_columns_exclude_and_max_columns_as_locally(table_df: Any) -> None:
    cases = [
        ProfilingConfig(exclude=["user_*", "card*"]),
        ProfilingConfig(max_columns=3),
        ProfilingConfig(columns=["region", "amount", "missing"]),
    ]
    for config in cases:
        got, want = profile(table_df, config), _local(table_df, config)
        assert list(got.columns) == list(want.columns), config
        assert got.skipped_columns == want.skipped_columns, config
        assert [c.null_count for c in got.columns.values()] == [
            c.null_count for c in want.columns.values()
        ]
    assert profile(table_df, ProfilingConfig(max_columns=3)).skipped_columns == 5  # of 8


def _policy(min_share: float) -> ProfilingConfig:
    return ProfilingConfig(
        policy=PolicyConfig(
            rules=[
                PolicyRule(label="pii.email", detectors=[ValueDetector.EMAIL], min_share=min_share),
                PolicyRule(label="pci.card", columns=["card_*"]),
            ]
        )
    )


@pytest.mark.parametrize(("min_share", "email_classified"), [(0.5, True), (0.6, False)])
def test_detector_decided_for_the_whole_column(
    table_df: Any, min_share: float, email_classified: bool
) -> None:
    config = _policy(min_share)
    got, want = profile(table_df, config), _local(table_df, config)
    assert want["contact"].classified == (("pii.email",) if email_classified else ())
    assert got["contact"].classified == want["contact"].classified
    assert got["card_number"].classified == want["card_number"].classified == ("pci.card",)
    assert (got["contact"].top_values is None) == email_classified
    # not vacuous: partition 0 alone (all emails) would classify the column at either share
    alone = _local(table_df.where("spark_partition_id() = 0"), config)
    assert alone["contact"].classified == ("pii.email",)


def test_no_classified_value_reaches_the_driver(table_df: Any) -> None:
    _seed, payloads = partial_payloads(table_df, _policy(0.5))
    assert len(payloads) == PARTITIONS
    text = b"\n".join(payloads).decode("utf-8")
    assert "@example.com" not in text
    assert "4111-" not in text
    for payload in payloads:  # the classified columns carry no value-bearing sketch
        columns = {c["name"]: c for c in json.loads(payload)["columns"]}
        for name in ("contact", "card_number"):
            sketches = columns[name]["sketches"]
            assert (sketches["freq"], sketches["kll"], columns[name]["top_values"]) == (
                None,
                None,
                None,
            ), name
            assert sketches["num"][3:5] == [None, None]
    # control: an unclassified column's values do travel (the check above can fail)
    assert '"eu"' in text
    _, open_payloads = partial_payloads(table_df, _policy(0.6))
    assert "@example.com" in b"\n".join(open_payloads).decode("utf-8")


def test_empty_dataframe_reports_its_columns(table_df: Any) -> None:
    empty = table_df.where("id < 0")
    got, want = profile(empty), _local(empty)
    assert got.row_count == want.row_count == 0
    assert got.to_dict(sketches=False) == want.to_dict(sketches=False)


def test_duplicate_column_names_refused_on_the_driver(spark: Any) -> None:
    df = spark.createDataFrame([(1, 2)], ["a", "a"])
    with pytest.raises(ProfilingInputError) as info:
        profile(df)
    assert str(info.value) == (
        "column 'a' appears twice in the Spark DataFrame; rename one of them "
        "(e.g. with withColumnRenamed or an alias) before profiling"
    )


def test_profiler_add_points_to_profile(table_df: Any) -> None:
    with pytest.raises(ProfilingInputError) as info:
        Profiler().add(table_df)
    assert str(info.value) == (
        "a Spark DataFrame is profiled where it lives, partition by partition: pass it to "
        "profile(), not to Profiler.add()"
    )


def test_detector_sampling_stops_early_on_small_batches(spark: Any, table_df: Any) -> None:
    """With 50-row Arrow batches every partition fills its 1,000-value sample before its
    end: the sampling task stops reading and the profile is still whole and classified."""
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "50")
    try:
        got = profile(table_df, _policy(0.2))
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")
    want = _local(table_df, _policy(0.2))
    assert got.row_count == ROWS
    assert got["contact"].classified == want["contact"].classified == ("pii.email",)
    assert got["region"].top_values == want["region"].top_values


def test_a_dotted_column_name_is_one_column(spark: Any) -> None:
    df = spark.createDataFrame([(1, "x"), (None, "y")], "`a.b` bigint, `c``d` string")
    got = profile(df)
    assert list(got.columns) == ["a.b", "c`d"]
    assert got["a.b"].null_rate == 0.5


def test_an_executor_error_comes_back_as_its_message(spark: Any) -> None:
    df = spark.sql("SELECT make_interval(1, 2) AS span")  # Arrow: month_day_nano_interval
    with pytest.raises(ProfilingInputError) as info:
        profile(df)
    assert str(info.value) == (
        "profiling a Spark partition failed: column 'span': Arrow type "
        "month_day_nano_interval has no JSON type; cast the column first"
    )


def test_a_failed_spark_job_is_a_one_line_error(spark: Any, tmp_path: Any) -> None:
    import shutil

    path = tmp_path / "gone.parquet"
    spark.range(10).write.parquet(str(path))
    df = spark.read.parquet(str(path))
    shutil.rmtree(path)  # the files vanish between planning and reading
    with pytest.raises(ProfilingInputError) as info:
        profile(df)
    message = str(info.value)
    assert message.startswith("the Spark job that profiles the DataFrame failed: ")
    assert message.endswith(" (if the executors cannot import faucet_core, see docs/spark.md)")
    assert "Traceback" not in message
    assert "\n" not in message


def test_high_cardinality_is_decided_after_the_merge(spark: Any) -> None:
    """60 distinct values in each of 4 partitions, 240 in all: no partial is high-cardinality
    (each keeps its top values), the merged column is, as in a single pass."""
    from pyspark.sql import functions as F

    df = spark.range(0, 4000, numPartitions=4).select(
        F.concat(
            (F.col("id") % 60).cast("string"), F.lit("-p"), F.spark_partition_id().cast("string")
        ).alias("code")
    )
    _seed, payloads = partial_payloads(df)
    partials = [TableProfile.from_json(p)["code"] for p in payloads]
    assert [(c.high_cardinality, len(c.top_values or ())) for c in partials] == [(False, 10)] * 4
    got, want = profile(df)["code"], _local(df)["code"]
    assert (got.high_cardinality, got.top_values) == (want.high_cardinality, want.top_values)
    assert (got.high_cardinality, got.top_values) == (True, None)
    assert got.distinct == pytest.approx(240, rel=HLL_RELATIVE_ERROR)


def _largest_batch(df: Any) -> int:
    def sizes(batches: Any) -> Any:
        yield pa.RecordBatch.from_arrays(
            [pa.array([max((b.num_rows for b in batches), default=0)], pa.int64())], names=["n"]
        )

    return max(r["n"] for r in df.mapInArrow(sizes, "n long").collect())


def test_the_profile_job_asks_spark_for_the_profilers_batches(spark: Any) -> None:
    from faucet_core.profile.profiler import ARROW_BATCH_ROWS
    from faucet_core.profile.spark import BATCH_ROWS_CONF, arrow_batches_of

    df = spark.range(0, 150_000, numPartitions=1)
    assert spark.conf.get(BATCH_ROWS_CONF) == "10000"
    assert _largest_batch(df) == 10_000
    with arrow_batches_of(df, ARROW_BATCH_ROWS):
        assert _largest_batch(df) == ARROW_BATCH_ROWS
    assert spark.conf.get(BATCH_ROWS_CONF) == "10000"  # put back as it was
    # a failed job puts it back too
    with pytest.raises(RuntimeError), arrow_batches_of(df, ARROW_BATCH_ROWS):
        raise RuntimeError("the job failed")
    assert _largest_batch(df) == 10_000
    # a user's larger cap (or none at all) is left as it is
    for setting in ("200000", "0"):
        spark.conf.set(BATCH_ROWS_CONF, setting)
        try:
            with arrow_batches_of(df, ARROW_BATCH_ROWS):
                assert spark.conf.get(BATCH_ROWS_CONF) == setting
                assert _largest_batch(df) == 150_000
            assert spark.conf.get(BATCH_ROWS_CONF) == setting
        finally:
            spark.conf.unset(BATCH_ROWS_CONF)
    # and the profile counts every row, in batches of the profiler's size
    numeric = profile(df).columns["id"].numeric
    assert numeric is not None
    assert (numeric.count, numeric.min, numeric.max) == (150_000, 0, 149_999)
