"""The real-data section of the detection report (``corpus.py``, ``realsim.py``).

The ``tune`` half is reported in full: per table, its top (column, metric) pairs on quiet
days and its labelled events with their findings. The ``held-out`` half is reported by
its figures only, never by column or metric, so that nobody tunes on it.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Sequence

from corpus import HALVES
from corpusfaults import CORPUS_FAULTS, ROW_COUNT, CorpusFault
from lookalikes import LOOKALIKE_FAULTS
from realsim import DETECTORS, FAULT_DETECTORS, RealResult
from simulate import Finding


def ranked(counter: Counter[str], most: int | None = None) -> list[tuple[str, int]]:
    """The counter's items, most frequent first and ties by name: the same order from one run
    to the next (``most_common`` keeps insertion order among ties, and the findings arrive
    through sets whose order changes with each process's string hashing)."""
    items = sorted(counter.items(), key=lambda item: (-item[1], item[0]))
    return items if most is None else items[:most]


def _per100(count: int, total: int) -> str:
    return f"{100 * count / total:.2f}" if total else "-"


def _pct(count: int, total: int) -> str:
    return f"{100 * count / total:.0f} %" if total else "n/a"


def _quiet(res: RealResult, label: str) -> list[tuple[dt.date, list[Finding]]]:
    return [(d, f) for d, f in res.runs[label] if d not in res.events]


def _score(fault: CorpusFault, column: str | None, found: list[Finding]) -> tuple[bool, bool]:
    """(right column, right head metric) of one trial."""
    if fault.target == "table":
        hit = any(m == ROW_COUNT for _, m in found)
        return hit, hit
    on_column = [m for c, m in found if c == column]
    return bool(on_column), bool(on_column) and on_column[0] in fault.metrics


def _fault_counts(res: RealResult, label: str, fault: CorpusFault) -> tuple[int, int, int]:
    """(trials, right column, right head) of one fault on one table."""
    column = res.fault_columns.get(fault.target) if fault.target != "table" else None
    trials = res.faults.get(label, {}).get(fault.name, [])
    scores = [_score(fault, column, found) for _, found in trials]
    return len(scores), sum(c for c, _ in scores), sum(h for _, h in scores)


def _quiet_row(res: RealResult, label: str) -> tuple[int, int, int, int, int, int, int, int, int]:
    runs = res.runs[label]
    quiet = _quiet(res, label)
    incl = sum(1 for _, f in quiet if f)
    excl = sum(1 for _, f in quiet if any(c not in res.date_columns for c, _ in f))
    severe = {d for d, (_, s) in res.events.items() if s}
    events = [(d, f) for d, f in runs if d in res.events]
    caught = sum(1 for _, f in events if f)
    caught_severe = sum(1 for d, f in events if f and d in severe)
    judged_severe = sum(1 for d, _ in events if d in severe)
    after = [f for d, f in quiet if any(d - dt.timedelta(days=k) in res.events for k in (1, 2, 3))]
    return (
        len(quiet),
        incl,
        excl,
        caught,
        len(events),
        caught_severe,
        judged_severe,
        sum(1 for f in after if f),
        len(after),
    )


def real_report(results: list[RealResult]) -> list[str]:
    by_half = {h: [r for r in results if r.half == h] for h in HALVES}
    lines = [
        "### Real public daily tables: the corpus (one run per day, default settings)",
        "",
        "Tables, halves and quiet-day rules: `benchmarks/detection/corpus.md` (declared "
        "before any run). Quiet days: the judged days (from day 5) not labelled as "
        'events. A day alarms when it has any finding; "date columns excluded" drops the '
        "findings on the table's own calendar columns. Last column: quiet days 1-3 days "
        "after an event (which joined the baseline under on_drift: warn). The held-out "
        "half is reported by its figures only.",
        "",
        "| table | half | kind | columns | rows a day (median) | detector | quiet days "
        "| alarmed / 100 | alarmed / 100, date columns excluded | events caught (severe) "
        "| after an event: alarmed |",
        "|---|---|---|---:|---:|---|---:|---:|---:|---:|---:|",
    ]
    for res in results:
        median = res.rows_median
        for label in DETECTORS:
            q, incl, excl, caught, events, cs, js, aa, an = _quiet_row(res, label)
            lines.append(
                f"| {res.name} | {res.half} | {res.kind} | {res.columns} | {median:g} "
                f"| {label} | {q} | **{_per100(incl, q)}** | {_per100(excl, q)} "
                f"| {caught}/{events} ({cs}/{js}) | {aa}/{an} |"
            )
    lines += [
        "",
        "Per half (quiet days pooled over the half's tables; the worst table in brackets):",
        "",
        "| half | tables | detector | quiet days | alarmed / 100 (worst table) "
        "| alarmed / 100, date columns excluded | events caught (severe) |",
        "|---|---:|---|---:|---:|---:|---:|",
    ]
    for half, members in by_half.items():
        for label in DETECTORS:
            rows = [_quiet_row(r, label) for r in members]
            q = sum(r[0] for r in rows)
            worst = max(
                (
                    (100 * r[1] / r[0] if r[0] else 0.0, m.name)
                    for r, m in zip(rows, members, strict=True)
                ),
                default=(0.0, "-"),
            )
            lines.append(
                f"| {half} | {len(members)} | {label} | {q} "
                f"| **{_per100(sum(r[1] for r in rows), q)}** ({worst[1]} {worst[0]:.2f}) "
                f"| {_per100(sum(r[2] for r in rows), q)} "
                f"| {sum(r[3] for r in rows)}/{sum(r[4] for r in rows)} "
                f"({sum(r[5] for r in rows)}/{sum(r[6] for r in rows)}) |"
            )
    lines += _fault_section(results, by_half)
    lines += _weight_section(results)
    lines += _watcher_section(results, by_half)
    lines += _lookalike_section(results)
    lines += _heads(by_half["tune"])
    lines += [
        "",
        "Top column.metric pairs on quiet days (days), **tune half only**:",
        "",
    ]
    for res in by_half["tune"]:
        for label in DETECTORS:
            counter: Counter[str] = Counter()
            for _, found in _quiet(res, label):
                counter.update(f"{c}.{m}" for c, m in set(found))
            top = ", ".join(f"{k} {v}" for k, v in ranked(counter, 8)) or "none"
            lines.append(f"- {res.name} / {label}: {top}")
    for res in by_half["tune"]:
        faucet = dict(res.runs["faucet zscore"])
        lines += [
            "",
            f"#### {res.name} (tune): labelled events and faucet zscore's findings",
            "",
            f"Source: {res.source}; {res.rows:,} rows over {len(faucet) + 5} days.",
            "",
            "| day | event | severe | findings |",
            "|---|---|---|---|",
        ]
        for day, (reason, severe) in sorted(res.events.items()):
            if day not in faucet:
                continue
            found = sorted({f"{c}.{m}" for c, m in faucet[day]})
            lines.append(
                f"| {day} ({day:%a}) | {reason} | {'yes' if severe else ''} "
                f"| {', '.join(found) or '(none)'} |"
            )
    lines += ["", *_rule_counts(results)]
    return lines


def _rule_counts(results: list[RealResult]) -> list[str]:
    """How often each clearing rule of ``detect_drift`` acted, per table (faucet zscore,
    every judged day; counts only, so the held-out half shows nothing to tune on)."""
    rules = sorted({rule for res in results for rule in res.cleared})
    lines = [
        "#### Clearing rules: candidate findings each cleared (faucet zscore, all judged days)",
        "",
        "| table | half | " + " | ".join(rules) + " |",
        "|---|---|" + "---:|" * len(rules),
    ]
    for res in results:
        counts = " | ".join(str(res.cleared.get(rule, 0)) for rule in rules)
        lines.append(f"| {res.name} | {res.half} | {counts} |")
    return lines


def _heads(tune: list[RealResult]) -> list[str]:
    """What heads each column fault's column, per tune table (faucet zscore)."""
    lines = [
        "",
        "What heads the fault's column, **tune half only** (faucet zscore; trials; "
        "`-`: no finding on the column):",
        "",
    ]
    for fault in CORPUS_FAULTS:
        if fault.target == "table":
            continue
        cells = []
        for res in tune:
            column = res.fault_columns.get(fault.target)
            trials = res.faults.get("faucet zscore", {}).get(fault.name, [])
            if column is None or not trials:
                continue
            heads: Counter[str] = Counter()
            for _, found in trials:
                on_column = [m for c, m in found if c == column]
                heads[on_column[0] if on_column else "-"] += 1
            cells.append(f"{res.name} " + ", ".join(f"{m} {n}" for m, n in ranked(heads)))
        lines.append(f"- {fault.name}: " + "; ".join(cells))
    return lines


def _per_table(
    results: list[RealResult], columns: Sequence[str], cell: Callable[[RealResult, int], str]
) -> list[str]:
    """A table of one row per corpus table (name, half) and a cell per column (its index)."""
    lines = [
        "| table | half | " + " | ".join(columns) + " |",
        "|---|---|" + "---:|" * len(columns),
    ]
    for res in results:
        cells = [cell(res, k) for k in range(len(columns))]
        lines.append(f"| {res.name} | {res.half} | " + " | ".join(cells) + " |")
    return lines


def _fault_section(results: list[RealResult], by_half: dict[str, list[RealResult]]) -> list[str]:
    names = [f.name for f in CORPUS_FAULTS]
    lines = [
        "",
        "#### Injected faults on quiet days (corpus)",
        "",
        "Each fault on up to 12 quiet judged days per table, against the clean baseline "
        "before it (`corpusfaults.py`; columns chosen by rule, see `corpus.md`). Cell: right "
        "column % / right head metric % (the first finding on the column has a right "
        "metric); for row_loss_40 and empty_run: caught by a `row_count` finding (both "
        "figures). n/a: the table has no such column. A trial whose edit left the day's "
        "table as it was (40 % of a one-row day's rows nulled or dropped, and none drawn) "
        "injected no fault and is not counted: "
        + (
            "; ".join(
                f"{r.name} " + ", ".join(f"{k} {v}" for k, v in sorted(r.unchanged.items()))
                for r in results
                if r.unchanged
            )
            or "none"
        )
        + ".",
        "",
        "Fault columns: "
        + "; ".join(
            f"{r.name}: numeric `{r.fault_columns.get('numeric') or '-'}`, categorical "
            f"`{r.fault_columns.get('categorical') or '-'}`"
            for r in results
        )
        + ".",
    ]
    for label in FAULT_DETECTORS:

        def cell(res: RealResult, k: int, label: str = label) -> str:
            n, col, head = _fault_counts(res, label, CORPUS_FAULTS[k])
            return f"{_pct(col, n)} / {_pct(head, n)}" if n else "n/a"

        lines += ["", f"{label}, per table:", "", *_per_table(results, names, cell)]
        lines += [
            "",
            f"{label}, per half (trials pooled): right column % / right head metric % (trials)",
            "",
            "| half | " + " | ".join(names) + " | all column faults | row faults |",
            "|---|" + "---:|" * (len(names) + 2),
        ]
        for half, members in by_half.items():
            cells = []
            cols = [0, 0, 0]
            rows = [0, 0]
            for fault in CORPUS_FAULTS:
                counts = [_fault_counts(r, label, fault) for r in members]
                n = sum(c[0] for c in counts)
                col = sum(c[1] for c in counts)
                head = sum(c[2] for c in counts)
                cells.append(f"{_pct(col, n)} / {_pct(head, n)} ({n})")
                if fault.target == "table":
                    rows[0] += n
                    rows[1] += col
                else:
                    cols[0] += n
                    cols[1] += col
                    cols[2] += head
            lines.append(
                f"| {half} | "
                + " | ".join(cells)
                + f" | {_pct(cols[1], cols[0])} / {_pct(cols[2], cols[0])} ({cols[0]}) "
                + f"| {_pct(rows[1], rows[0])} ({rows[0]}) |"
            )
    return lines


WEIGHTS = ((1.0, "1"), (10.0, "2-10"), (49.5, "11-49"), (float("inf"), "50 or more"))
"""Classes of a table's median rows a day: (the most rows of the class, its label)."""


def _weight_of(res: RealResult) -> str:
    return next(label for most, label in WEIGHTS if res.rows_median <= most)


def _weight_section(results: list[RealResult]) -> list[str]:
    """The tune half's tables pooled by their median rows a day: quiet-day alarms and each
    fault's right column, for the detector the faults are scored on. A fault smaller than
    a light run's own sampling error (40 % of a one-record day's nulls, a category that a
    five-record day need not hold) cannot be told from a quiet day at one alarm per 100,
    whatever the detector: the classes show where the corpus's figures are set."""
    label = FAULT_DETECTORS[0]
    names = [f.name for f in CORPUS_FAULTS]
    lines = [
        "",
        f"#### Quiet days and faults by rows a day ({label}, the tune half)",
        "",
        "Tune tables grouped by their median rows a day. Quiet: alarmed quiet days per 100. "
        "Fault cells: right column % (trials).",
        "",
        "| rows a day | tables | quiet days | alarmed / 100 | " + " | ".join(names) + " |",
        "|---|---:|---:|---:|" + "---:|" * len(names),
    ]
    for _, weight in WEIGHTS:
        members = [r for r in results if r.half == "tune" and _weight_of(r) == weight]
        if not members:
            continue
        quiet = [found for r in members for _, found in _quiet(r, label)]
        cells = []
        for fault in CORPUS_FAULTS:
            counts = [_fault_counts(r, label, fault) for r in members]
            n = sum(c[0] for c in counts)
            cells.append(f"{_pct(sum(c[1] for c in counts), n)} ({n})" if n else "n/a")
        alarmed = sum(1 for found in quiet if found)
        lines.append(
            f"| {weight} | {len(members)} | {len(quiet)} | {_per100(alarmed, len(quiet))} | "
            + " | ".join(cells)
            + " |"
        )
    return lines


def _watcher_section(results: list[RealResult], by_half: dict[str, list[RealResult]]) -> list[str]:
    """faucet zscore's right column beside a watcher's catch (watcher.py), per fault."""
    names = [f.name for f in CORPUS_FAULTS]
    label = "faucet zscore"
    lines = [
        "",
        "#### What a watcher told where to look catches (`watcher.py`)",
        "",
        "The watcher is given the fault's column, the one statistic it moves and its "
        "direction, and a threshold at the 99th percentile of that score over the table's "
        "own quiet judged days (1 alarm per 100 quiet days, the whole budget on one test). "
        "A trial it misses is one that 1 % or more of the table's quiet days already match "
        "on that statistic. A reference, not a bound: faucet catches more where its "
        "sampling model or another statistic knows more than the watcher's one score. "
        "Cell: faucet zscore's right column / the watcher's catch, in trials, over the "
        "trials of the table above.",
        "",
    ]

    def cell(res: RealResult, k: int) -> str:
        fault = CORPUS_FAULTS[k]
        n, col, _ = _fault_counts(res, label, fault)
        seen = res.watcher.get(fault.name, (0, 0))[0]
        return f"{col} / {seen} of {n}" if n else "n/a"

    lines += _per_table(results, names, cell)
    lines += [
        "",
        "Per half (trials pooled): faucet zscore's right column % / the watcher's %",
        "",
        "| half | " + " | ".join(names) + " | all column faults | row faults |",
        "|---|" + "---:|" * (len(names) + 2),
    ]
    for half, members in by_half.items():
        cells = []
        cols = [0, 0, 0]
        rows = [0, 0, 0]
        for fault in CORPUS_FAULTS:
            n = col = seen = 0
            for r in members:
                t, c, _ = _fault_counts(r, label, fault)
                n += t
                col += c
                seen += r.watcher.get(fault.name, (0, 0))[0]
            cells.append(f"{_pct(col, n)} / {_pct(seen, n)}")
            into = rows if fault.target == "table" else cols
            into[0] += n
            into[1] += col
            into[2] += seen
        lines.append(
            f"| {half} | "
            + " | ".join(cells)
            + f" | {_pct(cols[1], cols[0])} / {_pct(cols[2], cols[0])} "
            + f"| {_pct(rows[1], rows[0])} / {_pct(rows[2], rows[0])} |"
        )
    return lines


def _lookalike_section(results: list[RealResult]) -> list[str]:
    """Quiet days that already look like a fault (lookalikes.py): a floor under what
    catching that fault on every trial would cost in false alarms on the table."""
    lines = [
        "",
        "#### Quiet days that already look like a fault (`lookalikes.py`)",
        "",
        "Share of each table's quiet judged days whose clean data look like the edited run "
        "of the fault, against the same 20-run window: rows at most 60 % of the window's "
        "median on that weekday (row_loss_40), the window's second value absent "
        "(vanished_category), a value new to the window at 20 % of the rows or more "
        "(new_category). A detector that caught the fault on nearly every trial would alarm "
        "on about this share of quiet days as well.",
        "",
    ]

    def cell(res: RealResult, k: int) -> str:
        fault = LOOKALIKE_FAULTS[k]
        n, quiet = res.lookalikes.get(fault, (0, 0))
        skipped = fault != "row_loss_40" and not res.fault_columns.get("categorical")
        return "n/a" if skipped or not quiet else f"{100 * n / quiet:.1f} %"

    return lines + _per_table(results, LOOKALIKE_FAULTS, cell)
