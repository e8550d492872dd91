"""OpenLineage events (parsed JSON) -> :class:`RunRecord`, validated.

Reads RunEvents from any producer, and the static DatasetEvent / JobEvent. The standard
``schema``, ``columnLineage`` (``fields`` with DIRECT / INDIRECT transformations, and the
``dataset`` array of whole-dataset dependencies) and ``ownership`` dataset facets are read;
other facets are ignored. A malformed event raises :class:`MalformedEvent` naming the
field path and the rule, e.g. ``run.runId is missing``.

Every string read is checked against what both store backends can hold: no NUL
character and no lone surrogate (PostgreSQL refuses them, SQLite would keep them), and
job names, run ids, dataset namespaces, names and URIs no longer than their columns in
:mod:`faucet_core.db.schema` (:data:`LIMITS`). So an event is refused as malformed
the same way on every store, by ``faucet lineage ingest`` and by the HTTP receiver.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Mapping
from typing import Any

from faucet_core.catalog.model import (
    DatasetRef,
    FieldRef,
    JobRef,
    Observation,
    RunRecord,
    RunState,
    SchemaField,
)
from faucet_core.db.schema import catalog_datasets, catalog_runs
from faucet_core.errors import CatalogError, LineageError

__all__ = ["LIMITS", "TRANSFORMATION_TYPES", "MalformedEvent", "parse_event"]

TRANSFORMATION_TYPES = ("DIRECT", "INDIRECT")
_STATES = ", ".join(s.value for s in RunState)
_MAX_NAME = 1024  # any other string read (field names, types, owners, times)


def _width(column: Any) -> int:
    return int(column.type.length)


LIMITS: Mapping[str, int] = {
    "job.namespace": _width(catalog_runs.c.job_namespace),
    "job.name": _width(catalog_runs.c.job_name),
    "run.runId": _width(catalog_runs.c.run_id),
    "namespace": _width(catalog_datasets.c.namespace),
    "name": _width(catalog_datasets.c.name),
    "uri": _width(catalog_datasets.c.uri),
}
"""The longest job namespace / name, run id, dataset namespace / name / URI the store
holds, in characters (read from the store's column sizes)."""


class MalformedEvent(LineageError):
    """One event breaks the OpenLineage model; the message names the field and the rule."""


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _obj(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise MalformedEvent(f"{path} must be an object, found {_kind(value)}")
    return value


def _text(value: str, path: str, limit: int | None) -> str:
    if limit is not None and len(value) > limit:
        raise MalformedEvent(f"{path} is {len(value)} characters; the limit is {limit}")
    if "\x00" in value:
        raise MalformedEvent(f"{path} holds a NUL character (\\u0000): remove it")
    if not value.isascii() and any(0xD800 <= ord(c) <= 0xDFFF for c in value):
        raise MalformedEvent(
            f"{path} holds a lone surrogate (\\ud800-\\udfff), which is not text: send valid UTF-8"
        )
    return value


def _opt_obj(parent: Mapping[str, Any], key: str, path: str) -> dict[str, Any]:
    value = parent.get(key)
    return {} if value is None else _obj(value, path)


def _arr(parent: Mapping[str, Any], key: str, path: str) -> list[Any]:
    value = parent.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise MalformedEvent(f"{path} must be an array, found {_kind(value)}")
    return value


def _str(parent: Mapping[str, Any], key: str, path: str, limit: int = _MAX_NAME) -> str:
    if key not in parent or parent[key] is None:
        raise MalformedEvent(f"{path} is missing")
    value = parent[key]
    if not isinstance(value, str) or not value.strip():
        shown = repr(value[:40]) if isinstance(value, str) else _kind(value)
        raise MalformedEvent(f"{path} must be a non-empty string, found {shown}")
    return _text(value, path, limit)


def _opt_str(parent: Mapping[str, Any], key: str, path: str) -> str | None:
    value = parent.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise MalformedEvent(f"{path} must be a string, found {_kind(value)}")
    return _text(value, path, None)  # descriptions and types: any length


def _time(parent: Mapping[str, Any], key: str) -> dt.datetime:
    text = _str(parent, key, key)
    value = text.strip()
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    try:
        when = dt.datetime.fromisoformat(value)
    except ValueError:
        raise MalformedEvent(
            f"{key} {text!r} is not an ISO 8601 date-time (e.g. 2024-05-01T12:00:00.000Z)"
        ) from None
    return when.replace(tzinfo=dt.timezone.utc) if when.tzinfo is None else when


def _facets(dataset: Mapping[str, Any], key: str, path: str) -> dict[str, Any]:
    facets = _opt_obj(dataset, key, f"{path}.{key}")
    return {
        name: value
        for name, value in facets.items()
        if not (isinstance(value, dict) and value.get("_deleted") is True)
    }


def _schema(facet: Any, path: str) -> tuple[SchemaField, ...]:
    body = _obj(facet, path)
    return tuple(
        _field(f, f"{path}.fields[{i}]")
        for i, f in enumerate(_arr(body, "fields", f"{path}.fields"))
    )


def _field(value: Any, path: str) -> SchemaField:
    body = _obj(value, path)
    return SchemaField(
        name=_str(body, "name", f"{path}.name"),
        type=_opt_str(body, "type", f"{path}.type"),
        description=_opt_str(body, "description", f"{path}.description"),
        fields=tuple(
            _field(f, f"{path}.fields[{i}]")
            for i, f in enumerate(_arr(body, "fields", f"{path}.fields"))
        ),
    )


def _owners(facet: Any, path: str) -> tuple[str, ...]:
    body = _obj(facet, path)
    names = []
    for i, owner in enumerate(_arr(body, "owners", f"{path}.owners")):
        item = _obj(owner, f"{path}.owners[{i}]")
        names.append(_str(item, "name", f"{path}.owners[{i}].name"))
    return tuple(dict.fromkeys(names))


@functools.lru_cache(maxsize=65_536)
def _ref(namespace: str, name: str) -> DatasetRef:
    """Datasets repeat across fields and events: build each once (it hashes its URI)."""
    return DatasetRef(namespace, name)


def _dataset_ref(body: Mapping[str, Any], path: str) -> DatasetRef:
    namespace = _str(body, "namespace", f"{path}.namespace", LIMITS["namespace"])
    name = _str(body, "name", f"{path}.name", LIMITS["name"])
    try:
        ref = _ref(namespace, name)
    except CatalogError as exc:
        raise MalformedEvent(f"{path}: {exc}") from None
    if len(ref.uri) > LIMITS["uri"]:
        raise MalformedEvent(
            f"{path}: the dataset URI is {len(ref.uri)} characters; the limit is "
            f"{LIMITS['uri']}: shorten the namespace or the name"
        )
    return ref


def _input_field(value: Any, path: str, legacy: str | None) -> FieldRef:
    body = _obj(value, path)
    ref = _dataset_ref(body, path)
    column = _str(body, "field", f"{path}.field")
    kinds = []
    for i, item in enumerate(_arr(body, "transformations", f"{path}.transformations")):
        where = f"{path}.transformations[{i}]"
        tf = _obj(item, where)
        kind = _str(tf, "type", f"{where}.type")
        if kind not in TRANSFORMATION_TYPES:
            raise MalformedEvent(f"{where}.type {kind!r} is not DIRECT or INDIRECT")
        subtype = _opt_str(tf, "subtype", f"{where}.subtype")
        kinds.append(f"{kind}/{subtype}" if subtype else kind)
    if not kinds and legacy:
        kinds.append(f"DIRECT/{legacy}")  # columnLineage 1-0-x: transformationType per field
    return FieldRef(ref, column, tuple(dict.fromkeys(kinds)))


def _column_lineage(
    facet: Any, path: str
) -> tuple[dict[str, tuple[FieldRef, ...]], tuple[FieldRef, ...]]:
    body = _obj(facet, path)
    fields: dict[str, tuple[FieldRef, ...]] = {}
    for out, spec in _opt_obj(body, "fields", f"{path}.fields").items():
        where = f"{path}.fields.{out[:64]}"
        _text(out, f"{path}.fields key", _MAX_NAME)
        item = _obj(spec, where)
        legacy = _opt_str(item, "transformationType", f"{where}.transformationType")
        refs = _arr(item, "inputFields", f"{where}.inputFields")
        fields[out] = tuple(
            _input_field(r, f"{where}.inputFields[{i}]", legacy) for i, r in enumerate(refs)
        )
    whole = tuple(
        _input_field(r, f"{path}.dataset[{i}]", None)
        for i, r in enumerate(_arr(body, "dataset", f"{path}.dataset"))
    )
    return fields, whole


def _dataset(value: Any, path: str, *, output: bool) -> Observation:
    body = _obj(value, path)
    ref = _dataset_ref(body, path)
    facets = _facets(body, "facets", path)
    _facets(body, "outputFacets" if output else "inputFacets", path)  # must be an object
    schema = owners = None
    lineage: dict[str, tuple[FieldRef, ...]] | None = None
    whole: tuple[FieldRef, ...] = ()
    if "schema" in facets:
        schema = _schema(facets["schema"], f"{path}.facets.schema")
    if "ownership" in facets:
        owners = _owners(facets["ownership"], f"{path}.facets.ownership")
    if output and "columnLineage" in facets:
        lineage, whole = _column_lineage(facets["columnLineage"], f"{path}.facets.columnLineage")
    return Observation(
        dataset=ref, schema=schema, owners=owners, column_lineage=lineage, dataset_lineage=whole
    )


def _datasets(event: Mapping[str, Any], key: str) -> tuple[Observation, ...]:
    items = _arr(event, key, key)
    return tuple(
        _dataset(item, f"{key}[{i}]", output=key == "outputs") for i, item in enumerate(items)
    )


def _state(event: Mapping[str, Any]) -> RunState:
    value = event.get("eventType")
    if value is None:
        return RunState.OTHER
    if not isinstance(value, str):
        raise MalformedEvent(f"eventType must be a string, found {_kind(value)}")
    try:
        return RunState(value.upper())
    except ValueError:
        raise MalformedEvent(f"eventType {value!r} is not one of {_STATES}") from None


def parse_event(data: Any) -> RunRecord:
    """One OpenLineage event (a parsed JSON object) as a :class:`RunRecord`.

    RunEvent: the run, its inputs and outputs. JobEvent (no ``run``): static lineage,
    recorded like a COMPLETE run without a run id (it creates edges, never replaces a
    run's). DatasetEvent: the dataset's schema and owners.
    """
    if not isinstance(data, dict):
        raise MalformedEvent(f"expected a JSON object (an OpenLineage event), found {_kind(data)}")
    _opt_str(data, "producer", "producer")
    _opt_str(data, "schemaURL", "schemaURL")
    when = _time(data, "eventTime")
    if "dataset" in data and "job" not in data:
        obs = _dataset(data["dataset"], "dataset", output=False)
        return RunRecord(
            job=JobRef("openlineage", "dataset-event"),
            run_id=None,
            state=RunState.COMPLETE,
            event_time=when,
            inputs=(obs,),
        )
    job = _obj(data.get("job"), "job") if "job" in data else None
    if job is None:
        raise MalformedEvent("job is missing")
    ref = JobRef(
        _str(job, "namespace", "job.namespace", LIMITS["job.namespace"]),
        _str(job, "name", "job.name", LIMITS["job.name"]),
    )
    run_id: str | None = None
    state = RunState.COMPLETE
    if "run" in data or "eventType" in data:
        run = _obj(data.get("run"), "run") if "run" in data else None
        if run is None:
            raise MalformedEvent("run is missing")
        run_id = _str(run, "runId", "run.runId", LIMITS["run.runId"])
        state = _state(data)
    return RunRecord(
        job=ref,
        run_id=run_id,
        state=state,
        event_time=when,
        source="openlineage",
        inputs=_datasets(data, "inputs"),
        outputs=_datasets(data, "outputs"),
    )
