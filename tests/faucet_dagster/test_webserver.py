"""The Dagster UI's GraphQL API (a real ``dagster-webserver``) serves the check's evaluations:
severity, status and typed metadata (floats the asset-check page plots, the markdown summary)."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import httpx
import pytest

from tests.faucet_dagster.processes import BIN, LOCATION, DagsterHome

DAYS = 4  # three normal days (min_history 3), then half the amounts are null
STARTUP_SECONDS = 120

EXECUTIONS = """
query Executions($assetKey: AssetKeyInput!, $checkName: String!) {
  assetCheckExecutions(assetKey: $assetKey, checkName: $checkName, limit: 10) {
    runId
    status
    evaluation {
      severity
      success
      description
      metadataEntries {
        __typename
        label
        ... on FloatMetadataEntry { floatValue }
        ... on IntMetadataEntry { intValue }
        ... on TextMetadataEntry { text }
        ... on MarkdownMetadataEntry { mdStr }
        ... on JsonMetadataEntry { jsonString }
      }
    }
  }
}
"""

CHECKS = """
query Checks {
  assetNodes(assetKeys: [{path: ["orders"]}]) {
    assetChecksOrError {
      __typename
      ... on AssetChecks {
        checks {
          name
          blocking
          description
          executionForLatestMaterialization { status evaluation { severity success } }
        }
      }
    }
  }
}
"""


def _load_location() -> ModuleType:
    spec = importlib.util.spec_from_file_location("faucet_test_orders_location", LOCATION)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def history(dagster_home: DagsterHome) -> DagsterHome:
    """Materialize the location's assets day by day into the home's instance."""
    home = dagster_home
    with pytest.MonkeyPatch.context() as env:
        env.setenv("FAUCET_STORE_URL", home.store_url)
        job = _load_location().defs.resolve_implicit_global_asset_job_def()
        with home.instance() as instance:
            for day in range(DAYS):
                env.setenv("FAUCET_TEST_DAY", str(day))
                env.setenv("FAUCET_TEST_NULL_SHARE", "0.5" if day == DAYS - 1 else "0.01")
                assert job.execute_in_process(instance=instance).success
    return home


@pytest.fixture
def webserver(history: DagsterHome) -> Iterator[str]:
    """``dagster-webserver`` on a free local port over the home's instance; stopped after."""
    port = _free_port()
    log_path = history.path.parent / "webserver.log"
    log = log_path.open("w")
    command = [str(BIN / "dagster-webserver"), "-h", "127.0.0.1", "-p", str(port)]
    process = subprocess.Popen(
        [*command, "-f", str(LOCATION)],
        env=history.env(),
        cwd=history.path.parent,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its code server joins this process group
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            assert process.poll() is None, log_path.read_text()[-3000:]
            try:
                if httpx.get(f"{base}/server_info", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "dagster-webserver did not start"
            time.sleep(0.3)
        yield base
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        log.close()


def _graphql(base: str, query: str, **variables: Any) -> dict[str, Any]:
    response = httpx.post(
        f"{base}/graphql", json={"query": query, "variables": variables}, timeout=30
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert "errors" not in body, body["errors"]
    data: dict[str, Any] = body["data"]
    return data


def test_the_ui_serves_the_check_and_its_evaluations(webserver):
    """One webserver, two questions (starting it is the slow part)."""
    _assert_check_executions_carry_severity_and_typed_metadata(webserver)
    _assert_the_asset_lists_its_profile_check(webserver)


def _assert_check_executions_carry_severity_and_typed_metadata(webserver: str) -> None:
    data = _graphql(
        webserver, EXECUTIONS, assetKey={"path": ["orders"]}, checkName="faucet_profile"
    )
    executions = data["assetCheckExecutions"]  # newest first
    assert [e["status"] for e in executions] == ["FAILED"] + ["SUCCEEDED"] * (DAYS - 1)
    latest = executions[0]["evaluation"]
    assert (latest["severity"], latest["success"]) == ("WARN", False)
    assert latest["description"].startswith("Drift in 1 column against 3 baseline runs: amount ")
    assert "\n" not in latest["description"]
    entries = {e["label"]: e for e in latest["metadataEntries"]}

    null_rate = entries["amount.null_rate"]
    assert null_rate["__typename"] == "FloatMetadataEntry"
    assert 0.4 < null_rate["floatValue"] < 0.6
    summary = entries["summary"]
    assert summary["__typename"] == "MarkdownMetadataEntry"
    assert summary["mdStr"].startswith("### orders\n")
    assert "| `amount` ⚠ |" in summary["mdStr"]
    findings = entries["faucet/findings"]
    assert findings["__typename"] == "JsonMetadataEntry"
    assert "null_rate" in [f["metric"] for f in json.loads(findings["jsonString"])]
    assert entries["faucet/status"] == {
        "__typename": "TextMetadataEntry",
        "label": "faucet/status",
        "text": "drifted",
    }
    assert entries["faucet/baseline_runs"]["__typename"] == "TextMetadataEntry"
    assert entries["faucet/baseline_runs"]["text"] == str(DAYS - 1)

    first = executions[-1]["evaluation"]
    assert (first["severity"], first["success"]) == ("WARN", True)
    assert (
        first["description"]
        == "warming up: 0 of 3 run(s); drift detection starts at 3 baseline runs"
    )


def _assert_the_asset_lists_its_profile_check(webserver: str) -> None:
    nodes: list[dict[str, Any]] = []
    deadline = time.monotonic() + STARTUP_SECONDS
    while not nodes:  # the code location loads in the background
        nodes = _graphql(webserver, CHECKS)["assetNodes"]
        assert nodes or time.monotonic() < deadline, "the code location did not load"
        time.sleep(0 if nodes else 0.5)
    checks = nodes[0]["assetChecksOrError"]
    assert checks["__typename"] == "AssetChecks"
    (check,) = checks["checks"]
    assert check["name"] == "faucet_profile"
    assert check["blocking"] is False
    assert check["description"] == (
        "faucet: profiles each materialization per column and compares it with a rolling "
        "baseline (min_history 3, window 20, on_drift warn)"
    )
    latest = check["executionForLatestMaterialization"]
    assert latest["status"] == "FAILED"
    assert latest["evaluation"] == {"severity": "WARN", "success": False}
