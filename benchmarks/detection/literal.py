"""A literal reading of the drift spec, as the comparison point for the benchmark.

Series metrics: the run's value against the baseline mean and sample standard deviation
(|z| > 3) or Tukey fences (Q1 - 1.5 IQR, Q3 + 1.5 IQR), with the seed's floors (1
percentage point of null rate, 5 % of a distinct count, 1 % of anything else); a constant
baseline flags any change above the floor. string_length is len_mean. type_mix: a
non-null JSON type at >= new_value_min_share that no baseline run held. new_value: a
listed value at >= new_value_min_share no baseline run listed. vanished_value: a value
listed at >= new_value_min_share in every baseline run and not listed now. psi: over the
values listed in any run plus "other", on the listed shares, when the listed values
cover >= 80 % of the current run and of the baseline (mean), above psi_threshold.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Sequence

from faucet_core import ColumnProfile, ProfilingConfig, TableProfile
from faucet_core.config import DriftMethod

Finding = tuple[str, str]


def _series(c: ColumnProfile) -> dict[str, float]:
    out = {"null_rate": c.null_rate, "distinct": float(c.distinct)}
    if c.numeric is not None:
        out.update(mean=c.numeric.mean, min=c.numeric.min, max=c.numeric.max)
    if c.string is not None:
        out["string_length"] = c.string.len_mean
    return out


def _floor(metric: str, center: float) -> float:
    if metric == "null_rate":
        return 0.01
    if metric == "distinct":
        return 0.05 * abs(center)
    return 0.01 * abs(center)


def _drifted(metric: str, x: float, ys: list[float], method: DriftMethod, k: float) -> bool:
    if method is DriftMethod.IQR:
        q1, _, q3 = statistics.quantiles(ys, n=4, method="inclusive")
        center = statistics.median(ys)
        if abs(x - center) <= _floor(metric, center):
            return False
        iqr = q3 - q1
        return x < q1 - k * iqr or x > q3 + k * iqr
    center = statistics.fmean(ys)
    if abs(x - center) <= _floor(metric, center):
        return False
    sd = statistics.stdev(ys)
    return sd == 0 or abs(x - center) / sd > k


def _key(v: object) -> str:
    return json.dumps(v, sort_keys=True)


def _shares(c: ColumnProfile) -> dict[str, float] | None:
    if c.top_values is None:
        return None
    return {_key(t.value): t.share for t in c.top_values}


def literal_detect(
    current: TableProfile, baseline: Sequence[TableProfile], config: ProfilingConfig
) -> list[Finding]:
    window = list(baseline)[-config.window :]
    if len(window) < config.min_history:
        return []
    k = config.effective_sensitivity
    min_share = config.new_value_min_share
    found: list[Finding] = []
    for name, col in current.columns.items():
        past = [p.columns[name] for p in window if name in p.columns]
        if len(past) < config.min_history:
            continue
        now = _series(col)
        history = [_series(c) for c in past]
        for metric, x in now.items():
            ys = [h[metric] for h in history if metric in h]
            if len(ys) >= config.min_history and _drifted(metric, x, ys, config.method, k):
                found.append((name, metric))
        for t, count in col.types.items():
            share = count / col.row_count
            if t != "null" and share >= min_share and all(c.types.get(t, 0) == 0 for c in past):
                found.append((name, "type_mix"))
        cur = _shares(col)
        lists = [_shares(c) for c in past]
        if cur is None or any(lst is None for lst in lists):
            continue
        base = [lst for lst in lists if lst is not None]
        seen = set().union(*base)
        if any(v not in seen and s >= min_share for v, s in cur.items()):
            found.append((name, "new_value"))
        always = set.intersection(*(set(b) for b in base))
        if any(v not in cur and all(b[v] >= min_share for b in base) for v in always):
            found.append((name, "vanished_value"))
        if _psi(cur, base) > config.psi_threshold:
            found.append((name, "psi"))
    return found


def _psi(cur: dict[str, float], base: list[dict[str, float]]) -> float:
    keys = sorted(set(cur).union(*base))
    expected = [sum(b.get(k, 0.0) for b in base) / len(base) for k in keys]
    actual = [cur.get(k, 0.0) for k in keys]
    if sum(actual) < 0.8 or sum(expected) < 0.8:
        return 0.0
    actual.append(max(1 - sum(actual), 0.0))
    expected.append(max(1 - sum(expected), 0.0))
    total = 0.0
    for a, e in zip(actual, expected, strict=True):
        a, e = max(a, 1e-4), max(e, 1e-4)
        total += (a - e) * math.log(a / e)
    return total
