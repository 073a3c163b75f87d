"""Small statistics for simulation reports."""

from __future__ import annotations

import math
from collections.abc import Sequence


def wilson_interval(
    successes: int, trials: int, z: float = 1.959963984540054
) -> tuple[float, float]:
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


def mean_interval(
    values: Sequence[float], z: float = 1.959963984540054
) -> tuple[float, float, float]:
    """(mean, low, high): the mean with its 95% normal interval (mean ± z standard errors);
    the interval is unbounded with fewer than two values."""
    n = len(values)
    if n == 0:
        return (float("nan"), -math.inf, math.inf)
    mean = sum(values) / n
    if n < 2:
        return (mean, -math.inf, math.inf)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return (mean, mean - half, mean + half)
