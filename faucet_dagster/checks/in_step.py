"""``profiled_asset``: an asset whose own step profiles the value it returns.

The separate check of :func:`~faucet_dagster.build_profile_checks` runs in a step of its own
(a process under the multiprocess executor) and reads the value back through the IO manager.
Here the profile is taken in the asset's step from the value the function returned, before
the IO manager writes it; once the value is stored the profile is recorded against that
materialization and reported as the asset's own check result, with the evaluation code,
severities, blocking, metadata and notifications of the separate check.

No ``from __future__ import annotations``: the wrapper's signature is read by Dagster.
"""

import functools
import inspect
import typing
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import dagster as dg

from faucet_core import ProfilingConfig, TableProfile
from faucet_core.config import OnDrift
from faucet_dagster.checks.build import (
    DEFAULT_CHECK_NAME,
    check_identifier,
    config_of,
    partition_mode,
    spec_description,
    spec_metadata,
)
from faucet_dagster.checks.evaluate import (
    CheckOptions,
    PartitionBaseline,
    evaluate_profiled,
    profile_of,
)
from faucet_dagster.checks.targets import AssetTarget
from faucet_dagster.resources import FaucetResource

__all__ = ["profiled_asset"]

_CONTEXT_NAMES = ("context", "_context", "_")  # what Dagster takes for the context parameter
_OWN_KWARGS = ("check_specs", "multi_asset", "outs", "specs")


def profiled_asset(
    fn: Callable[..., Any] | None = None,
    *,
    config: ProfilingConfig | Mapping[str, Any] | None = None,
    partitions: PartitionBaseline | str = PartitionBaseline.AUTO,
    check_name: str = DEFAULT_CHECK_NAME,
    resource_key: str = "faucet",
    check_description: str | None = None,
    **asset_kwargs: Any,
) -> Any:
    """``@dg.asset`` whose step also profiles the value it returns (the faucet check in-step).

    Use it on assets whose code you own::

        @profiled_asset(config={"min_history": 5, "on_drift": "fail"}, group_name="sales")
        def orders() -> pd.DataFrame: ...

    Every keyword that ``@dg.asset`` takes is passed on to it. The asset gets one check spec,
    ``check_name`` (the name :func:`build_profile_checks` uses, so the check keeps its
    history if you switch forms), blocking when ``on_drift`` is ``fail``: a drifting value is
    still written, the step then fails with severity ERROR and downstream assets of the run
    do not materialize. ``config`` and ``partitions`` mean what they mean for
    :func:`build_profile_checks`. The function returns its value (or a ``dg.Output``); a
    partitioned asset is profiled one partition per run.
    """
    if fn is not None:
        return _decorate(
            fn, config, partitions, check_name, resource_key, check_description, asset_kwargs
        )

    def decorator(function: Callable[..., Any]) -> dg.AssetsDefinition:
        return _decorate(
            function, config, partitions, check_name, resource_key, check_description, asset_kwargs
        )

    return decorator


def _decorate(
    fn: Callable[..., Any],
    config: ProfilingConfig | Mapping[str, Any] | None,
    partitions: PartitionBaseline | str,
    check_name: str,
    resource_key: str,
    check_description: str | None,
    asset_kwargs: dict[str, Any],
) -> dg.AssetsDefinition:
    cfg = config_of(config, "config")
    mode = partition_mode(partitions)
    check_identifier(check_name, "check_name", DEFAULT_CHECK_NAME)
    check_identifier(resource_key, "resource_key", "faucet")
    where = f"@profiled_asset on {getattr(fn, '__name__', fn)!r}"
    if not callable(fn):
        raise dg.DagsterInvalidDefinitionError(f"{where}: {fn!r} is not a function")
    if inspect.iscoroutinefunction(fn) or inspect.isgeneratorfunction(fn):
        raise dg.DagsterInvalidDefinitionError(
            f"{where}: the function yields or is async; in-step profiling needs the value it "
            "returns. Return the value (or a dg.Output), or keep @dg.asset and profile it with "
            "build_profile_checks"
        )
    given = sorted(k for k in _OWN_KWARGS if k in asset_kwargs)
    if given:
        raise dg.DagsterInvalidDefinitionError(
            f"{where}: {', '.join(given)} is not supported; profiled_asset makes one asset with "
            "one faucet check. For a multi-asset, or to add checks of your own, use @dg.asset "
            "or @dg.multi_asset with build_profile_checks"
        )
    policy = asset_kwargs.get("backfill_policy")
    if policy is not None and policy.max_partitions_per_run != 1:
        raise dg.DagsterInvalidDefinitionError(
            f"{where}: backfill_policy={policy!r} runs several partitions in one step, and the "
            "in-step profile covers one partition per run: use dg.BackfillPolicy.multi_run(1), "
            "or @dg.asset with build_profile_checks"
        )
    probe = dg.asset(**asset_kwargs)(fn)  # what @dg.asset makes of these arguments
    key = probe.key
    spec = dg.AssetCheckSpec(
        name=check_name,
        asset=key,
        blocking=cfg.on_drift is OnDrift.FAIL,
        description=check_description or spec_description(cfg),
        metadata=spec_metadata(cfg),
    )
    target = AssetTarget(
        key=key,
        io_manager_key=asset_kwargs.get("io_manager_key") or "io_manager",
    )
    opts = CheckOptions(
        target=target, config=cfg, resource_key=resource_key, partitions=mode, loader=None
    )
    kwargs = dict(asset_kwargs)
    # The wrapper yields, so Dagster would not read the output's type off its annotation.
    output = probe.node_def.output_def_named(probe.get_output_name_for_asset_key(key))
    kwargs.setdefault("dagster_type", output.dagster_type)
    wrapper = _wrap(fn, opts, check_name, kwargs)
    assets_def: dg.AssetsDefinition = dg.asset(check_specs=[spec], **kwargs)(wrapper)
    return assets_def


def _wrap(
    fn: Callable[..., Any], opts: CheckOptions, check_name: str, kwargs: dict[str, Any]
) -> Callable[..., Iterator[Any]]:
    """A generator function with ``fn``'s signature plus what the check needs: the context
    (first) and the faucet resource (as a parameter, or in ``required_resource_keys``)."""
    sig = _resolved_signature(fn)
    params = list(sig.parameters.values())
    takes_context = bool(params) and params[0].name in _CONTEXT_NAMES
    names = {p.name for p in params}
    if not takes_context:
        context_param = inspect.Parameter(
            "context", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=dg.AssetExecutionContext
        )
        params.insert(0, context_param)
    key = opts.resource_key
    resource_as_param = key not in names and "required_resource_keys" not in kwargs
    if resource_as_param:
        param = inspect.Parameter(key, inspect.Parameter.KEYWORD_ONLY, annotation=FaucetResource)
        params.append(param)
    elif key not in names:
        kwargs["required_resource_keys"] = {*kwargs["required_resource_keys"], key}

    @functools.wraps(fn)
    def wrapper(context: dg.AssetExecutionContext, *args: Any, **inputs: Any) -> Iterator[Any]:
        if resource_as_param:
            inputs.pop(key, None)
        value = fn(context, *args, **inputs) if takes_context else fn(*args, **inputs)
        output = value if isinstance(value, dg.Output) else None
        profiled = _profile_returned(context, opts, output.value if output else value)
        if isinstance(value, dg.MaterializeResult):
            yield value
        else:
            yield output if output is not None else dg.Output(value)
        # Stored: the materialization is in the event log; record and report against it.
        result = evaluate_profiled(context, opts, profiled)
        yield dg.AssetCheckResult(
            passed=result.passed,
            asset_key=opts.target.key,
            check_name=check_name,
            metadata=result.metadata,
            severity=result.severity,
            description=result.description,
        )

    params = _ordered(params)
    wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {
        p.name: p.annotation for p in params if p.annotation is not inspect.Parameter.empty
    }
    if sig.return_annotation is not inspect.Signature.empty:
        wrapper.__annotations__["return"] = sig.return_annotation
    return wrapper


def _resolved_signature(fn: Callable[..., Any]) -> inspect.Signature:
    """``fn``'s signature with string annotations resolved in ``fn``'s own module (Dagster
    resolves a set ``__signature__`` against the wrapper's module, which is this one)."""
    sig = inspect.signature(fn)
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception:  # an unresolvable annotation: Dagster reports it, naming the function
        return sig
    params = [
        p.replace(annotation=hints.get(p.name, p.annotation)) for p in sig.parameters.values()
    ]
    return sig.replace(
        parameters=params, return_annotation=hints.get("return", sig.return_annotation)
    )


def _ordered(params: list[inspect.Parameter]) -> list[inspect.Parameter]:
    """Parameters in a valid order (keyword-only after the others, ``**kwargs`` last)."""
    order = {
        inspect.Parameter.POSITIONAL_ONLY: 0,
        inspect.Parameter.POSITIONAL_OR_KEYWORD: 1,
        inspect.Parameter.VAR_POSITIONAL: 2,
        inspect.Parameter.KEYWORD_ONLY: 3,
        inspect.Parameter.VAR_KEYWORD: 4,
    }
    return sorted(params, key=lambda p: order[p.kind])


def _profile_returned(
    context: dg.AssetExecutionContext, opts: CheckOptions, value: Any
) -> TableProfile | BaseException:
    """The profile of what the function returned, or why there is none (reported after the
    value is stored, as the check's error: the asset itself is not failed by faucet)."""
    name = opts.target.key.to_user_string()
    if context.has_partition_key_range and len(context.partition_keys) > 1:
        return dg.Failure(
            description=(
                f"{name} ran for {len(context.partition_keys)} partitions in one step; the "
                "in-step profile covers one partition per run. Run one partition per run, or "
                "profile this asset with build_profile_checks"
            )
        )
    if value is None or isinstance(value, dg.MaterializeResult):
        return dg.Failure(
            description=(
                f"{name} returned no value to profile (it writes its data itself): return the "
                "value for the IO manager to store, or profile it with build_profile_checks("
                "loader=...)"
            )
        )
    try:
        return profile_of(opts, value)
    except Exception as exc:  # reported by the check after the value is stored
        return exc
