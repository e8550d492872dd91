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
    Text,
    UniqueConstraint,
)

__all__ = [
    "audit_log",
    "baseline_keys",
    "catalog_consumers",
    "catalog_datasets",
    "catalog_edges",
    "catalog_owners",
    "catalog_profiles",
    "catalog_run_datasets",
    "catalog_runs",
    "catalog_schema_changes",
    "catalog_snapshots",
    "meta",
    "metadata",
    "metric_counters",
    "profile_memory",
    "profile_runs",
    "quarantine",
    "revoked_sessions",
]

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

# -- The catalog (schema version 3). JSON values are stored as text. ------------------------

# One row per dataset, keyed by the SHA-256 prefix of its canonical URI.
catalog_datasets = Table(
    "faucet_datasets",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("uri", String(2048), nullable=False),
    Column("namespace", String(1024), nullable=False),
    Column("name", String(1024), nullable=False),
    Column("owners", Text, nullable=False, default="[]"),
    Column("schema", Text, nullable=True),
    Column("schema_run_id", String(256), nullable=True),
    Column("schema_at", DateTime(timezone=True), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("uri", name="uq_faucet_dataset_uri"),
)

# Declared consumers: upserted by name.
catalog_consumers = Table(
    "faucet_consumers",
    metadata,
    Column("dataset_id", String(16), primary_key=True),
    Column("name", String(256), primary_key=True),
    Column("kind", String(64), nullable=False, default=""),
    Column("contact", String(512), nullable=False, default=""),
    Column("columns", Text, nullable=False, default="[]"),
)

# One row per (job, run): its latest state.
catalog_runs = Table(
    "faucet_catalog_runs",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("job_namespace", String(512), nullable=False),
    Column("job_name", String(512), nullable=False),
    Column("run_id", String(256), nullable=False),
    Column("source", String(32), nullable=False),
    Column("state", String(16), nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=True),
    Column("ended_at", DateTime(timezone=True), nullable=True),
    Column("event_time", DateTime(timezone=True), nullable=False),
    UniqueConstraint("job_namespace", "job_name", "run_id", name="uq_faucet_catalog_run"),
    Index("ix_faucet_catalog_runs_run", "run_id"),
)

# Which run read (input) or wrote (output) which dataset.
catalog_run_datasets = Table(
    "faucet_run_datasets",
    metadata,
    Column("run", Integer, primary_key=True),
    Column("dataset_id", String(16), primary_key=True),
    Column("role", String(8), primary_key=True),
    Index("ix_faucet_run_datasets_dataset", "dataset_id", "role"),
)

# Lineage edges source -> sink per job; column_lineage NULL means opaque.
catalog_edges = Table(
    "faucet_edges",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("source_id", String(16), nullable=False),
    Column("sink_id", String(16), nullable=False),
    Column("job_namespace", String(512), nullable=False),
    Column("job_name", String(512), nullable=False),
    Column("run_id", String(256), nullable=True),
    Column("event_time", DateTime(timezone=True), nullable=False),
    Column("column_lineage", Text, nullable=True),
    UniqueConstraint("source_id", "sink_id", "job_namespace", "job_name", name="uq_faucet_edge"),
    Index("ix_faucet_edges_sink", "sink_id"),
)

# Config snapshots of jobs, with the data contract they declare on a dataset.
catalog_snapshots = Table(
    "faucet_config_snapshots",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("job_namespace", String(512), nullable=False),
    Column("job_name", String(512), nullable=False),
    Column("dataset_id", String(16), nullable=False, default=""),
    Column("digest", String(64), nullable=False),
    Column("run_id", String(256), nullable=True),
    Column("recorded_at", DateTime(timezone=True), nullable=False),
    Column("config", Text, nullable=False),
    Column("contract_version", String(128), nullable=True),
    Column("contract_columns", Text, nullable=True),
    UniqueConstraint(
        "job_namespace", "job_name", "dataset_id", "digest", name="uq_faucet_snapshot"
    ),
    Index("ix_faucet_snapshots_dataset", "dataset_id", "recorded_at"),
)

# Each run's profile on the dataset it profiled (a browsing copy; the baseline lives in
# faucet_profile_runs).
catalog_profiles = Table(
    "faucet_dataset_profiles",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("dataset_id", String(16), nullable=False),
    Column("run_id", String(256), nullable=False),
    Column("partition", String(512), nullable=False, default=""),
    Column("recorded_at", DateTime(timezone=True), nullable=False),
    Column("status", String(16), nullable=False),
    Column("row_count", BigInteger, nullable=False),
    Column("profile", LargeBinary, nullable=False),
    Column("findings", LargeBinary, nullable=False),
    UniqueConstraint("dataset_id", "run_id", "partition", name="uq_faucet_dataset_profile"),
    Index("ix_faucet_dataset_profiles", "dataset_id", "recorded_at"),
)

# Who did what over the HTTP API (``faucet serve``), when, and how it ended.
audit_log = Table(
    "faucet_audit_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("actor", String(128), nullable=False),
    Column("role", String(16), nullable=False),
    Column("action", String(64), nullable=False),
    Column("target", String(512), nullable=False, default=""),
    Column("outcome", String(16), nullable=False),
    Column("status", Integer, nullable=False),
    Column("detail", Text, nullable=False, default="{}"),
    Index("ix_faucet_audit_at", "at"),
)

# Runs that could not be read, moved aside by ``faucet doctor --repair`` (schema version 5):
# the raw row as JSON (bytes as base64), so nothing is lost and it can be inspected.
quarantine = Table(
    "faucet_quarantine",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(512), nullable=False),
    Column("partition", String(512), nullable=False, default=""),
    Column("run_row", Integer, nullable=False),
    Column("seq", Integer, nullable=True),
    Column("run_id", String(256), nullable=True),
    Column("reason", Text, nullable=False),
    Column("quarantined_at", DateTime(timezone=True), nullable=False),
    Column("row", Text, nullable=False),
)

# Owners of a dataset per source (schema version 6): ``code`` (the Dagster asset's owners),
# ``openlineage`` (the ownership facet), ``config`` (the FaucetResource's catalog block),
# ``annotation`` (``faucet catalog annotate``, the API) and ``legacy`` (owners recorded
# before sources were kept). ``faucet_datasets.owners`` holds their union.
catalog_owners = Table(
    "faucet_dataset_owners",
    metadata,
    Column("dataset_id", String(16), primary_key=True),
    Column("source", String(32), primary_key=True),
    Column("owners", Text, nullable=False, default="[]"),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

# Web console sessions ended before their expiry (schema version 7): the SHA-256 of the
# session id, kept until the session would have expired anyway (then pruned), so every
# worker of ``faucet serve`` refuses a signed-out cookie.
revoked_sessions = Table(
    "faucet_revoked_sessions",
    metadata,
    Column("session", String(64), primary_key=True),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index("ix_faucet_revoked_expires", "expires_at"),
)

# Observed schema changes (schema version 8): one row per column a profiled run added,
# dropped or retyped against the dataset's previous profile (same partition), so the
# catalog's schema history shows when each change happened. Never pruned with the profiles.
catalog_schema_changes = Table(
    "faucet_schema_changes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("dataset_id", String(16), nullable=False),
    Column("run_id", String(256), nullable=False),
    Column("partition", String(512), nullable=False, default=""),
    Column("changed_at", DateTime(timezone=True), nullable=False),
    Column("column", String(1024), nullable=False),
    Column("change", String(16), nullable=False),
    Column("before", Text, nullable=False, default="[]"),
    Column("after", Text, nullable=False, default="[]"),
    Index("ix_faucet_schema_changes", "dataset_id", "changed_at"),
)

# Runs that left the rolling window, kept without their sketches (schema version 9): the
# detector's memory (``memory`` in the profiling settings, drift/memory.py) reads them to
# tell a column's seasonal or occasional change from drift. Pruned to ``memory`` per key.
profile_memory = Table(
    "faucet_profile_memory",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("baseline_id", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("recorded_at", DateTime(timezone=True), nullable=False),
    Column("profile", LargeBinary, nullable=False),
    UniqueConstraint("baseline_id", "seq", name="uq_faucet_memory_seq"),
)
