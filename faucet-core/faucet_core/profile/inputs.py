"""What kind of input a value is, told without importing the library it comes from."""

from __future__ import annotations

from typing import Any

__all__ = ["is_spark_dataframe"]


def is_spark_dataframe(data: Any) -> bool:
    """Whether ``data`` is a PySpark DataFrame (classic or Connect), without importing pyspark."""
    cls = type(data)
    return (
        cls.__module__.split(".")[0] == "pyspark"
        and cls.__name__ == "DataFrame"
        and hasattr(data, "mapInArrow")
    )
