"""The health views' pure parts: the status rule, sorting, list links, charts, the page
model of a profile history (real profiles, real detector), and escaping."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re

import pyarrow as pa
import pytest

from faucet_core import ProfilingConfig, profile
from faucet_core.catalog import LatestOutcome
from faucet_core.catalog.model import DatasetProfileRun
from faucet_core.drift import detect_drift
from faucet_dagster.serve.console.charts import ChartPoint, svg_chart
from faucet_dagster.serve.console.dataset_view import profile_view
from faucet_dagster.serve.console.pages import _list_link
from faucet_dagster.serve.console.render import without_cli
from faucet_dagster.serve.console.views import DatasetRow, Status, sorted_rows, status_of

T0 = dt.datetime(2026, 3, 2, 6, tzinfo=dt.timezone.utc)
HOSTILE = "<script>alert(1)</script>"


def _outcome(status: str, minutes: int = 0) -> LatestOutcome:
    return LatestOutcome("r", T0 + dt.timedelta(minutes=minutes), status, ())


def test_the_status_rule() -> None:
    later = T0 + dt.timedelta(minutes=5)
    assert status_of(None, asset=True, error_at=None) is Status.NEVER
    assert status_of(None, asset=False, error_at=None) is Status.UNPROFILED
    assert status_of(None, asset=True, error_at=later) is Status.ERROR
    assert status_of(_outcome("drifted"), asset=True, error_at=None) is Status.DRIFTED
    assert status_of(_outcome("warming"), asset=True, error_at=None) is Status.WARMING
    # a check error counts only when it is newer than the newest recorded run
    assert status_of(_outcome("stable", 10), asset=True, error_at=later) is Status.STABLE
    assert status_of(_outcome("stable", 1), asset=True, error_at=later) is Status.ERROR
    assert status_of(_outcome("recorded"), asset=True, error_at=None) is Status.UNPROFILED


def _row(uri: str, status: Status, findings: int = 0, last_run: str = "-") -> DatasetRow:
    return DatasetRow(uri, uri, "s3", (), last_run, "-", status, findings)


def test_sorting_by_status_name_and_last_run() -> None:
    rows = [
        _row("c", Status.STABLE, last_run="2026-03-02 06:00:00Z"),
        _row("a", Status.NEVER),
        _row("d", Status.DRIFTED, 1),
        _row("b", Status.DRIFTED, 3, "2026-03-03 06:00:00Z"),
        _row("e", Status.ERROR),
    ]
    assert [r.uri for r in sorted_rows(rows, "status")] == ["b", "d", "e", "c", "a"]
    assert [r.uri for r in sorted_rows(rows, "name")] == ["a", "b", "c", "d", "e"]
    assert [r.uri for r in sorted_rows(rows, "last_run")] == ["b", "c", "a", "d", "e"]


def test_list_links_keep_search_filter_and_sort() -> None:
    assert _list_link(("", "", "status")) == "/ui/datasets"
    assert _list_link(("", "", "status"), page=2) == "/ui/datasets?page=2"
    assert _list_link(("a b&c", "drifted", "name"), page=3) == (
        "/ui/datasets?q=a+b%26c&status=drifted&sort=name&page=3"
    )
    assert _list_link(("x", "drifted", "name"), status="", sort="status") == "/ui/datasets?q=x"


def test_error_pages_drop_command_line_advice() -> None:
    assert without_cli(
        "no dataset 'x' in the catalog: `faucet catalog datasets` lists the URIs it knows"
    ) == ("no dataset 'x' in the catalog")
    assert without_cli("failed (ValueError: x); run `faucet doctor` to find the damaged run") == (
        "failed (ValueError: x)"
    )
    assert without_cli("plain words stay") == "plain words stay"


def _points(values: list[float | None], drift: int | None = None) -> list[ChartPoint]:
    return [
        ChartPoint(
            T0 + dt.timedelta(days=i),
            v,
            f"run {i}",
            drift=i == drift,
            expected=(1.0, 2.0) if i == drift else None,
        )
        for i, v in enumerate(values)
    ]


def test_a_chart_has_a_time_axis_a_band_and_one_marker() -> None:
    svg = str(
        svg_chart(
            _points([1.0, 1.2, None, 1.1, 9.0], drift=4),
            label="x mean",
            fmt=lambda v: f"{v:.1f}",
            band=(0.5, 1.7),
            band_from=T0,
        )
    )
    assert 'data-points="5" data-drift="1" data-band' in svg
    assert svg.count('class="drift"') == 1
    assert svg.count('class="run"') == 3
    assert svg.count("<polyline") == 2  # the line breaks at the run without a value
    assert "the detector&#39;s band for the latest run: 0.5 to 1.7" in svg
    assert "run 4: 9.0 (drift; expected 1.0 to 2.0)" in svg
    assert '<rect class="expected"' in svg
    assert re.findall(r'text-anchor="(?:start|end)">(\d\d-\d\d)<', svg) == ["03-02", "03-06"]
    assert "style=" not in svg  # presentation attributes only (the CSP has no inline style)


def test_a_chart_escapes_and_survives_edge_cases() -> None:
    hostile = str(
        svg_chart(_points([1.0]), label=HOSTILE, fmt=str, band=(float("-inf"), float("inf")))
    )
    assert HOSTILE not in hostile
    assert "&lt;script&gt;" in hostile
    empty = str(svg_chart([], label="none", fmt=str))
    assert 'data-points="0"' in empty
    flat = str(svg_chart(_points([0.0, 0.0]), label="flat", fmt=str, bounds=(0.0, 1.0)))
    assert "nan" not in flat.lower()
    sparse = str(svg_chart(_points([0.1, 0.2, 0.3], drift=1), label="s", fmt=str, dots=False))
    assert sparse.count("<circle") == 2  # the marked run and the newest


def _history(config: ProfilingConfig, drift_at: int) -> list[DatasetProfileRun]:
    runs = []
    profiles = []
    for i in range(drift_at + 1):
        shift = 500.0 if i == drift_at else 0.0
        table = pa.table(
            {
                HOSTILE: [shift + 10.0 + (j * 7 + i) % 11 for j in range(120)],
                "kind": [HOSTILE if j % 3 == 0 else "plain" for j in range(120)],
            }
        )
        prof = profile(table)
        baseline = profiles[-config.window :]
        warming = len(baseline) < config.min_history
        found = [] if warming else detect_drift(prof, baseline, config)
        profiles.append(prof)
        runs.append(
            DatasetProfileRun(
                "d" * 16,
                f"run-{i:04}-long-uuid",
                "",
                T0 + dt.timedelta(hours=i),
                "warming" if warming else ("drifted" if found else "stable"),
                prof.row_count,
                tuple(f.to_dict() for f in found),
                prof,
            )
        )
    return runs


@pytest.mark.parametrize("on_drift", ["warn", "fail"])
def test_the_page_model_of_a_drifted_history(on_drift: str) -> None:
    config = ProfilingConfig(min_history=3, on_drift=on_drift)
    view = profile_view(_history(config, 5), config=config, dagster="http://d:3000", types={})
    assert view is not None
    assert [f.column for f in view.findings] == [HOSTILE]
    assert {f.severity for f in view.history} == {"error" if on_drift == "fail" else "warning"}
    assert view.runs[0].run.href == "http://d:3000/runs/run-0005-long-uuid"
    assert view.runs[0].run.short == "run-0005"
    assert [r.status for r in view.runs] == ["drifted", "stable", "stable"] + ["warming up"] * 3
    (col, kind) = view.columns
    mean = next(c for c in col.charts if c.statistic == "mean")
    assert mean.drifted
    assert mean.band.startswith("band ")
    assert 'data-drift="1"' in str(mean.svg)
    assert HOSTILE not in str(mean.svg)  # the column name is escaped in the chart
    assert [v.value for v in kind.values] == ["plain", HOSTILE]  # escaped by the template
    assert view.warmup == ""


def test_no_profile_no_view_and_no_config_no_band() -> None:
    config = ProfilingConfig(min_history=3)
    assert profile_view([], config=config, dagster=None, types={}) is None
    view = profile_view(_history(config, 4), config=None, dagster=None, types={})
    assert view is not None
    assert all(not c.band for col in view.columns for c in col.charts)
    assert view.runs[0].run.href is None
    warming = profile_view(_history(config, 1), config=config, dagster=None, types={})
    assert warming is not None
    assert warming.warmup.startswith("warming up: 1 of the 3 baseline run(s)")


def test_partitions_with_their_own_baseline_are_shown_one_at_a_time() -> None:
    config = ProfilingConfig(min_history=3)
    runs = [
        dataclasses.replace(r, partition="eu" if i % 2 else "us")
        for i, r in enumerate(_history(config, 7))
    ]
    own = profile_view(runs, config=config, dagster=None, types={}, per_partition=True)
    shared = profile_view(runs, config=config, dagster=None, types={})
    assert own is not None
    assert shared is not None
    assert own.partition == "eu"
    assert shared.partition == ""
    assert {r.partition for r in own.runs} == {"eu"}
    assert len(own.runs) == 4
    assert len(shared.runs) == 8


def test_an_overdue_asset_is_marked_in_the_list() -> None:
    import dagster as dg

    from faucet_core.catalog.model import DatasetEntry
    from faucet_dagster.serve.console.views import dataset_rows

    entries = [
        DatasetEntry(name, f"dagster://{name}", "dagster", name, (), None, None, T0, T0)
        for name in ("orders", "clicks")
    ]
    assets = {"orders": dg.AssetKey("orders"), "clicks": dg.AssetKey("clicks")}
    rows = dataset_rows(entries, {}, assets, overdue={"orders": True, "clicks": False})
    assert [(r.id, r.overdue) for r in rows] == [("orders", True), ("clicks", False)]
    assert [r.overdue for r in dataset_rows(entries, {}, assets)] == [False, False]
