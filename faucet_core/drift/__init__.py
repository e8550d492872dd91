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

Series metrics (null_rate, distinct, mean, min, max, string_length) —
:mod:`~faucet_core.drift.band`, :mod:`~faucet_core.drift.limits`,
:mod:`~faucet_core.drift.series`, :mod:`~faucet_core.drift.volume`:

* The sensitivity is read as a tail probability (3.0 -> 0.27 %, Tukey 1.5 -> 0.70 %)
  and that probability is the *table's* false-alarm budget, shared among its series
  tests (Bonferroni): 42 tests of a 10-column table each get 0.27 % / 42.
* The limit is a prediction interval: Student t with n - 1 degrees of freedom times
  sqrt(1 + 1/n) (19 for 5 runs and 42 tests, 5.2 for 20 runs); for iqr, with the IQR's
  own, Monte-Carlo calibrated degrees of freedom (quartiles of 5 runs are so uncertain
  that iqr judges like zscore until the baseline holds 6 runs).
* One past incident kept under ``on_drift: warn`` (a holiday, a storm) does not widen
  the band: the one baseline run that this same test flags against the others is left
  out (only one: more runs far from the rest are the series' own tail, and two runs at
  a new level are a change becoming the norm).
* With the runs' recorded times (the store passes them), a series that follows the
  week (F test on the weekday, p < 0.001) is also judged against its own weekday,
  which can clear a finding, never add one (:mod:`~faucet_core.drift.weekly`).
* Extremes (min, max, len_max) are judged at the Gumbel quantile of the same
  probability (about 1.9 x the normal one), max and len_max as ratios; an extreme
  that moves by less than a tenth of the column's standard deviation, or stays within
  the range the baseline's runs spanned, is never reported, nor a min that rose but
  stays below the column's median (a thinner low tail: a bimodal earliest time), nor a
  numeric max that fell but stays above the column's p95 (a thinner high tail).
* mean and len_mean are also judged without each run's single most extreme record: one
  record is not a distribution change (max or min reports it).
* distinct counts are judged against the run's volume (distinct / n ** b, b learned
  from the baseline or from how often values repeat), so weekends and null spikes do
  not move them; counts spread by at least half a value, and near the most values a
  run has shown, by at least the root of the values absent (rare values come and go).
  A drop in the count of fractional readings that their smaller spread accounts for (a
  calm day's temperatures) is not reported.
* A constant baseline is judged by the floor alone: every change above it is reported.

Run labels — :mod:`~faucet_core.drift.labels`: a column with one value per run (its
date, month, season) is judged by its step, not its level: a new value is a new
period; a label that moved every run and now stops, jumps or goes back is reported.

Value metrics — :mod:`~faucet_core.drift.values`, :mod:`~faucet_core.drift.typemix`,
:mod:`~faucet_core.drift.psi`, :mod:`~faucet_core.drift.valuelist`:

* type_mix: a non-null JSON type at >= new_value_min_share that every baseline run held
  below that share and below half the current share.
* new_value / vanished_value keep a margin from a full top-k list's edge (twice its
  cut-off share), and skip columns that are not stable categories: values that are
  dates or timestamps, or frequent values that turn over (a new one in at least a fifth
  of the baseline runs, twice or more).
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
flagged; empty runs are neither judged nor used as baseline.
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
