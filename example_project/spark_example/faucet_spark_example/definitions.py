"""An asset written by Spark and its profile check, which reads it back with Spark.

The check's loader returns a Spark DataFrame: faucet profiles it on the executors (one
partial profile per partition) and merges the partials in the check's process. The Dagster
side is the same as for any other asset: ``build_profile_checks`` with a ``loader``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import dagster as dg

from faucet_dagster import FaucetResource, ProfileLoadContext, build_profile_checks

__all__ = ["SparkSessionResource", "daily_events", "defs"]


class SparkSessionResource(dg.ConfigurableResource):
    """A Spark session: ``local[2]`` here, a cluster's master URL (or Databricks) in
    production. Bound to 127.0.0.1 and without UI, so a local run opens no public port."""

    master: str = "local[2]"
    warehouse_dir: str = ".faucet/spark-warehouse"

    def session(self) -> Any:
        from pyspark.sql import SparkSession

        return (
            SparkSession.builder.master(self.master)
            .appName("faucet-spark-example")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.sql.session.timeZone", "UTC")
            .getOrCreate()
        )


@dg.asset
def daily_events(spark: SparkSessionResource) -> dg.MaterializeResult:
    """100,000 events over 4 partitions, written as Parquet by Spark."""
    from pyspark.sql import functions as F

    session = spark.session()
    path = str(Path(spark.warehouse_dir).resolve() / "daily_events")
    events = (
        session.range(0, 100_000, numPartitions=4)
        .withColumn("user_id", F.concat(F.lit("user-"), (F.col("id") % 5000).cast("string")))
        .withColumn(
            "kind",
            F.element_at(
                F.array(F.lit("view"), F.lit("click"), F.lit("buy")),
                (F.col("id") % 3 + 1).cast("int"),
            ),
        )
        .withColumn("amount", F.when(F.col("kind") == "buy", F.col("id") % 500 / 10.0))
        .withColumn(
            "email",
            F.concat(F.lit("user"), (F.col("id") % 5000).cast("string"), F.lit("@example.com")),
        )
    )
    events.write.mode("overwrite").parquet(path)
    return dg.MaterializeResult(metadata={"dagster/uri": path})


def read_with_spark(ctx: ProfileLoadContext) -> Any:
    """What the check profiles: the Parquet files the asset wrote, as a Spark DataFrame."""
    return ctx.resources.spark.session().read.parquet(ctx.metadata["dagster/uri"])


profile_checks = build_profile_checks(
    [daily_events],
    loader=read_with_spark,
    required_resource_keys=["spark"],
    # decided for the whole column on the driver; the emails never leave the executors
    config={"policy": {"rules": [{"label": "pii.email", "detectors": ["email"]}]}},
)

defs = dg.Definitions(
    assets=[daily_events],
    asset_checks=profile_checks,
    resources={"spark": SparkSessionResource(), "faucet": FaucetResource()},
)
