"""Change impact analysis: the schema delta a change makes at its sink, and every dataset,
contract, owner and consumer downstream it reaches (``faucet plan --impact``).
See docs/impact.md."""

from faucet_core.impact.change import AssetPlan, ChangeImpact, render_change_text
from faucet_core.impact.delta import schema_delta
from faucet_core.impact.markdown import render_markdown
from faucet_core.impact.plan import DEFAULT_DEPTH, NoRecordedRunError, plan_impact
from faucet_core.impact.planned import (
    Observed,
    PlannedSchema,
    from_declared,
    from_lineage,
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
    ImpactSeverity,
    PlannedFrom,
    SampleRule,
    render_text,
)
from faucet_core.impact.sample import from_sample, from_sample_file
from faucet_core.impact.types import TypeChange, compare_types

__all__ = [
    "DEFAULT_DEPTH",
    "AffectedDataset",
    "AssetPlan",
    "ChangeImpact",
    "ChangeKind",
    "ColumnChange",
    "ColumnRead",
    "ConsumerHit",
    "ContractHit",
    "ImpactReport",
    "ImpactSeverity",
    "NoRecordedRunError",
    "Observed",
    "PlannedFrom",
    "PlannedSchema",
    "SampleRule",
    "TypeChange",
    "compare_types",
    "from_declared",
    "from_lineage",
    "from_sample",
    "from_sample_file",
    "plan_impact",
    "render_change_text",
    "render_markdown",
    "render_text",
    "schema_delta",
    "unknown",
]
