"""``build_freshness_checks`` and ``build_freshness_sensor``: learned freshness for Dagster.

Each check learns its asset's cadence from the materializations in the Dagster event log
(:mod:`faucet_core.freshness`) and reports the asset fresh, overdue or warming up. The
check runs after each materialization when a run includes it, and the sensor evaluates
every faucet freshness check of its Definitions on each tick, so an asset that never runs
again is still reported overdue: the sensor records the evaluation (a runless
``AssetCheckEvaluation``) when the state changes, or when a materialization happened since
the check last reported.

An evaluation that opens an overdue episode carries ``faucet/episode: overdue``; the first
one after it that is not overdue carries ``faucet/episode: recovered``. The drift
notification sensor sends one ``profile_freshness`` notification for each (only these).

No ``from __future__ import annotations``: Dagster inspects the check and sensor
functions' ``context`` annotations at definition time.
"""

import datetime as dt
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import dagster as dg
from dagster import AssetCheckExecutionContext

import faucet_dagster.metadata as md
from faucet_core.config import OnDrift
from faucet_core.errors import ConfigError
from faucet_core.freshness import (
    FreshnessConfig,
    FreshnessState,
    FreshnessVerdict,
    Update,
    judge_freshness,
    load_freshness_config,
)
from faucet_core.redact import redact
from faucet_core.store.metrics import set_freshness
from faucet_dagster.checks.build import check_identifier
from faucet_dagster.checks.targets import overrides_by_key, resolve_targets
from faucet_dagster.event_log import check_history, evaluation_of, is_planned

__all__ = [
    "DEFAULT_FRESHNESS_CHECK_NAME",
    "DEFAULT_FRESHNESS_SENSOR_NAME",
    "EPISODE_OVERDUE",
    "EPISODE_RECOVERED",
    "FRESHNESS_KIND",
    "assess",
    "build_freshness_checks",
    "build_freshness_sensor",
    "freshness_config_of",
]

DEFAULT_FRESHNESS_CHECK_NAME = "faucet_freshness"
DEFAULT_FRESHNESS_SENSOR_NAME = "faucet_freshness_sensor"
FRESHNESS_KIND = "freshness"
"""``faucet/kind`` of a freshness check (spec and evaluations)."""
EPISODE_OVERDUE = "overdue"
EPISODE_RECOVERED = "recovered"
_HISTORY_PAGE = 20

Clock = Callable[[], float]


def _invalid(message: str) -> dg.DagsterInvalidDefinitionError:
    return dg.DagsterInvalidDefinitionError(message)


def _config(value: Any, where: str) -> FreshnessConfig:
    try:
        return load_freshness_config(value, where=where)
    except ConfigError as exc:
        raise _invalid(str(exc)) from None


def freshness_config_of(spec_metadata: Mapping[str, Any]) -> FreshnessConfig | None:
    """The config of a faucet freshness check spec, None for any other check."""
    raw = spec_metadata.get(md.FRESHNESS)
    if raw is None:
        return None
    try:
        return load_freshness_config(md.unwrap(raw))
    except ConfigError:
        return None


def build_freshness_checks(
    assets: Iterable[Any],
    *,
    config: FreshnessConfig | Mapping[str, Any] | None = None,
    asset_configs: Mapping[Any, FreshnessConfig | Mapping[str, Any]] | None = None,
    name: str = DEFAULT_FRESHNESS_CHECK_NAME,
    description: str | None = None,
) -> list[dg.AssetChecksDefinition]:
    """Asset checks that learn each asset's update cadence and report it overdue.

    Args:
        assets: asset keys (``AssetKey``, ``"a/b"``), ``AssetSpec`` s or asset definitions.
        config: the ``freshness:`` block (:class:`~faucet_core.freshness.FreshnessConfig`
            or a mapping): ``min_history``, ``history``, ``max_lag``, ``timezone``,
            ``on_overdue``.
        asset_configs: per-asset blocks that replace ``config`` for those assets.
        name: the check name (the same on every asset).

    Pair them with :func:`build_freshness_sensor`: a check that only runs after a
    materialization cannot see an asset that stopped materializing. An overdue asset is a
    failed evaluation with severity WARN, or ERROR under ``on_overdue: fail``; ``notify``
    and ``fail`` are notified by the drift notification sensor (``profile_freshness``).
    """
    base = _config(config, "config")
    check_identifier(name, "name", DEFAULT_FRESHNESS_CHECK_NAME)
    targets = resolve_targets(assets, io_manager_key="io_manager")
    overrides = overrides_by_key(asset_configs)
    unknown = set(overrides) - {t.key for t in targets}
    if unknown:
        names = ", ".join(sorted(k.to_user_string() for k in unknown))
        raise _invalid(
            f"asset_configs names asset(s) not in assets: {names}; add them to assets or "
            "remove their override"
        )
    checks = []
    for target in targets:
        where = f"asset_configs[{target.key.to_user_string()!r}]"
        cfg = _config(overrides[target.key], where) if target.key in overrides else base
        checks.append(_build_one(target.key, cfg, name, description))
    return checks


def _spec_description(cfg: FreshnessConfig) -> str:
    rule = (
        f"max_lag {cfg.max_lag}"
        if cfg.max_lag is not None
        else f"learned cadence, min_history {cfg.min_history}, time zone {cfg.timezone}"
    )
    return (
        "faucet: reports the asset overdue when its last materialization is older than its "
        f"cadence allows ({rule}, on_overdue {cfg.on_overdue.value})"
    )


def _build_one(
    key: dg.AssetKey, cfg: FreshnessConfig, name: str, description: str | None
) -> dg.AssetChecksDefinition:
    @dg.asset_check(
        asset=key,
        name=name,
        description=description or _spec_description(cfg),
        metadata={
            md.FRESHNESS: dg.MetadataValue.json(cfg.model_dump(mode="json")),
            md.KIND: FRESHNESS_KIND,
            md.ON_OVERDUE: cfg.on_overdue.value,
        },
    )
    def _freshness_check(context: AssetCheckExecutionContext) -> dg.AssetCheckResult:
        graph = context.op_execution_context.job_def.asset_layer.asset_graph
        pdef = graph.get(key).partitions_def if graph.has(key) else None
        check_key = dg.AssetCheckKey(key, name)
        a = assess(context.instance, check_key, cfg, pdef, time.time(), in_run=True)
        return dg.AssetCheckResult(
            passed=a.passed, severity=a.severity, description=a.description, metadata=a.metadata
        )

    return _freshness_check


# -- assessing one asset --------------------------------------------------------------------


@dataclass(frozen=True)
class Assessment:
    """A freshness verdict as a check evaluation, and whether it is news."""

    verdict: FreshnessVerdict
    passed: bool
    severity: dg.AssetCheckSeverity
    description: str
    metadata: dict[str, Any]
    episode: str | None
    changed: bool
    """The state differs from the last evaluation, or a materialization happened since."""
    pending: bool
    """A run is evaluating this check now (its own evaluation will report)."""


def _order_of(pdef: dg.PartitionsDefinition | None) -> Callable[[str | None], int | None]:
    if not isinstance(pdef, dg.TimeWindowPartitionsDefinition):
        return lambda _partition: None

    def order(partition: str | None) -> int | None:
        if partition is None:
            return None
        try:
            return int(pdef.time_window_for_partition_key(partition).start.timestamp())
        except Exception:  # a key of another definition (the asset was re-partitioned)
            return None

    return order


def _stated_time(entry: Any) -> float | None:
    event = entry.dagster_event
    data = event.event_specific_data if event is not None else None
    inner = getattr(data, "materialization", None) or getattr(data, "asset_observation", None)
    # when the data last changed, as Dagster's own freshness checks read it
    raw = md.unwrap(getattr(inner, "metadata", {}).get(md.LAST_UPDATED_TIMESTAMP))
    return float(raw) if isinstance(raw, int | float) and not isinstance(raw, bool) else None


def _updates(
    instance: dg.DagsterInstance, key: dg.AssetKey, cfg: FreshnessConfig, pdef: Any
) -> list[Update]:
    """Materializations (at their event time, or the ``dagster/last_updated_timestamp``
    they state) and observations that state ``dagster/last_updated_timestamp``."""
    order = _order_of(pdef)
    limit = 2 * cfg.history + 10
    out = []
    for record in instance.fetch_materializations(key, limit=limit).records:
        entry = record.event_log_entry
        partition = entry.dagster_event.partition if entry.dagster_event else None
        when = _stated_time(entry) or entry.timestamp
        at = dt.datetime.fromtimestamp(when, dt.timezone.utc)
        out.append(Update(at, partition=partition, order=order(partition)))
    for record in instance.fetch_observations(key, limit=limit).records:
        entry = record.event_log_entry
        stated = _stated_time(entry)
        if stated is not None:  # an observation that says nothing of the data is no update
            partition = entry.dagster_event.partition if entry.dagster_event else None
            at = dt.datetime.fromtimestamp(stated, dt.timezone.utc)
            out.append(Update(at, partition=partition, order=order(partition)))
    return out


def _previous(instance: dg.DagsterInstance, check_key: dg.AssetCheckKey) -> tuple[Any, bool]:
    """The metadata of the latest completed evaluation, and whether a run that has not
    finished yet plans to evaluate the check (a failed run's plan never completes)."""
    storage = instance.event_log_storage
    planned: set[str] = set()
    found = None
    for record in check_history(storage, check_key, page_size=_HISTORY_PAGE, max_pages=5):
        if is_planned(record):
            planned.add(record.run_id)
            continue
        data = evaluation_of(record)
        if data is not None:
            found = data.metadata
            break
    running = False
    if planned:
        runs = instance.get_runs(filters=dg.RunsFilter(run_ids=sorted(planned)))
        running = any(not run.is_finished for run in runs)
    return found, running


def assess(
    instance: dg.DagsterInstance,
    check_key: dg.AssetCheckKey,
    cfg: FreshnessConfig,
    partitions_def: dg.PartitionsDefinition | None,
    now: float,
    *,
    in_run: bool = False,
) -> Assessment:
    """Judge ``check_key``'s asset at ``now`` (Unix seconds) from the instance's event log."""
    key = check_key.asset_key
    updates = _updates(instance, key, cfg, partitions_def)
    verdict = judge_freshness(updates, dt.datetime.fromtimestamp(now, dt.timezone.utc), cfg)
    previous, planned = _previous(instance, check_key)
    earlier = md.CheckResultMetadata.from_metadata(previous) if previous else None
    before = earlier.status if earlier else None
    before_last = earlier.last_update if earlier else None
    last_text = verdict.last.isoformat() if verdict.last else ""
    overdue = verdict.state is FreshnessState.OVERDUE
    episode = None
    if overdue and before != FreshnessState.OVERDUE.value:
        episode = EPISODE_OVERDUE
    elif not overdue and before == FreshnessState.OVERDUE.value:
        episode = EPISODE_RECOVERED
    changed = previous is None or before != verdict.state.value or before_last != last_text
    fail = overdue and cfg.on_overdue is OnDrift.FAIL
    description = verdict.message
    metadata: dict[str, Any] = {
        md.KIND: FRESHNESS_KIND,
        md.STATUS: verdict.state.value,
        md.ON_OVERDUE: cfg.on_overdue.value,
        md.LAST_UPDATE: dg.MetadataValue.text(last_text),
        md.DEADLINE: dg.MetadataValue.text(
            verdict.deadline.isoformat() if verdict.deadline else ""
        ),
        md.FRESHNESS: dg.MetadataValue.json(verdict.to_dict()),
    }
    if verdict.lag is not None:
        metadata[md.LAG_SECONDS] = float(verdict.lag.total_seconds())
    if episode is not None:
        metadata[md.EPISODE] = episode
    last_partition = _last_partition(updates, verdict)
    if isinstance(partitions_def, dg.TimeWindowPartitionsDefinition) and last_partition:
        try:
            following = partitions_def.get_next_partition_key(last_partition)
        except Exception:
            following = None
        if following:
            metadata[md.NEXT_PARTITION] = following
            description += f"; next partition expected: {following}"
    if in_run:
        changed = True
    return Assessment(
        verdict=verdict,
        passed=not overdue,
        severity=dg.AssetCheckSeverity.ERROR if fail else dg.AssetCheckSeverity.WARN,
        description=description,
        metadata=metadata,
        episode=episode,
        changed=changed,
        pending=planned and not in_run,
    )


def _last_partition(updates: Sequence[Update], verdict: FreshnessVerdict) -> str | None:
    ordered = [u for u in updates if u.order is not None and u.partition]
    if not ordered or verdict.last is None:
        return None
    return max(ordered, key=lambda u: u.order or 0).partition


# -- the sensor -----------------------------------------------------------------------------


def _freshness_checks(asset_graph: Any) -> dict[dg.AssetCheckKey, FreshnessConfig]:
    found = {}
    for key in asset_graph.asset_check_keys:
        cfg = freshness_config_of(asset_graph.get_check_spec(key).metadata or {})
        if cfg is not None:
            found[key] = cfg
    return found


def _gauges(context: dg.SensorEvaluationContext, resource_key: str, states: list[Any]) -> None:
    """``faucet_asset_overdue`` and the deadline gauge in the store, best-effort."""
    try:
        store = getattr(context.resources, resource_key).get_store()
        set_freshness(store, states)
    except Exception as exc:  # the evaluations matter more than the gauges
        context.log.warning(
            f"faucet: the freshness gauges were not recorded in the store: "
            f"{redact(f'{type(exc).__name__}: {exc}')}"
        )


def _tick(
    context: dg.SensorEvaluationContext,
    wanted: set[dg.AssetCheckKey] | None,
    clock: Clock,
    resource_key: str | None,
) -> dg.SensorResult:
    repo = context.repository_def
    if repo is None:
        raise dg.DagsterInvariantViolationError(
            "the faucet freshness sensor needs its repository: evaluate it from its "
            "Definitions (in tests: build_sensor_context(definitions=...))"
        )
    graph = repo.asset_graph
    checks = _freshness_checks(graph)
    if wanted is not None:
        checks = {k: v for k, v in checks.items() if k in wanted}
    now = clock()
    events: list[dg.AssetCheckEvaluation] = []
    overdue: list[str] = []
    states: list[tuple[str, bool, float | None]] = []
    for check_key in sorted(checks, key=lambda k: k.to_user_string()):
        cfg = checks[check_key]
        asset_key = check_key.asset_key
        pdef = graph.get(asset_key).partitions_def if graph.has(asset_key) else None
        try:
            a = assess(context.instance, check_key, cfg, pdef, now)
        except Exception as exc:  # one asset's fault must not hide the others
            context.log.error(
                f"faucet: could not judge the freshness of {asset_key.to_user_string()}: "
                f"{type(exc).__name__}: {exc}; trying again next tick"
            )
            continue
        is_overdue = a.verdict.state is FreshnessState.OVERDUE
        if is_overdue:
            overdue.append(asset_key.to_user_string())
        deadline = a.verdict.deadline.timestamp() if a.verdict.deadline else None
        states.append((asset_key.to_user_string(), is_overdue, deadline))
        if a.pending or not a.changed:
            continue
        events.append(
            dg.AssetCheckEvaluation(
                asset_key=asset_key,
                check_name=check_key.name,
                passed=a.passed,
                severity=a.severity,
                description=a.description,
                metadata=a.metadata,
            )
        )
    if resource_key is not None:
        _gauges(context, resource_key, states)
    summary = (
        f"{len(checks)} freshness check(s); overdue: {', '.join(overdue)}"
        if overdue
        else f"{len(checks)} freshness check(s); none overdue"
    )
    if events:
        summary += f"; {len(events)} evaluation(s) recorded"
    return dg.SensorResult(asset_events=events, skip_reason=None if events else summary)


def build_freshness_sensor(
    freshness_checks: Sequence[dg.AssetChecksDefinition] | None = None,
    *,
    name: str = DEFAULT_FRESHNESS_SENSOR_NAME,
    minimum_interval_seconds: int = 60,
    default_status: dg.DefaultSensorStatus = dg.DefaultSensorStatus.STOPPED,
    description: str | None = None,
    resource_key: str | None = None,
    clock: Clock = time.time,
) -> dg.SensorDefinition:
    """A sensor that evaluates faucet freshness checks on every tick.

    Args:
        freshness_checks: the checks of :func:`build_freshness_checks` to evaluate; None:
            every faucet freshness check of the sensor's Definitions.
        resource_key: the key of a :class:`~faucet_dagster.FaucetResource`: when given, every
            tick records ``faucet_asset_overdue`` and
            ``faucet_asset_freshness_deadline_timestamp_seconds`` per asset in its store
            (exposed by ``faucet metrics``; the ``FaucetAssetOverdue`` rule reads them).
        clock: the current Unix time (default ``time.time``); a replay or a test passes
            its own.

    An evaluation is recorded when an asset's state changes (fresh, overdue, warming) or a
    materialization happened since its check last reported; an overdue asset that stays
    overdue is reported once, not on every tick.
    """
    check_identifier(name, "name", DEFAULT_FRESHNESS_SENSOR_NAME)
    if resource_key is not None:
        check_identifier(resource_key, "resource_key", "faucet")
    if not isinstance(minimum_interval_seconds, int) or minimum_interval_seconds < 1:
        raise _invalid(
            f"minimum_interval_seconds={minimum_interval_seconds!r} must be a whole number >= 1"
        )
    if not callable(clock):
        raise _invalid(f"clock={clock!r} is not callable: pass a function () -> Unix seconds")
    wanted: set[dg.AssetCheckKey] | None = None
    if freshness_checks is not None:
        wanted = set()
        for checks_def in freshness_checks:
            if not isinstance(checks_def, dg.AssetChecksDefinition):
                raise _invalid(
                    f"freshness_checks holds a {type(checks_def).__name__}: pass the checks "
                    "build_freshness_checks returned"
                )
            for spec in checks_def.check_specs:
                if freshness_config_of(spec.metadata or {}) is None:
                    raise _invalid(
                        f"{spec.key.to_user_string()} is not a faucet freshness check: pass "
                        "the checks build_freshness_checks returned"
                    )
                wanted.add(spec.key)

    @dg.sensor(
        name=name,
        minimum_interval_seconds=minimum_interval_seconds,
        default_status=default_status,
        required_resource_keys={resource_key} if resource_key else None,
        description=description
        or "faucet: evaluates the learned freshness checks, so an asset that stops "
        "materializing is reported overdue",
    )
    def _freshness_sensor(
        context: dg.SensorEvaluationContext, **_resources: Any
    ) -> dg.SensorResult:
        # Invoked directly, Dagster also passes the required resource as a keyword; the
        # tick reads it from context.resources either way.
        return _tick(context, wanted, clock, resource_key)

    return _freshness_sensor
