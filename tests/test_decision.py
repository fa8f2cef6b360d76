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
