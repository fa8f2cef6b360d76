"""MUC, B³, CEAF-e and CoNLL F1 against values computed by hand."""

import itertools

import numpy as np
import pytest

from lowdim.evaluate.coref import conll_f1, coreference_scores


def _metric(name):
    """``(precision, recall, f1)`` of one metric, as coreference_scores gives it."""
    def scores(key, response):
        s = coreference_scores(key, response)
        return s[f"{name}_p"], s[f"{name}_r"], s[f"{name}_f1"]
    return scores


muc, b_cubed, ceaf_e = _metric("muc"), _metric("b3"), _metric("ceafe")

# Key {a,b,c} {d,e}; response {a,b} {c,d,e} (items a..e in order).
KEY_1 = ["k1", "k1", "k1", "k2", "k2"]
RESPONSE_1 = [7, 7, 3, 3, 3]
# Key {a,b,c,d}; response {a,b} {c} {d}.
KEY_2 = [0, 0, 0, 0]
RESPONSE_2 = [5, 5, 6, 8]


def test_muc_by_hand():
    # Example 1: recall ((3 - 2) + (2 - 1)) / ((3 - 1) + (2 - 1)) = 2/3; precision
    # ((2 - 1) + (3 - 2)) / ((2 - 1) + (3 - 1)) = 2/3.
    np.testing.assert_allclose(muc(KEY_1, RESPONSE_1), [2 / 3, 2 / 3, 2 / 3])
    # Example 2: recall (4 - 3) / 3 = 1/3; precision (2 - 1) / (1 + 0 + 0) = 1; F1 = 1/2.
    np.testing.assert_allclose(muc(KEY_2, RESPONSE_2), [1.0, 1 / 3, 0.5])


def test_b_cubed_by_hand():
    # Example 1: per item precision 1, 1, 1/3, 2/3, 2/3 and recall 2/3, 2/3, 1/3, 1, 1.
    np.testing.assert_allclose(b_cubed(KEY_1, RESPONSE_1), [11 / 15, 11 / 15, 11 / 15])
    # Example 2: precision 1; recall (1/2 + 1/2 + 1/4 + 1/4) / 4 = 3/8; F1 = 6/11.
    np.testing.assert_allclose(b_cubed(KEY_2, RESPONSE_2), [1.0, 3 / 8, 6 / 11])


def test_ceaf_e_by_hand():
    # Example 1: phi4 = 4/5 for ({a,b,c}, {a,b}) and for ({d,e}, {c,d,e}); total 8/5 over
    # 2 key and 2 response entities.
    np.testing.assert_allclose(ceaf_e(KEY_1, RESPONSE_1), [4 / 5, 4 / 5, 4 / 5])
    # Example 2: the best alignment is {a,b,c,d} with {a,b}: phi4 = 4/6 = 2/3; recall 2/3
    # (one key entity), precision 2/9 (three response entities), F1 = 1/3.
    np.testing.assert_allclose(ceaf_e(KEY_2, RESPONSE_2), [2 / 9, 2 / 3, 1 / 3])


@pytest.mark.parametrize("seed", range(5))
def test_ceaf_e_alignment_is_the_best_one_to_one_pairing(seed):
    # Brute force over every one-to-one pairing of key and response entities.
    rng = np.random.default_rng(seed)
    key, response = rng.integers(0, 4, size=12), rng.integers(0, 4, size=12)
    K = [set(np.flatnonzero(key == k)) for k in np.unique(key)]
    R = [set(np.flatnonzero(response == r)) for r in np.unique(response)]
    phi = [[2 * len(a & b) / (len(a) + len(b)) for b in R] for a in K]
    small, large = (K, R) if len(K) <= len(R) else (R, K)
    table = phi if len(K) <= len(R) else [list(col) for col in zip(*phi)]
    best = max(sum(table[i][j] for i, j in enumerate(perm))
               for perm in itertools.permutations(range(len(large)), len(small)))
    np.testing.assert_allclose(ceaf_e(key, response)[:2], [best / len(R), best / len(K)])


def test_conll_f1_is_the_mean_of_the_three_f1s():
    assert conll_f1(KEY_1, RESPONSE_1) == pytest.approx((2 / 3 + 11 / 15 + 4 / 5) / 3)
    assert conll_f1(KEY_2, RESPONSE_2) == pytest.approx((1 / 2 + 6 / 11 + 1 / 3) / 3)
    scores = coreference_scores(KEY_2, RESPONSE_2)
    assert scores["conll_f1"] == pytest.approx(conll_f1(KEY_2, RESPONSE_2))
    assert scores["muc_p"] == 1.0 and scores["ceafe_r"] == pytest.approx(2 / 3)


def test_perfect_clustering_scores_one_and_labels_are_arbitrary():
    rng = np.random.default_rng(0)
    key = rng.integers(0, 6, size=40)
    relabelled = np.array([f"c{(7 * k) % 13}" for k in key])
    for metric in (muc, b_cubed, ceaf_e):
        np.testing.assert_allclose(metric(key, relabelled), [1.0, 1.0, 1.0])


def test_swapping_key_and_response_swaps_precision_and_recall():
    for metric in (muc, b_cubed, ceaf_e):
        p, r, f = metric(KEY_2, RESPONSE_2)
        np.testing.assert_allclose(metric(RESPONSE_2, KEY_2), [r, p, f])


def test_all_singletons_give_zero_muc_and_full_b_cubed():
    singletons = np.arange(5)
    assert muc(singletons, singletons) == (0.0, 0.0, 0.0)
    np.testing.assert_allclose(b_cubed(singletons, singletons), [1.0, 1.0, 1.0])


def test_mismatched_or_empty_inputs_are_rejected():
    with pytest.raises(ValueError, match="same items, got 3 and 2"):
        muc([0, 0, 1], [0, 1])
    with pytest.raises(ValueError, match="`key` is empty"):
        b_cubed([], [])
