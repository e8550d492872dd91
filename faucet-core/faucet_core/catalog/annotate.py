"""Annotating a dataset inside a write transaction: its owners (one source's set) and its
consumers."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, delete, select, update

from faucet_core.catalog.codec import dumps
from faucet_core.catalog.model import Consumer, OwnerSource
from faucet_core.catalog.owners import edit_owners
from faucet_core.catalog.upsert import upsert_ignore
from faucet_core.clock import utc_now
from faucet_core.db.schema import catalog_consumers, catalog_datasets
from faucet_core.errors import CatalogError

__all__ = ["annotate"]


def annotate(
    conn: Connection,
    key: str,
    owners: Sequence[str] | None,
    consumers: Sequence[Consumer],
    replace: bool,
    *,
    source: OwnerSource = OwnerSource.ANNOTATION,
    remove_owners: Sequence[str] = (),
    clear_owners: bool = False,
    add_owners: Sequence[str] = (),
    remove_consumers: Sequence[str] = (),
) -> None:
    """``owners`` replaces the owner set of ``source`` (the annotated owners unless
    told otherwise), ``add_owners`` adds to it; ``remove_consumers`` drops consumers by
    name (a name not declared is refused); see :meth:`Catalog.annotate`."""
    now = utc_now()
    t = catalog_datasets.c
    c = catalog_consumers.c
    edit_owners(
        conn,
        key,
        source=source,
        owners=owners,
        remove=remove_owners,
        clear=clear_owners,
        add=add_owners,
        now=now,
    )
    if remove_consumers:
        _drop_consumers(conn, key, remove_consumers)
        conn.execute(update(catalog_datasets).where(t.id == key).values(updated_at=now))
    if replace:
        keep = [x.name for x in consumers]
        conn.execute(delete(catalog_consumers).where(c.dataset_id == key, c.name.not_in(keep)))
    rows = [
        {
            "dataset_id": key,
            "name": x.name,
            "kind": x.kind,
            "contact": x.contact,
            "columns": dumps(list(x.columns)),
        }
        for x in consumers
    ]
    if rows:
        conn.execute(
            delete(catalog_consumers).where(
                c.dataset_id == key, c.name.in_([x.name for x in consumers])
            )
        )
        upsert_ignore(conn, catalog_consumers, rows)
        conn.execute(update(catalog_datasets).where(t.id == key).values(updated_at=now))


def _drop_consumers(conn: Connection, key: str, names: Sequence[str]) -> None:
    c = catalog_consumers.c
    rows = conn.execute(select(c.name).where(c.dataset_id == key)).all()
    held = {str(row[0]) for row in rows}
    missing = [n for n in names if n not in held]
    if missing:
        known = ", ".join(sorted(held)) or "none"
        raise CatalogError(
            f"dataset {key} has no consumer {missing[0]!r} to remove; its consumers: {known}"
        )
    conn.execute(delete(catalog_consumers).where(c.dataset_id == key, c.name.in_(names)))
