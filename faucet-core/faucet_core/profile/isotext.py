"""ISO 8601 text for dates and instants of any year, from their integer epoch value.

Arrow's string cast and Python's ``datetime`` stop at some range (Python at years
1..9999, Arrow's formatter somewhat further); a date or timestamp column can hold
values far beyond both. This module renders them with the proleptic Gregorian
calendar, in the layout Arrow uses inside its range: the year zero-padded to four
digits, with more digits past 9999 and a leading ``-`` before year 0
(``-0221-09-04``, ``10000-01-01``), so one column's texts do not change layout at
the edge.
"""

from __future__ import annotations

__all__ = ["UNIT_PER_SECOND", "epoch_text"]

UNIT_PER_SECOND = {"s": 1, "ms": 1_000, "us": 1_000_000, "ns": 1_000_000_000}
_SECONDS_PER_DAY = 86_400


def _civil(days: int) -> tuple[int, int, int]:
    """(year, month, day) of ``days`` since 1970-01-01, for any integer (H. Hinnant's
    days-to-civil algorithm, exact in Python integers)."""
    z = days + 719_468
    era = z // 146_097
    doe = z - era * 146_097
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    year = yoe + era * 400 + (1 if month <= 2 else 0)
    return year, month, day


def _year(year: int) -> str:
    return f"-{-year:04d}" if year < 0 else f"{year:04d}"


def epoch_text(value: int, unit: str, *, date_only: bool = False, aware: bool = False) -> str:
    """Text of ``value`` ``unit``\\ s since the epoch (``"D"`` for days), in Arrow's layout:
    ``YYYY-MM-DD HH:MM:SS[.fraction][Z]``, the fraction with the unit's digits.

    >>> epoch_text(2**62, "s")
    '146138514283-06-19 07:45:04'
    >>> epoch_text(-1, "D", date_only=True)
    '1969-12-31'
    """
    if unit == "D":
        days, rest, per_second = value, 0, 1
    else:
        per_second = UNIT_PER_SECOND[unit]
        days, rest = divmod(value, _SECONDS_PER_DAY * per_second)
    year, month, day = _civil(days)
    text = f"{_year(year)}-{month:02d}-{day:02d}"
    if date_only:
        return text
    seconds, fraction = divmod(rest, per_second)
    hours, seconds = divmod(seconds, 3600)
    minutes, seconds = divmod(seconds, 60)
    text += f" {hours:02d}:{minutes:02d}:{seconds:02d}"
    if per_second > 1:
        text += f".{fraction:0{len(str(per_second)) - 1}d}"
    return text + ("Z" if aware else "")
