"""Observed schema changes through real Dagster runs: a dropped column, a new one and a
changed JSON type set are reported in the check result (not as drift) and, under
``on_drift: notify``, sent once as ``profile_schema_change``."""

from __future__ import annotations

from collections.abc import Iterator

import dagster as dg
import pandas as pd
import pytest

from faucet_core.catalog import Catalog
from faucet_dagster import (
    FaucetResource,
    JsonWebhook,
    build_drift_notification_sensor,
    build_profile_checks,
)
from faucet_dagster.cli.catalog import render_detail
from tests.faucet_core.notify.fake_http import WEBHOOK_PATH, FakeHttp, fake_http
from tests.faucet_dagster.helpers import materialize, meta

FRAME: dict[str, list[object]] = {}
HOOK_VAR = "FAUCET_TEST_SCHEMA_HOOK"


@dg.asset
def customers() -> pd.DataFrame:
    return pd.DataFrame(FRAME)


@pytest.fixture
def http(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeHttp]:
    with fake_http() as server:
        monkeypatch.setenv(HOOK_VAR, server.url(WEBHOOK_PATH))
        yield server


def _run(
    instance: dg.DagsterInstance, url: str, checks: list, **columns: list[object]
) -> dg.AssetCheckEvaluation:
    FRAME.clear()
    FRAME.update(columns)
    result = materialize([customers, *checks], instance, url)
    assert result.success
    [evaluation] = result.get_asset_check_evaluations()
    return evaluation


def test_dropped_added_and_retyped_columns(instance, sqlite_url, http) -> None:  # type: ignore[no-untyped-def]
    checks = build_profile_checks([customers], config={"on_drift": "notify", "min_history": 2})
    notify = build_drift_notification_sensor(
        destinations=[JsonWebhook(url=dg.EnvVar(HOOK_VAR), name="hook")]
    )
    defs = dg.Definitions(
        assets=[customers],
        asset_checks=checks,
        sensors=[notify],
        resources={"faucet": FaucetResource(store_url=sqlite_url)},
    )
    start = notify(dg.build_sensor_context(instance=instance, definitions=defs))
    assert isinstance(start, dg.SensorResult)
    ids = list(range(50))
    first = _run(instance, sqlite_url, checks, id=ids, email=["a@x"] * 50, score=ids)
    assert "faucet/schema_change" not in first.metadata  # nothing to compare with
    same = _run(instance, sqlite_url, checks, id=ids, email=["a@x"] * 50, score=ids)
    assert "faucet/schema_change" not in same.metadata
    changed = _run(
        instance, sqlite_url, checks, id=ids, score=[str(i) for i in ids], tier=["gold"] * 50
    )
    # New and dropped columns are learned, not drift; the retyped column is also a
    # type_mix finding (its type shares moved).
    assert [f["metric"] for f in meta(changed, "faucet/findings")] == ["type_mix"]
    assert meta(changed, "faucet/schema_changes") == [
        {"column": "tier", "change": "added", "before": [], "after": ["string"]},
        {"column": "email", "change": "dropped", "before": ["string"], "after": []},
        {"column": "score", "change": "types", "before": ["integer"], "after": ["string"]},
    ]
    text = (
        "schema changed since the previous run: new column tier (string); column email "
        "dropped (was string); column score types integer -> string"
    )
    assert meta(changed, "faucet/schema_change") == text
    assert changed.description is not None
    assert changed.description.endswith(text)
    ctx = dg.build_sensor_context(instance=instance, definitions=defs, cursor=start.cursor)
    notify(ctx)
    drift, message = http.delivered(WEBHOOK_PATH)
    assert drift["kind"] == "profile_drift"
    assert message["kind"] == "profile_schema_change"
    assert message["summary"] == text
    assert message["text"] == f"Schema change on customers: {text}"

    # The catalog's schema history: each change with the run that shipped it, and when.
    with Catalog(sqlite_url) as catalog:
        [entry] = [d for d in catalog.datasets() if d.name.endswith("customers")]
        detail = catalog.detail(entry.id)
    history = [(c.column, c.change, c.before, c.after) for c in detail.schema_history]
    assert history == [
        ("tier", "added", (), ("string",)),
        ("email", "dropped", ("string",), ()),
        ("score", "types", ("integer",), ("string",)),
    ]
    third = detail.profiles[2]
    assert {c.run_id for c in detail.schema_history} == {third.run_id}
    assert {c.changed_at for c in detail.schema_history} == {third.recorded_at}
    shown = render_detail(detail)
    assert "  schema history: 3 change(s)" in shown
    assert f"run {third.run_id}: - email (was string)" in shown
    assert f"run {third.run_id}: ~ score integer -> string" in shown
    assert detail.to_dict()["schema_history"][0]["column"] == "tier"
