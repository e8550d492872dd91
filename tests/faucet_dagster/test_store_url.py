"""The store URL is checked when a code location loads, and no message shows its password."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import dagster as dg
import pandas as pd
import pytest
from pydantic import ValidationError

from faucet_core.errors import StoreError
from faucet_core.store import ProfileStore, redact
from faucet_dagster import FaucetResource, build_profile_checks
from faucet_dagster.checks.targets import baseline_key_of
from faucet_dagster.cli import main
from tests.faucet_dagster.helpers import orders, orders_frame

SECRET = "s3cret-Pa55"
SUPPORTED = (
    "supported schemes: sqlite, sqlite+pysqlite, postgresql, postgresql+psycopg, "
    "postgresql+psycopg2"
)
EXAMPLES = "e.g. sqlite:////abs/path/faucet.db or postgresql+psycopg://user@host:5432/db"

BAD_URLS = [
    pytest.param(
        f"mysql://u:{SECRET}@h/db",
        f"store URL 'mysql://u:***@h/db': backend 'mysql' is not supported; use SQLite or "
        f"PostgreSQL ({SUPPORTED}; {EXAMPLES})",
        id="mysql",
    ),
    pytest.param(
        f"postgresql+asyncpg://u:{SECRET}@h/db",
        f"store URL 'postgresql+asyncpg://u:***@h/db': driver 'postgresql+asyncpg' is not "
        f"supported ({SUPPORTED}); use postgresql+psycopg://",
        id="asyncpg",
    ),
    pytest.param(
        f"postgres ql://u:{SECRET}@h/db",
        f"store URL 'postgres ql://u:***@h/db' is not a SQLAlchemy URL ({EXAMPLES})",
        id="malformed",
    ),
]


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize(("url", "message"), BAD_URLS)
def test_the_resource_refuses_a_bad_url_at_construction(url: str, message: str) -> None:
    with pytest.raises(ValidationError) as err:
        FaucetResource(store_url=url)
    text = str(err.value)
    assert f"Value error, {message} [type=value_error]" in text
    assert SECRET not in text


@pytest.mark.parametrize(("url", "message"), BAD_URLS)
def test_a_code_location_with_a_bad_url_fails_to_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], url: str, message: str
) -> None:
    location = tmp_path / "defs.py"
    location.write_text(
        "import dagster as dg\n"
        "from faucet_dagster import FaucetResource\n"
        f"defs = dg.Definitions(resources={{'faucet': FaucetResource(store_url={url!r})}})\n"
    )
    assert main(["doctor", "-f", str(location)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"Error: cannot load the code location -f {location}: ValidationError")
    assert message in err
    assert SECRET not in err


def test_an_env_var_is_checked_by_its_value_at_load(monkeypatch: pytest.MonkeyPatch) -> None:
    FaucetResource(store_url=dg.EnvVar("FAUCET_TEST_UNSET_URL"))  # unset: Dagster's to report
    monkeypatch.setenv("FAUCET_TEST_URL", f"mysql://u:{SECRET}@h/db")
    with pytest.raises(ValidationError) as err:
        FaucetResource(store_url=dg.EnvVar("FAUCET_TEST_URL"))
    assert "backend 'mysql' is not supported" in str(err.value)
    assert SECRET not in str(err.value)
    monkeypatch.setenv("FAUCET_STORE_URL", f"postgresql+asyncpg://u:{SECRET}@h/db")
    with pytest.raises(ValidationError) as err:
        FaucetResource()  # None: FAUCET_STORE_URL is what it will use
    assert "driver 'postgresql+asyncpg' is not supported" in str(err.value)
    assert SECRET not in str(err.value)


def test_repr_and_url_hide_the_password(tmp_path: Path) -> None:
    resource = FaucetResource(store_url=f"postgresql://faucet:{SECRET}@127.0.0.1/db")
    assert (
        repr(resource)
        == "FaucetResource(store_url='postgresql://faucet:***@127.0.0.1/db', catalog=None)"
    )
    assert SECRET not in str(resource)


def test_an_unreachable_store_error_hides_the_password() -> None:
    port = _closed_port()
    with pytest.raises(StoreError) as err:
        ProfileStore(f"postgresql://faucet:{SECRET}@127.0.0.1:{port}/db?connect_timeout=2")
    assert str(err.value).startswith(
        f"cannot open the store at postgresql+psycopg://faucet:***@127.0.0.1:{port}/db"
    )
    assert SECRET not in str(err.value)


def test_the_event_log_never_carries_the_password(tmp_path: Path) -> None:
    port = _closed_port()
    url = f"postgresql://faucet:{SECRET}@127.0.0.1:{port}/db?connect_timeout=2"
    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        result = dg.materialize(
            [orders, *build_profile_checks([orders])],
            instance=instance,
            resources={"faucet": FaucetResource(store_url=url)},
            raise_on_error=False,
        )
        assert result.success  # on_drift warn: the unreachable store degrades to a WARN
        (evaluation,) = result.get_asset_check_evaluations()
        message = str(evaluation.metadata["faucet/error"].value)
        assert "cannot open the store at postgresql+psycopg://faucet:***@127.0.0.1" in message
        logs = instance.all_logs(result.run_id)
    assert all(SECRET not in str(entry) for entry in logs)


def test_faucet_doctor_with_a_malformed_env_url_hides_the_password(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("faucet")
    env = {**os.environ, "FAUCET_STORE_URL": f"postgres ql://u:{SECRET}@h/db"}
    done = subprocess.run(
        [str(exe), "doctor"], capture_output=True, text=True, check=False, env=env, cwd=tmp_path
    )
    assert done.returncode == 1
    assert done.stderr == (
        f"Error: store URL 'postgres ql://u:***@h/db' is not a SQLAlchemy URL ({EXAMPLES})\n"
    )
    assert done.stdout == ""


def test_redact_covers_urls_and_settings() -> None:
    assert redact(f"postgresql://u:{SECRET}@h:5432/db") == "postgresql://u:***@h:5432/db"
    assert redact(f"host=h password={SECRET} user=u") == "host=h password=*** user=u"
    assert redact(f"x://u@h/db?password={SECRET}&a=b") == "x://u@h/db?password=***&a=b"
    assert redact(f"Authorization: Bearer {SECRET}") == "Authorization: Bearer ***"
    assert redact("sqlite:////tmp/faucet.db") == "sqlite:////tmp/faucet.db"


def test_store_repr_and_url_hide_the_password(postgres_url: str) -> None:
    # The test server trusts local connections, so a password in the URL is accepted.
    with_password = postgres_url.replace("postgres@", f"postgres:{SECRET}@", 1)
    assert SECRET in with_password
    with ProfileStore(with_password) as store:
        assert SECRET not in repr(store)
        assert SECRET not in store.url
        assert "postgres:***@" in store.url


def test_a_step_that_moves_the_working_directory_leaves_the_default_store_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run's default store is the one of the folder the run started in, even when a step
    before the check moves the process elsewhere (dagster-dbt's threads can leave it in the
    dbt project): the second run's check finds the first run's profile as its baseline."""
    project = tmp_path / "project"
    elsewhere = tmp_path / "dbt_project"
    project.mkdir()
    elsewhere.mkdir()
    store_file = tmp_path / "project.db"
    (project / "faucet.toml").write_text(f'store_url = "sqlite:///{store_file}"\n')
    for var in ("FAUCET_STORE_URL", "FAUCET_HOME", "DAGSTER_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(project)

    @dg.asset
    def moved() -> pd.DataFrame:
        os.chdir(elsewhere)  # what a leftover pushd does to the process
        return orders_frame(1)

    checks = build_profile_checks([moved])
    with dg.instance_for_test() as instance:
        for _ in range(2):
            os.chdir(project)
            result = dg.materialize(
                [moved, *checks], instance=instance, resources={"faucet": FaucetResource()}
            )
            assert result.success
            assert Path.cwd() == elsewhere
    with ProfileStore(f"sqlite:///{store_file}") as store:
        assert len(store.history(baseline_key_of(dg.AssetKey("moved")))) == 2
    assert not (elsewhere / ".faucet").exists()
