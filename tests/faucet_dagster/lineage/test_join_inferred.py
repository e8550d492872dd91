"""A join key inferred over both inputs of a join, on real in-process Dagster runs: the
input whose rows the output keeps keeps it (``faucet plan --impact`` for a dropped
``orders.customer_id`` names ``order_lines.customer_id``, inferred); the input joined on
does not (dropping ``customers.customer_id`` leaves the key unnamed: ``unknown``, never
``none``); with neither side's rows kept (a filter after the join) the key is named over
neither edge, and ``faucet catalog show`` says why."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pytest

from faucet_core.catalog import Catalog
from faucet_dagster.cli import main
from faucet_dagster.location import load_code_location

LOCATION = str(Path(__file__).with_name("join_undeclared.py"))


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    mp = pytest.MonkeyPatch()
    url = f"sqlite:///{tmp_path_factory.mktemp('join') / 'faucet.db'}"
    mp.setenv("FAUCET_STORE_URL", url)
    try:
        defs = load_code_location(file=LOCATION).defs
        job = defs.resolve_implicit_global_asset_job_def()
        with dg.instance_for_test() as instance:
            for day in (1, 2, 3):
                mp.setenv("FAUCET_TEST_DAY", str(day))
                assert job.execute_in_process(instance=instance).success
        yield url
    finally:
        mp.undo()


@pytest.fixture
def on_path(monkeypatch: pytest.MonkeyPatch, store: str) -> str:
    monkeypatch.setenv("FAUCET_STORE_URL", store)
    return store


def _inferred(url: str, sink: str) -> dict[str, dict[tuple[str, str], float]]:
    """``{input asset: {(column, source): confidence}}`` of the edges into ``sink``."""
    with Catalog(url) as catalog:
        detail = catalog.detail(f"dagster://{sink}")
        return {
            edge.source_uri.rsplit("/", 1)[-1]: {
                (c.column, c.source): c.confidence
                for c in catalog.inferred_lineage(edge).candidates
            }
            for edge in detail.upstream
        }


def test_the_side_whose_rows_a_join_keeps_keeps_its_key(on_path: str) -> None:
    got = _inferred(on_path, "order_lines")
    assert got["orders"][("customer_id", "customer_id")] >= 0.8
    assert got["customers"][("customer_id", "customer_id")] < 0.8
    assert got["customers"][("country", "country")] >= 0.8  # only customers holds it
    assert got["orders"][("order_id", "order_id")] >= 0.8


def test_after_a_filter_the_key_is_confident_over_neither_input(on_path: str) -> None:
    got = _inferred(on_path, "big_orders")
    assert got["orders"][("customer_id", "customer_id")] < 0.8
    assert got["customers"][("customer_id", "customer_id")] < 0.8
    assert got["orders"][("amount", "amount")] >= 0.8


def _plan(capsys: pytest.CaptureFixture[str], asset: str, sample: Path) -> dict:
    code = main(
        ["plan", "--impact", "-f", LOCATION, "--select", asset, "--sample", str(sample), "--json"]
    )
    out, err = capsys.readouterr()
    assert err == ""
    assert code == 0
    return {a["dataset"].rsplit("/", 1)[-1]: a for a in json.loads(out)["impact"]["affected"]}


def test_plan_names_the_key_over_the_kept_side_only(
    on_path: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = tmp_path / "orders.csv"  # orders without customer_id
    sample.write_text("order_id,amount\n1,10.5\n")
    found = _plan(capsys, "orders", sample)
    lines = found["order_lines"]
    assert (lines["severity"], lines.get("inferred")) == ("breaking", True)
    (read,) = [r for r in lines["reads"] if r["column"] == "customer_id"]
    assert read["reads"] == ["customer_id"]
    assert "the output keeps its rows; also held by dagster://customers" in read["evidence"][0]

    sample = tmp_path / "customers.csv"  # customers without customer_id
    sample.write_text("country\nde\n")
    found = _plan(capsys, "customers", sample)
    lines = found["order_lines"]
    assert lines["severity"] == "unknown"  # the key is not named, and never made none
    assert "customer_id" not in {r["column"] for r in lines.get("reads", ())}


def test_catalog_show_names_the_rival_input(
    on_path: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["catalog", "show", "dagster://big_orders"]) == 0
    text = capsys.readouterr().out
    contested = [line for line in text.splitlines() if "customer_id <- customer_id" in line]
    assert len(contested) == 2  # over both inputs, neither confident
    for line in contested:
        assert line.strip().startswith("not confident: customer_id <- customer_id (0.")
        assert "the output does not keep its rows; also held by dagster://" in line
    assert "amount <- amount (0.9" in text  # what only orders holds is still confident
