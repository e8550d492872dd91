"""``build_drift_notification_sensor``: one ``profile_drift`` notification per finding.

Dagster has no open-source sensor for failed asset checks, and run-failure sensors miss
WARN results. This sensor reads the faucet profile checks' evaluations from the instance
(``get_asset_check_execution_history``, which works on the SQLite and the PostgreSQL event
log) and delivers the findings of checks whose ``on_drift`` is ``notify`` or ``fail`` to
Slack and/or a JSON webhook, exactly once: the sensor cursor is a delivery ledger
(:mod:`faucet_core.notify.ledger`) that only moves past what each destination confirmed.

No ``from __future__ import annotations``: Dagster inspects the sensor function's
``context`` annotation when the sensor is defined.
"""

import datetime as dt
import logging
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import dagster as dg

import faucet_dagster.metadata as md
from faucet_core.config import OnDrift, PolicyConfig, load_profiling_config
from faucet_core.errors import FaucetError
from faucet_core.notify import (
    BlocksFn,
    CheckSeverity,
    Dispatcher,
    DispatchOptions,
    Evaluation,
    EvaluationState,
    Ledger,
    RetryPolicy,
    TextFn,
    classified_columns,
    findings_from_metadata,
)
from faucet_dagster.checks.freshness import EPISODE_OVERDUE, EPISODE_RECOVERED, freshness_config_of
from faucet_dagster.event_log import evaluation_of, executions_after, is_planned
from faucet_dagster.notifications.destinations import (
    Destination,
    JsonWebhook,
    SlackBot,
    SlackWebhook,
)

__all__ = [
    "DEFAULT_SENSOR_NAME",
    "DEFAULT_TICK_BUDGET_SECONDS",
    "JsonWebhook",
    "SlackBot",
    "SlackWebhook",
    "build_drift_notification_sensor",
]

DEFAULT_SENSOR_NAME = "faucet_drift_notifications"
DEFAULT_TICK_BUDGET_SECONDS = 25.0
"""Sending stops after this long, well inside Dagster's 60 s sensor evaluation timeout."""
MAX_TICK_BUDGET_SECONDS = 50.0
_PAGE = 200
_NOTIFYING = frozenset({OnDrift.NOTIFY, OnDrift.FAIL})


# -- reading the profile checks' evaluations -----------------------------------------------


@dataclass(frozen=True)
class _Check:
    on_drift: OnDrift
    policy: PolicyConfig | None
    freshness: bool = False
    """A freshness check (``build_freshness_checks``): its ``on_overdue`` is ``on_drift``."""


def _notifying_checks(asset_graph: Any) -> dict[dg.AssetCheckKey, _Check]:
    """The faucet profile checks (their spec carries ``faucet/config``) that notify."""
    found: dict[dg.AssetCheckKey, _Check] = {}
    for key in asset_graph.asset_check_keys:
        metadata = asset_graph.get_check_spec(key).metadata or {}
        fresh = freshness_config_of(metadata)
        if fresh is not None:
            if fresh.on_overdue in _NOTIFYING:
                found[key] = _Check(fresh.on_overdue, None, freshness=True)
            continue
        if md.CONFIG not in metadata:
            continue
        try:
            cfg = load_profiling_config(md.unwrap(metadata[md.CONFIG]))
            check = _Check(cfg.on_drift, cfg.policy)
        except FaucetError:
            try:
                check = _Check(OnDrift(md.unwrap(metadata.get(md.ON_DRIFT))), None)
            except ValueError:
                continue
        if check.on_drift in _NOTIFYING:
            found[key] = check
    return found


@dataclass(frozen=True)
class _Reader:
    instance: dg.DagsterInstance
    base_url: str | None
    pending_timeout: float
    log: Callable[[int, str], None]
    check_errors: bool = True

    def evaluations(self, key: dg.AssetCheckKey, check: _Check, after: int) -> list[Evaluation]:
        storage = self.instance.event_log_storage
        records = executions_after(storage, key, after, page_size=_PAGE)
        planned = {r.run_id for r in records if is_planned(r)}
        runs: dict[str, dg.DagsterRun] = {}
        if planned:
            found = self.instance.get_runs(filters=dg.RunsFilter(run_ids=sorted(planned)))
            runs = {run.run_id: run for run in found}
        out = []
        for record in records:
            if is_planned(record):
                run = runs.get(record.run_id)
                if run is not None and not run.is_finished:
                    out.append(self._in_progress(key, record))
                    continue
                # The run ended: its evaluation may have landed after the read above.
                again = storage.get_asset_check_execution_history(
                    key, limit=1, cursor=record.id + 1
                )
                if not again or again[0].id != record.id:
                    out.append(Evaluation(record.id, EvaluationState.SKIP))
                    continue
                record = again[0]
                if is_planned(record):
                    # The run ended without evaluating the check (it failed or was skipped).
                    out.append(Evaluation(record.id, EvaluationState.SKIP))
                    continue
            out.append(self._evaluation(key, check, record))
        return out

    def _in_progress(self, key: dg.AssetCheckKey, record: Any) -> Evaluation:
        age = time.time() - record.create_timestamp
        if age <= self.pending_timeout:
            return Evaluation(record.id, EvaluationState.PENDING)
        self.log(
            logging.WARNING,
            f"{key.to_user_string()}: run {record.run_id} has been running for "
            f"{age / 3600:.0f} h (over pending_timeout_seconds); its evaluation will not be "
            "notified, so that later evaluations are not held back",
        )
        return Evaluation(record.id, EvaluationState.SKIP)

    def _evaluation(self, key: dg.AssetCheckKey, check: _Check, record: Any) -> Evaluation:
        skip = Evaluation(record.id, EvaluationState.SKIP)
        data = evaluation_of(record)
        if data is None:
            return skip
        result = md.CheckResultMetadata.from_metadata(data.metadata)
        if check.freshness:
            return self._freshness(key, check, record, data, result)
        schema_change = result.schema_change or None
        if data.passed and schema_change is None:
            return skip
        try:
            on_drift = OnDrift(result.on_drift or check.on_drift.value)
        except ValueError:
            return skip
        if on_drift not in _NOTIFYING:
            return skip
        if result.is_error:
            if not self.check_errors:
                return skip
            return self._check_error(key, on_drift, record, data, result)
        items = result.findings if not data.passed else None
        if not items:
            if schema_change is None:
                return skip
            items = []
        named = {str(i.get("column")) for i in items if isinstance(i, Mapping)}
        hidden = set(classified_columns(check.policy, named))
        # A check that records the columns its policy classified (detectors included)
        # under faucet/classified widens this beyond the policy's name rules.
        hidden |= {str(c) for c in result.classified or ()}
        try:
            findings = findings_from_metadata(items, classified=hidden)
        except FaucetError as exc:
            self.log(
                logging.ERROR,
                f"{key.to_user_string()}: evaluation of run {record.run_id} has unreadable "
                f"findings ({exc}); it is not notified",
            )
            return skip
        return self._ready(
            key,
            on_drift,
            record,
            data,
            findings=findings,
            schema_change=None if schema_change is None else str(schema_change),
        )

    def _freshness(
        self,
        key: dg.AssetCheckKey,
        check: _Check,
        record: Any,
        data: Any,
        result: md.CheckResultMetadata,
    ) -> Evaluation:
        """Only the evaluations that open or close an overdue episode are notified."""
        episode = result.episode
        if episode not in (EPISODE_OVERDUE, EPISODE_RECOVERED):
            return Evaluation(record.id, EvaluationState.SKIP)
        text = str(data.description or episode)
        return self._ready(key, check.on_drift, record, data, freshness=text, episode=str(episode))

    def _check_error(
        self,
        key: dg.AssetCheckKey,
        on_drift: OnDrift,
        record: Any,
        data: Any,
        result: md.CheckResultMetadata,
    ) -> Evaluation:
        """A check that could not do its work: its error, already redacted by the check."""
        text = result.error
        error = str(text).strip() if text else "no reason was recorded"
        return self._ready(key, on_drift, record, data, error=error)

    def _ready(
        self,
        key: dg.AssetCheckKey,
        on_drift: OnDrift,
        record: Any,
        data: Any,
        *,
        findings: tuple[Any, ...] = (),
        error: str | None = None,
        freshness: str | None = None,
        episode: str | None = None,
        schema_change: str | None = None,
    ) -> Evaluation:
        run_url = None
        if self.base_url and record.run_id:
            run_url = f"{self.base_url}/runs/{record.run_id}"
        return Evaluation(
            record_id=record.id,
            state=EvaluationState.READY,
            asset=key.asset_key.to_user_string(),
            check=key.name,
            run_id=record.run_id,
            evaluated_at=dt.datetime.fromtimestamp(record.event.timestamp, dt.timezone.utc),
            on_drift=on_drift,
            severity=CheckSeverity(data.severity.value),
            # AssetCheckEvaluation.partition exists from Dagster 1.12 on; 1.10 and 1.11 have
            # no partitioned checks, so their evaluations have no partition.
            partition=getattr(data, "partition", None),
            run_url=run_url,
            findings=findings,
            error=error,
            freshness=freshness,
            episode=episode,
            schema_change=schema_change,
        )


def _latest_id(instance: dg.DagsterInstance, keys: Sequence[dg.AssetCheckKey]) -> int:
    if not keys:
        return 0
    latest = instance.event_log_storage.get_latest_asset_check_execution_by_key(list(keys))
    return max((r.id for r in latest.values()), default=0)


# -- the sensor -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Options:
    destinations: tuple[Destination, ...]
    dispatch: DispatchOptions
    base_url: str | None
    pending_timeout: float
    check_errors: bool = True


def _tick(context: dg.SensorEvaluationContext, opts: _Options) -> dg.SensorResult:
    ledger = Ledger.loads(context.cursor)
    repo = context.repository_def
    if repo is None:
        raise dg.DagsterInvariantViolationError(
            "the faucet notification sensor needs its repository: evaluate it from its "
            "Definitions (in tests: build_sensor_context(definitions=...))"
        )
    asset_graph = repo.asset_graph
    instance = context.instance
    check_keys = sorted(asset_graph.asset_check_keys, key=str)
    if ledger.start is None:
        ledger.start = _latest_id(instance, check_keys)
        for destination in opts.destinations:
            ledger.destination(destination.name)
        message = (
            f"started after check evaluation {ledger.start}: drift found from now on is notified"
        )
        context.log.info(message)
        return dg.SensorResult(skip_reason=message, cursor=ledger.dumps())
    latest = None
    if any(d.name not in ledger.destinations for d in opts.destinations):
        latest = _latest_id(instance, check_keys)  # a new destination is not sent the past
    checks = _notifying_checks(asset_graph)
    channels = [d.resolve() for d in opts.destinations]
    dispatcher = Dispatcher(ledger, channels, opts.dispatch, context.log, latest=latest)
    reader = _Reader(
        instance, opts.base_url, opts.pending_timeout, dispatcher.log, opts.check_errors
    )
    try:
        for key in sorted(checks, key=lambda k: k.to_user_string()):
            lower = dispatcher.lower_bound(key.to_user_string())
            if lower is None or dispatcher.out_of_time:
                break
            try:
                evaluations = reader.evaluations(key, checks[key], lower)
            except Exception as exc:
                dispatcher.log(
                    logging.ERROR,
                    f"could not read the evaluations of {key.to_user_string()}: "
                    f"{type(exc).__name__}: {exc}; trying again next tick",
                )
                continue
            dispatcher.dispatch(key.to_user_string(), evaluations, read_after=lower)
    except Exception as exc:  # never lose the deliveries this tick already made
        dispatcher.log(
            logging.ERROR, f"notification tick stopped early: {type(exc).__name__}: {exc}"
        )
    return dg.SensorResult(skip_reason=dispatcher.summary(), cursor=ledger.dumps())


def _validate(
    destinations: Sequence[Any],
    name: str,
    minimum_interval_seconds: int,
    tick_budget_seconds: float,
    dagster_base_url: str | None,
    fns: Mapping[str, Any],
    waits: Mapping[str, Any],
) -> tuple[Destination, ...]:
    if isinstance(destinations, SlackWebhook | SlackBot | JsonWebhook):
        destinations = [destinations]
    found = tuple(destinations)
    if not found:
        raise dg.DagsterInvalidDefinitionError(
            "destinations is empty: give at least one of SlackWebhook, SlackBot, JsonWebhook"
        )
    for d in found:
        if not isinstance(d, SlackWebhook | SlackBot | JsonWebhook):
            raise dg.DagsterInvalidDefinitionError(
                f"destinations holds a {type(d).__name__}: use SlackWebhook, SlackBot or "
                "JsonWebhook from faucet_dagster"
            )
    names = [d.name for d in found]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise dg.DagsterInvalidDefinitionError(
            f"destination name(s) {', '.join(map(repr, twice))} used more than once: give each "
            "destination its own name= (it keys the destination's progress in the cursor)"
        )
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise dg.DagsterInvalidDefinitionError(
            f"name={name!r} is not a valid sensor name (e.g. {DEFAULT_SENSOR_NAME!r})"
        )
    if not isinstance(minimum_interval_seconds, int) or minimum_interval_seconds < 1:
        raise dg.DagsterInvalidDefinitionError(
            f"minimum_interval_seconds={minimum_interval_seconds!r} must be a whole number >= 1"
        )
    if not 0 < tick_budget_seconds <= MAX_TICK_BUDGET_SECONDS:
        raise dg.DagsterInvalidDefinitionError(
            f"tick_budget_seconds={tick_budget_seconds!r} must be above 0 and at most "
            f"{MAX_TICK_BUDGET_SECONDS:g}, inside Dagster's 60 s sensor evaluation timeout"
        )
    if dagster_base_url is not None and not str(dagster_base_url).startswith(
        ("http://", "https://")
    ):
        raise dg.DagsterInvalidDefinitionError(
            f"dagster_base_url={dagster_base_url!r} is not an http(s) URL "
            "(e.g. 'https://dagster.example.com')"
        )
    for arg, seconds in waits.items():
        if not isinstance(seconds, int | float) or seconds < 0:
            raise dg.DagsterInvalidDefinitionError(
                f"{arg}={seconds!r} must be a number of seconds, 0 or more"
            )
    for fn_name, fn in fns.items():
        if fn is not None and not callable(fn):
            raise dg.DagsterInvalidDefinitionError(
                f"{fn_name}={fn!r} is not callable: pass a function (DriftNotification) -> ..."
            )
    return found


def build_drift_notification_sensor(
    *,
    destinations: Sequence[Destination] | Destination,
    name: str = DEFAULT_SENSOR_NAME,
    minimum_interval_seconds: int = 30,
    default_status: dg.DefaultSensorStatus = dg.DefaultSensorStatus.STOPPED,
    text_fn: TextFn | None = None,
    blocks_fn: BlocksFn | None = None,
    group_by_evaluation: bool = False,
    dagster_base_url: str | None = None,
    tick_budget_seconds: float = DEFAULT_TICK_BUDGET_SECONDS,
    retry: RetryPolicy | None = None,
    probe_interval_seconds: float = 3600.0,
    pending_timeout_seconds: float = 3 * 86400.0,
    notify_check_errors: bool = True,
    description: str | None = None,
) -> dg.SensorDefinition:
    """A sensor that notifies drift found by the faucet profile checks, exactly once.

    Args:
        destinations: :class:`SlackWebhook`, :class:`SlackBot` and/or :class:`JsonWebhook`;
            each gets every notification and keeps its own progress.
        name: the sensor's name; its cursor (the delivery ledger) is kept under it.
        text_fn: builds the message text (Slack's text and preview, the webhook's ``text``)
            from a :class:`~faucet_core.notify.DriftNotification`.
        blocks_fn: builds the Slack blocks (at most 50 are sent).
        group_by_evaluation: one message per check evaluation with all its findings,
            instead of one per finding.
        dagster_base_url: the Dagster UI's address, to link each message to its run.
        tick_budget_seconds: sending stops after this long; the rest goes next tick.
        retry: retries of 429 (after ``Retry-After``), 5xx and network errors in a tick.
        probe_interval_seconds: how often a broken destination (404, ``invalid_auth``,
            ``channel_not_found``) is tried again while its configuration is unchanged.
        pending_timeout_seconds: a run still in progress this long no longer holds back the
            cursor (its evaluation will not be notified).
        notify_check_errors: also notify a check that could not do its work (store
            unreachable, loader failed; ``faucet/status: error``), one
            ``profile_check_error`` message per evaluation: the asset went unmonitored.

    Only evaluations that failed with findings (or, with ``notify_check_errors``, that
    could not check) and whose ``on_drift`` was ``notify`` or ``fail`` when they ran are
    notified; ``warn`` sends nothing. The first tick starts
    after the latest evaluation: drift found before the sensor first ran is not notified.
    Values of policy-classified columns never appear in messages.
    """
    found = _validate(
        destinations if isinstance(destinations, Sequence) else [destinations],
        name,
        minimum_interval_seconds,
        tick_budget_seconds,
        dagster_base_url,
        {"text_fn": text_fn, "blocks_fn": blocks_fn},
        {
            "probe_interval_seconds": probe_interval_seconds,
            "pending_timeout_seconds": pending_timeout_seconds,
        },
    )
    opts = _Options(
        destinations=found,
        dispatch=DispatchOptions(
            group_by_evaluation=group_by_evaluation,
            budget_seconds=tick_budget_seconds,
            retry=retry or RetryPolicy(),
            probe_interval_seconds=probe_interval_seconds,
            text_fn=text_fn,
            blocks_fn=blocks_fn,
        ),
        base_url=dagster_base_url.rstrip("/") if dagster_base_url else None,
        pending_timeout=pending_timeout_seconds,
        check_errors=bool(notify_check_errors),
    )

    @dg.sensor(
        name=name,
        minimum_interval_seconds=minimum_interval_seconds,
        default_status=default_status,
        description=description
        or (
            "faucet: notifies profile drift found by the faucet profile checks "
            f"({', '.join(d.name for d in found)}), one message per "
            + ("check evaluation" if group_by_evaluation else "finding")
        ),
    )
    def _drift_notifications(context: dg.SensorEvaluationContext) -> dg.SensorResult:
        return _tick(context, opts)

    return _drift_notifications
