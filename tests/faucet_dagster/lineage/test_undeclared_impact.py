"""The example project with its declared column lineage removed, on real in-process runs:
``faucet plan --impact`` for a dropped column still names the downstream columns it
reaches: over ``orders -> revenue_by_region`` from the SQL that asset runs, over
``raw_orders -> orders`` inferred from the profiles, with the evidence, and
``regional_report`` (neither SQL nor profiles) stays ``unknown``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pytest

from faucet_core.catalog import Catalog
from faucet_dagster.cli import main
from faucet_dagster.location import load_code_location

REPO = Path(__file__).resolve().parents[3]
LOCATION = str(Path(__file__).with_name("example_undeclared.py"))


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Three days of the example pipeline, materialized with its profile checks."""
    mp = pytest.MonkeyPatch()
    url = f"sqlite:///{tmp_path_factory.mktemp('undeclared') / 'faucet.db'}"
    mp.setenv("FAUCET_STORE_URL", url)
    try:
        defs = load_code_location(file=LOCATION).defs
        job = defs.resolve_implicit_global_asset_job_def()
        with dg.instance_for_test() as instance:
            for day in (1, 2, 3):
                mp.setenv("FAUCET_EXAMPLE_DAY", str(day))
                assert job.execute_in_process(instance=instance).success
        yield url
    finally:
        mp.undo()


@pytest.fixture
def on_path(monkeypatch: pytest.MonkeyPatch, store: str) -> str:
    monkeypatch.setenv("FAUCET_STORE_URL", store)
    return store


def _plan(capsys: pytest.CaptureFixture[str], asset: str, sample: Path, *fmt: str) -> str:
    code = main(
        ["plan", "--impact", "-f", LOCATION, "--select", asset, "--sample", str(sample), *fmt]
    )
    out, err = capsys.readouterr()
    assert err == ""
    assert code == 0
    return out


def _by_name(impact: dict) -> dict[str, dict]:
    return {a["dataset"].rsplit("/", 1)[-1]: a for a in impact["affected"]}


def test_the_catalog_keeps_sql_lineage_and_leaves_the_undeclared_edge_opaque(on_path: str) -> None:
    with Catalog(on_path) as catalog:
        revenue = catalog.detail("dagster://revenue_by_region")
        orders = catalog.detail("dagster://orders")
    (sql_edge,) = revenue.upstream
    assert sql_edge.column_lineage is not None
    lineage = sql_edge.column_lineage.to_json()
    assert lineage["fields"]["revenue"] == [
        {"field": "amount", "transformations": [{"type": "DIRECT", "subtype": "AGGREGATION"}]}
    ]
    assert {i["field"] for i in lineage["dataset"]} == {"region", "status"}
    (undeclared,) = orders.upstream
    assert undeclared.column_lineage is None  # inference is never written as an edge's


def test_a_dropped_column_reaches_columns_inferred_then_derived_from_sql(
    on_path: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = tmp_path / "raw_orders.csv"  # tomorrow's raw orders: no amount
    sample.write_text(
        "order_id,customer_email,region,status,ordered_at\n"
        "1,a@example.com,eu,paid,2026-09-02T10:00:00\n"
    )
    impact = json.loads(_plan(capsys, "raw_orders", sample, "--json"))["impact"]
    assert ("amount", "removed") in {(c["column"], c["change"]) for c in impact["schema_delta"]}
    found = _by_name(impact)
    orders = found["orders"]
    assert (orders["severity"], orders.get("inferred")) == ("breaking", True)
    (read,) = [r for r in orders["reads"] if r["column"] == "amount"]
    assert read["inferred"] is True
    assert read["reads"] == ["amount"]
    (evidence,) = read["evidence"]
    assert evidence.startswith("amount: inferred 0.9")
    assert "same name" in evidence
    assert "in 3 of 3 run(s)" in evidence
    # from the SQL revenue_by_region runs: revenue = sum(amount)
    revenue = found["revenue_by_region"]
    assert (revenue["severity"], revenue.get("inferred")) == ("breaking", True)
    assert [(r["column"], r["reads"]) for r in revenue["reads"]] == [("revenue", ["amount"])]
    assert found["regional_report"]["severity"] == "unknown"
    # the other columns of orders are not made up: only the dropped one is named
    assert {r["column"] for r in orders["reads"]} == {"amount"}

    text = _plan(capsys, "raw_orders", sample)
    assert "[breaking (inferred)] depth 1 dagster://orders" in text
    assert "amount reads (inferred) amount (amount removed)" in text
    assert "        evidence: amount: inferred 0.9" in text


def test_a_filter_column_dropped_upstream_of_sql_breaks_every_column(
    on_path: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = tmp_path / "orders.csv"  # orders without status
    sample.write_text("order_id,region,amount,ordered_at\n1,eu,1.5,2026-09-02T10:00:00\n")
    impact = json.loads(_plan(capsys, "orders", sample, "--json"))["impact"]
    revenue = _by_name(impact)["revenue_by_region"]
    assert revenue["severity"] == "breaking"
    assert "inferred" not in revenue  # known from the SQL, not inferred
    assert [(r["column"], r["reads"]) for r in revenue["reads"]] == [("*", ["status"])]


def test_catalog_show_says_which_lineage_is_inferred(
    on_path: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["catalog", "show", "dagster://orders"]) == 0
    text = capsys.readouterr().out
    _, _, rest = text.partition("column lineage: unknown (opaque)\n")
    assert "inferred from 3 profiled run(s), not declared:" in rest
    block = rest.split("  downstream:")[0].splitlines()[1:]
    assert [line.split(" (")[0].strip() for line in block] == [
        f"{c} <- {c}" for c in ("amount", "order_id", "ordered_at", "region", "status")
    ]  # the five columns orders copies, and nothing else
    assert "revenue <- amount [DIRECT/AGGREGATION]" in rest  # the SQL's, declared
    assert main(["catalog", "show", "dagster://orders", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (edge,) = data["upstream"]
    assert edge["column_lineage"] is None
    confident = [c for c in edge["inferred_lineage"]["candidates"] if c["confident"]]
    assert len(confident) == 5


def test_fail_on_breaking_with_a_break_reached_only_by_inference(
    on_path: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``breaking (inferred)`` counts as ``breaking`` in the report's severity; the exit
    status does not hang on it: only the planned asset's breaking changes flow, so its own
    entry is ``breaking`` too."""
    sample = tmp_path / "raw_orders.csv"  # tomorrow's raw orders: no amount
    sample.write_text(
        "order_id,customer_email,region,status,ordered_at\n"
        "1,a@example.com,eu,paid,2026-09-02T10:00:00\n"
    )
    args = ["plan", "--impact", "-f", LOCATION, "--select", "raw_orders", "--sample", str(sample)]
    assert main([*args, "--json", "--fail-on", "breaking"]) == 3
    impact = json.loads(capsys.readouterr().out)["impact"]
    assert impact["severity"] == "breaking"
    found = _by_name(impact)
    assert (found["orders"]["severity"], found["orders"].get("inferred")) == ("breaking", True)
    assert found["raw_orders"]["severity"] == "breaking"  # the sink: amount removed
    assert "inferred" not in found["raw_orders"]
    assert main([*args, "--fail-on", "unknown"]) == 3
    capsys.readouterr()
