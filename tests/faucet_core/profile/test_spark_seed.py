"""The Spark driver's profile of no rows (its merge base, built without running a
Profiler) is the profile a Profiler gives of no rows of the same schema: the same columns
in the same order, the same labels (by name and by nested field names), the same skipped
count, and the same refusal of a type with no JSON type."""

from __future__ import annotations

import pyarrow as pa
import pytest

from faucet_core.config import PolicyConfig, PolicyRule, ProfilingConfig, ValueDetector
from faucet_core.errors import ProfilingInputError
from faucet_core.profile import Profiler, TableProfile
from faucet_core.profile.spark import _empty_profile

SCHEMA = pa.schema(
    [
        ("id", pa.int64()),
        ("email", pa.string()),
        ("customer_email", pa.large_string()),
        ("card_no", pa.binary()),
        ("amount", pa.decimal128(10, 2)),
        ("ratio", pa.float32()),
        ("tmp_x", pa.bool_()),
        ("tmp_y", pa.date32()),
        ("at", pa.timestamp("us", tz="UTC")),
        ("person", pa.struct([("name", pa.string()), ("ids", pa.struct([("ssn", pa.string())]))])),
        ("cards", pa.list_(pa.struct([("card", pa.string())]))),
        ("tags", pa.map_(pa.string(), pa.int64())),
        ("nothing", pa.null()),
        ("took", pa.duration("us")),
    ]
)
_POLICY = PolicyConfig(
    rules=[
        PolicyRule(label="pii", columns=["*email*"]),
        PolicyRule(label="pci", columns=["card*", "CUSTOMER_*"]),
        PolicyRule(label="pii", detectors=[ValueDetector.EMAIL]),
        PolicyRule(label="nested", fields=["ssn", "card"]),
    ]
)


def _profiler_of_no_rows(config: ProfilingConfig, schema: pa.Schema) -> TableProfile:
    profiler = Profiler(config)
    profiler.add(pa.RecordBatch.from_pylist([], schema=schema))
    return profiler.finish()


@pytest.mark.parametrize(
    "config",
    [
        ProfilingConfig(),
        ProfilingConfig(columns=["note", "absent", "id", "person"]),
        ProfilingConfig(exclude=["tmp_*", "amount"]),
        ProfilingConfig(max_columns=3),
        ProfilingConfig(max_columns=2, columns=["absent", "card_no", "id", "email"]),
        ProfilingConfig(policy=_POLICY),
        ProfilingConfig(policy=_POLICY, exclude=["email"], max_columns=4, top_values=0),
        ProfilingConfig(top_values=3, categorical_max_distinct=7),
    ],
)
def test_the_seed_is_the_profilers_profile_of_no_rows(config: ProfilingConfig) -> None:
    want = _profiler_of_no_rows(config, SCHEMA)
    got = _empty_profile(config, SCHEMA)
    assert got == want
    assert list(got.columns) == list(want.columns)
    assert got.to_json() == want.to_json()


@pytest.mark.parametrize(
    "config", [ProfilingConfig(), ProfilingConfig(columns=["later", "first"])], ids=str
)
def test_a_type_without_json_type_is_refused_alike(config: ProfilingConfig) -> None:
    schema = pa.schema(
        [
            ("id", pa.int64()),
            ("first", pa.month_day_nano_interval()),
            ("later", pa.month_day_nano_interval()),
        ]
    )
    with pytest.raises(ProfilingInputError) as want:
        _profiler_of_no_rows(config, schema)
    with pytest.raises(ProfilingInputError) as got:
        _empty_profile(config, schema)
    assert str(got.value) == str(want.value)
