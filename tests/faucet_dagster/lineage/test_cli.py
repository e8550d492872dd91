"""``faucet catalog ...`` and ``faucet lineage ...``: the printed text (expected outputs in
``expected/``), ``--json``, and the one error handler."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import dagster as dg
import httpx
import pytest
from openlineage.client import OpenLineageClient
from openlineage.client.transport.http import HttpConfig, HttpTransport

from faucet_core.catalog import Catalog
from faucet_dagster import FaucetResource
from faucet_dagster.cli import main
from tests.faucet_core.lineage.helpers import EVENTS, complete_event, emit_complete_event
from tests.faucet_core.lineage.server import free_port
from tests.faucet_dagster.lineage.assets import checks, orders, raw_orders, report

EXPECTED = Path(__file__).parent / "expected"
LOCATION = Path(__file__).parent / "location.py"
MART = "6c742aa247cb"


def _faucet(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def store(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("FAUCET_STORE_URL", sqlite_url)
    return sqlite_url


@pytest.fixture
def ingested(store: str, capsys: pytest.CaptureFixture[str]) -> str:
    code, out, _ = _faucet(capsys, "lineage", "ingest", str(EVENTS / "airflow_etl.jsonl"))
    assert code == 0
    assert out == (
        f"ingested 5 event(s) from 1 source(s) into {store}: 1 COMPLETE, 3 run(s), "
        "5 dataset(s) (5 new), 2 edge(s) written\n"
    )
    return store


def test_datasets_and_show_print_the_expected_text(
    ingested: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _faucet(capsys, "catalog", "datasets") == (
        0,
        (EXPECTED / "datasets.txt").read_text(),
        "",
    )
    assert _faucet(capsys, "catalog", "show", MART[:6]) == (
        0,
        (EXPECTED / "show_mart.txt").read_text(),
        "",
    )


def test_json_output(ingested: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _faucet(capsys, "catalog", "datasets", "--json")
    assert code == 0
    assert [d["id"] for d in json.loads(out)][:1] == [MART]
    code, out, _ = _faucet(
        capsys, "catalog", "show", "postgres://warehouse:5432/shop.mart.orders", "--json"
    )
    detail = json.loads(out)
    assert sorted(detail) == sorted(
        [
            "id", "uri", "namespace", "name", "owners", "owner_sources", "schema",
            "schema_run_id", "upstream", "downstream", "last_run_at", "updated_at", "consumers",
            "runs", "contracts", "profile", "schema_history",
        ]
    )  # fmt: skip
    assert detail["profile"] == {"latest": None, "history": []}

    def ins(field: str, kind: str, subtype: str) -> dict[str, object]:
        return {"field": field, "transformations": [{"type": kind, "subtype": subtype}]}

    assert {e["source"]["id"]: e["column_lineage"] for e in detail["upstream"]} == {
        "554a281b79e2": {
            "fields": {"region": [ins("country", "DIRECT", "IDENTITY")]},
            "dataset": [ins("id", "INDIRECT", "JOIN")],
        },
        "d83a9657a343": {
            "fields": {
                "contact": [ins("email", "DIRECT", "TRANSFORMATION")],
                "id": [ins("id", "DIRECT", "IDENTITY")],
                "total": [ins("amount", "DIRECT", "AGGREGATION")],
            },
            "dataset": [ins("status", "INDIRECT", "FILTER")],
        },
    }


def test_annotate_with_the_seeds_semantics(
    ingested: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["catalog", "annotate", MART, "--owner", "team-b"]
    consumer = ["--consumer", "contacts-dashboard=dashboard", "--contact", "#bi"]
    code, out, _ = _faucet(capsys, *args, *consumer, "--columns", "contact,region")
    assert (code, out) == (0, (EXPECTED / "annotate.txt").read_text())
    code, out, _ = _faucet(capsys, "catalog", "annotate", MART, "--consumer", "ml=model", "--json")
    assert [c["name"] for c in json.loads(out)["consumers"]] == ["contacts-dashboard", "ml"]
    # The annotated owner joins the owner the OpenLineage event declared; neither replaces
    # the other.
    assert json.loads(out)["owners"] == ["team:analytics", "team-b"]
    assert json.loads(out)["owner_sources"] == [
        {"name": "team:analytics", "sources": ["openlineage"]},
        {"name": "team-b", "sources": ["annotation"]},
    ]
    code, out, _ = _faucet(
        capsys, "catalog", "annotate", MART, "--consumer", "ml=model", "--replace"
    )
    assert out.splitlines()[2:] == ["  consumer ml (model) contact - reads every column"]


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (
            ["catalog", "show", "zzzz"],
            "Error: 'zzzz' is neither a dataset URI (scheme://...) nor an id (4 to 12 hex "
            "digits, as `faucet catalog datasets` prints it)\n",
        ),
        (
            ["catalog", "annotate", MART],
            "Error: nothing to annotate: give --owner, --remove-owner, --clear-owners, "
            "--consumer NAME=KIND or --replace\n",
        ),
        (
            ["catalog", "annotate", MART, "--contact", "#bi"],
            "Error: --contact and --columns describe a consumer: add --consumer NAME=KIND\n",
        ),
        (
            ["catalog", "annotate", MART, "--consumer", "=dashboard"],
            "Error: --consumer '=dashboard': write NAME=KIND, e.g. --consumer "
            "contacts-dashboard=dashboard\n",
        ),
        (
            ["catalog", "sync"],
            "Error: faucet catalog sync needs a code location: give -m MODULE or -f FILE, or "
            "run it in a project folder whose pyproject.toml has [tool.dagster] module_name or "
            "[tool.dg.project] root_module, or that has a workspace.yaml (as the dagster CLI "
            "finds it)\n",
        ),
    ],
    ids=["bad-ref", "nothing", "contact-alone", "no-name", "sync-no-location"],
)
def test_errors_go_through_the_one_handler(
    ingested: str, capsys: pytest.CaptureFixture[str], argv: list[str], error: str
) -> None:
    assert _faucet(capsys, *argv) == (1, "", error)


def test_ingest_rejections_exit_1_and_write_nothing(
    store: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = str(EVENTS / "malformed.jsonl")
    code, out, err = _faucet(capsys, "lineage", "ingest", source)
    assert (code, out) == (1, "")
    assert err.splitlines()[:3] == [
        "Error: rejected 4 of 6 event(s); nothing was written:",
        f"  event 1 ({source} line 2): eventType 'DONE' is not one of START, RUNNING, COMPLETE, "
        "ABORT, FAIL, OTHER",
        f"  event 2 ({source} line 3): run.runId is missing",
    ]
    with Catalog(store) as catalog:
        assert catalog.counts()["datasets"] == 0


def test_ingest_a_folder_and_stdin_as_json(
    store: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    folder = tmp_path / "events"
    folder.mkdir()
    (folder / "spark.json").write_text((EVENTS / "spark_array.json").read_text())
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(complete_event())))
    code, out, _ = _faucet(capsys, "lineage", "ingest", str(folder), "-", "--json")
    assert code == 0
    body = json.loads(out)
    assert body["sources"] == [str(folder / "spark.json"), "<stdin>"]
    assert (body["events"], body["complete"], body["edges"]) == (3, 3, 4)


def test_sync_records_the_asset_graph_then_runs_add_profiles(
    store: str, capsys: pytest.CaptureFixture[str], instance: dg.DagsterInstance
) -> None:
    code, out, _ = _faucet(capsys, "catalog", "sync", "-f", str(LOCATION))
    assert (code, out) == (
        0,
        f"synced 3 asset(s) from {LOCATION} into {store}: 3 dataset(s) (3 new), "
        "2 edge(s) written\n",
    )
    with Catalog(store) as catalog:
        orders_ds = catalog.detail("dagster://orders")
        assert [f.name for f in orders_ds.dataset.schema or ()] == ["id", "total"]  # declared
        (edge,) = orders_ds.upstream
        assert (edge.run_id, edge.column_lineage) == (None, None)  # the definition has none
        assert catalog.dataset("dagster://report").owners == ("team:bi",)  # the catalog: block
    result = dg.materialize(
        [raw_orders, orders, report, *checks],
        instance=instance,
        resources={"faucet": FaucetResource(store_url=store)},
    )
    code, out, _ = _faucet(capsys, "catalog", "sync", "-f", str(LOCATION))  # sync again
    code, out, _ = _faucet(capsys, "catalog", "show", "dagster://orders")
    lines = out.splitlines()
    assert "      id <- order_id; total <- amount, discount" in lines  # the run's, kept
    assert "  contract v3 of dagster/orders declares: id, total" in lines
    profile = lines[lines.index(next(ln for ln in lines if ln.startswith("  profile:"))) :]
    assert profile[0].startswith(f"  profile: latest run {result.run_id} at ")
    assert profile[0].endswith(": 50 row(s), 2 column(s) [warming], 0 finding(s)")
    assert profile[1:] == [
        "    history: 1 run(s)",
        "    id: null 0.0% trend ▁",
        "    total: null 0.0% trend ▁",
    ]


def test_lineage_serve_receives_from_openlineage_pythons_http_transport(
    sqlite_url: str, tmp_path: Path
) -> None:
    port = free_port()
    env = {**os.environ, "FAUCET_STORE_URL": sqlite_url}
    proc = subprocess.Popen(
        [sys.executable, "-m", "faucet_dagster.cli.main", "lineage", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90  # a subprocess start: slow on a loaded 2-core machine
        while True:
            try:
                if httpx.get(f"{url}/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "faucet lineage serve did not start"
            time.sleep(0.1)
        emit_complete_event(OpenLineageClient(transport=HttpTransport(HttpConfig(url=url))))
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    assert out.splitlines()[0] == (
        f"faucet: receiving OpenLineage events on {url}/api/v1/lineage into {sqlite_url}"
    )
    with Catalog(sqlite_url) as catalog:
        assert len(catalog.detail(MART).upstream) == 2
