"""``ProfilingComponent``: profile checks for a list of assets, configured in ``defs.yaml``.

.. code-block:: yaml

    type: faucet_dagster.ProfilingComponent
    attributes:
      assets: [orders, customers]
      profiling:
        min_history: 5
        on_drift: fail

No ``from __future__ import annotations`` here: Dagster resolves the component's
field types at runtime.
"""

import json
import types
import typing
from typing import Annotated, Any, Literal, Union

import dagster as dg
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, field_validator

from faucet_core.config import ProfilingConfig, format_validation_error
from faucet_dagster.checks.build import DEFAULT_CHECK_NAME, build_profile_checks
from faucet_dagster.resources import FaucetResource, check_store_url

__all__ = ["ProfilingComponent"]


def _yaml_type(annotation: Any) -> Any:
    origin = typing.get_origin(annotation)
    # A parametrised generic (``list[str]``) has an origin; on Python 3.10 it also passes
    # ``isinstance(list[str], type)``, and ``issubclass`` then raises TypeError.
    if origin is None and isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _yaml_model(annotation)
    if origin in (Union, types.UnionType):
        return Union[tuple(_yaml_type(a) for a in typing.get_args(annotation))]  # noqa: UP007
    if origin is list:
        return list[_yaml_type(typing.get_args(annotation)[0])]  # type: ignore[misc]
    return annotation


def _yaml_model(model: type[BaseModel]) -> type[BaseModel]:
    """A constraint-free copy of ``model`` that Dagster's YAML loader accepts: it checks field
    names and types (with file and line); the resolver then applies the real rules."""
    fields: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        default = None if info.is_required() else info.get_default(call_default_factory=True)
        fields[name] = (
            _yaml_type(info.annotation),
            Field(default=default, description=info.description),
        )
    return create_model(f"{model.__name__}Yaml", __base__=dg.Model, **fields)


_PROFILING_YAML = _yaml_model(ProfilingConfig)


def _resolve_config(context: dg.ResolutionContext, model: Any) -> ProfilingConfig:
    value = context.resolve_value(model)
    if isinstance(value, ProfilingConfig):
        return value
    if isinstance(value, BaseModel):
        value = value.model_dump(exclude_unset=True)
    where = ".".join(str(p) for p in context.path) or "profiling"
    try:
        return ProfilingConfig.model_validate(value)
    except ValidationError as exc:
        raise ValueError(format_validation_error(exc, where)) from None


def _resolve_configs(context: dg.ResolutionContext, model: Any) -> dict[str, ProfilingConfig]:
    return {
        key: _resolve_config(context.at_path(key), value)
        for key, value in (context.resolve_value(model) or {}).items()
    }


# The YAML is validated against ProfilingConfig itself, so a bad value is reported with its
# file, line and field by Dagster's loader.
# (Annotated[Any, ...]: Dagster refuses constrained pydantic models as field types; the
# resolver returns a validated ProfilingConfig.)
ResolvedProfiling = Annotated[Any, dg.Resolver(_resolve_config, model_field_type=_PROFILING_YAML)]
ResolvedAssetProfiling = Annotated[
    Any,
    dg.Resolver(_resolve_configs, model_field_type=dict[str, _PROFILING_YAML]),  # type: ignore[valid-type]
]

_SHARED_RESOURCES: dict[tuple[str | None, str], FaucetResource] = {}


def _shared_resource(
    store_url: str | None, catalog: dict[str, Any] | None = None
) -> FaucetResource:
    # Definitions.merge requires the very same object for one resource key: components with the
    # same store (and catalog: block) share one FaucetResource.
    key = (store_url, json.dumps(catalog, sort_keys=True, default=str))
    if key not in _SHARED_RESOURCES:
        _SHARED_RESOURCES[key] = FaucetResource(store_url=store_url, catalog=catalog)
    return _SHARED_RESOURCES[key]


class ProfilingScaffolder(dg.Scaffolder):
    """``dg scaffold defs faucet_dagster.ProfilingComponent NAME``: a defs.yaml to fill in."""

    def scaffold(self, request: dg.ScaffoldRequest) -> None:
        from dagster.components.component_scaffolding import scaffold_component

        scaffold_component(
            request,
            {
                "assets": ["my_asset"],
                "profiling": {"min_history": 5, "window": 20, "on_drift": "warn"},
            },
        )


@dg.scaffold_with(ProfilingScaffolder)
class ProfilingComponent(dg.Component, dg.Resolvable, dg.Model):
    """Profile every materialization of the listed assets and report drift as asset checks."""

    assets: list[str] = Field(description="Asset keys to profile, e.g. 'orders' or 'sales/orders'.")
    # Plain defaults, no default_factory: Dagster 1.10 merges its own default into these
    # fields, which pydantic (2.6 at least) refuses beside a default_factory. (ProfilingConfig is
    # frozen, and pydantic copies the empty dict for each instance.)
    profiling: ResolvedProfiling = Field(
        default=ProfilingConfig(), description="The profiling: block for every asset."
    )
    asset_profiling: ResolvedAssetProfiling = Field(
        default={}, description="Per-asset profiling blocks that replace `profiling`."
    )
    partitions: Literal["auto", "per_partition", "shared"] = Field(
        default="auto",
        description="auto: a baseline per static partition, one shared across time windows.",
    )
    store_url: str | None = Field(
        default=None,
        validate_default=True,
        description="Store URL; default $FAUCET_STORE_URL, else $DAGSTER_HOME/faucet.db.",
    )
    catalog: dict[str, Any] | None = Field(
        default=None,
        description="The catalog: block (datasets: owners and consumers), merged into the "
        "catalog after every run that touches a listed dataset; see docs/catalog.md.",
    )
    provide_resource: bool = Field(
        default=True,
        description="Bind a FaucetResource under resource_key; set false if you bind your own.",
    )
    resource_key: str = Field(default="faucet")
    # (store URL checks: a rejected URL is never echoed, it may hold a password)
    model_config = ConfigDict(hide_input_in_errors=True)

    @field_validator("store_url", mode="before")
    @classmethod
    def _valid_store_url(cls, value: Any) -> Any:
        return check_store_url(value)

    io_manager_key: str = Field(default="io_manager")
    check_name: str = Field(default=DEFAULT_CHECK_NAME)

    def build_defs(self, context: dg.ComponentLoadContext) -> dg.Definitions:
        checks = build_profile_checks(
            self.assets,
            config=self.profiling,
            asset_configs=dict(self.asset_profiling),
            partitions=self.partitions,
            name=self.check_name,
            resource_key=self.resource_key,
            io_manager_key=self.io_manager_key,
        )
        resources = {self.resource_key: _shared_resource(self.store_url, self.catalog)}
        return dg.Definitions(
            asset_checks=checks, resources=resources if self.provide_resource else None
        )
