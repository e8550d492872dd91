"""The column profiler: per-column statistics from bounded-memory sketches."""

from faucet_core.profile.arrow_path import json_type_of
from faucet_core.profile.model import ColumnProfile, JsonType, NumericStats, StringStats, TopValue
from faucet_core.profile.profiler import Profiler, profile
from faucet_core.profile.sketches import SketchParams
from faucet_core.profile.sql import SqlTable, is_sql_table, profile_sql
from faucet_core.profile.table import TableProfile

__all__ = [
    "ColumnProfile",
    "JsonType",
    "NumericStats",
    "Profiler",
    "SketchParams",
    "SqlTable",
    "StringStats",
    "TableProfile",
    "TopValue",
    "is_sql_table",
    "json_type_of",
    "profile",
    "profile_sql",
]
