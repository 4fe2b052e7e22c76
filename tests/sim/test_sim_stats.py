"""Interval maths against published values (Newcombe 1998, Table I, Wilson score method)."""

import math

import pytest

from tiergarten.sim.stats import Summary, wilson


@pytest.mark.parametrize(("successes", "trials", "low", "high"), [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (5, 10, 0.2366, 0.7634),
])
def test_wilson_matches_published_values(successes, trials, low, high):
    got = wilson(successes, trials)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_is_symmetric_and_contains_the_rate():
    for k in range(0, 13):
        low, high = wilson(k, 12)
        mirror_low, mirror_high = wilson(12 - k, 12)
        assert low == pytest.approx(1 - mirror_high)
        assert high == pytest.approx(1 - mirror_low)
        assert 0 <= low <= k / 12 <= high <= 1


def test_wilson_takes_shared_wins_and_narrows_with_more_trials():
    low, high = wilson(2.5, 10)
    assert low < 0.25 < high
    assert wilson(250, 1000)[1] - wilson(250, 1000)[0] < high - low


def test_wilson_refuses_impossible_counts_and_is_silent_without_trials():
    with pytest.raises(ValueError, match="0..10"):
        wilson(11, 10)
    assert wilson(0, 0) == (0.0, 1.0)


def test_summary_of_a_known_sample():
    s = Summary.of([1, 2, 3, 4])
    assert (s.count, s.mean, s.minimum, s.maximum) == (4, 2.5, 1, 4)
    assert s.sd == pytest.approx(math.sqrt(5 / 3))
    half = 1.959963984540054 * math.sqrt(5 / 3) / 2
    assert (s.low, s.high) == pytest.approx((2.5 - half, 2.5 + half))


def test_summary_of_one_value_and_of_none():
    assert Summary.of([7]).sd == 0.0
    with pytest.raises(ValueError):
        Summary.of([])
