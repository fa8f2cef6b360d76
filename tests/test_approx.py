"""Approximation methods: exactness, formulas, evaluation counts, seeds, bad input."""

import numpy as np
import pytest
import scipy.linalg

from lowdim.approx import (METHODS, error_curve, lambda_min, nystrom, optimal,
                           relative_frobenius_error, shifted_nystrom_exact, sicur,
                           sms_nystrom, spectrum_summary, stacur, submatrix_eigenvalues)
from lowdim.similarity import DenseOracle, SimilarityOracle


def low_rank_psd(n, rank, seed):
    B = np.random.default_rng(seed).normal(size=(n, rank))
    return B @ B.T


def random_indefinite(n, seed):
    A = np.random.default_rng(seed).normal(size=(n, n))
    return (A + A.T) / 2


def near_psd(n=300, seed=0):
    """Ten large positive eigenvalues and many small negative ones (like text kernels)."""
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.normal(size=(n, n)))
    w = np.concatenate([np.linspace(50, 5, 10), -np.abs(rng.normal(0.2, 0.05, n - 10))])
    return (Q * w) @ Q.T


def unordered_pairs(rows, cols):
    return {(min(a, b), max(a, b)) for a in rows for b in cols}


# -- exactness on exactly low-rank PSD matrices ----------------------------------------
@pytest.mark.parametrize("method", ["nystrom", "sms_nystrom"])
@pytest.mark.parametrize("n, rank, s", [(60, 3, 3), (80, 5, 12), (120, 10, 30)])
def test_nystrom_recovers_low_rank_psd(method, n, rank, s):
    K = low_rank_psd(n, rank, seed=rank)
    for seed in range(3):
        approx = METHODS[method](DenseOracle(K), s, random_state=seed)
        np.testing.assert_allclose(approx.to_dense(), K, rtol=0, atol=1e-8 * np.abs(K).max())
        assert relative_frobenius_error(approx, K) < 1e-8


def test_sms_nystrom_shift_is_zero_on_psd():
    K = low_rank_psd(80, 5, seed=1)
    approx = sms_nystrom(K, 10, random_state=0)
    # lambda_min of a PSD submatrix is 0 up to rounding: the shift is rounding noise only.
    assert abs(approx.info["shift"]) <= 1e-10 * np.abs(K).max()


def test_sicur_recovers_low_rank():
    K = low_rank_psd(70, 4, seed=2)
    approx = sicur(K, 10, random_state=3)  # s // 2 = 5 columns >= rank
    np.testing.assert_allclose(approx.to_dense(), K, rtol=0, atol=1e-8 * np.abs(K).max())


def test_optimal_is_truncated_eigendecomposition():
    K = random_indefinite(40, seed=4)
    w = scipy.linalg.eigvalsh(K)
    approx = optimal(K, 7)
    rest = np.sort(np.abs(w))[:-7]
    expected = np.sqrt(np.sum(rest ** 2)) / np.linalg.norm(K)
    np.testing.assert_allclose(relative_frobenius_error(approx, K), expected, rtol=1e-10)


# -- formulas ----------------------------------------------------------------------------
def test_sms_nystrom_equals_formula():
    K = random_indefinite(30, seed=5)
    approx = sms_nystrom(K, 5, random_state=11, multiplier=2, alpha=1.5)
    S1, S2 = approx.landmarks, approx.info["S2"]
    assert S2.size == 10 and np.array_equal(S2[:5], S1) and np.unique(S2).size == 10
    e = min(0.0, np.linalg.eigvalsh(K[np.ix_(S2, S2)]).min())
    assert e < 0
    expected = K[:, S1] @ np.linalg.pinv(K[np.ix_(S1, S1)] - 1.5 * e * np.eye(5)) @ K[S1, :]
    np.testing.assert_allclose(approx.to_dense(), expected, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(approx.info["shift"], 1.5 * e)
    # the shifted core is PSD: the reason SMS-Nystrom is stable
    assert np.linalg.eigvalsh(np.linalg.pinv(approx.core)).min() >= -1e-10


def test_shifted_nystrom_exact_uses_lambda_min_of_K():
    K = random_indefinite(30, seed=6)
    approx = shifted_nystrom_exact(K, 6, random_state=1)
    lam = np.linalg.eigvalsh(K).min()
    S = approx.landmarks
    expected = K[:, S] @ np.linalg.pinv(K[np.ix_(S, S)] - lam * np.eye(6)) @ K[S, :]
    np.testing.assert_allclose(approx.to_dense(), expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("rows", ["same", "independent"])
def test_stacur_equals_formula(rows):
    K = random_indefinite(40, seed=7)
    n, s = 40, 8
    approx = stacur(K, s, random_state=2, rows=rows)
    J, I = approx.landmarks, approx.info["rows"]
    C = K[:, J]
    expected = (n / s) * C @ np.linalg.pinv(C.T @ C) @ K[np.ix_(I, J)].T @ K[I, :]
    np.testing.assert_allclose(approx.to_dense(), expected, rtol=1e-8, atol=1e-10)


def test_stacur_samples_its_rows_where_its_columns_are_by_default():
    # The authors' Figure 1 and WMD-classification protocol: CUR(..., same=True), I = J.
    K = random_indefinite(50, seed=21)
    n, s = 50, 9
    same = stacur(DenseOracle(K), s, random_state=4)
    assert same.method == "stacur" and same.info["row_protocol"] == "same"
    np.testing.assert_array_equal(same.info["rows"], same.landmarks)
    assert same.evaluations == n * s - s * (s - 1) // 2  # as classic Nystrom: K[J, :] is K[:, J]^T
    J = same.landmarks
    expected = (n / s) * K[:, J] @ np.linalg.pinv(K[:, J].T @ K[:, J]) @ K[np.ix_(J, J)] @ K[J, :]
    np.testing.assert_allclose(same.to_dense(), expected, rtol=1e-8, atol=1e-10)
    # Independent rows (same=False): the same columns, a second uniform sample of rows.
    independent = METHODS["stacur_independent"](DenseOracle(K), s, random_state=4)
    assert independent.method == "stacur_independent"
    np.testing.assert_array_equal(independent.landmarks, J)
    assert not np.array_equal(np.sort(independent.info["rows"]), np.sort(J))
    with pytest.raises(ValueError, match="`rows` must be one of"):
        stacur(K, s, rows="both")


@pytest.mark.parametrize("rows", ["same", "independent"])
def test_stacur_rescaling_makes_a_constant_matrix_exact(rows):
    # With K = c 1 1^T the sampled estimate (n / r) K[I, J]^T K[I, :] of K[:, J]^T K is exact,
    # so K~ = K for any sample: the 1 / sqrt(c p) and 1 / sqrt(r q) rescaling is what does it.
    K = np.full((30, 30), 0.7)
    for seed in range(3):
        approx = stacur(K, 4, random_state=seed, rows=rows)
        np.testing.assert_allclose(approx.to_dense(), K, rtol=1e-10)


def test_stacur_error_falls_with_the_sample_size():
    # An RBF kernel (PSD, slowly decaying spectrum): with I = J the error halves from
    # s/n = 0.05 to 0.4, as the authors' Figure 1 shows for same=True.
    X = np.random.default_rng(22).normal(size=(200, 50))
    K = np.exp(-0.1 * np.linalg.norm(X[:, None] - X[None], axis=-1))

    def median_error(s):
        return np.median([relative_frobenius_error(stacur(K, s, random_state=r), K)
                          for r in range(5)])

    errors = [median_error(s) for s in (10, 40, 80)]
    assert errors[0] > errors[1] > errors[2]
    assert errors[2] < 0.6 * errors[0]


def test_sicur_equals_formula_and_columns_inside_rows():
    K = random_indefinite(40, seed=8)
    approx = sicur(K, 10, random_state=4)
    C, R = approx.landmarks, approx.info["rows"]
    assert C.size == 5 and R.size == 10 and set(C) <= set(R)
    expected = K[:, C] @ np.linalg.pinv(K[np.ix_(R, C)]) @ K[R, :]
    np.testing.assert_allclose(approx.to_dense(), expected, rtol=1e-9, atol=1e-12)


def test_sms_nystrom_warns_when_alpha_loses_the_psd_guarantee():
    K = random_indefinite(30, seed=23)
    with pytest.warns(UserWarning, match=r"`alpha` = 0.5 < 1: the shifted core"):
        sms_nystrom(K, 5, random_state=0, alpha=0.5)
    # alpha = 1: no warning, and the shifted core is PSD (interlacing: lambda_min(K[S1, S1]) >= e)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        approx = sms_nystrom(K, 5, random_state=0, alpha=1.0)
    S1 = approx.landmarks
    shifted = K[np.ix_(S1, S1)] - approx.info["shift"] * np.eye(5)
    assert np.linalg.eigvalsh(shifted).min() >= -1e-10


def test_sms_nystrom_rescale_equals_the_authors_coreference_formula():
    # cross_doc_cor/low_rank.py: A = K[S1, S1] - shift I; K~ = K[:, S1] pinv(A) K[S1, :] / alpha,
    # alpha = ||A||_F / ||A - shift I||_F.
    K = random_indefinite(30, seed=24)
    plain = sms_nystrom(K, 6, random_state=3)
    rescaled = METHODS["sms_nystrom_rescale"](DenseOracle(K), 6, random_state=3)
    assert rescaled.method == "sms_nystrom_rescale"
    S1, shift = rescaled.landmarks, rescaled.info["shift"]
    np.testing.assert_array_equal(S1, plain.landmarks)
    assert shift < 0 and shift == plain.info["shift"]
    A = K[np.ix_(S1, S1)] - shift * np.eye(6)
    alpha = np.linalg.norm(A) / np.linalg.norm(A - shift * np.eye(6))
    assert alpha < 1  # the rescaling enlarges K~, undoing part of the shift's shrinkage
    expected = K[:, S1] @ np.linalg.pinv(A) @ K[S1, :] / alpha
    np.testing.assert_allclose(rescaled.to_dense(), expected, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(rescaled.info["rescale"], 1 / alpha)
    assert rescaled.evaluations == plain.evaluations


def test_sms_beats_nystrom_on_near_psd_matrix():
    K = near_psd()
    s = 20
    nys = [relative_frobenius_error(nystrom(K, s, random_state=r), K) for r in range(7)]
    sms = [relative_frobenius_error(sms_nystrom(K, s, random_state=r), K) for r in range(7)]
    # same landmarks for both (same seeds): the shift alone halves the error
    assert np.median(sms) < 0.5 * np.median(nys)


# -- features ----------------------------------------------------------------------------
def test_features_of_sms_nystrom():
    K = random_indefinite(30, seed=9)
    approx = sms_nystrom(K, 6, random_state=0)
    Z = approx.features()
    np.testing.assert_allclose(Z @ Z.T, approx.to_dense(), rtol=1e-8, atol=1e-10)
    S1 = approx.landmarks
    shifted = K[np.ix_(S1, S1)] - approx.info["shift"] * np.eye(6)
    direct = K[:, S1] @ np.real(scipy.linalg.inv(scipy.linalg.sqrtm(shifted)))
    np.testing.assert_allclose(Z, direct, rtol=1e-6, atol=1e-8)


def test_features_of_cur_factor_psd_part_of_symmetric_part():
    K = random_indefinite(25, seed=10)
    approx = sicur(K, 10, random_state=1)
    dense = approx.to_dense()
    w, V = np.linalg.eigh((dense + dense.T) / 2)
    expected = (V * np.maximum(w, 0)) @ V.T
    Z = approx.features()
    np.testing.assert_allclose(Z @ Z.T, expected, rtol=1e-7, atol=1e-9)


# -- evaluation counts -------------------------------------------------------------------
def test_evaluation_counts_match_sampled_blocks():
    n, s = 50, 6
    K = random_indefinite(n, seed=12)
    everything = np.arange(n)
    checks = {
        "nystrom": lambda a: unordered_pairs(everything, a.landmarks),
        "sms_nystrom": lambda a: unordered_pairs(everything, a.landmarks)
        | unordered_pairs(a.info["S2"], a.info["S2"]),
        "sicur": lambda a: unordered_pairs(everything, a.landmarks)
        | unordered_pairs(a.info["rows"], everything),
        "stacur": lambda a: unordered_pairs(everything, a.landmarks)
        | unordered_pairs(a.info["rows"], everything),
    }
    for method, expected in checks.items():
        oracle = DenseOracle(K)
        approx = METHODS[method](oracle, s, random_state=3)
        assert approx.evaluations == oracle.evaluations == len(expected(approx)), method
    assert nystrom(DenseOracle(K), s, random_state=0).evaluations == n * s - s * (s - 1) // 2
    m = s  # |S2 \ S1| with multiplier 2
    assert (sms_nystrom(DenseOracle(K), s, random_state=0).evaluations
            == n * s - s * (s - 1) // 2 + m * (m + 1) // 2)
    for method in ("optimal", "shifted_nystrom_exact"):
        assert METHODS[method](DenseOracle(K), s, random_state=0).evaluations == n * (n + 1) // 2


# -- seeds -------------------------------------------------------------------------------
@pytest.mark.parametrize("method", sorted(METHODS))
def test_same_seed_same_result(method):
    K = random_indefinite(40, seed=13)
    a = METHODS[method](DenseOracle(K), 8, random_state=5)
    b = METHODS[method](DenseOracle(K), 8, random_state=5)
    np.testing.assert_array_equal(a.to_dense(), b.to_dense())
    np.testing.assert_array_equal(a.landmarks, b.landmarks)
    if method != "optimal":
        c = METHODS[method](DenseOracle(K), 8, random_state=6)
        assert not np.array_equal(a.landmarks, c.landmarks)


def test_methods_with_same_seed_share_landmarks():
    K = random_indefinite(40, seed=14)
    nys = nystrom(K, 8, random_state=1)
    sms = sms_nystrom(K, 8, random_state=1)
    np.testing.assert_array_equal(nys.landmarks, sms.landmarks)


# -- bad input ---------------------------------------------------------------------------
#: The Nyström family: s >= n makes every item a landmark (KernelCCA's n_landmarks alike).
NYSTROM_FAMILY = ("nystrom", "sms_nystrom", "sms_nystrom_rescale", "shifted_nystrom_exact")


@pytest.mark.parametrize("method", sorted(set(METHODS) - set(NYSTROM_FAMILY)))
def test_sample_size_must_be_below_n(method):
    K = random_indefinite(20, seed=15)
    with pytest.raises(ValueError, match=r"`s` must be < n = 20, got 20"):
        METHODS[method](K, 20, random_state=0)


@pytest.mark.parametrize("method", NYSTROM_FAMILY)
@pytest.mark.parametrize("s", [20, 35])
def test_nystrom_with_s_at_least_n_uses_every_item_and_warns(method, s):
    X = np.random.default_rng(15).standard_normal((20, 6))
    K = X @ X.T  # PSD: with every item a landmark, classic Nyström is K itself
    with pytest.warns(UserWarning, match=rf"`s` = {s} >= n = 20: every item is a landmark"):
        approx = METHODS[method](K, s, random_state=0)
    assert sorted(approx.landmarks) == list(range(20))
    assert approx.evaluations == 20 * 21 // 2
    shift = approx.info["shift"]
    factor = approx.info.get("rescale", 1.0)
    # K (K - shift I)^+ K, the whole matrix with the method's shift of the whole core
    expected = factor * K @ np.linalg.pinv(K - shift * np.eye(20)) @ K
    np.testing.assert_allclose(approx.to_dense(), expected, atol=1e-8 * np.abs(K).max())
    if method == "nystrom":
        np.testing.assert_allclose(approx.to_dense(), K, atol=1e-8 * np.abs(K).max())


def test_sms_second_sample_is_capped_at_n():
    K = random_indefinite(20, seed=16)
    approx = sms_nystrom(K, 12, random_state=0)  # multiplier 2: |S2| = min(24, 20)
    assert sorted(approx.info["S2"]) == list(range(20))
    np.testing.assert_allclose(approx.info["lambda_min_S2"], np.linalg.eigvalsh(K)[0], rtol=1e-8)
    with pytest.raises(ValueError, match="`multiplier` must be a number >= 1"):
        sms_nystrom(random_indefinite(20, seed=16), 5, multiplier=0.5)


@pytest.mark.parametrize("multiplier, s, size", [(1.5, 3, 4), (1.5, 7, 10), (1.1, 4, 4),
                                                  (1.2, 2, 2), (2, 5, 10)],
                         ids=["4.5_to_4", "10.5_to_10", "4.4_to_4", "2.4_to_2", "default_2"])
def test_sms_second_sample_size_is_multiplier_times_s_rounded(multiplier, s, size):
    # |S2| = round(multiplier * s), Python's round (half to even), as the docstring says.
    approx = sms_nystrom(np.eye(50) + 0.1, s, random_state=0, multiplier=multiplier)
    assert approx.info["S2"].size == size


def test_non_square_matrix_is_refused():
    with pytest.raises(ValueError, match=r"`K` must be a square matrix, got shape \(4, 5\)"):
        nystrom(np.ones((4, 5)), 2)


class _BrokenOracle(SimilarityOracle):
    def __init__(self, n):
        super().__init__()
        self._n = n

    def _pair_task(self):
        return _nan_on_diagonal, ()


def _nan_on_diagonal(i, j):
    return np.where(i == j, np.nan, 1.0 / (1.0 + np.abs(i - j)))


def test_non_finite_oracle_values_are_refused():
    with pytest.raises(ValueError, match=r"non-finite similarities, first K\[\d+, \d+\] = nan"):
        sms_nystrom(_BrokenOracle(20), 4, random_state=0)


def test_nystrom_refuses_non_symmetric_oracle():
    K = np.random.default_rng(0).normal(size=(10, 10))
    with pytest.raises(ValueError, match="`oracle` must be symmetric for nystrom"):
        nystrom(DenseOracle(K), 3)
    assert sicur(DenseOracle(K), 4, random_state=0).to_dense().shape == (10, 10)


def test_rank_deficient_core_uses_pseudo_inverse():
    K = low_rank_psd(40, 3, seed=17)
    approx = nystrom(K, 10, random_state=0)
    assert approx.info["core_rank"] == 3
    assert np.all(np.isfinite(approx.to_dense()))
    assert relative_frobenius_error(approx, K) < 1e-8
    # Duplicated items (rows 2k and 2k + 1 are item k) make K[S, S] exactly singular: the core
    # is the Moore-Penrose inverse on its range, of rank = distinct items sampled, and K~ is
    # exact once every item is sampled.
    dup = np.repeat(np.repeat(low_rank_psd(10, 10, seed=18), 2, axis=0), 2, axis=1)
    covered = 0
    for seed in range(6):
        approx = nystrom(dup, 12, random_state=seed)
        S = approx.landmarks
        distinct = np.unique(S // 2).size
        assert distinct < 12 and approx.info["core_rank"] == distinct
        expected = dup[:, S] @ np.linalg.pinv(dup[np.ix_(S, S)]) @ dup[S, :]
        np.testing.assert_allclose(approx.to_dense(), expected, rtol=1e-7,
                                   atol=1e-9 * np.abs(dup).max())
        if distinct == 10:
            covered += 1
            assert relative_frobenius_error(approx, dup) < 1e-8
    assert covered >= 1


# -- error and diagnostics ---------------------------------------------------------------
@pytest.mark.parametrize("block_rows", [1, 7, 1000])
def test_relative_error_in_blocks_equals_dense(block_rows):
    K = random_indefinite(33, seed=19)
    approx = sms_nystrom(K, 5, random_state=0)
    expected = np.linalg.norm(K - approx.to_dense()) / np.linalg.norm(K)
    oracle = DenseOracle(K)
    np.testing.assert_allclose(relative_frobenius_error(approx, K, block_rows), expected)
    np.testing.assert_allclose(relative_frobenius_error(approx, oracle, block_rows), expected)
    assert oracle.evaluations == 0  # measuring the error is not charged


def test_lambda_min_lanczos_agrees_with_dense():
    K = near_psd(200, seed=3)
    np.testing.assert_allclose(lambda_min(K, "lanczos", random_state=0),
                               lambda_min(K, "dense"), rtol=1e-7)


def test_spectrum_summary():
    summary = spectrum_summary([-2.0, -1.0, 0.0, 3.0, 4.0])
    assert summary["n_negative"] == 2
    np.testing.assert_allclose(summary["negative_mass"], 3.0 / 10.0)
    assert summary["lambda_min"] == -2.0


def test_submatrix_lambda_min_interlaces():
    K = near_psd(120, seed=5)
    table = submatrix_eigenvalues(K, [5, 20, 60], n_draws=4, random_state=0)
    assert len(table) == 12
    assert (table["lambda_min"] >= np.linalg.eigvalsh(K).min() - 1e-10).all()
    medians = table.groupby("size")["lambda_min"].median()
    assert medians[5] > medians[60]  # larger submatrices reach further into the negative part


def test_error_curve_rows():
    K = near_psd(80, seed=6)
    table = error_curve(K, "sms_nystrom", [0.1, 0.2], n_seeds=3, base_seed=1, matrix="toy")
    assert list(table.columns[:8]) == ["matrix", "method", "s", "s/n", "repetition", "seed",
                                       "error", "evaluations"]
    assert len(table) == 6 and set(table["s"]) == {8, 16}
    again = error_curve(K, "sms_nystrom", [0.1, 0.2], n_seeds=3, base_seed=1, matrix="toy")
    np.testing.assert_array_equal(table["error"], again["error"])
