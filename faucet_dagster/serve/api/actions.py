"""The two things ``faucet serve`` does for a caller, shared by the JSON API and the web
console so both go through one code path: annotate a dataset (with its audit entry, in
one transaction) and plan a change's impact (as ``faucet plan --impact``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from faucet_core.catalog import Catalog, Consumer, DatasetDetail
from faucet_core.store.audit import Outcome, record_audit
from faucet_dagster.serve.api.auth import Principal

if TYPE_CHECKING:
    from sqlalchemy import Connection

    from faucet_core.impact import ChangeImpact
    from faucet_dagster.location import CodeLocation

__all__ = ["annotate_audited", "plan_change", "plan_json"]


def annotate_audited(
    catalog: Catalog,
    ref: str,
    who: Principal,
    *,
    owners: Sequence[str] | None = None,
    consumers: Sequence[Consumer] = (),
    replace: bool = False,
    add_owners: Sequence[str] = (),
    remove_owners: Sequence[str] = (),
    remove_consumers: Sequence[str] = (),
) -> DatasetDetail:
    """Annotate dataset ``ref`` and write its ``catalog.annotate`` audit entry in one
    transaction: both are written or neither."""
    detail: dict[str, Any] = {
        "owners": None if owners is None else list(owners),
        "consumers": [c.name for c in consumers],
        "replace": replace,
    }
    for name, value in (
        ("add_owners", add_owners),
        ("remove_owners", remove_owners),
        ("remove_consumers", remove_consumers),
    ):
        if value:
            detail[name] = list(value)

    def audit(conn: Connection, key: str) -> None:
        record_audit(
            conn,
            actor=who.name,
            role=who.role.value,
            action="catalog.annotate",
            outcome=Outcome.OK,
            status=200,
            target=key,
            detail=detail,
        )

    return catalog.annotate(
        ref,
        owners=owners,
        consumers=consumers,
        replace=replace,
        add_owners=add_owners,
        remove_owners=remove_owners,
        remove_consumers=remove_consumers,
        in_transaction=audit,
    )


def plan_change(
    location: CodeLocation,
    catalog: Catalog,
    selections: Sequence[str],
    *,
    sample: Path | None = None,
    depth: int,
) -> ChangeImpact:
    """``faucet plan --impact --select ... [--sample FILE]`` over the location's assets."""
    from faucet_dagster.plan.impact import plan_change_impact

    return plan_change_impact(catalog, location.defs, list(selections), sample=sample, depth=depth)


def plan_json(change: ChangeImpact) -> dict[str, Any]:
    """The JSON of ``faucet plan --impact --json``: one asset keeps the single-report shape
    (``{"impact": ...}``), a change set of several is ``{"change": ...}``."""
    single = change.plans[0] if len(change.plans) == 1 else None
    if single is not None and single.report is not None:
        return single.report.to_dict()
    return change.to_dict()
