"""A change set: the impact of shipping several assets at once, as one report.

Each selected asset is planned on its own (its planned schema against its own sink); the
change's severity is the worst of them and its owners the union. An asset the catalog has
never seen written (a new asset: nothing observed, nothing downstream reads it yet) is
listed as not planned, with the reason, and does not lower or raise the severity.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from faucet_core.impact.report import ImpactReport, ImpactSeverity, render_text

__all__ = ["AssetPlan", "ChangeImpact", "render_change_text"]


@dataclass(frozen=True)
class AssetPlan:
    """One selected asset: its report, or why it was not planned."""

    asset: str
    report: ImpactReport | None
    skipped: str | None = None

    def to_dict(self) -> dict[str, Any]:
        if self.report is None:
            return {"asset": self.asset, "skipped": self.skipped}
        return {"asset": self.asset, **self.report.to_dict()}


@dataclass(frozen=True)
class ChangeImpact:
    """The impact of a change set: every selected asset's plan."""

    plans: tuple[AssetPlan, ...]

    @classmethod
    def of(cls, plans: Sequence[AssetPlan]) -> ChangeImpact:
        return cls(tuple(sorted(plans, key=lambda p: p.asset)))

    @property
    def reports(self) -> tuple[ImpactReport, ...]:
        return tuple(p.report for p in self.plans if p.report is not None)

    @property
    def severity(self) -> ImpactSeverity:
        return ImpactSeverity.worst(r.severity for r in self.reports)

    @property
    def owners(self) -> tuple[str, ...]:
        return tuple(sorted({o for r in self.reports for o in r.owners}))

    def to_dict(self) -> dict[str, Any]:
        return {
            "change": {
                "severity": self.severity.value,
                "assets": [p.asset for p in self.plans],
                "owners": list(self.owners),
                "plans": [p.to_dict() for p in self.plans],
            }
        }


def render_change_text(change: ChangeImpact) -> str:
    """The change set for a terminal: a summary line, then each asset's report."""
    planned = [p for p in change.plans if p.report is not None]
    lines = [
        f"change: {change.severity.value} ({len(change.plans)} asset(s) selected, "
        f"{len(planned)} planned)",
        f"  owners to notify: {', '.join(change.owners) or '-'}",
    ]
    for plan in change.plans:
        lines.append("")
        if plan.report is None:
            lines.append(f"Asset {plan.asset}: not planned: {plan.skipped}")
            continue
        lines.append(f"Asset {plan.asset}:")
        lines.append(render_text(plan.report))
    return "\n".join(lines)
