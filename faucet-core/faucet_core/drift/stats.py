"""The few statistics the detector needs, in pure Python (no SciPy).

* :func:`normal_tail` — two-sided tail probability of a standard normal deviate.
* :func:`student_t_quantile` — the quantile of Student's t, by bisection on its CDF
  (the regularized incomplete beta function, evaluated by a continued fraction).
* :func:`chi2_lower_quantile` — a lower quantile of the chi-square law (the
  regularized lower incomplete gamma function, by series or continued fraction).
* :func:`quantile` — the linear-interpolation sample quantile (NumPy's default).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

__all__ = [
    "EULER_GAMMA",
    "binomial_sf",
    "chi2_lower_quantile",
    "f_sf",
    "gumbel_upper_quantile",
    "normal_quantile",
    "normal_tail",
    "quantile",
    "student_t_quantile",
    "student_t_sf",
]

EULER_GAMMA = 0.5772156649015329

_EPS = 3e-16
_TINY = 1e-300


def normal_tail(z: float) -> float:
    """P(|Z| > z) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2.0))


@lru_cache(maxsize=1024)
def normal_quantile(upper_tail: float) -> float:
    """The z with P(Z > z) == ``upper_tail`` (0 < upper_tail <= 0.5), by bisection."""
    if not 0.0 < upper_tail <= 0.5:
        raise ValueError(f"upper_tail must be in (0, 0.5], got {upper_tail}")
    lo, hi = 0.0, 40.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if 0.5 * math.erfc(mid / math.sqrt(2.0)) > upper_tail:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12:
            break
    return 0.5 * (lo + hi)


def gumbel_upper_quantile(upper_tail: float) -> float:
    """The upper ``upper_tail`` quantile of a Gumbel distribution standardized to mean 0
    and standard deviation 1: the law of the largest (or smallest) of many values."""
    if not 0.0 < upper_tail < 1.0:
        raise ValueError(f"upper_tail must be in (0, 1), got {upper_tail}")
    return (-math.log(-math.log1p(-upper_tail)) - EULER_GAMMA) * math.sqrt(6.0) / math.pi


def _betacf(a: float, b: float, x: float) -> float:
    # Continued fraction of the incomplete beta function (modified Lentz).
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def student_t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom, ``t >= 0``."""
    return 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))


def binomial_sf(k: float, n: float, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p), continued to real k and n through the incomplete
    beta function (I_p(k, n - k + 1)); 1 for k <= 0, 0 for k > n."""
    if k <= 0.0:
        return 1.0
    if k > n:
        return 0.0
    return _betainc(k, n - k + 1.0, min(max(p, 0.0), 1.0))


def f_sf(f: float, df1: float, df2: float) -> float:
    """P(F > f) for Fisher's F with (``df1``, ``df2``) degrees of freedom, ``f >= 0``."""
    if f <= 0.0:
        return 1.0
    return _betainc(df2 / 2.0, df1 / 2.0, df2 / (df2 + df1 * f))


@lru_cache(maxsize=4096)
def student_t_quantile(upper_tail: float, df: float) -> float:
    """The t with P(T > t) == ``upper_tail`` (0 < upper_tail <= 0.5)."""
    if not 0.0 < upper_tail <= 0.5:
        raise ValueError(f"upper_tail must be in (0, 0.5], got {upper_tail}")
    lo, hi = 0.0, 1.0
    while student_t_sf(hi, df) > upper_tail:
        lo, hi = hi, hi * 2.0
        if hi > 1e12:
            return hi
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if student_t_sf(mid, df) > upper_tail:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-10 * hi:
            break
    return 0.5 * (lo + hi)


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of already sorted values, interpolated linearly."""
    n = len(sorted_values)
    if n == 0:
        raise ValueError("quantile of no values")
    pos = q * (n - 1)
    low = math.floor(pos)
    high = min(low + 1, n - 1)
    frac = pos - low
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * frac


def _gamma_p(a: float, x: float) -> float:
    """The regularized lower incomplete gamma function P(a, x)."""
    if x <= 0.0:
        return 0.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1.0:  # series
        term = total = 1.0 / a
        ap = a
        for _ in range(1000):
            ap += 1.0
            term *= x / ap
            total += term
            if abs(term) < abs(total) * _EPS:
                break
        return min(1.0, total * math.exp(log_front))
    # continued fraction for Q(a, x) (modified Lentz)
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = b + an / c
        c = c if abs(c) > _TINY else _TINY
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return max(0.0, 1.0 - math.exp(log_front) * h)


@lru_cache(maxsize=1024)
def chi2_lower_quantile(lower_tail: float, df: float) -> float:
    """The x with P(X < x) == ``lower_tail`` for a chi-square X with ``df`` degrees of
    freedom (0 < lower_tail < 1), by bisection on its CDF."""
    if not 0.0 < lower_tail < 1.0:
        raise ValueError(f"lower_tail must be in (0, 1), got {lower_tail}")
    if df <= 0.0:
        raise ValueError(f"df must be positive, got {df}")
    lo, hi = 0.0, max(1.0, 2.0 * df)
    while _gamma_p(df / 2.0, hi / 2.0) < lower_tail:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if _gamma_p(df / 2.0, mid / 2.0) < lower_tail:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * max(hi, 1e-300):
            break
    return 0.5 * (lo + hi)
