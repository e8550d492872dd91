"""``faucet_check_errors_total``: a check that could not do its work counts it in the store.

Real Dagster runs (in-process ``materialize``) on a real SQLite store; the count shows in
the Prometheus exposition that ``faucet metrics`` prints.
"""

from __future__ import annotations

from typing import Any

import dagster as dg

from faucet_core.store import ProfileStore
from faucet_core.store.metrics import CHECK_ERRORS, exposition
from faucet_dagster import build_profile_checks
from tests.faucet_dagster.helpers import materialize, meta, orders, report


def _broken(_context: Any) -> Any:
    raise FileNotFoundError("no file for orders")


def _errors(url: str) -> dict[tuple[str, str], float]:
    with ProfileStore(url) as store:
        return {
            (labels["asset"], labels["on_drift"]): value
            for name, labels, value in store.metrics()
            if name == CHECK_ERRORS
        }


def test_each_check_error_adds_one_per_asset_and_on_drift(instance, feed, sqlite_url):
    warn = build_profile_checks([orders], loader=_broken)
    for _ in range(2):
        result = materialize([orders, *warn], instance, sqlite_url)
        assert result.success
        (ev,) = result.get_asset_check_evaluations()
        assert meta(ev, "faucet/status") == "error"
    assert _errors(sqlite_url) == {("orders", "warn"): 2.0}

    fail = build_profile_checks([orders], config={"on_drift": "fail"}, loader=_broken)
    result = materialize([orders, report, *fail], instance, sqlite_url)
    assert not result.success
    assert _errors(sqlite_url) == {("orders", "warn"): 2.0, ("orders", "fail"): 1.0}

    with ProfileStore(sqlite_url) as store:
        text = exposition(store).decode()
        assert store.keys() == []  # counting an error records no baseline
    assert "# TYPE faucet_check_errors_total counter" in text
    assert 'faucet_check_errors_total{asset="orders",on_drift="warn"} 2.0' in text
    assert 'faucet_check_errors_total{asset="orders",on_drift="fail"} 1.0' in text


def test_a_good_run_counts_no_error(instance, feed, sqlite_url):
    checks = build_profile_checks([orders])
    result = materialize([orders, *checks], instance, sqlite_url)
    assert result.success
    assert _errors(sqlite_url) == {}


def test_an_unreachable_store_is_not_counted_and_the_run_goes_on(instance, feed, tmp_path):
    # The store's folder cannot be made: the check degrades to an error evaluation, and the
    # count (which needs that store) is dropped without a second error.
    url = "sqlite:////proc/faucet/faucet.db"
    checks = build_profile_checks([orders])
    result = materialize([orders, report, *checks], instance, url)
    assert result.success
    (ev,) = result.get_asset_check_evaluations()
    assert meta(ev, "faucet/status") == "error"
    assert ev.severity == dg.AssetCheckSeverity.WARN
    assert str(meta(ev, "faucet/error")).startswith("the faucet store is unavailable")
