"""check_matrix: the one boundary where matrices become finite float64 ndarrays or CSR."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from lowdim._validation import arguments_of, check_matrix

HERMITIAN = np.array([[1.0, 2.0 + 1.0j], [2.0 - 1.0j, 3.0]])


@pytest.mark.parametrize("data", [HERMITIAN, HERMITIAN.tolist(), sp.csr_matrix(HERMITIAN)],
                         ids=["ndarray", "list", "csr"])
def test_complex_matrix_is_refused_not_cut_to_its_real_part(data):
    # np.asarray(A, dtype=float64) would drop the imaginary part with only a ComplexWarning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(TypeError, match=r"^`K` must hold real numbers, got dtype "
                                            r"complex128$") as caught:
            check_matrix(data, "K")
    assert arguments_of(caught.value) == ("K",)


def test_complex_matrix_is_refused_by_an_approximation():
    from lowdim.approx import sicur

    with pytest.raises(TypeError, match="`K` must hold real numbers, got dtype complex128"):
        sicur(np.kron(np.eye(5), HERMITIAN), 4, random_state=0)


@pytest.mark.parametrize("data", [[[1, 2], [3, 4]], np.array([[True, False]]),
                                  np.ones((2, 2), dtype=np.float32)],
                         ids=["int_list", "bool", "float32"])
def test_real_dense_input_becomes_float64(data):
    A = check_matrix(data, "A")
    assert isinstance(A, np.ndarray) and A.dtype == np.float64
    np.testing.assert_array_equal(A, np.asarray(data, dtype=np.float64))
