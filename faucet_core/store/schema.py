"""The store's tables (SQLAlchemy Core). Changes go through numbered migrations."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    UniqueConstraint,
)

__all__ = ["baseline_keys", "meta", "metadata", "metric_counters", "profile_runs"]

metadata = MetaData()

meta = Table(
    "faucet_meta",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("value", String(256), nullable=False),
)

# One row per baseline (key, partition): the row each writer locks while recording.
baseline_keys = Table(
    "faucet_baseline_keys",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(512), nullable=False),
    Column("partition", String(512), nullable=False, default=""),
    Column("next_seq", Integer, nullable=False, default=1),
    UniqueConstraint("key", "partition", name="uq_faucet_baseline_key"),
)

# One row per recorded run: its profile, outcome and whether it is part of the baseline.
profile_runs = Table(
    "faucet_profile_runs",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("baseline_id", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("run_id", String(256), nullable=True),
    Column("recorded_at", DateTime(timezone=True), nullable=False),
    Column("status", String(16), nullable=False),
    Column("in_baseline", Boolean, nullable=False),
    Column("baseline_runs", Integer, nullable=False),
    Column("row_count", BigInteger, nullable=False),
    Column("profile", LargeBinary, nullable=False),
    Column("findings", LargeBinary, nullable=False),
    UniqueConstraint("baseline_id", "seq", name="uq_faucet_run_seq"),
    UniqueConstraint("baseline_id", "run_id", name="uq_faucet_run_id"),
    Index("ix_faucet_runs_baseline", "baseline_id", "in_baseline", "seq"),
)

# Prometheus counters that must survive the short-lived processes Dagster runs checks in
# (schema version 2). ``labels`` is the canonical JSON of the label set.
metric_counters = Table(
    "faucet_metric_counters",
    metadata,
    Column("name", String(128), primary_key=True),
    Column("labels", String(1024), primary_key=True),
    Column("value", Float, nullable=False, default=0.0),
)
