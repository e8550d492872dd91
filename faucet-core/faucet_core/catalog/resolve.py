"""Which dataset a reference names: a canonical URI, or an id (or a prefix of one)."""

from __future__ import annotations

from sqlalchemy import Connection, select

from faucet_core.catalog.read import find_ids, find_uri
from faucet_core.catalog.uri import (
    ID_LENGTH,
    MIN_ID_PREFIX,
    dataset_id,
    dataset_uri,
    is_id_prefix,
    looks_like_uri,
    split_uri,
)
from faucet_core.db.schema import catalog_datasets
from faucet_core.errors import CatalogError

__all__ = ["config_target", "resolve"]


def resolve(conn: Connection, ref: str, url: str) -> str:
    """The id of the dataset ``ref`` names in the catalog at ``url`` (named in errors);
    :class:`CatalogError` when none, or when an id prefix is ambiguous."""
    value = (ref or "").strip()
    if looks_like_uri(value):
        namespace, name = split_uri(value)
        uri = dataset_uri(namespace, name)
        found = find_uri(conn, sorted({value, uri}))
        if found:
            return found[0][0]
        raise CatalogError(
            f"no dataset {value!r} in the catalog {url}: `faucet catalog datasets` "
            "lists the URIs it knows"
        )
    if not is_id_prefix(value):
        raise CatalogError(
            f"{value!r} is neither a dataset URI (scheme://...) nor an id ({MIN_ID_PREFIX} to "
            f"{ID_LENGTH} hex digits, as `faucet catalog datasets` prints it)"
        )
    matches = find_ids(conn, value.lower())
    if not matches:
        raise CatalogError(
            f"no dataset with id {value!r} in the catalog {url}: `faucet catalog "
            "datasets` lists the ids it knows"
        )
    if len(matches) > 1:
        shown = ", ".join(f"{i} ({u})" for i, u in matches[:5])
        raise CatalogError(
            f"id prefix {value!r} is ambiguous: it matches {shown}"
            + (" and more" if len(matches) > 5 else "")
            + "; give more digits"
        )
    return matches[0][0]


def config_target(conn: Connection, ref: str, wanted: set[str] | None) -> str | None:
    """The dataset a ``catalog:`` block entry names, or None (unknown, ambiguous, or not
    among ``wanted`` when given): the block never creates nor guesses a dataset."""
    if looks_like_uri(ref):
        key = dataset_id(dataset_uri(*split_uri(ref)))
        if wanted is not None:
            return key if key in wanted else None
        exists = conn.execute(
            select(catalog_datasets.c.id).where(catalog_datasets.c.id == key)
        ).first()
        return key if exists else None
    prefix = ref.lower()
    if wanted is not None:
        hits = sorted(k for k in wanted if k.startswith(prefix))
        return hits[0] if len(hits) == 1 else None
    matches = find_ids(conn, prefix)
    return matches[0][0] if len(matches) == 1 else None
