"""Run-time errors reach the check as a ``dg.Failure`` that says what to do."""

from __future__ import annotations

import socket
from typing import Any

import dagster as dg
import pytest

from faucet_dagster import build_profile_checks
from tests.faucet_dagster.helpers import failures, materialize, materialized, orders

FIX_STORE = "Fix the store_url of resource 'faucet' (or FAUCET_STORE_URL), then re-run this check"


def _failure_events(result: dg.ExecuteInProcessResult) -> list[dg.DagsterEvent]:
    return [e for e in result.all_events if e.is_step_failure]


def _only_failure(result: dg.ExecuteInProcessResult) -> str:
    assert not result.success
    assert result.get_asset_check_evaluations() == []  # no evaluation, a failed step
    (event,) = _failure_events(result)
    assert event.step_key == "orders_faucet_profile"
    user = event.step_failure_data.user_failure_data
    assert user is not None, "not a dg.Failure: " + event.step_failure_data.error.message
    return str(user.description)


def test_a_check_on_an_asset_never_materialized(instance, sqlite_url):
    checks = build_profile_checks([orders])
    result = materialize(
        [orders, *checks], instance, sqlite_url, selection=dg.AssetSelection.checks(*checks)
    )
    assert _only_failure(result) == (
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
    assert _only_failure(result) == f"the faucet store is unavailable: {reason}. {FIX_STORE}"
    assert materialized(result) == ["orders"]  # the data stays written


def test_an_unreachable_postgres_store(instance, feed):
    port = _closed_port()
    url = f"postgresql://faucet@127.0.0.1:{port}/faucet"
    checks = build_profile_checks([orders])
    message = _only_failure(materialize([orders, *checks], instance, url))
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
    assert _only_failure(result) == (
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
    assert _only_failure(materialize([orders, *checks], instance, sqlite_url)) == message


@dg.asset(name="orders")
def orders_written_elsewhere():  # type: ignore[no-untyped-def]
    """Writes its data itself and returns None: the IO manager pickles None."""


@dg.asset(name="orders")
def orders_without_output() -> None:
    """Annotated ``-> None``: the IO manager stores nothing at all."""


def test_an_asset_whose_io_manager_stored_none(instance, sqlite_url):
    checks = build_profile_checks([orders_written_elsewhere])
    result = materialize([orders_written_elsewhere, *checks], instance, sqlite_url)
    assert _only_failure(result) == (
        "orders has no stored value to profile: IO manager 'io_manager' loaded None (the asset "
        "returns None or writes its data itself). Pass loader= to build_profile_checks to read "
        "what the asset wrote"
    )


def test_an_asset_whose_io_manager_stored_nothing(instance, sqlite_url):
    checks = build_profile_checks([orders_without_output])
    result = materialize([orders_without_output, *checks], instance, sqlite_url)
    message = _only_failure(result)
    assert message.startswith(
        "could not load orders through IO manager 'io_manager': FileNotFoundError: "
    )
    assert message.endswith(
        ". If this IO manager cannot load the value outside the asset, or the value is too "
        "large to load whole, pass loader= to build_profile_checks to stream it instead"
    )


def test_each_failing_check_fails_on_its_own(instance, sqlite_url):
    @dg.asset
    def refunds() -> None:
        pass

    checks = build_profile_checks([orders_written_elsewhere, refunds])
    result = materialize([orders_written_elsewhere, refunds, *checks], instance, sqlite_url)
    assert not result.success
    assert sorted(e.step_key for e in _failure_events(result)) == [
        "orders_faucet_profile",
        "refunds_faucet_profile",
    ]
    assert [m.split(" ")[0] for m in sorted(failures(result))] == ["could", "orders"]
