"""The data catalog: datasets (canonical URIs), runs, schemas, lineage edges with column
lineage, config snapshots with data contracts, owners, consumers and profiles."""

from faucet_core.catalog.catalog import PROFILE_HISTORY, Catalog
from faucet_core.catalog.config import (
    CatalogConfig,
    ConsumerConfig,
    DatasetAnnotation,
    load_catalog_config,
)
from faucet_core.catalog.model import (
    ColumnInput,
    ColumnLineage,
    Consumer,
    Contract,
    DatasetDetail,
    DatasetEntry,
    DatasetProfileRun,
    DatasetRef,
    Edge,
    FieldRef,
    JobRef,
    Observation,
    Owner,
    OwnerSource,
    RunRecord,
    RunState,
    SchemaChangeRecord,
    SchemaField,
    Snapshot,
    Transformation,
    WriterRun,
)
from faucet_core.catalog.uri import dataset_id, dataset_uri, split_uri
from faucet_core.catalog.write import RecordSummary

__all__ = [
    "PROFILE_HISTORY",
    "Catalog",
    "CatalogConfig",
    "ColumnInput",
    "ColumnLineage",
    "Consumer",
    "ConsumerConfig",
    "Contract",
    "DatasetAnnotation",
    "DatasetDetail",
    "DatasetEntry",
    "DatasetProfileRun",
    "DatasetRef",
    "Edge",
    "FieldRef",
    "JobRef",
    "Observation",
    "Owner",
    "OwnerSource",
    "RecordSummary",
    "RunRecord",
    "RunState",
    "SchemaChangeRecord",
    "SchemaField",
    "Snapshot",
    "Transformation",
    "WriterRun",
    "dataset_id",
    "dataset_uri",
    "load_catalog_config",
    "split_uri",
]
