"""The pull-request comment: every value is escaped for its place (a table cell, a code
span, the fenced detail), so no dataset name or type can break the layout."""

from __future__ import annotations

from faucet_core.impact import (
    AffectedDataset,
    AssetPlan,
    ChangeImpact,
    ChangeKind,
    ColumnChange,
    ColumnRead,
    ConsumerHit,
    ImpactReport,
    ImpactSeverity,
    PlannedFrom,
    TypeChange,
    render_markdown,
)


def _report() -> ImpactReport:
    change = ColumnChange(
        "email", ChangeKind.RETYPED, "string", "string|null", ImpactSeverity.ADDITIVE,
        TypeChange.WIDENING,
    )  # fmt: skip
    sink = AffectedDataset(
        "file:///odd`name|x.csv", "id0", 0, ImpactSeverity.BREAKING, ("job",),
        (ColumnRead("email", (), (change.label,)),), (), ("team|a",),
        (ConsumerHit("dash", "dashboard", "#bi | ops", (), ImpactSeverity.BREAKING),),
    )  # fmt: skip
    down = AffectedDataset(
        "file:///b.csv", "id1", 1, ImpactSeverity.BREAKING, ("job2",),
        (ColumnRead("contact", ("email",), ("email removed",)),), (), (), (),
        opaque_from="file:///c.csv", opaque_edge=True,
    )  # fmt: skip
    return ImpactReport(
        ImpactSeverity.BREAKING, PlannedFrom.DECLARED, "file:///odd`name|x.csv", "id0", "run-1", 5,
        (change,), (sink, down), ("team|a",), ("a note with ``` inside",),
    )  # fmt: skip


def test_cells_code_spans_and_fences_are_escaped() -> None:
    text = render_markdown(ChangeImpact.of([AssetPlan("a/b", _report())]))
    rows = [line for line in text.splitlines() if line.startswith("| **breaking**")]
    assert rows == [
        "| **breaking** | 0 | `` file:///odd`name\\|x.csv `` | email retyped string -> "
        "string\\|null (additive) | - | team\\|a | dash (dashboard, breaking, #bi \\| ops) |",
        "| **breaking** | 1 | `file:///b.csv` | contact ← email; also an opaque path: no column "
        "lineage on the edge from file:///c.csv | - | - | - |",
    ]
    assert "\n````text\n" in text  # longer than the ``` inside the detail
    assert text.rstrip().endswith("````\n\n</details>")


def test_skipped_asset_and_summary_line() -> None:
    change = ChangeImpact.of(
        [AssetPlan("z", None, "dagster://z has no recorded run"), AssetPlan("a/b", _report())]
    )
    lines = render_markdown(change).splitlines()
    assert lines[:4] == [
        "<!-- faucet-impact -->",
        "### Change impact: breaking",
        "",
        "**breaking**: 1 of 2 selected asset(s) planned (`a/b`, `z`); 2 affected dataset(s); "
        "owners to notify: team\\|a",
    ]
    assert lines[-3:] == ["#### `z`: not planned", "", "dagster://z has no recorded run"]
