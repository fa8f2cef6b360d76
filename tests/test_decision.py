"""Claims on paired runs: the same difference on every pair has no spread to test, so it is
never decided by its sign (a "p = 0" from the sign alone would read reproduced with 2 pairs,
where neither the t-test nor the signed-rank test can pass at 0.05)."""

import numpy as np
import pytest

from lowdim.report.decision import paired_decision

SAME = {"2 pairs": [0.01, 0.01], "3 pairs": [0.01] * 3, "float noise": [1e-15] * 4,
        "5 pairs against": [-0.2] * 5}


@pytest.mark.parametrize("median", [False, True], ids=["t-test", "signed-rank"])
@pytest.mark.parametrize("differences", SAME.values(), ids=SAME.keys())
def test_the_same_difference_on_every_pair_is_not_computed(differences, median):
    decision = paired_decision(differences, "greater", median=median, unit="seed")
    assert decision.verdict == "not computed"
    assert decision.difference == differences[0]
    assert f"the same difference, {differences[0]:.4g}, on each of the {len(differences)} " \
           f"seeds" in decision.reason
    assert "no spread to test" in decision.reason and "p = " not in decision.reason


def test_differences_equal_but_for_rounding_are_the_same_difference():
    ours, reference = np.array([0.3, 0.7, 1.1]), np.array([0.2, 0.6, 1.0])
    assert np.ptp(ours - reference) > 0  # 0.1 three ways, in float
    assert paired_decision(ours - reference, "greater").verdict == "not computed"


def test_no_difference_on_any_pair_is_within_noise():
    decision = paired_decision([0.0, 0.0, 0.0], "less", median=True, unit="seed")
    assert decision.verdict == "within noise"
    assert "0 in the paper's direction, 3 tied, 0 against" in decision.reason


def test_differences_with_spread_are_still_tested():
    decision = paired_decision([0.01, 0.02, 0.01, 0.015, 0.01], "greater", median=True)
    assert decision.verdict == "reproduced" and "Wilcoxon signed-rank p = 0.031" in decision.reason


@pytest.mark.parametrize("n_pairs", [2, 3, 4])
def test_wilcoxon_on_fewer_than_five_nonzero_pairs_gives_no_verdict(n_pairs):
    # its smallest one-sided p is 1/2^n: on 4 pairs all up it is 0.0625, so the test could
    # never pass, and "within noise" would pass off a test that cannot decide as a verdict
    up = np.arange(1, n_pairs + 1) / 100
    decision = paired_decision(up, "greater", median=True, unit="seed")
    assert decision.verdict == "not computed"
    assert f"{n_pairs} non-zero difference(s) over {n_pairs} seeds" in decision.reason
    assert "cannot reach p <= 0.05 on fewer than 5" in decision.reason
    # zeros do not count (Wilcoxon drops them); five non-zero ones can decide
    assert paired_decision([*up, 0.0], "greater", median=True).verdict == "not computed"
    assert paired_decision(np.arange(1, 6) / 100, "greater", median=True).verdict == "reproduced"
    # the t-test (entries that read means) can pass on 2 pairs
    assert paired_decision([0.01, 0.011], "greater").verdict != "not computed"
