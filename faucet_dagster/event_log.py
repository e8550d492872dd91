"""Reading asset-check executions from the instance's event log, page by page.

Only ``get_asset_check_execution_history`` (newest first, a storage-id cursor) is used,
which the SQLite and the PostgreSQL event log both support. The notification sensor, the
freshness checks and the lineage sensor read the history through here.

Nothing here imports another faucet_dagster module.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import dagster as dg

__all__ = ["check_history", "evaluation_of", "executions_after", "is_planned"]


def check_history(
    storage: Any, key: dg.AssetCheckKey, *, page_size: int, max_pages: int | None = None
) -> Iterator[Any]:
    """``key``'s execution records, newest first, read ``page_size`` at a time (at most
    ``max_pages`` pages; None: until the history ends). A page is read only when the
    caller has consumed the one before it."""
    cursor: int | None = None
    pages = 0
    while max_pages is None or pages < max_pages:
        page = storage.get_asset_check_execution_history(key, limit=page_size, cursor=cursor)
        pages += 1
        yield from page
        if len(page) < page_size:
            return
        cursor = page[-1].id


def executions_after(
    storage: Any,
    key: dg.AssetCheckKey,
    after: int,
    *,
    page_size: int,
    max_pages: int | None = None,
) -> list[Any]:
    """Every execution record of ``key`` with an id above ``after``, oldest first."""
    found: list[Any] = []
    for record in check_history(storage, key, page_size=page_size, max_pages=max_pages):
        if record.id <= after:
            break
        found.append(record)
    found.sort(key=lambda r: r.id)
    return found


def is_planned(record: Any) -> bool:
    """The check is planned in a run but has no result yet."""
    return bool(record.status.value == "PLANNED")


def evaluation_of(record: Any) -> Any:
    """The ``AssetCheckEvaluation`` an execution record carries (None: none yet)."""
    event = record.event
    dagster_event = event.dagster_event if event is not None else None
    if dagster_event is None:
        return None
    return dagster_event.asset_check_evaluation_data
