"""A check that cannot profile or record degrades instead of crashing the run it watches.

Under ``on_drift: warn``/``notify`` a fault becomes a failed WARN evaluation with
``faucet/status: error`` and the error text, and the run succeeds; under ``fail`` it is a
blocking ERROR that fails the run and keeps downstream assets from materializing. Either
way nothing reaches the baseline.
"""

from __future__ import annotations

import socket
from typing import Any

import dagster as dg
import pytest
from sqlalchemy import create_engine, text

from faucet_core.store import ProfileStore
from faucet_dagster import build_profile_checks
from tests.faucet_dagster.helpers import (
    failures,
    materialize,
    materialized,
    meta,
    orders,
    report,
)

FIX_STORE = "Fix the store_url of resource 'faucet' (or FAUCET_STORE_URL), then re-run this check"


def _failure_events(result: dg.ExecuteInProcessResult) -> list[dg.DagsterEvent]:
    return [e for e in result.all_events if e.is_step_failure]


def _error_text(result: dg.ExecuteInProcessResult) -> str:
    """The error of the one evaluation of a warn-mode check that could not do its work."""
    assert result.success, failures(result)  # the run the check watches goes on
    assert _failure_events(result) == []
    (ev,) = result.get_asset_check_evaluations()
    assert ev.asset_key == dg.AssetKey("orders")
    assert not ev.passed
    assert ev.severity == dg.AssetCheckSeverity.WARN
    assert meta(ev, "faucet/status") == "error"
    assert meta(ev, "faucet/finding_count") == 0
    text = str(meta(ev, "faucet/error"))
    assert ev.description == f"faucet could not check this materialization: {text}"
    return text


def test_a_check_on_an_asset_never_materialized(instance, sqlite_url):
    checks = build_profile_checks([orders])
    result = materialize(
        [orders, *checks], instance, sqlite_url, selection=dg.AssetSelection.checks(*checks)
    )
    assert _error_text(result) == (
        "orders has no materialization to profile yet: materialize the asset first; the "
        "profile check reads what it wrote"
    )


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        # (an unsupported backend or a non-URL now fails when the code location loads:
        # tests/faucet_dagster/test_store_url.py)
        pytest.param(
            "sqlite:////proc/faucet/faucet.db",
            "store URL 'sqlite:////proc/faucet/faucet.db': cannot create the folder "
            "'/proc/faucet' for the SQLite file (No such file or directory); point the URL at "
            "a writable place",
            id="sqlite-folder-cannot-be-made",
        ),
    ],
)
def test_an_unusable_store_url(instance, feed, url, reason):
    checks = build_profile_checks([orders])
    result = materialize([orders, *checks], instance, url)
    assert _error_text(result) == f"the faucet store is unavailable: {reason}. {FIX_STORE}"
    assert materialized(result) == ["orders"]  # the data stays written


def test_an_unreachable_postgres_store(instance, feed):
    port = _closed_port()
    url = f"postgresql://faucet@127.0.0.1:{port}/faucet"
    checks = build_profile_checks([orders])
    message = _error_text(materialize([orders, *checks], instance, url))
    where = f"postgresql+psycopg://faucet@127.0.0.1:{port}/faucet"
    prefix = f"the faucet store is unavailable: cannot open the store at {where}: "
    assert message.startswith(prefix)
    assert "Connection refused" in message
    assert message.endswith(f". {FIX_STORE}")


def test_a_resource_that_is_not_a_faucet_resource(instance, feed, sqlite_url):
    checks = build_profile_checks([orders])
    result = dg.materialize(
        [orders, *checks],
        instance=instance,
        resources={"faucet": dg.ResourceDefinition.hardcoded_resource(sqlite_url)},
        raise_on_error=False,
    )
    assert _error_text(result) == (
        "resource 'faucet' is a str, not a FaucetResource: bind "
        "resources={'faucet': FaucetResource()} in your Definitions"
    )


def _broken(ctx: Any) -> Any:
    raise FileNotFoundError(f"no file for {ctx.asset_key.to_user_string()}.")


@pytest.mark.parametrize(
    ("loader", "message"),
    [
        pytest.param(
            _broken,
            "the faucet loader for orders failed: FileNotFoundError: no file for orders. "
            "Fix the loader passed to build_profile_checks",
            id="raises",
        ),
        pytest.param(
            lambda ctx: None,
            "the faucet loader for orders returned None: return what to profile (a DataFrame, "
            "an Arrow table or RecordBatchReader, or an iterable of records)",
            id="returns-none",
        ),
        pytest.param(
            lambda ctx: 42,
            "profiling orders failed: cannot profile a builtins.int: pass a pandas or polars "
            "DataFrame, a pyarrow Table/RecordBatch/RecordBatchReader, or an iterable of dict "
            "records",
            id="returns-unprofilable",
        ),
    ],
)
def test_a_failing_loader(instance, feed, sqlite_url, loader, message):
    checks = build_profile_checks([orders], loader=loader)
    assert _error_text(materialize([orders, *checks], instance, sqlite_url)) == message


@dg.asset(name="orders")
def orders_written_elsewhere():  # type: ignore[no-untyped-def]
    """Writes its data itself and returns None: the IO manager pickles None."""


@dg.asset(name="orders")
def orders_without_output() -> None:
    """Annotated ``-> None``: the IO manager stores nothing at all."""


def test_an_asset_whose_io_manager_stored_none(instance, sqlite_url):
    checks = build_profile_checks([orders_written_elsewhere])
    result = materialize([orders_written_elsewhere, *checks], instance, sqlite_url)
    assert _error_text(result) == (
        "orders has no stored value to profile: IO manager 'io_manager' loaded None (the asset "
        "returns None or writes its data itself). Pass loader= to build_profile_checks to read "
        "what the asset wrote"
    )


def test_an_asset_whose_io_manager_stored_nothing(instance, sqlite_url):
    checks = build_profile_checks([orders_without_output])
    result = materialize([orders_without_output, *checks], instance, sqlite_url)
    message = _error_text(result)
    assert message.startswith(
        "could not load orders through IO manager 'io_manager': FileNotFoundError: "
    )
    assert message.endswith(
        ". If this IO manager cannot load the value outside the asset, or the value is too "
        "large to load whole, pass loader= to build_profile_checks to stream it instead"
    )


def test_each_failing_check_reports_on_its_own(instance, sqlite_url):
    @dg.asset
    def refunds() -> None:
        pass

    checks = build_profile_checks([orders_written_elsewhere, refunds])
    result = materialize([orders_written_elsewhere, refunds, *checks], instance, sqlite_url)
    assert result.success
    by_asset = {e.asset_key.to_user_string(): e for e in result.get_asset_check_evaluations()}
    assert sorted(by_asset) == ["orders", "refunds"]
    for ev in by_asset.values():
        assert (ev.passed, ev.severity) == (False, dg.AssetCheckSeverity.WARN)
        assert meta(ev, "faucet/status") == "error"
    assert str(meta(by_asset["orders"], "faucet/error")).startswith("orders has no stored value")
    assert str(meta(by_asset["refunds"], "faucet/error")).startswith("could not load refunds")


def _stream_that_breaks(ctx: Any) -> Any:
    yield {"amount": 1.0, "region": "eu"}
    raise ConnectionResetError("the warehouse closed the cursor")


def test_an_unforeseen_error_midstream_is_reported_not_raised(instance, feed, sqlite_url):
    checks = build_profile_checks([orders], loader=_stream_that_breaks)
    text = _error_text(materialize([orders, *checks], instance, sqlite_url))
    assert text == (
        "faucet could not check orders: ConnectionResetError: the warehouse closed the cursor"
    )
    with ProfileStore(sqlite_url) as store:
        assert store.keys() == []  # nothing reached the baseline


_SECRET_URL = "postgresql://loader:s3cret-pw@db.internal:5432/wh"


def _leaky(ctx: Any) -> Any:
    raise RuntimeError(f"cannot connect to {_SECRET_URL}")


def _leaky_midstream(ctx: Any) -> Any:
    yield {"amount": 1.0}
    raise RuntimeError(f"lost {_SECRET_URL}")


@pytest.mark.parametrize(
    ("loader", "expected"),
    [
        pytest.param(
            _leaky,
            "the faucet loader for orders failed: RuntimeError: cannot connect to "
            "postgresql://loader:***@db.internal:5432/wh. Fix the loader passed to "
            "build_profile_checks",
            id="loader-raises",
        ),
        pytest.param(
            _leaky_midstream,
            "faucet could not check orders: RuntimeError: lost "
            "postgresql://loader:***@db.internal:5432/wh",
            id="stream-raises",
        ),
    ],
)
def test_a_password_in_an_error_never_reaches_the_event_log(
    instance, feed, sqlite_url, loader, expected
):
    checks = build_profile_checks([orders], loader=loader)
    result = materialize([orders, *checks], instance, sqlite_url)
    assert _error_text(result) == expected
    logged = [e.message + str(e.dagster_event) for e in instance.all_logs(result.run_id)]
    assert len(logged) > 5
    assert not [line for line in logged if "s3cret" in line]


def test_under_on_drift_fail_an_error_blocks_the_run(instance, feed, sqlite_url):
    checks = build_profile_checks([orders], config={"on_drift": "fail"}, loader=_broken)
    result = materialize([orders, report, *checks], instance, sqlite_url)
    assert not result.success
    assert materialized(result) == ["orders"]  # written data stays; report never ran
    (ev,) = result.get_asset_check_evaluations()
    assert (ev.passed, ev.severity) == (False, dg.AssetCheckSeverity.ERROR)
    assert meta(ev, "faucet/status") == "error"
    assert meta(ev, "faucet/error") == (
        "the faucet loader for orders failed: FileNotFoundError: no file for orders. "
        "Fix the loader passed to build_profile_checks"
    )
    with ProfileStore(sqlite_url) as store:
        assert store.keys() == []


@pytest.mark.parametrize("on_drift", ["warn", "notify"])
def test_warn_and_notify_degrade_the_same_way(instance, feed, sqlite_url, on_drift):
    checks = build_profile_checks([orders], config={"on_drift": on_drift}, loader=_broken)
    result = materialize([orders, report, *checks], instance, sqlite_url)
    assert _error_text(result).startswith("the faucet loader for orders failed")
    assert materialized(result) == ["orders", "report"]


def test_after_an_error_the_next_good_run_profiles_as_usual(instance, feed, sqlite_url):
    broken = build_profile_checks([orders], loader=_broken)
    assert _error_text(materialize([orders, *broken], instance, sqlite_url))
    checks = build_profile_checks([orders])
    ev = materialize([orders, *checks], instance, sqlite_url).get_asset_check_evaluations()[0]
    assert ev.passed
    assert meta(ev, "faucet/status") == "warming"
    assert meta(ev, "faucet/baseline_runs") == "0"


def test_a_damaged_baseline_run_is_skipped_and_named_on_the_evaluation(instance, feed, sqlite_url):
    checks = build_profile_checks([orders])
    for day in range(3):
        feed.day = day
        assert materialize([orders, *checks], instance, sqlite_url).success
    engine = create_engine(sqlite_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE faucet_profile_runs SET profile = x'00' WHERE seq = 2"))
    engine.dispose()
    feed.day = 3
    result = materialize([orders, *checks], instance, sqlite_url)
    assert result.success
    (ev,) = result.get_asset_check_evaluations()
    assert ev.passed
    assert meta(ev, "faucet/status") == "warming"
    assert meta(ev, "faucet/baseline_runs") == "2"  # three runs stored, one unreadable
    (skipped,) = meta(ev, "faucet/skipped_runs")
    assert (skipped["key"], skipped["seq"]) == ("orders", 2)
    assert skipped["reason"].startswith("baseline orders run 2: stored bytes are unreadable")
