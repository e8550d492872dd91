"""Dataset owners, kept per source so that no source overwrites another's.

A dataset's owners are the union of its owner sets, one per :class:`OwnerSource`. Each
source replaces only its own set: a materialization or ``faucet catalog sync`` the
``code`` set, an OpenLineage event the ``openlineage`` set, the ``catalog:`` block the
``config`` set, ``faucet catalog annotate`` (and the API) the ``annotation`` set. The union
is also written to ``faucet_datasets.owners``, which the impact plan reads.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, bindparam, delete, select, update

from faucet_core.catalog.codec import decode_list, dumps
from faucet_core.catalog.model import Owner, OwnerSource
from faucet_core.db.chunks import chunks
from faucet_core.db.schema import catalog_datasets, catalog_owners
from faucet_core.errors import CatalogError, StoreCorruptError

__all__ = [
    "Owner",
    "OwnerSource",
    "clean_names",
    "edit_owners",
    "owner_sets",
    "owners_by_dataset",
    "run_source",
    "write_owner_sets",
]


_ORDER = tuple(OwnerSource)


def run_source(source: str) -> OwnerSource:
    """The owner source of a run record's ``source`` (``dagster`` or ``openlineage``)."""
    return OwnerSource.CODE if source == "dagster" else OwnerSource.OPENLINEAGE


def clean_names(names: Iterable[str]) -> tuple[str, ...]:
    """``names`` stripped, without blanks and repeats, in order."""
    return tuple(dict.fromkeys(n.strip() for n in names if n and n.strip()))


def _rows(conn: Connection, ids: Sequence[str] | None) -> list[Any]:
    o = catalog_owners.c
    query = select(catalog_owners)
    if ids is None:
        return list(conn.execute(query))
    rows: list[Any] = []
    unique = sorted(set(ids))
    for part in chunks(unique):
        rows.extend(conn.execute(query.where(o.dataset_id.in_(part))))
    return rows


def owner_sets(
    conn: Connection, ids: Sequence[str] | None = None
) -> dict[str, dict[OwnerSource, tuple[str, ...]]]:
    """``{dataset id: {source: owners}}`` for ``ids`` (None: every dataset)."""
    out: dict[str, dict[OwnerSource, tuple[str, ...]]] = {}
    for row in _rows(conn, ids):
        where = f"dataset {row.dataset_id} owners from {row.source}"
        try:
            source = OwnerSource(row.source)
        except ValueError:
            raise StoreCorruptError(f"{where}: unknown owner source {row.source!r}") from None
        names = decode_list(row.owners, where)
        if names:
            out.setdefault(row.dataset_id, {})[source] = names
    return out


def _union(sets: Mapping[OwnerSource, tuple[str, ...]]) -> tuple[Owner, ...]:
    sources: dict[str, list[OwnerSource]] = {}
    for source in _ORDER:
        for name in sets.get(source, ()):
            sources.setdefault(name, []).append(source)
    return tuple(Owner(name, tuple(found)) for name, found in sources.items())


def owners_by_dataset(
    conn: Connection, ids: Sequence[str] | None = None
) -> dict[str, tuple[Owner, ...]]:
    """Each dataset's owners with their sources, code first, then openlineage, config,
    annotation, legacy (the order of :class:`OwnerSource`)."""
    return {key: _union(sets) for key, sets in owner_sets(conn, ids).items()}


def write_owner_sets(
    conn: Connection,
    updates: Mapping[tuple[str, OwnerSource], Sequence[str]],
    now: dt.datetime,
) -> None:
    """Replace the owner set of each ``(dataset id, source)`` in ``updates`` (an empty set
    removes it), then rewrite those datasets' union. A ``legacy`` name that another source
    now declares leaves the legacy set: its source is known at last."""
    if not updates:
        return
    o = catalog_owners.c
    current = owner_sets(conn, sorted({key for key, _ in updates}))
    # An empty set for a source that holds none changes nothing: skip it.
    updates = {
        (key, source): names
        for (key, source), names in updates.items()
        if clean_names(names) or source in current.get(key, {})
    }
    if not updates:
        return
    ids = sorted({key for key, _ in updates})
    for (key, source), names in updates.items():
        current.setdefault(key, {})[source] = clean_names(names)
    for key in ids:
        sets = current.get(key, {})
        legacy = sets.get(OwnerSource.LEGACY, ())
        if legacy:
            known = {n for s, names in sets.items() if s is not OwnerSource.LEGACY for n in names}
            sets[OwnerSource.LEGACY] = tuple(n for n in legacy if n not in known)
    conn.execute(
        delete(catalog_owners).where(
            o.dataset_id == bindparam("ds_id"), o.source == bindparam("src")
        ),
        [{"ds_id": key, "src": source.value} for key in ids for source in current.get(key, {})],
    )
    rows = [
        {"dataset_id": key, "source": source.value, "owners": dumps(list(names)), "updated_at": now}
        for key in ids
        for source, names in current.get(key, {}).items()
        if names
    ]
    if rows:
        conn.execute(catalog_owners.insert(), rows)
    t = catalog_datasets.c
    conn.execute(
        update(catalog_datasets)
        .where(t.id == bindparam("ds_id"))
        .values(owners=bindparam("owners"), updated_at=bindparam("now")),
        [
            {
                "ds_id": key,
                "owners": dumps([x.name for x in _union(current.get(key, {}))]),
                "now": now,
            }
            for key in ids
        ],
    )


_WHERE_FROM = {
    OwnerSource.CODE: "code (the Dagster asset's owners=)",
    OwnerSource.OPENLINEAGE: "OpenLineage (an ownership facet)",
    OwnerSource.CONFIG: "the catalog: block of the FaucetResource",
}


def edit_owners(
    conn: Connection,
    key: str,
    *,
    source: OwnerSource,
    owners: Sequence[str] | None = None,
    remove: Sequence[str] = (),
    clear: bool = False,
    add: Sequence[str] = (),
    now: dt.datetime,
) -> None:
    """Edit one source's owner set of dataset ``key``: ``owners`` replaces it, ``add``
    puts names in (in order, no repeat), ``remove`` takes names out, ``clear`` empties it.
    Editing the ``annotation`` set also edits the ``legacy`` one (owners an older faucet
    recorded, when annotate replaced every owner).

    Removing a name the set does not hold is refused, naming where the name comes from.
    """
    if owners is None and not remove and not clear and not add:
        return
    if clear and (owners is not None or remove or add):
        raise CatalogError(
            "clearing the annotated owners cannot be combined with setting or removing "
            "some: give one of them"
        )
    edited = [source]
    if source is OwnerSource.ANNOTATION:
        edited.append(OwnerSource.LEGACY)
    sets = owner_sets(conn, [key]).get(key, {})
    updates: dict[tuple[str, OwnerSource], Sequence[str]] = {}
    if clear:
        updates = {(key, s): () for s in edited}
    elif owners is not None:
        updates = {(key, s): () for s in edited[1:]}
        updates[(key, source)] = clean_names(owners)
    if add:
        held_now = updates.get((key, source), sets.get(source, ()))
        updates[(key, source)] = clean_names([*held_now, *add])
    if remove:
        drop = set(clean_names(remove))
        held = {n for s in edited for n in sets.get(s, ())}
        for name in clean_names(remove):
            if name in held:
                continue
            elsewhere = [s for s, names in sets.items() if name in names and s not in edited]
            if elsewhere:
                raise CatalogError(
                    f"owner {name!r} of dataset {key} is not an annotated owner: it comes "
                    f"from {_WHERE_FROM[elsewhere[0]]}; change it there (annotate edits only "
                    "the annotated owners)"
                )
            current = ", ".join(str(o) for o in _union(sets)) or "none"
            raise CatalogError(
                f"dataset {key} has no owner {name!r} to remove; its owners: {current}"
            )
        base = {s: updates.get((key, s), sets.get(s, ())) for s in edited}
        for s in edited:
            updates[(key, s)] = tuple(n for n in base[s] if n not in drop)
    write_owner_sets(conn, updates, now)
