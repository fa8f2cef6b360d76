"""Low-rank approximation of (indefinite) similarity matrices from few evaluations.

Every method takes a similarity oracle (see :mod:`lowdim.similarity`), a
sample size ``s`` and a ``random_state``, and returns a factored
:class:`LowRankApprox` ``K~ = left @ core @ right``:

- :func:`nystrom`: classic Nyström.
- :func:`sms_nystrom`: submatrix-shifted Nyström (the SMS-Nyström paper); ``rescale=True``
  is the authors' coreference variant.
- :func:`shifted_nystrom_exact`: Nyström shifted by ``lambda_min`` of the full matrix.
- :func:`sicur`, :func:`stacur`: simple CUR and linear-time CUR (rows ``I = J`` by
  default; ``rows="independent"`` for an independent row sample).
- :func:`optimal`: truncated eigendecomposition of the full matrix.

:data:`METHODS` names every method for the workflow, with two variants of the
authors' code: ``sms_nystrom_rescale`` and ``stacur_independent``. Only
:func:`shifted_nystrom_exact` and :func:`optimal` read all of ``K``.
:func:`relative_frobenius_error` measures ``||K - K~||_F / ||K||_F`` in row blocks.
"""

from ._linalg import lambda_min, pinv, pinv_symmetric
from ._lowrank import LowRankApprox
from .cur import sicur, stacur
from .diagnostics import spectrum_summary, spectrum_tables, submatrix_eigenvalues
from .error import relative_frobenius_error
from .experiment import METHODS, error_curve, error_curves, sample_size
from .methods import FULL_MATRIX_METHODS, SAMPLING_METHODS, SMS_METHODS
from .nystrom import nystrom, shifted_nystrom_exact, sms_nystrom
from .optimal import optimal

__all__ = ["FULL_MATRIX_METHODS", "LowRankApprox", "METHODS", "SAMPLING_METHODS", "SMS_METHODS",
           "error_curve", "error_curves", "lambda_min", "nystrom", "optimal", "pinv",
           "pinv_symmetric", "relative_frobenius_error", "sample_size", "shifted_nystrom_exact",
           "sicur", "sms_nystrom", "spectrum_summary", "spectrum_tables", "stacur",
           "submatrix_eigenvalues"]
