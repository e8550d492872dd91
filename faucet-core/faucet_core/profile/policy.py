"""Column classification: by column name, by nested field name, or by value detectors.

A classified column publishes no top values (in the profile, the store, the
catalog or a notification). Detectors look at a bounded sample of each
column's distinct string values: up to 100 per batch and 1,000 per column.
Detectors favour precision: a payment card must pass the Luhn check, an IBAN
the mod-97 check, and a phone number needs a leading '+' (8 to 15 digits) or
separators and 10 to 15 digits, so dates (2024-01-01), amounts (12345.67) and
short ids are not phone numbers.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterable
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Any

from faucet_core.config import PolicyConfig, PolicyRule, ValueDetector

if TYPE_CHECKING:  # pyarrow is imported where an Arrow type or array is inspected: the
    # SQL pushdown classifies by name and by a list of sampled texts, without pyarrow
    import pyarrow as pa

__all__ = [
    "DETECTORS",
    "NESTED_SAMPLE",
    "SAMPLE_PER_BATCH",
    "SAMPLE_PER_COLUMN",
    "PolicyState",
    "luhn_valid",
]

SAMPLE_PER_BATCH = 100
"""Distinct strings of one batch of one column a value detector looks at."""
SAMPLE_PER_COLUMN = 1000
"""Distinct strings of one column a value detector looks at, over all batches."""
NESTED_SAMPLE = 64
"""Nested values of one batch of one column whose field names are read."""
_MAX_FIELD_NAMES = 10_000

_EMAIL = re.compile(
    r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}"
)
# A phone number needs a '+' prefix or separators: a bare run of digits is more often an id.
_PHONE = re.compile(r"\+?[0-9(][0-9 ().-]{5,}[0-9]")
_DECIMAL = re.compile(r"[0-9]+\.[0-9]+")  # an amount written as text, not a phone number
_CARD = re.compile(r"[0-9]{4}(?:[ -]?[0-9]{2,4}){2,4}[0-9]?")
_IBAN = re.compile(r"[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}")
_SSN = re.compile(r"(?!000|666|9[0-9]{2})[0-9]{3}-(?!00)[0-9]{2}-(?!0000)[0-9]{4}")


def luhn_valid(digits: str) -> bool:
    """The Luhn checksum used by payment card numbers."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _is_email(s: str) -> bool:
    return len(s) <= 254 and _EMAIL.fullmatch(s) is not None


def _is_phone(s: str) -> bool:
    if _PHONE.fullmatch(s) is None or _DECIMAL.fullmatch(s) is not None:
        return False
    digits = sum(ch.isdigit() for ch in s)
    if s.startswith("+"):  # E.164: country code and subscriber number, 8 to 15 digits
        return 8 <= digits <= 15
    # A national number has at least 10 digits; fewer is more often a date (2024-01-01),
    # an id or an amount.
    return any(ch in s for ch in " ().-") and 10 <= digits <= 15


def _is_card(s: str) -> bool:
    if _CARD.fullmatch(s) is None:
        return False
    digits = s.replace(" ", "").replace("-", "")
    return 13 <= len(digits) <= 19 and luhn_valid(digits)


def _is_iban(s: str) -> bool:
    compact = s.replace(" ", "").upper()
    if _IBAN.fullmatch(compact) is None:
        return False
    rearranged = compact[4:] + compact[:4]
    number = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(number) % 97 == 1


def _is_ip(s: str) -> bool:
    if not (2 <= len(s) <= 45) or not any(ch in s for ch in ".:"):
        return False
    try:
        ipaddress.ip_address(s)
    except ValueError:
        return False
    return True


def _is_ssn(s: str) -> bool:
    return _SSN.fullmatch(s) is not None


DETECTORS: dict[ValueDetector, Callable[[str], bool]] = {
    ValueDetector.EMAIL: _is_email,
    ValueDetector.PHONE: _is_phone,
    ValueDetector.PAYMENT_CARD: _is_card,
    ValueDetector.IBAN: _is_iban,
    ValueDetector.IP_ADDRESS: _is_ip,
    ValueDetector.US_SSN: _is_ssn,
}


def _glob(name: str, patterns: Iterable[str]) -> bool:
    lowered = name.lower()
    return any(fnmatchcase(lowered, p.lower()) for p in patterns)


class PolicyState:
    """Tracks, for one column, which policy rules classify it."""

    __slots__ = ("_hits", "_rules", "_sampled", "labels")

    def __init__(self, policy: PolicyConfig, column: str) -> None:
        self.labels: set[str] = {r.label for r in policy.rules if _glob(column, r.columns)}
        self._rules: tuple[PolicyRule, ...] = tuple(
            r for r in policy.rules if r.label not in self.labels and (r.fields or r.detectors)
        )
        self._sampled = 0
        self._hits: dict[ValueDetector, int] = {}

    @property
    def done(self) -> bool:
        return not self._rules

    def observe_type(self, arrow_type: pa.DataType) -> None:
        if self.done:
            return
        names: set[str] = set()
        _struct_names(arrow_type, names)
        if names:
            self._note_fields(names)

    def observe_nested(self, values: Iterable[Any]) -> None:
        if self.done:
            return
        names: set[str] = set()
        for value in values:
            _value_names(value, names, 0)
        if names:
            self._note_fields(names)

    def _note_fields(self, names: set[str]) -> None:
        for rule in self._rules:
            if rule.fields and any(_glob(n, rule.fields) for n in names):
                self.labels.add(rule.label)
        self._rules = tuple(r for r in self._rules if r.label not in self.labels)

    def observe_strings(self, uniques: pa.Array | list[str]) -> None:
        if self.done or self._sampled >= SAMPLE_PER_COLUMN:
            return
        take = min(SAMPLE_PER_BATCH, SAMPLE_PER_COLUMN - self._sampled)
        sample = uniques[:take]
        texts = list(sample) if isinstance(sample, list) else sample.to_pylist()
        texts = [t for t in texts if t is not None]
        if not texts:
            return
        self._sampled += len(texts)
        wanted = {d for r in self._rules for d in r.detectors}
        for detector in wanted:
            test = DETECTORS[detector]
            self._hits[detector] = self._hits.get(detector, 0) + sum(
                1 for t in texts if test(t.strip())
            )

    def finish(self) -> set[str]:
        """The labels that classify the column."""
        if self._sampled:
            for rule in self._rules:
                if any(
                    self._hits.get(d, 0) / self._sampled >= rule.min_share for d in rule.detectors
                ):
                    self.labels.add(rule.label)
        return self.labels


def _struct_names(t: pa.DataType, out: set[str]) -> None:
    import pyarrow as pa

    if pa.types.is_struct(t):
        for i in range(t.num_fields):
            f = t.field(i)
            out.add(f.name)
            _struct_names(f.type, out)
    elif pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        _struct_names(t.value_type, out)
    elif pa.types.is_map(t):
        _struct_names(t.item_type, out)
    elif pa.types.is_dictionary(t):
        _struct_names(t.value_type, out)


def _value_names(value: Any, out: set[str], depth: int) -> None:
    if depth > 16 or len(out) > _MAX_FIELD_NAMES:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(str(k))
            _value_names(v, out, depth + 1)
    elif isinstance(value, (list, tuple)):
        for v in value[:64]:
            if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str):
                out.add(v[0])  # Arrow map entry
                _value_names(v[1], out, depth + 1)
            else:
                _value_names(v, out, depth + 1)
