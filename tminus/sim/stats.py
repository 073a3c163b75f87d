"""Small statistics for simulation reports."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z_95 = 1.959963984540054  # the normal distribution's 97.5th percentile


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (good near 0 and 1, unlike the normal one)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or all successes the bound is exactly 0 or 1 (the formula can miss by a rounding).
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) of sorted values, by linear interpolation."""
    if not sorted_values:
        return float("nan")
    position = q * (len(sorted_values) - 1)
    low = math.floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    fraction = position - low
    return sorted_values[low] * (1 - fraction) + sorted_values[high] * fraction


# Student's t at 97.5% for 1..30 degrees of freedom; past 30 the normal 1.96 is near enough.
T_975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean of independent values with its 95% t interval (mean ±
    t standard errors, t for n - 1 degrees of freedom); unbounded with fewer than two."""
    n = len(values)
    if n == 0:
        return (float("nan"), -math.inf, math.inf)
    mean = sum(values) / n
    if n < 2:
        return (mean, -math.inf, math.inf)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    t = T_975[n - 2] if n - 1 <= len(T_975) else Z_95
    half = t * math.sqrt(variance / n)
    return (mean, mean - half, mean + half)
