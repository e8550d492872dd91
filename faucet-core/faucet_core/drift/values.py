"""new_value and vanished_value: frequent values the baseline never listed, or always did.

Only stable categories are judged: a column is skipped when it lists no values in any
run (high-cardinality or classified), when its values are dates or timestamps (a
calendar column moves forward by design), or when its frequent values churn (a new one
in at least a fifth of the baseline's runs). Both tests keep a margin from the edge of
a full top-k list (see :data:`~faucet_core.drift.valuelist.EDGE_MARGIN`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from faucet_core.config import ProfilingConfig
from faucet_core.drift.limits import budget_limit, tail_probability
from faucet_core.drift.messages import new_value_message, vanished_message
from faucet_core.drift.model import DriftFinding, DriftMetric, DriftTest
from faucet_core.drift.noise import between_run_upper
from faucet_core.drift.stats import binomial_sf
from faucet_core.drift.valuelist import EDGE_MARGIN, ValueKey, ValueList, new_share_needed

__all__ = [
    "ShareJudge",
    "effective_records",
    "new_by_chance",
    "new_value_cluster",
    "new_value_rate",
    "new_values",
    "share_volatility",
    "vanished_values",
]


def _arcsine(share: float) -> float:
    return math.asin(math.sqrt(min(max(share, 0.0), 1.0)))


def share_volatility(past: Sequence[ValueList]) -> float:
    """How much the column's value shares move from run to run beyond sampling: the
    between-run variance of asin(sqrt(share)), pooled over the values listed in every
    baseline run (one parameter of the column, estimated from all of them) and taken at
    its upper confidence bound (:func:`~faucet_core.drift.noise.between_run_upper`); 0
    when no value is listed in every run. A category whose small values burst and fade
    from day to day has a high volatility, and a burst is judged against it."""
    if len(past) < 2:
        return 0.0
    common = set(past[0].shares)
    for lst in past[1:]:
        common &= set(lst.shares)
    if not common:
        return 0.0
    sampling = math.fsum(0.25 / lst.rows for lst in past if lst.rows) / len(past)
    variances = [_variance([_arcsine(lst.shares[key]) for lst in past]) for key in common]
    pooled = math.fsum(variances) / len(variances)
    return between_run_upper(pooled, sampling, float(len(variances) * (len(past) - 1)))


def effective_records(records: int, volatility: float) -> float:
    """A run's records as independent draws of the column's values: the count whose
    sampling variance alone, 1 / (4 n) on the arcsine scale, equals the run's sampling
    plus the column's between-run ``volatility`` (``records / (1 + 4 records
    volatility)``, at least 1). Hourly codes of one day share the day's weather: 24 of
    them can be worth one or two draws, and the chance of a share is that of so many
    draws (the design effect of survey sampling; for the PSI it is the Rao-Scott
    correction of a chi-square). Not for a value's absence: a
    share that wanders between runs is still far from zero on every one of them, which
    the arcsine test with the volatility judges (:func:`beyond_chance`)."""
    if records <= 0:
        return 0.0
    return max(1.0, records / (1.0 + 4.0 * records * max(volatility, 0.0)))


def _variance(values: list[float]) -> float:
    mean = math.fsum(values) / len(values)
    return math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1)


def beyond_chance(
    share: float, reference: float, records: int, volatility: float, limit: float
) -> bool:
    """Whether a share of ``records`` records differs from ``reference`` by more than
    sampling (1 / (4 n) on the arcsine scale) and the column's ``volatility`` allow at
    ``limit`` standard deviations."""
    sd = math.sqrt(0.25 / max(records, 1) + volatility)
    return abs(_arcsine(share) - _arcsine(reference)) > limit * sd


def new_value_rate(past: Sequence[ValueList], cluster: float = 1.0) -> float:
    """The chance that a record brings a value no complete baseline list held.

    A value the baseline never held has no share to wander around, so the column's
    share volatility says nothing of it: the question is how often the column brings
    values new to it. The baseline's pooled records answer by Good-Turing: the values
    seen exactly once, plus one, over the records plus one. When new values arrive in
    clusters of records (``cluster`` > 1, see :func:`new_value_cluster`), the unit is a
    cluster: the values seen in no more than one cluster's worth of records, plus one,
    over the pooled records counted in clusters, plus one."""
    totals: Counter[ValueKey] = Counter()
    pooled = 0
    for lst in past:
        pooled += lst.rows
        for key, s in lst.shares.items():
            totals[key] += round(s * lst.rows)
    once = sum(1 for c in totals.values() if c <= cluster)
    return min(1.0, (once + 1.0) / (pooled / cluster + 1.0))


def new_value_cluster(past: Sequence[ValueList]) -> float:
    """How many records a value new to the column brings with it, learned from the
    baseline: over its runs in order, the records of the values that no earlier run
    held, per such value, shrunk toward 1 by one arrival of a single record (1 when no
    run brought one).

    Records of one run are not always independent draws of the column's values: a day
    of a storm-track log holds every track point of the storm that day, so a new storm's
    name arrives as all of a light run's records. Judged record by record, that first
    day is a 100 % new value; judged by the column's own arrivals (a new name every few
    days, four points each), it is one new value, as often as names arrive.

    Only values that fewer than half of the baseline's runs list count as arrivals. A value
    most runs list is a member of the column's set: when the window opens on a few runs
    without it (three clear days, then cloudy hours every day), its first listing is the
    runs' own variation, already judged by the share volatility, and its records say
    nothing of how many a never-seen value brings (tune half of the detection corpus: 12
    more injected new categories found, 2 more alarmed quiet days of 53,623)."""
    seen: set[ValueKey] = set()
    records = 0.0
    arrivals = 0
    listed: Counter[ValueKey] = Counter()  # runs listing each value
    for lst in past:
        listed.update(lst.shares.keys())
    for i, lst in enumerate(past):
        if i:
            new = [k for k in lst.shares if k not in seen and 2 * listed[k] < len(past)]
            arrivals += len(new)
            records += sum(lst.shares[k] * lst.rows for k in new)
        seen.update(lst.shares)
    # one pseudo-arrival of a single record: a window with one or two arrivals says
    # little, and the estimate stays near 1 until arrivals repeat it
    return max(1.0, (records + 1.0) / (arrivals + 1.0))


def new_by_chance(share: float, records: int, past: Sequence[ValueList]) -> float:
    """The chance that a run of ``records`` records holds this ``share`` of values that
    no complete baseline list held: binomial at :func:`new_value_rate`, in clusters of
    :func:`new_value_cluster` records."""
    return _NewValueLaw.of(past).chance(share, records)


@dataclass(frozen=True)
class _NewValueLaw:
    """A column's rate of new values and the cluster of records they arrive in."""

    cluster: float
    rate: float

    @classmethod
    def of(cls, past: Sequence[ValueList]) -> _NewValueLaw:
        cluster = new_value_cluster(past)
        return cls(cluster, new_value_rate(past, cluster))

    def chance(self, share: float, records: int) -> float:
        """Binomial, in clusters: the chance of this ``share`` of ``records`` or more."""
        units = max(1.0, records / self.cluster)
        return binomial_sf(share * units, units, self.rate)


@dataclass
class ShareJudge:
    """What the new- and vanished-value tests of one column share: the spec's share
    floor, the test's limit and tail at its share of the run's budget, the column's
    share volatility (computed on first use) and the tally of cleared candidates."""

    min_share: float
    limit: float
    alpha: float
    past: Sequence[ValueList]
    cleared: Counter[str]
    _volatility: float | None = None

    @classmethod
    def of(
        cls, config: ProfilingConfig, tests: int, past: Sequence[ValueList], cleared: Counter[str]
    ) -> ShareJudge:
        sensitivity = config.effective_sensitivity
        return cls(
            min_share=config.new_value_min_share,
            limit=budget_limit(config.method, sensitivity, tests),
            alpha=tail_probability(config.method, sensitivity) / max(tests, 1),
            past=past,
            cleared=cleared,
        )

    @property
    def volatility(self) -> float:
        if self._volatility is None:
            self._volatility = share_volatility(self.past)
        return self._volatility


def new_values(
    name: str, current: ValueList, past: Sequence[ValueList], judge: ShareJudge
) -> list[DriftFinding]:
    """Values of at least ``min_share`` (and clear of every baseline list's cut-off)
    that no baseline run listed, at a share that the column's sampling and volatility
    do not explain (from the most a baseline list's cut-off let such a value hold)."""
    seen: set[ValueKey] = set()
    for lst in past:
        seen.update(lst.shares)
    needed = new_share_needed(judge.min_share, past)
    edge = max((lst.cutoff for lst in past), default=0.0)
    complete = not any(lst.truncated for lst in past)
    law: _NewValueLaw | None = None  # learned once per column, on its first candidate
    findings: list[DriftFinding] = []
    for key, share in current.shares.items():
        if key in seen or share < needed:
            continue
        if complete:
            law = law or _NewValueLaw.of(past)
            if law.chance(share, current.rows) >= judge.alpha and not _takes_a_members_place(
                share, current, past, judge.alpha
            ):
                judge.cleared["share_within_chance"] += 1
                continue
        elif not beyond_chance(share, edge, current.rows, judge.volatility, judge.limit):
            judge.cleared["share_within_chance"] += 1
            continue
        value = current.value(key)
        findings.append(
            DriftFinding(
                column=name,
                metric=DriftMetric.NEW_VALUE,
                message=new_value_message(name, value, share, len(past)),
                value=share,
                baseline_center=0.0,
                baseline_spread=0.0,
                score=share,
                threshold=needed,
                test=DriftTest.SHARE,
                baseline_runs=len(past),
                statistic="share",
                value_key=value,
                share=share,
                baseline_share=0.0,
            )
        )
    return findings


def _takes_a_members_place(
    share: float, current: ValueList, past: Sequence[ValueList], alpha: float
) -> bool:
    """A new value that holds exactly the records of a panel's member (a value whose
    count was fixed in every baseline run, :func:`fixed_count`) that the run no longer
    lists, or of all such members together: one city of five renamed, two cities' rows
    written under one new name, a ticker replaced. The members' absence is already
    beyond chance; the value in its place is what changed, and a person fixes the name,
    not the gap. A new value the column's own rate of new values explains is still
    cleared when no member is missing or the counts differ."""
    records = round(share * current.rows)
    if records < 1 or current.truncated:
        return False
    members = _in_every_run(past)
    missing = [fixed_count(key, past, alpha) for key in members if key not in current.shares]
    counts = [c for c in missing if c is not None]
    return records in counts or (len(counts) > 1 and records == sum(counts))


def _in_every_run(past: Sequence[ValueList]) -> set[ValueKey]:
    """The values every baseline run listed (``past`` not empty)."""
    return set(past[0].shares).intersection(*(lst.shares for lst in past[1:]))


FIXED_COUNT_MIN_RUNS = 5
"""A value's count must have held in at least this many baseline runs to read as fixed."""


def fixed_count(key: ValueKey, past: Sequence[ValueList], alpha: float) -> int | None:
    """The count of records a value held in every baseline run, when it was the same in
    each and sampling could hardly have kept it so: one row per city a day, one price per
    market. Records drawn at the value's pooled share p would give every run of n
    records exactly that count c with chance prod C(n, c) p^c (1 - p)^(n - c); below
    ``alpha`` the count is fixed by the table's design (a panel's key), and a run without
    the value has lost one of its members, whatever its share's sampling error says.
    Only text values are keys: a number held for days (a price, a reading) is a
    measurement that may change, not a member that may go missing. None otherwise."""
    if not isinstance(key, str) or len(past) < FIXED_COUNT_MIN_RUNS:
        return None
    counts = [round(lst.shares.get(key, 0.0) * lst.rows) for lst in past]
    c = counts[0]
    if c < 1 or any(n != c for n in counts):
        return None
    rows = [lst.rows for lst in past]
    p = c * len(rows) / sum(rows)
    if not 0.0 < p < 1.0:
        return None
    log_chance = 0.0
    for n in rows:
        log_chance += (
            math.lgamma(n + 1)
            - math.lgamma(c + 1)
            - math.lgamma(n - c + 1)
            + c * math.log(p)
            + (n - c) * math.log1p(-p)
        )
    return c if log_chance < math.log(alpha) else None


def vanished_values(
    name: str, current: ValueList, past: Sequence[ValueList], judge: ShareJudge
) -> list[DriftFinding]:
    """Values listed at ``min_share`` or more (and well inside the list) in every
    baseline run that the current run no longer lists, when sampling and the column's
    volatility do not explain the fall (a value at 12.5 % of a day's 24 readings is
    missing on 4 % of days by chance)."""
    if not past:
        return []
    min_share = judge.min_share
    common = _in_every_run(past)
    findings: list[DriftFinding] = []
    gone = [(min(lst.shares[k] for lst in past), k) for k in common if k not in current.shares]
    for least, key in sorted(gone, key=lambda item: -item[0]):
        if least < min_share:
            continue
        if any(lst.shares[key] < EDGE_MARGIN * lst.cutoff for lst in past):
            continue
        needed = max(min_share, EDGE_MARGIN * current.cutoff)
        if least < needed:
            continue
        now = current.cutoff if current.truncated else 0.0
        if fixed_count(key, past, judge.alpha) is not None:
            pass  # a panel's key: its count never varied, so chance explains no absence
        elif not current.truncated and (1.0 - least) ** current.rows >= judge.alpha:
            # absent from a complete list: the exact chance of no record at that share
            judge.cleared["share_within_chance"] += 1
            continue
        elif not beyond_chance(least, now, current.rows, judge.volatility, judge.limit):
            judge.cleared["share_within_chance"] += 1
            continue
        cutoff = current.cutoff if current.truncated else None
        value = past[-1].value(key)
        findings.append(
            DriftFinding(
                column=name,
                metric=DriftMetric.VANISHED_VALUE,
                message=vanished_message(name, value, least, len(past), cutoff),
                value=0.0 if cutoff is None else cutoff,
                baseline_center=least,
                baseline_spread=0.0,
                score=least,
                threshold=needed,
                test=DriftTest.SHARE,
                baseline_runs=len(past),
                statistic="share",
                value_key=value,
                share=0.0 if cutoff is None else cutoff,
                baseline_share=least,
            )
        )
    return findings
