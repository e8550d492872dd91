"""Drift detection: a run's column profile against the rolling baseline of earlier runs.

``detect_drift(current, baseline, config)`` returns one :class:`DriftFinding` per column
and metric that changed (``current_time=`` and ``baseline_times=`` add the runs'
recorded times, for weekly seasonality); ``[]`` while the baseline holds fewer than
``min_history`` runs.
The user-visible knobs and their meaning are the profiling spec's: ``method`` (zscore
or iqr), ``sensitivity`` (3.0 / 1.5), the floors (1 percentage point of null rate, 5 %
of a distinct count, 1 % of anything else), ``new_value_min_share`` and
``psi_threshold``. A literal reading of that spec false-alarms on 12 to 100 of every
100 quiet runs of realistic tables (see ``benchmarks/results/detection.md``); what is
done underneath, so that a quiet day stays quiet and a broken one is still named:

The pipeline is an ordered tuple of named stages (:data:`~faucet_core.drift.detector.STAGES`):
history, volume, type_mix, run labels, series tests, value tests, the run's budget, the
lengths that follow the mix, one finding per column. Each rule that clears a candidate
finding is counted (:func:`~faucet_core.drift.detector.run_detection`).

Volume — :mod:`~faucet_core.drift.rows`: the run's row count is a table-level statistic
(column ``""``, metric ``row_count``), judged on the ratio scale against its own weekday
when the week shows in the history, above a 20 % floor, with a quarter of the run's
budget; a run that wrote no records after runs that wrote some is always a finding.

Series metrics (null_rate, distinct, mean, min, max, string_length) —
:mod:`~faucet_core.drift.noise`, :mod:`~faucet_core.drift.band`,
:mod:`~faucet_core.drift.limits`, :mod:`~faucet_core.drift.series`,
:mod:`~faucet_core.drift.volume`, :mod:`~faucet_core.drift.tail`:

* The sensitivity is read as a tail probability (3.0 -> 0.27 %, Tukey 1.5 -> 0.70 %)
  and that probability is the *run's* false-alarm budget, shared among all its tests
  (series and value tests, Bonferroni).
* A statistic with a sampling law (null rate: binomial on the arcsine scale; mean:
  s² / n; mean length) is judged against its own run's sampling error plus the
  baseline's between-run variation beyond sampling at its 95 % upper confidence bound,
  at the normal quantile of its share of the budget: a short baseline widens only what
  it estimates, a constant baseline has the band of its sampling error.
* The others keep a prediction interval from the baseline's spread: Student t with
  n - 1 degrees of freedom times sqrt(1 + 1/n); for iqr, the IQR's own Monte-Carlo
  calibrated degrees of freedom (and zscore below 6 runs, below 10 for a statistic with
  a sampling model).
* Every series limit is widened by the table's own tail (:mod:`~faucet_core.drift.tail`):
  when the baseline's runs, each predicted from the others, miss the model's 1 % or
  0.1 % limit clearly more often than that, by the factor that brings the miss share
  back; never narrowed.
* One past incident kept under ``on_drift: warn`` (a holiday, a storm) does not widen
  the band: the one baseline run that this same test flags against the others is left
  out.
* With the runs' recorded times, a series that follows the week (F test on the weekday,
  p < 0.001) is also judged against its own weekday, which can clear a finding, never
  add one (:mod:`~faucet_core.drift.weekly`); the row count is judged against its
  weekday outright.
* Extremes (min, max, len_max) are judged at the Gumbel quantile of the same
  probability, max and len_max as ratios; an extreme that moves by less than a tenth of
  the column's standard deviation, or stays within the range the baseline's runs
  spanned, is never reported, nor a min that rose but stays below the column's median,
  nor a numeric max that fell but stays above the column's p95 (a thinner tail); an
  extreme (a longest text too) is also read as the
  extreme of the run's own n draws from the baseline's pooled values
  (:mod:`~faucet_core.drift.draws`): a max that fell (a min that rose) as far as n
  draws stay with a chance above the test's share of the budget, and one past a
  baseline that always held the same extreme, by at most the column's spread, when a
  run of n among N baseline records holds the newest extreme with chance n / (N + n),
  are not findings.
* distinct counts are judged against the run's volume (distinct / n ** b, b learned
  from the baseline or from how often values repeat); counts spread by at least half a
  value, and near the most values a run has shown, by at least the root of the values
  absent. A drop in the count of fractional readings that their smaller spread accounts
  for (a calm day's temperatures) is not reported.

A rescale — :mod:`~faucet_core.drift.rescale`, :mod:`~faucet_core.drift.spread`: a
column whose numbers changed type, or whose spread fell ten times or more beyond chance
(an F ratio against the baseline's narrowest run), with no finding on its level, gets its
extreme as the finding when that moved ten times from the baseline's median.

First nulls — :mod:`~faucet_core.drift.newnulls`: a column with no null in any run on
record (the window and the memory) that now holds nulls at the floor is a null_rate
finding, unless the table's own runs show its columns gaining first nulls (its rate,
shrunk toward the corpus's 5.5 in 10,000 runs, judged with a quarter of the budget).

Run labels — :mod:`~faucet_core.drift.labels`: a column with one value per run (its
date, month, season) is judged by its step, not its level: a new value is a new
period; a label that moved every run and now stops, jumps or goes back is reported.

Value metrics — :mod:`~faucet_core.drift.values`, :mod:`~faucet_core.drift.typemix`,
:mod:`~faucet_core.drift.psi`, :mod:`~faucet_core.drift.valuelist`:

* type_mix: a non-null JSON type at >= new_value_min_share that every baseline run held
  below that share and below half the current share.
* new_value / vanished_value keep a margin from a full top-k list's edge (twice its
  cut-off share), must beat the share's sampling error and the column's own share
  volatility at the test's share of the budget (a small value bursting into the list
  on a light day of a volatile category is no new value), and skip columns that are
  not stable categories: values that are dates or timestamps, or frequent values that
  turn over (a new one in at least a fifth of the baseline runs, twice or more).
* On small runs, vanished_value and psi must also beat chance for the run's record
  count; numbers that are readings (fractional, or listed values that turn over) are
  not categories.
* psi: over the values listed in the run and in every baseline run plus "other" (which
  counts as at least new_value_min_share on both sides), on non-null shares, computed
  only when those values cover at least 80 % of the non-null records of the run and of
  the baseline; dropped when a new_value or vanished_value finding already explains it.
* High-cardinality and classified columns list no values, so they have no value
  metrics; a classified column's values never appear in a finding.

Columns new this run (in fewer than ``min_history`` baseline runs) are learned, not
flagged; an empty run is a volume finding only, and never used as baseline.
"""

from faucet_core.drift.detector import detect_drift
from faucet_core.drift.model import (
    DriftFinding,
    DriftFindingError,
    DriftMetric,
    DriftScale,
    DriftTest,
)

__all__ = [
    "DriftFinding",
    "DriftFindingError",
    "DriftMetric",
    "DriftScale",
    "DriftTest",
    "detect_drift",
]
