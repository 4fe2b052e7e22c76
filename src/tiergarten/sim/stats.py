"""Interval arithmetic for simulation reports: win rates and means with 95% intervals.

>>> low, high = wilson(5, 10)
>>> round(low, 4), round(high, 4)
(0.2366, 0.7634)
>>> Summary.of([2, 4, 6]).mean
4.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

Z95 = 1.959963984540054  # two-sided 95% quantile of the standard normal distribution


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion; `successes` may be fractional (shared wins).

    It stays inside [0, 1] and behaves at 0 and at `trials` successes, where the plain normal
    interval collapses. With no trials at all it says nothing: (0, 1).

    >>> [round(x, 4) for x in wilson(0, 10)]
    [0.0, 0.2775]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must lie in 0..{trials}, not {successes!r}")
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends, free of rounding
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


@dataclass(frozen=True)
class Summary:
    """Mean of a sample with its standard deviation, a normal 95% interval of the mean, and range.

    >>> s = Summary.of([1, 2, 3, 4])
    >>> s.mean, s.minimum, s.maximum, round(s.sd, 3)
    (2.5, 1, 4, 1.291)
    >>> [round(x, 3) for x in (s.low, s.high)]
    [1.235, 3.765]
    """

    count: int
    mean: float
    sd: float
    low: float
    high: float
    minimum: float
    maximum: float

    @classmethod
    def of(cls, values: Sequence[float], z: float = Z95) -> Summary:
        """Summarise `values` (at least one)."""
        count = len(values)
        if count == 0:
            raise ValueError("cannot summarise an empty sample")
        mean = math.fsum(values) / count
        var = math.fsum((v - mean) ** 2 for v in values) / (count - 1) if count > 1 else 0.0
        sd = math.sqrt(var)
        half = z * sd / math.sqrt(count)
        return cls(count, mean, sd, mean - half, mean + half, min(values), max(values))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
