"""The README's main job: eleven simulated days of the example project, end to end.

Each day runs ``dagster asset materialize`` on the example code location (on an
embedded SQLite Dagster instance and faucet store under ``.dagster_home/``), prints
what the profile checks said and how the run ended, and ticks the drift notification
sensor, whose Slack and webhook messages go to a receiver this script runs on
127.0.0.1. Days 1-5 warm the baselines up, 6-8 are stable, and days 9-11 carry the
faults of ``faucet_example.source``: the ``orders`` check notifies, and the blocking
check of ``revenue_by_region`` (``on_drift: fail``) fails the run, so
``regional_report`` is not built; on day 11 ``ordered_at`` is dropped upstream, an observed
schema change the ``orders`` check reports and notifies.

Each day also has a place on a simulated calendar (day 1 is Monday 2026-11-02): the
partner behind the external asset ``partner_rates`` delivers at about 06:00 on days 1-8,
then stops. The demo reports each delivery as an observation stating its time and ticks
the freshness sensor at noon of the simulated day; the learned check reports the asset
overdue on day 9, once, and the notification sensor sends it. The run ends with
``faucet profiling show`` on the demo's store, found through ``faucet.toml``, and the
commands to explore further.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json
import os
import shutil
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
HOME = HERE / ".dagster_home"
BIN = Path(sys.executable).parent
MODULE = "faucet_example.definitions"
LOCATION = ["-m", MODULE]
DAYS = 11
BLOCKING = "revenue_by_region"
DOWNSTREAM = "regional_report"
SENSOR = "faucet_drift_notifications"
PARTNER = "partner_rates"
PARTNER_DAYS = 8
"""The partner delivers on days 1-8, then stops (an overdue asset)."""
CALENDAR = dt.datetime(2026, 11, 2, tzinfo=dt.timezone.utc)
"""Day 1 of the simulated calendar (a Monday)."""


def sim_time(day: int, hour: int, minute: int = 0) -> dt.datetime:
    """``hour:minute`` UTC of simulated ``day``."""
    return CALENDAR + dt.timedelta(days=day - 1, hours=hour, minutes=minute)


def deliver_partner_rates(instance: Any, day: int) -> None:
    """The partner's delivery of ``day`` (about 06:00), reported as an observation that
    states when the data changed, as an external asset's sensor would."""
    import dagster as dg

    stated = sim_time(day, 6, (day * 7) % 25).timestamp()
    instance.report_runless_asset_event(
        dg.AssetObservation(
            asset_key=PARTNER,
            metadata={"dagster/last_updated_timestamp": dg.MetadataValue.timestamp(stated)},
        )
    )


def tick_freshness(instance: Any, defs: Any, day: int) -> Any:
    """The freshness sensor at noon of simulated ``day``; its evaluations are stored as
    the sensor daemon stores them. Returns the partner's check evaluation, if any."""
    import dagster as dg

    from faucet_dagster import build_freshness_sensor

    noon = sim_time(day, 12).timestamp()
    sensor = build_freshness_sensor(clock=lambda: noon)
    with contextlib.redirect_stderr(io.StringIO()):
        result = sensor(dg.build_sensor_context(instance=instance, definitions=defs))
    found = None
    for event in result.asset_events:
        instance.report_runless_asset_event(event)
        if event.asset_key.to_user_string() == PARTNER:
            found = event
    return found


# -- a local receiver for the notifications -------------------------------------------------
class Receiver:
    """An HTTP server on 127.0.0.1 that keeps every JSON body POSTed to it: ``/slack`` plays
    a Slack incoming webhook, ``/webhook`` an alerting endpoint."""

    def __init__(self) -> None:
        self.received: list[tuple[str, Any]] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    payload: Any = json.loads(body)
                except ValueError:
                    payload = body.decode("utf-8", "replace")
                with receiver._lock:
                    receiver.received.append((self.path, payload))
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(b"ok")  # what Slack answers a webhook it accepted

            def log_message(self, *_args: Any) -> None:  # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def take(self) -> list[tuple[str, Any]]:
        with self._lock:
            taken, self.received = self.received, []
        return taken

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


# -- the demo --------------------------------------------------------------------------------
def _env(day: int, receiver: Receiver) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DAGSTER_HOME=str(HOME),
        FAUCET_EXAMPLE_DAY=str(day),
        PYTHONUNBUFFERED="1",
        PYTHONPATH=os.pathsep.join(filter(None, [str(HERE / "src"), env.get("PYTHONPATH")])),
        SLACK_WEBHOOK_URL=f"{receiver.url}/slack",
        ALERTS_WEBHOOK_URL=f"{receiver.url}/webhook",
    )
    env.pop("FAUCET_STORE_URL", None)  # the demo's store is the one faucet.toml names
    return env


def _cli_env() -> dict[str, str]:
    """What a new user's shell has: none of faucet's or Dagster's variables."""
    env = dict(os.environ)
    for var in ("FAUCET_STORE_URL", "FAUCET_HOME", "DAGSTER_HOME"):
        env.pop(var, None)
    return env


def _run_outcome(instance: Any, before: int) -> tuple[bool | None, str]:
    """How the day's run ended: ``(True, line)`` when it succeeded, ``(False, line)`` when a
    blocking check failed it (the demo's purpose), ``(None, "")`` for anything else."""
    import dagster as dg

    runs = instance.get_runs(limit=1)
    if len(instance.get_runs()) == before or not runs:
        return None, ""  # the command failed before it launched a run
    run = runs[0]

    def events(kind: Any) -> list[Any]:
        found = instance.get_records_for_run(run.run_id, of_type=kind).records
        return [r.event_log_entry.dagster_event for r in found]

    materializations = events(dg.DagsterEventType.ASSET_MATERIALIZATION)
    built = {e.asset_key.to_user_string() for e in materializations}
    if run.status is dg.DagsterRunStatus.SUCCESS:
        return True, f"run {run.status.value}: {len(built)} assets materialized"
    blocked = sorted(
        e.event_specific_data.asset_key.to_user_string()
        for e in events(dg.DagsterEventType.ASSET_CHECK_EVALUATION)
        if not e.event_specific_data.passed
        and e.event_specific_data.severity is dg.AssetCheckSeverity.ERROR
    )
    if not blocked:
        return None, ""
    missing = sorted({"raw_orders", "orders", BLOCKING, DOWNSTREAM} - built)
    return False, (
        f"run {run.status.value}: the blocking check of {', '.join(blocked)} (on_drift: fail) "
        f"failed with severity ERROR; not materialized: {', '.join(missing) or 'none'}"
    )


def _tick(sensor: Any, instance: Any, defs: Any, cursor: str | None) -> tuple[str | None, str]:
    import dagster as dg

    with contextlib.redirect_stderr(io.StringIO()):  # the tick's own log; its summary is returned
        context = dg.build_sensor_context(instance=instance, definitions=defs, cursor=cursor)
        result = sensor(context)
    reason = result.skip_reason
    return result.cursor, str(getattr(reason, "skip_message", None) or "")


def _show(received: list[tuple[str, Any]], slack_shown: bool) -> bool:
    for path, payload in received:
        if path == "/webhook" and isinstance(payload, dict):
            first = str(payload.get("text", "")).splitlines()[0] if payload.get("text") else ""
            print(f"        webhook <- {payload.get('kind')} {payload.get('asset')}: {first}")
        elif path == "/slack" and isinstance(payload, dict):
            if not slack_shown:
                print("        slack   <- Block Kit message (one block a line):")
                print(f"           text: {json.dumps(payload.get('text'), ensure_ascii=False)}")
                for block in payload.get("blocks", []):
                    print(f"           {json.dumps(block, ensure_ascii=False)}")
                slack_shown = True
            else:
                first = str(payload.get("text", "")).splitlines()[0]
                print(f"        slack   <- {len(payload.get('blocks', []))} blocks: {first}")
        else:
            print(f"        {path} <- {payload!r}")
    return slack_shown


def _rel(path: Path) -> str:
    return os.path.relpath(path, HERE)


def main() -> int:
    sys.path.insert(0, str(HERE / "src"))
    from faucet_example.source import FAULTS

    from faucet_core.db.project import find_project_store
    from faucet_core.store import ProfileStore

    shutil.rmtree(HOME, ignore_errors=True)
    HOME.mkdir(parents=True)
    (HOME / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")
    project = find_project_store(HERE)
    if project is None:
        print(f"{HERE / 'faucet.toml'} is missing: it names the demo's store", file=sys.stderr)
        return 1
    receiver = Receiver()
    os.environ.update(_env(1, receiver))  # the sensor ticks in this process
    import dagster as dg

    from faucet_dagster.location import load_code_location

    defs = load_code_location(MODULE).defs
    (sensor,) = [s for s in defs.sensors or [] if getattr(s, "name", None) == SENSOR]
    instance = dg.DagsterInstance.get()
    print(f"DAGSTER_HOME={HOME}")
    print(f"faucet store: {project.url} (from {_rel(project.path)})")
    print(f"notifications: Slack webhook and JSON webhook both to {receiver.url}\n")
    cursor: str | None = None
    slack_shown = False
    failed_days = []
    try:
        for day in range(1, DAYS + 1):
            before = len(instance.get_runs())
            done = subprocess.run(
                [str(BIN / "dagster"), "asset", "materialize", *LOCATION, "--select", "*"],
                env=_env(day, receiver),
                cwd=HERE,
                capture_output=True,
                text=True,
            )
            ok, outcome = _run_outcome(instance, before)
            if ok is None or (ok and done.returncode != 0):  # not a blocking check's failure
                print(done.stdout[-3000:], done.stderr[-3000:], sep="\n")
                print(f"day {day}: dagster asset materialize failed", file=sys.stderr)
                return 1
            with ProfileStore(project.url) as store:
                latest = [store.latest(k.key, partition=k.partition or None) for k in store.keys()]
            runs = [run for run in latest if run is not None]
            note = f" ({FAULTS[day]})" if day in FAULTS else ""
            print(
                f"day {day:2d}{note}: "
                + "; ".join(
                    f"{run.key}: {run.status.value}"
                    + (f" ({len(run.findings)} finding(s))" if run.findings else "")
                    for run in runs
                )
            )
            for run in runs:
                for finding in run.findings:
                    print(f"        ! {run.key}: {finding.message}")
            if ok is False:
                failed_days.append(day)
                print(f"        {outcome}")
            if day <= PARTNER_DAYS:
                deliver_partner_rates(instance, day)
            evaluation = tick_freshness(instance, defs, day)
            if evaluation is not None and (day == 1 or not evaluation.passed or day == 6):
                print(f"        {PARTNER}: {evaluation.description}")
            cursor, said = _tick(sensor, instance, defs, cursor)
            received = receiver.take()
            if day == 1:
                print(f"        notification sensor: {said}")
            slack_shown = _show(received, slack_shown)
    finally:
        receiver.close()
        instance.dispose()
    print(
        f"\n{len(failed_days)} run(s) failed on purpose (days {', '.join(map(str, failed_days))}):"
        f" {DOWNSTREAM} was not built from drifted revenue."
    )
    faucet = _rel(BIN / "faucet")
    print(f"\n$ cd {HERE.name} && {faucet} profiling show   # faucet.toml names the store\n")
    sys.stdout.flush()
    shown = subprocess.run([str(BIN / "faucet"), "profiling", "show"], env=_cli_env(), cwd=HERE)
    if shown.returncode != 0:
        return shown.returncode
    print(
        f"""
Explore the demo's store from {HERE.name}/ (faucet.toml points every faucet command at it):
  {faucet} doctor
  {faucet} catalog datasets
  {faucet} metrics            (Prometheus text format)
  {faucet} metrics --rules    (the shipped alert rules; --dashboard: the Grafana dashboard)

The HTTP API on the demo's store:
  export FAUCET_TOKENS="me:viewer:$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
  {faucet} serve -m {MODULE} --port 8765
  curl -H "Authorization: Bearer ${{FAUCET_TOKENS##*:}}" http://127.0.0.1:8765/v1/catalog/datasets
  web console: http://127.0.0.1:8765/ui/  (sign in with the token: echo ${{FAUCET_TOKENS##*:}})

The Dagster UI (http://127.0.0.1:3000):
  DAGSTER_HOME=$PWD/.dagster_home {_rel(BIN / "dagster")} dev"""
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
