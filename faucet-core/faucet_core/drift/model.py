"""The result types of drift detection: :class:`DriftMetric` and :class:`DriftFinding`."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

from faucet_core.errors import FaucetError

__all__ = ["DriftFinding", "DriftFindingError", "DriftMetric", "DriftScale", "DriftTest"]


class DriftFindingError(FaucetError, ValueError):
    """A serialized finding cannot be read back."""


class DriftMetric(str, Enum):
    """What changed: one of the profile statistics, or the column's values."""

    NULL_RATE = "null_rate"
    DISTINCT = "distinct"
    MEAN = "mean"
    MIN = "min"
    MAX = "max"
    STRING_LENGTH = "string_length"
    TYPE_MIX = "type_mix"
    NEW_VALUE = "new_value"
    VANISHED_VALUE = "vanished_value"
    PSI = "psi"
    ROW_COUNT = "row_count"
    """The table's volume (a table-level finding: its column is ``""``)."""

    @property
    def is_series(self) -> bool:
        """True for the metrics judged against the baseline series of one number."""
        return self in _SERIES_METRICS


_SERIES_METRICS = frozenset(
    {
        DriftMetric.NULL_RATE,
        DriftMetric.DISTINCT,
        DriftMetric.MEAN,
        DriftMetric.MIN,
        DriftMetric.MAX,
        DriftMetric.STRING_LENGTH,
        DriftMetric.ROW_COUNT,
    }
)


class DriftTest(str, Enum):
    """The test that produced a finding."""

    ZSCORE = "zscore"
    """|z| against the baseline mean and standard deviation."""
    IQR = "iqr"
    """Distance beyond the Tukey fences, in IQRs."""
    FLOOR = "floor"
    """A constant baseline: the change exceeds the floor."""
    SHARE = "share"
    """A value or JSON type's share of the run (type_mix, new_value, vanished_value)."""
    PSI = "psi"
    """Population stability index against psi_threshold."""
    RATIO = "ratio"
    """A rescale: how many times the run's extreme is from the baseline's median, beyond
    every baseline run, against the factor it had to reach (:mod:`faucet_core.drift.rescale`)."""


class DriftScale(str, Enum):
    """The scale a series metric was judged on."""

    LINEAR = "linear"
    LOG = "log"
    """Ratios: counts and the extremes of positive columns, whose noise is multiplicative."""
    ARCSINE = "arcsine"
    """Shares (null rates) as asin(sqrt(share)), where binomial noise is even."""


@dataclass(frozen=True)
class DriftFinding:
    """One statistically significant change of one column's metric.

    ``value`` is the current number; ``score`` is compared with ``threshold`` as
    ``test`` says:

    * ``zscore``: |z| of the value against ``baseline_center`` (the mean of the kept
      baseline runs) in ``baseline_spread`` (their standard deviation), both on the
      judged ``scale`` (ratios: logs), against the limit in force (the sensitivity
      widened for a short baseline, the number of tests and, for extremes, their tail);
    * ``iqr``: IQRs beyond the quartiles (``baseline_center`` the median,
      ``baseline_spread`` the IQR) against the widened fence multiplier;
    * ``floor``: a constant baseline: the change itself against the floor;
    * ``share``: type_mix, new_value, vanished_value: a share of the run's records
      (``value_key`` is the JSON value, or the JSON type for type_mix; ``share`` its
      share now — for a value that fell below a full top-k list, the list's cut-off, an
      upper bound; ``baseline_share`` the most a new value or type held in a baseline
      run, the least a vanished value held) against the share it had to reach;
    * ``psi``: the population stability index against ``psi_threshold``.

    Series findings also carry ``sensitivity`` (the user's, or the z equivalent when iqr
    fell back to zscore), ``floor`` and the band of values that pass
    (``expected_low`` .. ``expected_high``). A classified column's values never appear.
    """

    column: str
    metric: DriftMetric
    message: str
    value: float
    baseline_center: float
    baseline_spread: float
    score: float
    threshold: float
    test: DriftTest
    baseline_runs: int
    statistic: str
    sensitivity: float | None = None
    floor: float | None = None
    scale: DriftScale = DriftScale.LINEAR
    expected_low: float | None = None
    expected_high: float | None = None
    value_key: Any = None
    share: float | None = None
    baseline_share: float | None = None
    evidence: tuple[DriftFinding, ...] = ()
    """The column's other drifted metrics in the same run, attached to this finding, the
    run's one finding for the column (its most specific cause)."""

    @property
    def findings(self) -> tuple[DriftFinding, ...]:
        """This finding and its evidence, each without evidence of its own."""
        return (replace(self, evidence=()), *self.evidence)

    @property
    def evidence_note(self) -> str:
        """What else moved in the column, e.g. ``also string_length (len_max, len_mean),
        distinct``; empty without evidence. Never names a value."""
        stats: dict[str, list[str]] = {}
        for e in self.evidence:
            names = stats.setdefault(e.metric.value, [])
            if e.metric.is_series and e.statistic != e.metric.value and e.statistic not in names:
                names.append(e.statistic)
        parts = [m + (f" ({', '.join(names)})" if names else "") for m, names in stats.items()]
        return "also " + ", ".join(parts) if parts else ""

    @property
    def headline(self) -> str:
        """The message, followed by the evidence note when there is evidence."""
        note = self.evidence_note
        return f"{self.message}; {note}" if note else self.message

    @property
    def table_level(self) -> bool:
        """A finding on the table as a whole (its volume), not on one column."""
        return not self.column

    @property
    def key(self) -> str:
        """``column.metric``, the name a finding is shown under (``row_count`` for the
        table's volume)."""
        return f"{self.column}.{self.metric.value}" if self.column else self.metric.value

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (enums as their values, no NaN or infinities)."""
        data: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Enum):
                value = value.value
            elif isinstance(value, float) and not math.isfinite(value):
                value = None
            elif f.name == "evidence":
                value = [e.to_dict() for e in value]
            data[f.name] = value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DriftFinding:
        """The finding :meth:`to_dict` wrote."""
        try:
            known = {f.name for f in fields(cls)}
            unknown = set(data) - known
            if unknown:
                raise ValueError(f"unknown fields {sorted(unknown)}")
            values = dict(data)
            values["metric"] = DriftMetric(values["metric"])
            values["test"] = DriftTest(values["test"])
            values["scale"] = DriftScale(values.get("scale", DriftScale.LINEAR.value))
            for name in ("value", "baseline_center", "baseline_spread", "score", "threshold"):
                values[name] = math.nan if values[name] is None else float(values[name])
            values["baseline_runs"] = int(values["baseline_runs"])
            values["evidence"] = tuple(cls.from_dict(e) for e in values.get("evidence") or ())
            return cls(**values)
        except (KeyError, TypeError, ValueError) as exc:
            raise DriftFindingError(
                f"drift finding is not a valid serialized finding ({exc!r}); it was written "
                "by an incompatible faucet or damaged"
            ) from None
