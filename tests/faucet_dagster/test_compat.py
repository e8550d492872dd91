"""The end-to-end path that every supported (Python, Dagster) pair must pass.

``make compat-oldest`` and ``make compat-newest`` run this module, with the other files named
in the Makefile's ``COMPAT_TESTS`` (``faucet serve`` as a process, the blocking ERROR through
``dagster asset materialize``, the plan command), against faucet installed from its built
wheel: every module imports; a real ``dagster asset materialize`` whose profile check loads
the asset through its IO manager ends on a WARN naming the drifted column; in-process runs
warm a baseline up until a sensor tick delivers the finding to a webhook on 127.0.0.1, once;
``faucet plan --impact`` runs as the installed console script; the dg component loads from a
defs folder. The main suite runs it too.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import pkgutil
import subprocess
import sys
import sysconfig
import textwrap
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pytest

import faucet_core
import faucet_dagster
from faucet_core import ProfilingConfig, profile
from faucet_core.store import ProfileStore
from faucet_dagster import FaucetResource, JsonWebhook, build_drift_notification_sensor
from faucet_dagster import build_profile_checks as build_checks
from tests.faucet_core.notify.fake_http import WEBHOOK_PATH, FakeHttp
from tests.faucet_dagster.locations.orders_location import MIN_HISTORY, orders, orders_frame
from tests.faucet_dagster.plan.test_cli import LOCATION as PLAN_LOCATION
from tests.faucet_dagster.plan.test_cli import _record
from tests.faucet_dagster.processes import BIN, DagsterHome, latest_evaluation, materialize_cli

HOOK_VAR = "FAUCET_COMPAT_HOOK_URL"


@pytest.fixture
def http() -> Iterator[FakeHttp]:
    server = FakeHttp().start()
    yield server
    server.stop()


def test_faucet_comes_from_the_installed_wheel() -> None:
    """In a compat environment faucet is the wheel's copy in site-packages, not this tree."""
    if os.environ.get("FAUCET_COMPAT_ENV") is None:
        pytest.skip("only in make compat-oldest / compat-newest (FAUCET_COMPAT_ENV)")
    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    assert Path(faucet_dagster.__file__).resolve().is_relative_to(site), faucet_dagster.__file__
    wanted = os.environ["FAUCET_COMPAT_ENV"]
    print(f"{wanted}: Python {sys.version.split()[0]}, Dagster {dg.__version__}")


# Modules whose imports need an optional extra that the compat environments do not install
EXTRA_MODULES = {"dagster_dbt", "dbt", "polars", "duckdb", "pyspark", "slack_sdk", "psycopg"}


def test_every_module_imports_on_this_python_and_dagster() -> None:
    """Syntax, regular expressions and Dagster names that a Python or Dagster release lacks
    fail here, at import, rather than in a user's code location."""
    failed: dict[str, str] = {}
    for package in (faucet_core, faucet_dagster):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            try:
                importlib.import_module(info.name)
            except ModuleNotFoundError as exc:
                if (exc.name or "").split(".")[0] not in EXTRA_MODULES:
                    failed[info.name] = repr(exc)
            except Exception as exc:
                failed[info.name] = repr(exc)
    assert failed == {}


def test_materialize_warns_naming_the_drifted_column(dagster_home: DagsterHome) -> None:
    # the baseline of earlier days (the sensor test below warms one up through real runs)
    config = ProfilingConfig(min_history=MIN_HISTORY, on_drift="notify")
    with ProfileStore(dagster_home.store_url) as store:
        for day in range(MIN_HISTORY):
            store.record("orders", profile(orders_frame(day, 0.01), config), config)

    done = materialize_cli(
        dagster_home,
        FAUCET_TEST_DAY=str(MIN_HISTORY),
        FAUCET_TEST_NULL_SHARE="0.4",
        FAUCET_TEST_ON_DRIFT="notify",
    )
    assert done.returncode == 0, done.stderr[-3000:]  # a WARN never fails the run
    with dagster_home.instance() as instance:
        evaluation = latest_evaluation(instance)
        assert (evaluation.passed, evaluation.severity) == (False, dg.AssetCheckSeverity.WARN)
        assert evaluation.metadata["faucet/status"] == dg.MetadataValue.text("drifted")
        assert evaluation.description is not None
        assert "amount" in evaluation.description
        findings = evaluation.metadata["faucet/findings"].value
        assert [(f["column"], f["metric"]) for f in findings] == [("amount", "null_rate")]


def test_the_sensor_notifies_a_warn_found_after_its_first_tick(
    dagster_home: DagsterHome, http: FakeHttp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(HOOK_VAR, http.url(WEBHOOK_PATH))
    sensor = build_drift_notification_sensor(destinations=[JsonWebhook(url=dg.EnvVar(HOOK_VAR))])
    resource = FaucetResource(store_url=dagster_home.store_url)
    checks = build_checks([orders], config={"min_history": MIN_HISTORY, "on_drift": "notify"})
    defs = dg.Definitions(
        assets=[orders], asset_checks=checks, sensors=[sensor], resources={"faucet": resource}
    )

    def tick(instance: dg.DagsterInstance, cursor: str | None) -> dg.SensorResult:
        result = sensor(dg.build_sensor_context(instance=instance, definitions=defs, cursor=cursor))
        assert isinstance(result, dg.SensorResult)
        return result

    with dagster_home.instance() as instance:
        first = tick(instance, None)
        for day in range(MIN_HISTORY + 1):
            nulls = "0.4" if day == MIN_HISTORY else "0.01"
            monkeypatch.setenv("FAUCET_TEST_DAY", str(day))
            monkeypatch.setenv("FAUCET_TEST_NULL_SHARE", nulls)
            run = dg.materialize([orders, *checks], instance=instance, resources=defs.resources)
            assert run.success
        [evaluation] = run.get_asset_check_evaluations()
        assert (evaluation.passed, evaluation.severity) == (False, dg.AssetCheckSeverity.WARN)
        second = tick(instance, first.cursor)
        assert tick(instance, second.cursor).cursor is not None  # nothing is sent twice
    [body] = http.delivered(WEBHOOK_PATH)
    assert "amount" in json.dumps(body), body


def test_plan_impact_from_the_console_script(sqlite_url: str) -> None:
    _record(sqlite_url)
    command = [str(BIN / "faucet"), "plan", "--impact", "-f", PLAN_LOCATION]
    done = subprocess.run(
        [*command, "--select", "customers", "--store", sqlite_url, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={k: v for k, v in os.environ.items() if not k.startswith(("FAUCET_", "DAGSTER_"))},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert "email" in json.dumps(report)  # the renamed column is walked downstream
    assert "crm/customers.parquet" in json.dumps(report)


def test_the_dg_component_loads_from_a_defs_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "compat_project"
    folder = package / "defs" / "profiling"
    folder.mkdir(parents=True)
    for init in (package / "__init__.py", package / "defs" / "__init__.py"):
        init.write_text("")
    (package / "defs" / "orders.py").write_text(
        "from tests.faucet_dagster.locations.orders_location import orders  # noqa: F401\n"
    )
    (folder / "defs.yaml").write_text(
        textwrap.dedent(
            f"""\
            type: faucet_dagster.ProfilingComponent
            attributes:
              assets: [orders]
              store_url: sqlite:///{tmp_path / "faucet.db"}
              profiling: {{min_history: 3, on_drift: fail}}
            """
        )
    )
    (tmp_path / "pyproject.toml").write_text(
        '[tool.dg]\ndirectory_type = "project"\n\n'
        '[tool.dg.project]\nroot_module = "compat_project"\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    # Dagster 1.12+ takes path_within_project, 1.10.21 - 1.11 project_root; before 1.10.21
    # there is only load_defs (deprecated later)
    import dagster.components as components

    load = getattr(components, "load_from_defs_folder", None)
    if load is None:
        defs = components.load_defs(
            importlib.import_module("compat_project.defs"), project_root=tmp_path
        )
    elif "path_within_project" in inspect.signature(load).parameters:
        defs = load(path_within_project=tmp_path)
    else:
        defs = load(project_root=tmp_path)
    check_keys = {key for c in defs.asset_checks or [] for key in c.check_keys}  # type: ignore[union-attr]
    assert check_keys == {dg.AssetCheckKey(dg.AssetKey("orders"), "faucet_profile")}
    [checks] = defs.asset_checks or []
    assert all(spec.blocking for spec in checks.check_specs)  # type: ignore[union-attr]
