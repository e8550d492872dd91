"""What dagster-dbt puts on a dbt asset's definition, read without importing dagster-dbt.

``@dbt_assets`` puts the whole manifest (``dagster_dbt/manifest``, wrapped) and the node's
``dagster_dbt/unique_id`` on every spec's metadata. From them: the dbt node, its relation
(database, schema, alias), its enforced contract and the exposures that read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from faucet_core.catalog import Consumer, Contract
from faucet_dagster.metadata import unwrap

__all__ = [
    "MANIFEST_KEY",
    "PROJECT_KEY",
    "UNIQUE_ID_KEY",
    "DbtNode",
    "Relation",
    "dbt_node",
]

MANIFEST_KEY = "dagster_dbt/manifest"
UNIQUE_ID_KEY = "dagster_dbt/unique_id"
PROJECT_KEY = "dagster_dbt/project"


def _plain(value: Any) -> Any:
    """A metadata value unwrapped: event metadata wraps, the manifest has its own wrapper."""
    value = unwrap(value)
    return getattr(value, "manifest", value)


@dataclass(frozen=True)
class Relation:
    """Where a dbt node lives in the warehouse."""

    database: str | None
    schema: str | None
    name: str

    def __str__(self) -> str:
        return ".".join(p for p in (self.database, self.schema, self.name) if p)


@dataclass(frozen=True)
class DbtNode:
    """One dbt node (model, seed, snapshot) of a manifest."""

    unique_id: str
    props: Mapping[str, Any]
    manifest: Mapping[str, Any]
    project_dir: Path | None = None
    """The dbt project's folder (from ``dagster_dbt/project``), when dagster-dbt gives it."""

    @property
    def resource_type(self) -> str:
        return str(self.props.get("resource_type", ""))

    @property
    def name(self) -> str:
        return str(self.props.get("name", self.unique_id))

    @property
    def language(self) -> str:
        return str(self.props.get("language") or "sql")

    @property
    def materialized(self) -> str:
        return str((self.props.get("config") or {}).get("materialized") or "")

    @property
    def relation(self) -> Relation:
        """The relation dbt builds: its database, schema and alias (the table's name)."""
        props = self.props
        name = props.get("alias") or props.get("identifier") or props.get("name")
        return Relation(props.get("database") or None, props.get("schema") or None, str(name))

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(str(c) for c in (self.props.get("columns") or {}))

    def contract(self) -> Contract | None:
        """An enforced dbt contract as a faucet contract: its version is the model's
        ``version`` when it is versioned, else the first 12 hex digits of dbt's contract
        checksum (it changes when the declared columns or types change); its columns are
        the declared ones."""
        config = self.props.get("config") or {}
        enforced = (self.props.get("contract") or {}).get("enforced")
        if not (enforced or (config.get("contract") or {}).get("enforced")):
            return None
        version = self.props.get("version")
        if version in (None, ""):
            checksum = (self.props.get("contract") or {}).get("checksum") or ""
            version = checksum[:12] if checksum else "enforced"
        return Contract(str(version), self.columns)

    def exposures(self) -> tuple[Consumer, ...]:
        """The dbt exposures that depend on this node, as consumers: the exposure's name,
        its type as the kind, its owner (name and email) as the contact."""
        found = []
        for exposure in (self.manifest.get("exposures") or {}).values():
            if self.unique_id not in ((exposure.get("depends_on") or {}).get("nodes") or ()):
                continue
            owner = exposure.get("owner") or {}
            name, email = owner.get("name") or "", owner.get("email") or ""
            contact = f"{name} <{email}>" if name and email else (name or email)
            found.append(
                Consumer(
                    name=str(exposure.get("name")),
                    kind=str(exposure.get("type") or "exposure"),
                    contact=str(contact),
                )
            )
        return tuple(sorted(found, key=lambda c: c.name))


def dbt_node(metadata: Mapping[str, Any] | None) -> DbtNode | None:
    """The dbt node an asset's definition metadata names, or None for other assets."""
    md = metadata or {}
    unique_id = _plain(md.get(UNIQUE_ID_KEY))
    manifest = _plain(md.get(MANIFEST_KEY))
    if not isinstance(unique_id, str) or not isinstance(manifest, Mapping):
        return None
    props = (manifest.get("nodes") or {}).get(unique_id)
    if props is None:
        props = (manifest.get("sources") or {}).get(unique_id)
    if not isinstance(props, Mapping):
        return None
    folder = getattr(_plain(md.get(PROJECT_KEY)), "project_dir", None)
    return DbtNode(unique_id, props, manifest, Path(folder) if folder else None)
