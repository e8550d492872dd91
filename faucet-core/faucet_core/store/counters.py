"""Counters kept in the store, so every process that records a run adds to the same total."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from sqlalchemy import Connection, select
from sqlalchemy.dialects import postgresql, sqlite

from faucet_core.db.schema import metric_counters
from faucet_core.errors import StoreCorruptError

__all__ = ["add_counters", "read_counters", "set_gauges"]


def _labels(labels: Mapping[str, str]) -> str:
    return json.dumps(dict(sorted(labels.items())), separators=(",", ":"), ensure_ascii=False)


def add_counters(
    conn: Connection, increments: Iterable[tuple[str, Mapping[str, str], float]]
) -> None:
    """Add to counters inside the caller's transaction."""
    merged: dict[tuple[str, str], float] = {}
    for name, labels, amount in increments:
        key = (name, _labels(labels))
        merged[key] = merged.get(key, 0.0) + amount
    if not merged:
        return
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    for (name, text), amount in merged.items():
        stmt = insert(metric_counters).values(name=name, labels=text, value=amount)
        stmt = stmt.on_conflict_do_update(
            index_elements=["name", "labels"],
            set_={"value": metric_counters.c.value + stmt.excluded.value},
        )
        conn.execute(stmt)


def set_gauges(conn: Connection, values: Iterable[tuple[str, Mapping[str, str], float]]) -> None:
    """Set gauges (last value wins) inside the caller's transaction."""
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    for name, labels, value in values:
        stmt = insert(metric_counters).values(name=name, labels=_labels(labels), value=value)
        conn.execute(
            stmt.on_conflict_do_update(
                index_elements=["name", "labels"], set_={"value": stmt.excluded.value}
            )
        )


def read_counters(conn: Connection) -> list[tuple[str, dict[str, str], float]]:
    rows = conn.execute(
        select(metric_counters).order_by(metric_counters.c.name, metric_counters.c.labels)
    )
    out = []
    for r in rows:
        try:
            labels = json.loads(r.labels)
            if not isinstance(labels, dict):
                raise TypeError(f"a {type(labels).__name__}, not an object")
            out.append((str(r.name), {str(k): str(v) for k, v in labels.items()}, float(r.value)))
        except (ValueError, TypeError) as exc:
            raise StoreCorruptError(
                f"metric {r.name}: stored labels or value are unreadable ({exc}); delete the "
                "row from faucet_metric_counters (the counter restarts from zero)"
            ) from None
    return out
