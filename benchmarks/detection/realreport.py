"""The real-data section of the detection report (see ``realdata.py`` and ``realsim.py``)."""

from __future__ import annotations

import datetime as dt
from collections import Counter

from realsim import DETECTORS, RealResult


def _per100(count: int, total: int) -> str:
    return f"{100 * count / total:.2f}" if total else "-"


def real_report(results: list[RealResult]) -> list[str]:
    lines = [
        "### Real public daily tables (one run per day, default settings)",
        "",
        "Quiet days: the judged days (from day 5) not labelled as events. A day alarms when "
        'it has any finding; "date columns excluded" drops the findings on the table\'s own '
        "calendar columns. The last column: quiet days right after an event (which joined the "
        "baseline under on_drift: warn), to see that it does not make them alarm.",
        "",
        "| table | detector | quiet days | alarmed / 100, date columns included "
        "| alarmed / 100, date columns excluded | events caught (severe) "
        "| quiet days 1-3 days after an event: alarmed |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    tops: list[str] = []
    for res in results:
        severe = {d for d, (_, s) in res.events.items() if s}
        for label in DETECTORS:
            runs = res.runs[label]
            quiet = [(d, f) for d, f in runs if d not in res.events]
            incl = sum(1 for _, f in quiet if f)
            excl = sum(1 for _, f in quiet if any(c not in res.date_columns for c, _ in f))
            events = [(d, f) for d, f in runs if d in res.events]
            caught = sum(1 for _, f in events if f)
            caught_severe = sum(1 for d, f in events if f and d in severe)
            judged_severe = sum(1 for d, _ in events if d in severe)
            after = [
                f
                for d, f in quiet
                if any(d - dt.timedelta(days=k) in res.events for k in (1, 2, 3))
            ]
            lines.append(
                f"| {res.name} | {label} | {len(quiet)} | **{_per100(incl, len(quiet))}** "
                f"| {_per100(excl, len(quiet))} | {caught}/{len(events)} "
                f"({caught_severe}/{judged_severe}) | {sum(1 for f in after if f)}/{len(after)} |"
            )
            counter: Counter[str] = Counter()
            for _, found in quiet:
                counter.update(f"{c}.{m}" for c, m in set(found))
            top = ", ".join(f"{k} {v}" for k, v in counter.most_common(8)) or "none"
            tops.append(f"- {res.name} / {label}: {top}")
    lines += ["", "Top column.metric pairs on quiet days (days):", "", *tops]
    for res in results:
        faucet = dict(res.runs["faucet zscore"])
        lines += [
            "",
            f"#### {res.name}: labelled events and faucet zscore's findings",
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
    return lines
