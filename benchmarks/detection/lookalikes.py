"""Quiet days whose clean data already look like an injected fault.

Some faults cannot be told from a normal day of some tables: on a table whose volume
swings by half from day to day, a 40 % row loss looks like a light day; on hourly
weather, a day without mist looks like the "vanished value" fault that folds mist into
clear. For three faults this counts the quiet judged days that, unedited, already look
like the edited run, against the same baseline window the detector uses. A detector
that caught such a fault on nearly every trial would have to alarm on about that share
of quiet days too, so the share is a floor under the false-alarm rate that recall costs
on that table, whatever the detector.

* ``row_loss_40``: the day's rows are at most 60 % of the median of the window's runs on
  its weekday (all window runs when fewer than two share it);
* ``vanished_category``: the window's second most common value of the categorical
  column (pooled counts) has no record that day;
* ``new_category``: the day holds, at 20 % of its rows or more, a value of the
  categorical column that no window run held.
"""

from __future__ import annotations

import datetime as dt
import statistics
from collections import Counter
from collections.abc import Sequence

import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["LOOKALIKE_FAULTS", "lookalikes", "value_counts"]

LOOKALIKE_FAULTS = ("row_loss_40", "vanished_category", "new_category")


def value_counts(table: pa.Table, column: str) -> Counter[str]:
    """The non-null values of ``column`` and their counts."""
    counts = pc.value_counts(table[column].drop_null())
    return Counter(
        dict(
            zip(
                counts.field("values").to_pylist(),
                counts.field("counts").to_pylist(),
                strict=True,
            )
        )
    )


def lookalikes(
    days: Sequence[tuple[dt.date, pa.Table]],
    events: dict[dt.date, object],
    categorical: str | None,
    *,
    window: int,
    min_history: int,
) -> dict[str, tuple[int, int]]:
    """fault -> (quiet judged days that look like it, quiet judged days)."""
    found = dict.fromkeys(LOOKALIKE_FAULTS, 0)
    quiet = 0
    values = [value_counts(t, categorical) for _, t in days] if categorical else []
    for i in range(min_history, len(days)):
        day, table = days[i]
        if day in events:
            continue
        quiet += 1
        lo = max(0, i - window)
        same = [t.num_rows for d, t in days[lo:i] if d.weekday() == day.weekday()]
        rows = same if len(same) >= 2 else [t.num_rows for _, t in days[lo:i]]
        if table.num_rows <= 0.6 * statistics.median(rows):
            found["row_loss_40"] += 1
        if categorical:
            pooled: Counter[str] = Counter()
            for c in values[lo:i]:
                pooled.update(c)
            ranked = [v for v, _ in pooled.most_common(2)]
            if len(ranked) == 2 and values[i][ranked[1]] == 0:
                found["vanished_category"] += 1
            seen = set(pooled)
            if any(v not in seen and n >= 0.2 * table.num_rows for v, n in values[i].items()):
                found["new_category"] += 1
    return {f: (n, quiet) for f, n in found.items()}
