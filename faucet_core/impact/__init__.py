"""Change impact analysis: the schema delta a change makes at its sink, and every dataset,
contract, owner and consumer downstream it reaches (``faucet plan --impact``).
See docs/impact.md."""

from faucet_core.impact.delta import schema_delta
from faucet_core.impact.plan import DEFAULT_DEPTH, plan_impact
from faucet_core.impact.planned import (
    PlannedSchema,
    from_declared,
    from_lineage,
    from_sample,
    unknown,
)
from faucet_core.impact.report import (
    AffectedDataset,
    ChangeKind,
    ColumnChange,
    ColumnRead,
    ConsumerHit,
    ContractHit,
    ImpactReport,
    PlannedFrom,
    Severity,
    render_text,
)
from faucet_core.impact.types import TypeChange, compare_types

__all__ = [
    "DEFAULT_DEPTH",
    "AffectedDataset",
    "ChangeKind",
    "ColumnChange",
    "ColumnRead",
    "ConsumerHit",
    "ContractHit",
    "ImpactReport",
    "PlannedFrom",
    "PlannedSchema",
    "Severity",
    "TypeChange",
    "compare_types",
    "from_declared",
    "from_lineage",
    "from_sample",
    "plan_impact",
    "render_text",
    "schema_delta",
    "unknown",
]
