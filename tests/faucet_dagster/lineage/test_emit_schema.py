"""An asset that declares no column schema: the emitted OpenLineage event carries the schema
its profile check observed (JSON types), read back from openlineage-python's file
transport; a materialization whose run is still going waits for its profile."""

import json
import uuid
from pathlib import Path
from typing import Any

import dagster as dg
import pandas as pd
from dagster._core.events import DagsterEvent, DagsterEventType, StepMaterializationData
from openlineage.client import OpenLineageClient
from openlineage.client.transport.file import FileConfig, FileTransport

from faucet_core.catalog import Catalog, DatasetRef
from faucet_core.lineage import ingest
from faucet_core.profile import profile
from faucet_dagster import FaucetResource, build_lineage_sensor, build_profile_checks

VISITS = DatasetRef("dagster", "visits")
FRAME = pd.DataFrame(
    {
        "id": [1, 2, 3, 4],
        "page": ["/", "/cart", None, "/"],
        "ms": [12.5, 40.0, 7.25, 3.0],
    }
)
OBSERVED = [
    {"name": "id", "type": "integer"},
    {"name": "page", "type": "string|null"},
    {"name": "ms", "type": "number"},
]


@dg.asset(owners=["team:web"])
def visits() -> pd.DataFrame:
    return FRAME


checks = build_profile_checks([visits])


def _resources(store_url: str) -> dict[str, Any]:
    return {"faucet": FaucetResource(store_url=store_url)}


def _client(path: Path) -> OpenLineageClient:
    return OpenLineageClient(transport=FileTransport(FileConfig(str(path), append=True)))


def _tick(
    sensor: dg.SensorDefinition, instance: dg.DagsterInstance, store_url: str, cursor: Any
) -> tuple[str, str | None]:
    defs = dg.Definitions(
        assets=[visits], asset_checks=checks, sensors=[sensor], resources=_resources(store_url)
    )
    with dg.build_sensor_context(
        instance=instance, cursor=cursor, definitions=defs, resources=_resources(store_url)
    ) as ctx:
        data = sensor.evaluate_tick(ctx)
        return str(data.skip_message), data.cursor


def _events(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


def _schema(event: dict[str, Any]) -> list[dict[str, Any]] | None:
    facets = event["outputs"][0]["facets"]
    if "schema" not in facets:
        return None
    return [{"name": f["name"], "type": f["type"]} for f in facets["schema"]["fields"]]


def test_a_materialization_without_a_declared_schema_emits_the_observed_one(
    sqlite_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "lineage.jsonl"
    sensor = build_lineage_sensor(
        name="faucet_openlineage", openlineage=_client(path), namespace="prod"
    )
    with dg.instance_for_test() as instance:
        result = dg.materialize(
            [visits, *checks], instance=instance, resources=_resources(sqlite_url)
        )
        assert result.success
        message, _ = _tick(sensor, instance, sqlite_url, None)
    assert message == "recorded 1 materialization(s); emitted 4 OpenLineage event(s)"
    events = _events(path)
    assert [(e["job"]["name"], e["eventType"]) for e in events[:2]] == [
        ("visits", "START"),
        ("visits", "COMPLETE"),
    ]
    assert _schema(events[0]) is None  # START names the dataset only
    assert _schema(events[1]) == OBSERVED
    # What was emitted ingests back into the same schema.
    with Catalog(f"sqlite:///{tmp_path / 'other.db'}") as other:
        ingest(other, [path])
        schema = other.dataset(VISITS.uri).schema or ()
        assert [{"name": f.name, "type": f.type} for f in schema] == OBSERVED


class _Running:
    """A run of ``visits`` that is still going: materialized, its check not run yet."""

    def __init__(self, instance: dg.DagsterInstance) -> None:
        self.instance = instance
        self.run = instance.add_run(
            dg.DagsterRun(
                job_name="slow_job", run_id=str(uuid.uuid4()), status=dg.DagsterRunStatus.STARTED
            )
        )
        event = DagsterEvent(
            event_type_value=DagsterEventType.ASSET_MATERIALIZATION.value,
            job_name="slow_job",
            event_specific_data=StepMaterializationData(
                dg.AssetMaterialization(asset_key=dg.AssetKey("visits"))
            ),
        )
        instance.report_dagster_event(event, self.run.run_id)

    def profile_recorded(self, store_url: str) -> None:
        """What the profile check records when it runs (evaluate.py)."""
        with Catalog(store_url) as catalog:
            catalog.record_profile(
                VISITS, run_id=self.run.run_id, profile=profile(FRAME), status="warming"
            )

    def finish(self) -> None:
        run = self.instance.get_run_by_id(self.run.run_id)
        assert run is not None
        self.instance.report_run_failed(run)


def test_a_run_still_going_waits_for_its_profile_then_emits_the_schema(
    sqlite_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "lineage.jsonl"
    sensor = build_lineage_sensor(
        name="faucet_openlineage", openlineage=_client(path), namespace="prod"
    )
    with dg.instance_for_test() as instance:
        running = _Running(instance)
        message, cursor = _tick(sensor, instance, sqlite_url, None)
        assert message == "recorded 0 materialization(s); emitted 0 OpenLineage event(s)"
        assert _events(path) == []
        running.profile_recorded(sqlite_url)
        message, cursor = _tick(sensor, instance, sqlite_url, cursor)
        assert message == "recorded 1 materialization(s); emitted 2 OpenLineage event(s)"
        assert _schema(_events(path)[1]) == OBSERVED

        # A run that ends without profiling is emitted as it is: no schema, never a guess.
        other = _Running(instance)
        message, cursor = _tick(sensor, instance, sqlite_url, cursor)
        assert message == "recorded 0 materialization(s); emitted 0 OpenLineage event(s)"
        other.finish()
        message, cursor = _tick(sensor, instance, sqlite_url, cursor)
        assert message == "recorded 1 materialization(s); emitted 2 OpenLineage event(s)"
        last = _events(path)[-1]
        assert last["run"]["facets"]["parent"]["run"]["runId"] == other.run.run_id
        assert _schema(last) is None
