"""Slack messages for drift notifications: Block Kit blocks and fallback text (pure).

The default message of one finding shows the asset, partition, column, metric, the
finding's message and numbers, and a link to the run in the Dagster UI when the
notification has a ``run_url``. A grouped notification lists its findings, as many as
Slack's limits allow, and says how many more the check evaluation holds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from faucet_core.drift.messages import fmt_value, score_and_limit
from faucet_core.drift.model import DriftMetric, DriftScale, DriftTest
from faucet_core.drift.numfmt import fmt_number, fmt_rate
from faucet_core.notify.model import (
    WITHHELD,
    CheckSeverity,
    DriftNotification,
    NotificationKind,
    NotifiedFinding,
)
from faucet_core.text import clip as clip_text

__all__ = [
    "MAX_BLOCKS",
    "MAX_CONTEXT_ELEMENTS",
    "MAX_FIELDS",
    "MAX_FIELD_CHARS",
    "MAX_HEADER_CHARS",
    "MAX_SECTION_CHARS",
    "MAX_TEXT_CHARS",
    "SlackMessage",
    "clip",
    "fit_blocks",
    "mrkdwn_escape",
    "plain_text",
    "slack_blocks",
    "slack_text",
]

MAX_BLOCKS = 50
"""Blocks per message."""
MAX_SECTION_CHARS = 3000
"""Characters of a section's text."""
MAX_FIELD_CHARS = 2000
"""Characters of one section field."""
MAX_FIELDS = 10
"""Fields of one section."""
MAX_HEADER_CHARS = 150
"""Characters of a header block's plain text."""
MAX_CONTEXT_ELEMENTS = 10
"""Elements of one context block."""
MAX_TEXT_CHARS = 40_000
"""Characters of a message's top-level ``text`` (Slack truncates longer text)."""

Block = dict[str, Any]

_NON_NEGATIVE = frozenset({DriftMetric.NULL_RATE, DriftMetric.DISTINCT, DriftMetric.STRING_LENGTH})


@dataclass(frozen=True)
class SlackMessage:
    """What is posted: the ``text`` (the notification preview and the fallback) and blocks."""

    text: str
    blocks: tuple[Mapping[str, Any], ...] = ()

    def without_blocks(self) -> SlackMessage:
        return SlackMessage(text=self.text)


def clip(text: str, limit: int) -> str:
    """``text`` shortened to ``limit`` characters, ending with '…' when cut."""
    return clip_text(text, limit, "…")


def mrkdwn_escape(text: str) -> str:
    """Slack's three control characters as entities, so data cannot format or mention."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _code(text: str) -> str:
    return "`" + mrkdwn_escape(text).replace("`", "'") + "`"


def _link(url: str, label: str) -> str:
    # A link's URL cannot hold '|' or '>' raw: percent-encode them.
    safe = url.replace("|", "%7C").replace(">", "%3E").replace("<", "%3C")
    return f"<{safe}|{label}>"


def _icon(n: DriftNotification) -> str:
    return ":rotating_light:" if n.severity is CheckSeverity.ERROR else ":warning:"


def _where(n: DriftNotification, finding: NotifiedFinding | None = None) -> str:
    partition = finding.partition if finding is not None else None
    partition = partition or n.partition
    return n.asset + (f" [{partition}]" if partition else "")


def _summary_head(n: DriftNotification) -> str:
    if n.kind is NotificationKind.PROFILE_SCHEMA_CHANGE:
        return f"Schema change on {_where(n)}"
    if n.episode == "recovered":
        return f"Fresh again: {n.asset}"
    return f"Overdue: {n.asset}"


def _text(n: DriftNotification, escape: Callable[[str], str]) -> str:
    if n.summary is not None:
        return clip(escape(f"{_summary_head(n)}: {n.summary}"), MAX_TEXT_CHARS)
    if n.error is not None:
        return clip(escape(f"faucet could not check {_where(n)}: {n.error}"), MAX_TEXT_CHARS)
    if not n.grouped:
        f = n.findings[0]
        return clip(
            escape(f"Profile drift on {_where(n, f)}: {f.finding.headline}"), MAX_TEXT_CHARS
        )
    head = f"Profile drift on {_where(n)}: {len(n.findings)} finding(s)"
    lines = [escape(head)]
    used = len(lines[0])
    for i, f in enumerate(n.findings):
        line = escape(f"• {f.finding.headline}")
        rest = len(n.findings) - i
        tail = f"… and {rest} more"
        if used + 1 + len(line) + 1 + len(tail) > MAX_TEXT_CHARS:
            lines.append(tail)
            break
        lines.append(line)
        used += 1 + len(line)
    return "\n".join(lines)


def slack_text(n: DriftNotification) -> str:
    """Slack's top-level text (mrkdwn-escaped): one line per finding, within
    :data:`MAX_TEXT_CHARS`."""
    return _text(n, mrkdwn_escape)


def plain_text(n: DriftNotification) -> str:
    """The same text unescaped, for receivers other than Slack (the webhook's ``text``)."""
    return _text(n, lambda text: text)


def _num(value: float | None, statistic: str = "") -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return fmt_number(value, statistic)


def _share(value: float | None) -> str:
    return "–" if value is None or math.isnan(value) else fmt_rate(value)


def _center(f: NotifiedFinding) -> str:
    d = f.finding
    if d.test in (DriftTest.IQR, DriftTest.RATIO):
        name = "median"
    elif d.test is DriftTest.FLOOR:
        name = "constant"
    else:
        name = "geometric mean" if d.scale is DriftScale.LOG else "mean"
    return f"{name} {_num(d.baseline_center, d.statistic)}"


def _score(f: NotifiedFinding) -> str:
    d = f.finding
    if d.test is DriftTest.FLOOR:
        floor = _num(d.floor, d.statistic) if d.floor is not None else "–"
        change = abs(d.value - d.baseline_center)
        return f"change {_num(change, d.statistic)} > floor {floor}"
    shown, bound = score_and_limit(d.score, d.threshold)
    if d.test is DriftTest.RATIO:
        way = "smaller" if abs(d.value) < abs(d.baseline_center) else "larger"
        return f"{shown} times {way} than the median, above the {bound} factor"
    unit = "sigma" if d.test is DriftTest.ZSCORE else "IQR beyond the quartiles"
    return f"{shown} {unit}, above the {bound} limit"


def _numbers(f: NotifiedFinding) -> list[tuple[str, str]]:
    d = f.finding
    runs = ("Baseline runs", str(d.baseline_runs))
    if f.classified and d.metric in (DriftMetric.NEW_VALUE, DriftMetric.VANISHED_VALUE):
        return [("Value", WITHHELD), runs]
    if d.metric is DriftMetric.PSI:
        return [("PSI", f"{d.score:.3f} > {d.threshold:g}"), runs]
    if d.metric is DriftMetric.TYPE_MIX:
        return [
            ("Type", _code(str(d.value_key))),
            ("Share", f"{_share(d.share)} (at most {_share(d.baseline_share)} before)"),
            runs,
        ]
    if d.metric is DriftMetric.NEW_VALUE:
        return [
            ("Value", _code(fmt_value(d.value_key))),
            ("Share", f"{_share(d.share)} of the run (needs {_share(d.threshold)})"),
            runs,
        ]
    if d.metric is DriftMetric.VANISHED_VALUE:
        return [
            ("Value", _code(fmt_value(d.value_key))),
            ("Share", f"{_share(d.share)} (at least {_share(d.baseline_share)} before)"),
            runs,
        ]
    if f.classified and d.metric in (DriftMetric.MEAN, DriftMetric.MIN, DriftMetric.MAX):
        return [("Value", WITHHELD), runs]
    pairs = [("Value", _num(d.value, d.statistic)), ("Baseline", _center(f))]
    if d.expected_low is not None and d.expected_high is not None:
        low, high = d.expected_low, d.expected_high
        if d.metric in _NON_NEGATIVE:  # a band around a small rate can dip below 0
            low = max(0.0, low)
        if d.metric is DriftMetric.NULL_RATE:
            high = min(1.0, high)
        pairs.append(("Expected", f"{_num(low, d.statistic)} … {_num(high, d.statistic)}"))
    pairs += [("Test", _score(f)), runs]
    return pairs


def _field(label: str, value: str) -> Block:
    return {"type": "mrkdwn", "text": clip(f"*{label}*\n{value}", MAX_FIELD_CHARS)}


def _context(n: DriftNotification, *, position: str) -> Block:
    parts = [
        f"faucet · check {_code(n.check)}",
        # A freshness check's setting is on_overdue (same values as on_drift).
        ("on_overdue" if n.kind is NotificationKind.PROFILE_FRESHNESS else "on_drift")
        + f" {_code(n.on_drift.value)}",
        n.severity.value,
    ]
    if position:
        parts.append(position)
    parts.append(n.evaluated_at_text)
    elements: list[Block] = [{"type": "mrkdwn", "text": clip(" · ".join(parts), MAX_SECTION_CHARS)}]
    if n.run_url:
        elements.append({"type": "mrkdwn", "text": _link(n.run_url, "Open the run in Dagster")})
    return {"type": "context", "elements": elements[:MAX_CONTEXT_ELEMENTS]}


def _header(text: str) -> Block:
    return {
        "type": "header",
        "text": {"type": "plain_text", "text": clip(text, MAX_HEADER_CHARS), "emoji": True},
    }


def _section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": clip(text, MAX_SECTION_CHARS)}}


def _single(n: DriftNotification) -> list[Block]:
    f = n.findings[0]
    d = f.finding
    fields = [_field("Asset", _code(n.asset))]
    partition = f.partition or n.partition
    if partition:
        fields.append(_field("Partition", _code(partition)))
    column = "(the table)" if d.table_level else _code(d.column)
    fields += [_field("Column", column), _field("Metric", _code(d.metric.value))]
    fields += [_field(label, value) for label, value in _numbers(f)]
    position = f"finding {n.first_index + 1} of {n.total_findings}"
    return [
        _header(f"{_icon(n)} Profile drift: {n.asset}"),
        _section(mrkdwn_escape(d.headline)),
        {"type": "section", "fields": fields[:MAX_FIELDS]},
        _context(n, position=position),
    ]


def _grouped(n: DriftNotification) -> list[Block]:
    count = len(n.findings)
    blocks = [
        _header(f"{_icon(n)} Profile drift: {n.asset} ({count} findings)"),
        _context(n, position=_span(n)),
    ]
    room = MAX_BLOCKS - len(blocks) - 1  # keep one block for "… and N more"
    shown = n.findings[:room] if count > room + 1 else n.findings
    for f in shown:
        d = f.finding
        title = f"*{_code(d.key)}*"
        if f.partition:
            title += f" · partition {_code(f.partition)}"
        message = d.headline.removeprefix(f"{d.key}: ")
        blocks.append(_section(f"{title}\n{mrkdwn_escape(message)}"))
    if len(shown) < count:
        more = count - len(shown)
        blocks.append(
            {
                "type": "context",
                "elements": [
                    {
                        "type": "mrkdwn",
                        "text": f"… and {more} more finding(s): see the check evaluation "
                        "in Dagster",
                    }
                ],
            }
        )
    return blocks


def _span(n: DriftNotification) -> str:
    last = n.first_index + len(n.findings)
    if n.first_index == 0 and last == n.total_findings:
        return f"{n.total_findings} finding(s)"
    return f"findings {n.first_index + 1}–{last} of {n.total_findings}"


def _error(n: DriftNotification) -> list[Block]:
    assert n.error is not None
    fields = [_field("Asset", _code(n.asset))]
    if n.partition:
        fields.append(_field("Partition", _code(n.partition)))
    return [
        _header(f"{_icon(n)} Profile check error: {n.asset}"),
        _section(
            "faucet could not check this materialization, so it went unmonitored:\n"
            + mrkdwn_escape(n.error)
        ),
        {"type": "section", "fields": fields},
        _context(n, position=""),
    ]


def _summary(n: DriftNotification) -> list[Block]:
    assert n.summary is not None
    fields = [_field("Asset", _code(n.asset))]
    if n.partition:
        fields.append(_field("Partition", _code(n.partition)))
    icon = ":white_check_mark:" if n.episode == "recovered" else _icon(n)
    return [
        _header(f"{icon} {_summary_head(n)}"),
        _section(mrkdwn_escape(n.summary)),
        {"type": "section", "fields": fields},
        _context(n, position=""),
    ]


def slack_blocks(n: DriftNotification) -> list[Block]:
    """The default Block Kit blocks of a notification, within Slack's limits."""
    if n.summary is not None:
        return _summary(n)
    if n.error is not None:
        return _error(n)
    return _grouped(n) if n.grouped else _single(n)


def fit_blocks(blocks: Sequence[Mapping[str, Any]]) -> tuple[Mapping[str, Any], ...]:
    """Blocks from a ``blocks_fn``: at most :data:`MAX_BLOCKS` of them."""
    return tuple(blocks[:MAX_BLOCKS])
