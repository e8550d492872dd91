"""A Spark-backed asset profiled where its data lives (see docs/spark.md)."""

from faucet_spark_example.definitions import SparkSessionResource, daily_events, defs

__all__ = ["SparkSessionResource", "daily_events", "defs"]
