"""Synthetic datasets with known ground truth.

- ``planted_cca``: dense two-view data whose population canonical correlations
  are planted exactly (AppGrad experiments; PCC against a known truth).
- ``sparse_two_view``: sparse, high-dimensional binary two-view data shaped like
  URL Reputation (many features, tens of non-zeros per row), with a latent
  factor shared by both views and covariance that misleads the cheap CCA
  heuristics.
- ``nonlinear_two_view``: two views of one angle, related only nonlinearly, so
  that linear CCA captures nothing and kernel CCA a lot.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..._validation import ArgumentValueError
from ..prepared import Dataset
from ..registry import DatasetSpec, register

__all__ = ["nonlinear_two_view", "planted_two_view", "sparse_two_view",
           "sparse_two_view_blocks"]


def planted_two_view(n, p1, p2, correlations, condition=100.0, random_state=None):
    """Two Gaussian views whose population canonical correlations are ``correlations``.

    Whitened coordinates ``a ~ N(0, I_p1)`` and ``b ~ N(0, I_p2)`` are drawn with
    ``cov(a_i, b_i) = rho_i`` for ``i < k`` and no other cross-covariance; the
    views are ``X = a M_x^T`` and ``Y = b M_y^T`` with random invertible mixing
    matrices whose covariance has condition number ``condition``. Mixing changes
    neither the canonical correlations nor the canonical subspace's
    correlations, only how hard whitening is.

    Parameters
    ----------
    n, p1, p2 : int
    correlations : array-like of shape (k,)
        Planted correlations in (0, 1), k <= min(p1, p2).
    condition : float, default=100.0
        Condition number of each view's covariance (>= 1).
    random_state : int, RandomState or None

    Returns
    -------
    X : ndarray of shape (n, p1)
    Y : ndarray of shape (n, p2)
    correlations : ndarray of shape (k,)
        Sorted in decreasing order.

    Examples
    --------
    >>> from lowdim.cca import ExactCCA
    >>> from lowdim.data.sources.synthetic import planted_two_view
    >>> X, Y, rho = planted_two_view(20000, 10, 8, [0.9, 0.5], random_state=0)
    >>> ExactCCA(n_components=2, reg=0).fit(X, Y).canonical_correlations_.round(2)
    array([0.9, 0.5])
    """
    rho = np.sort(np.asarray(correlations, dtype=float))[::-1]
    k = rho.size
    if k > min(p1, p2):
        raise ArgumentValueError(f"`correlations` has {k} entries; at most min(p1, p2) = "
                                 f"{min(p1, p2)} can be planted", "correlations")
    if k and (rho.max() >= 1 or rho.min() <= 0):
        raise ArgumentValueError(f"`correlations` must lie in (0, 1), got range [{rho.min()}, "
                                 f"{rho.max()}]", "correlations")
    if condition < 1:
        raise ArgumentValueError(f"`condition` must be >= 1, got {condition}", "condition")
    from sklearn.utils import check_random_state  # lazily: see lowdim.data.text.tokenize

    rng = check_random_state(random_state)
    a = rng.standard_normal((n, p1))
    b = rng.standard_normal((n, p2))
    b[:, :k] = rho * a[:, :k] + np.sqrt(1.0 - rho**2) * b[:, :k]
    X = a @ _mixing(p1, condition, rng).T
    Y = b @ _mixing(p2, condition, rng).T
    return X, Y, rho


def _mixing(p, condition, rng):
    """Random Q diag(s) with s**2 log-spaced over [1/condition, 1]."""
    q, _ = np.linalg.qr(rng.standard_normal((p, p)))
    scales = np.sqrt(np.logspace(0.0, -np.log10(condition), p))
    return q * scales


#: ``sparse_two_view`` draws each block of this many rows from its own seed, so any
#: row range is generated alone, in memory bounded by the block and the output.
CHUNK_ROWS = 65536


def sparse_two_view(n, p1, p2, n_factors=200, max_agreement=0.9, min_agreement=0.2,
                    max_template=8, noise_nnz=10, random_state=None, start=0):
    """Sparse binary two-view data whose covariance and correlation disagree.

    Each row draws a latent factor ``c`` (``y``). Factor ``c`` owns, in each
    view, a *template*: a fixed set of features that always fire together
    (think of a host name and the tokens it implies). In each view
    independently the row fires its own factor's template with probability
    ``q_c`` (the factor's agreement), otherwise the template of a random
    factor; ``noise_nnz`` uniform noise features are added.

    Agreement falls linearly from ``max_agreement`` to ``min_agreement`` while
    template size grows from 1 to ``max_template``: the factors whose features
    carry the most variance are the least correlated across views. Heuristics
    that follow covariance (NW-CCA, and DW-CCA, which only rescales single
    features) therefore favour weakly correlated directions, while exact CCA
    and AppGrad whiten within templates and find the strongly correlated
    ones: the situation of the AppGrad paper's Figure 2.

    The rows are those of :func:`sparse_two_view_blocks`, written straight
    into the output arrays: memory is the output (12 bytes per non-zero) plus
    one block, so the URL Reputation shape (2.4M rows, 3.2M features) takes a
    few GiB; to stay within one block's memory, iterate over
    :func:`sparse_two_view_blocks` instead. ``start`` returns rows
    ``start .. start + n`` of the same stream (held-out rows of the same
    model, say): ``sparse_two_view(a + b, ...)`` is the row-stack of the calls
    with ``n=a`` and with ``n=b, start=a``.

    Returns
    -------
    X : csr_matrix of shape (n, p1), float64 with values in {0, 1}
    Y : csr_matrix of shape (n, p2)
    y : ndarray of shape (n,), int64

    Examples
    --------
    >>> from lowdim.data.sources.synthetic import sparse_two_view
    >>> X, Y, y = sparse_two_view(1000, 500, 400, n_factors=20, random_state=0)
    >>> X.shape, Y.shape, X.format, float(X.max()), len(set(y.tolist()))
    ((1000, 500), (1000, 400), 'csr', 1.0, 20)
    """
    blocks = sparse_two_view_blocks(n, p1, p2, n_factors, max_agreement, min_agreement,
                                    max_template, noise_nnz, random_state, start)
    views = [_empty_view(n, max_template + noise_nnz) for _ in (p1, p2)]
    y = np.empty(n, dtype=np.int64)
    filled = 0
    for X_block, Y_block, y_block in blocks:
        for view, block in zip(views, (X_block, Y_block)):
            _append_rows(view, block)
        y[filled: filled + y_block.size] = y_block
        filled += y_block.size
    return (*(_finish_view(view, p) for view, p in zip(views, (p1, p2))), y)


def sparse_two_view_blocks(n, p1, p2, n_factors=200, max_agreement=0.9, min_agreement=0.2,
                           max_template=8, noise_nnz=10, random_state=None, start=0):
    """Rows ``start`` to ``start + n`` of :func:`sparse_two_view`, one block of rows at a time.

    Blocks follow the generator's seeding blocks of :data:`CHUNK_ROWS` rows
    (the first and last may be shorter), each drawn from its own seed: any
    number of rows is produced in the memory of one block (about
    ``CHUNK_ROWS · (max_template + noise_nnz) · 36`` bytes at most), and the
    row-stack of the blocks is ``sparse_two_view`` with the same arguments.
    Arguments as :func:`sparse_two_view`.

    Yields
    ------
    X_block : csr_matrix of shape (m, p1), binary, sorted indices
    Y_block : csr_matrix of shape (m, p2)
    y_block : ndarray of shape (m,), int64

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from lowdim.data.sources.synthetic import sparse_two_view, sparse_two_view_blocks
    >>> blocks = list(sparse_two_view_blocks(300, 50, 40, n_factors=5, random_state=0))
    >>> X = sp.vstack([b[0] for b in blocks])
    >>> X_whole, _, _ = sparse_two_view(300, 50, 40, n_factors=5, random_state=0)
    >>> (X != X_whole).nnz
    0
    """
    sizes = np.rint(np.linspace(1, max_template, n_factors)).astype(np.int64)
    for name, p in (("p1", p1), ("p2", p2)):
        if sizes.sum() > p:
            raise ArgumentValueError(f"`{name}` = {p} is too small for {n_factors} templates of "
                                     f"up to {max_template} features ({sizes.sum()} features "
                                     "needed)", name)
    if not 0 <= min_agreement <= max_agreement <= 1:
        raise ArgumentValueError(f"need 0 <= min_agreement <= max_agreement <= 1, got "
                                 f"{min_agreement}, {max_agreement}",
                                 ("min_agreement", "max_agreement"))
    if start < 0 or n < 0:
        raise ArgumentValueError(f"`n` and `start` must be >= 0, got {n} and {start}",
                                 ("n", "start"))
    from sklearn.utils import check_random_state  # lazily: see lowdim.data.text.tokenize

    rng = check_random_state(random_state)
    templates = [rng.permutation(p)[: sizes.sum()].astype(np.int32) for p in (p1, p2)]
    root = int(rng.randint(2 ** 31))
    model = (sizes, np.linspace(max_agreement, min_agreement, n_factors), noise_nnz)
    return _blocks(n, start, root, templates, (p1, p2), model)


def _blocks(n, start, root, templates, widths, model):
    """The generator behind :func:`sparse_two_view_blocks` (arguments checked there, eagerly)."""
    n_factors = model[0].size
    for lo in range(start - start % CHUNK_ROWS, start + n, CHUNK_ROWS):
        keep = slice(max(start - lo, 0), min(start + n - lo, CHUNK_ROWS))
        # one stream per block and quantity: the first m rows of a block never depend on m
        streams = [np.random.default_rng([root, lo // CHUNK_ROWS, i]) for i in range(7)]
        y_chunk = streams[0].integers(n_factors, size=keep.stop)
        views = [_chunk_view(y_chunk, flat, p, model, streams[1 + 3 * v: 4 + 3 * v])
                 for v, (flat, p) in enumerate(zip(templates, widths))]
        if keep.start:
            views = [view[keep] for view in views]
        yield (*views, y_chunk[keep])


def _empty_view(n, max_row_nnz):
    """Output arrays for n rows of at most ``max_row_nnz`` non-zeros, and a fill counter."""
    return {"indptr": np.zeros(n + 1, dtype=np.int64),
            "indices": np.empty(n * int(max_row_nnz), dtype=np.int32), "rows": 0}


def _chunk_view(y, flat, p, model, streams):
    """One view of a block: each row fires one factor's template (its own with probability
    ``q``) plus ``noise_nnz`` uniform features; duplicates merged; CSR.

    ``streams``: generators for agreement, the other factor and the noise, in that order.
    """
    sizes, agreement, noise_nnz = model
    m = y.size
    agree = streams[0].random(m) < agreement[y]
    source = np.where(agree, y, streams[1].integers(sizes.size, size=m))
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    count = sizes[source]
    within = np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
    cols = np.concatenate([flat[np.repeat(offsets[source], count) + within],
                           streams[2].integers(p, size=(m, noise_nnz), dtype=np.int32).ravel()])
    rows = np.concatenate([np.repeat(np.arange(m), count), np.repeat(np.arange(m), noise_nnz)])
    view = sp.csr_matrix((np.ones(cols.size), (rows, cols)), shape=(m, p))
    view.sum_duplicates()
    view.data[:] = 1.0  # binary: a noise feature that repeats a template feature is still 1
    return view


def _append_rows(view, block):
    r, nnz = view["rows"], view["indptr"][view["rows"]]
    view["indices"][nnz: nnz + block.nnz] = block.indices
    view["indptr"][r + 1: r + 1 + block.shape[0]] = nnz + block.indptr[1:]
    view["rows"] = r + block.shape[0]


def _finish_view(view, p):
    """CSR from the filled arrays; all values 1 (binary features, as in URL Reputation)."""
    nnz = int(view["indptr"][-1])
    indices = view["indices"]
    indices.resize(nnz, refcheck=False)  # in place: the unused tail of the bound is freed
    indptr = view["indptr"] if nnz >= 2 ** 31 else view["indptr"].astype(np.int32)
    X = sp.csr_matrix((np.ones(nnz), indices, indptr), shape=(indptr.size - 1, p))
    X.has_sorted_indices = True  # sum_duplicates sorted each row
    return X


def nonlinear_two_view(n, frequency=3, noise=0.1, n_nuisance=4, nuisance_scale=0.5,
                       random_state=None):
    """Two views of a uniform angle ``t`` whose only relation is nonlinear.

    ``X = [cos t, sin t, u] + e`` and ``Y = [cos(f t), sin(f t), v] + e'``
    with ``f = frequency``, ``u`` and ``v`` independent Gaussian nuisance
    features (``n_nuisance`` each, standard deviation ``nuisance_scale``)
    and Gaussian noise ``e``, ``e'`` of standard deviation ``noise`` on the
    two signal coordinates. For an integer ``f >= 2`` every cross-covariance
    between the views is zero (``cos t`` and ``cos(f t)`` are orthogonal on
    the circle), so linear CCA has nothing to find in the population, while
    ``cos(f t)`` is a polynomial of degree ``f`` in ``X``'s signal
    coordinates: the functions ``cos(f t)``, ``sin(f t)`` of either view are
    perfectly correlated without noise, and kernel CCA recovers them.

    Parameters
    ----------
    n : int
    frequency : int, default=3
        ``f``, at least 2.
    noise : float, default=0.1
    n_nuisance : int, default=4
    nuisance_scale : float, default=0.5
    random_state : int, RandomState or None

    Returns
    -------
    X : ndarray of shape (n, 2 + n_nuisance)
    Y : ndarray of shape (n, 2 + n_nuisance)
    t : ndarray of shape (n,)
        The latent angle, in radians.

    Examples
    --------
    >>> from lowdim.cca import ExactCCA
    >>> from lowdim.data.sources.synthetic import nonlinear_two_view
    >>> X, Y, t = nonlinear_two_view(2000, frequency=2, random_state=0)
    >>> X.shape, Y.shape
    ((2000, 6), (2000, 6))
    >>> ExactCCA(n_components=2).fit(X, Y).canonical_correlations_.round(1)  # nothing linear
    array([0.1, 0. ])
    """
    if isinstance(frequency, bool) or not isinstance(frequency, (int, np.integer)) \
            or frequency < 2:
        raise ArgumentValueError("`frequency` must be an integer >= 2 (1 is a linear relation), "
                                 f"got {frequency!r}", "frequency")
    for name, value in (("noise", noise), ("nuisance_scale", nuisance_scale)):
        if not (np.isfinite(value) and value >= 0):
            raise ArgumentValueError(f"`{name}` must be a finite number >= 0, got {value!r}", name)
    from sklearn.utils import check_random_state  # lazily: see lowdim.data.text.tokenize

    rng = check_random_state(random_state)
    t = rng.uniform(0.0, 2.0 * np.pi, size=n)
    views = []
    for f in (1, int(frequency)):
        signal = np.c_[np.cos(f * t), np.sin(f * t)] + noise * rng.standard_normal((n, 2))
        views.append(np.hstack([signal, nuisance_scale * rng.standard_normal((n, n_nuisance))]))
    return views[0], views[1], t


def _planted(raw_files, *, n, p1, p2, n_planted, max_correlation, min_correlation,
             condition, seed):
    rho = np.linspace(max_correlation, min_correlation, n_planted)
    X, Y, rho = planted_two_view(n, p1, p2, rho, condition=condition, random_state=seed)
    return Dataset(name="planted_cca", kind="two_view", X=X, Y=Y,
                   extra={"true_correlations": rho},
                   meta={"true_correlations": "extra.true_correlations (population values)"})


def _sparse(raw_files, *, n, p1, p2, n_factors, max_agreement, min_agreement, max_template,
            noise_nnz, seed):
    X, Y, y = sparse_two_view(n, p1, p2, n_factors, max_agreement, min_agreement, max_template,
                              noise_nnz, random_state=seed)
    return Dataset(name="sparse_two_view", kind="two_view", X=X, Y=Y, y=y,
                   meta={"y": "latent factor shared by both views"})


def _nonlinear(raw_files, *, n, frequency, noise, n_nuisance, nuisance_scale, seed):
    X, Y, t = nonlinear_two_view(n, frequency, noise, n_nuisance, nuisance_scale,
                                 random_state=seed)
    return Dataset(name="nonlinear_two_view", kind="two_view", X=X, Y=Y, extra={"t": t},
                   meta={"t": "extra.t: the latent angle (radians) both views are functions of",
                         "relation": f"X ~ (cos t, sin t), Y ~ (cos {frequency}t, "
                                     f"sin {frequency}t): no linear correlation"})


def _int(default, minimum=1, description=""):
    return {"type": "integer", "minimum": minimum, "default": default, "description": description}


def _num(default, minimum=0.0, maximum=None, description=""):
    prop = {"type": "number", "minimum": minimum, "default": default, "description": description}
    if maximum is not None:
        prop["maximum"] = maximum
    return prop


register(DatasetSpec(
    name="planted_cca", kind="two_view", parser=_planted,
    description="Gaussian two-view data with planted canonical correlations",
    source="lowdim synthetic generator planted_two_view", licence="generated (no licence needed)",
    options_schema={
        "n": _int(50000, description="rows"),
        "p1": _int(500, description="features of view X"),
        "p2": _int(500, description="features of view Y"),
        "n_planted": _int(40, minimum=0, description="number of non-zero canonical correlations"),
        "max_correlation": _num(0.95, maximum=0.999, description="largest planted correlation"),
        "min_correlation": _num(0.05, maximum=0.999, description="smallest planted correlation"),
        "condition": _num(100.0, minimum=1.0, description="condition number of each view's "
                                                          "covariance"),
        "seed": _int(0, minimum=0, description="generator seed"),
    },
    labelled=False, sizes=lambda o: {"n": o["n"], "p1": o["p1"], "p2": o["p2"]}))

register(DatasetSpec(
    name="sparse_two_view", kind="two_view", parser=_sparse,
    description="sparse binary two-view data shaped like URL Reputation",
    source="lowdim synthetic generator sparse_two_view", licence="generated (no licence needed)",
    options_schema={
        "n": _int(200000, description="rows"),
        "p1": _int(100000, description="features of view X"),
        "p2": _int(100000, description="features of view Y"),
        "n_factors": _int(200, description="latent factors shared by the views"),
        "max_agreement": _num(0.9, maximum=1.0, description="cross-view agreement of the "
                                                            "smallest template"),
        "min_agreement": _num(0.2, maximum=1.0, description="cross-view agreement of the "
                                                            "largest template"),
        "max_template": _int(8, description="features of the largest template"),
        "noise_nnz": _int(10, minimum=0, description="uniform noise features per row"),
        "seed": _int(0, minimum=0, description="generator seed"),
    },
    sizes=lambda o: {"n": o["n"], "p1": o["p1"], "p2": o["p2"]}))

register(DatasetSpec(
    name="nonlinear_two_view", kind="two_view", parser=_nonlinear,
    description="two views of one angle related only nonlinearly (kernel CCA)",
    source="lowdim synthetic generator nonlinear_two_view",
    licence="generated (no licence needed)",
    options_schema={
        "n": _int(2000, description="rows"),
        "frequency": _int(3, minimum=2, description="Y holds cos and sin of frequency times "
                                                    "the angle"),
        "noise": _num(0.1, description="standard deviation of the noise on the signal "
                                       "coordinates"),
        "n_nuisance": _int(4, minimum=0, description="independent Gaussian nuisance features "
                                                     "per view"),
        "nuisance_scale": _num(0.5, description="standard deviation of the nuisance features"),
        "seed": _int(0, minimum=0, description="generator seed"),
    },
    labelled=False,
    sizes=lambda o: {"n": o["n"], "p1": 2 + o["n_nuisance"], "p2": 2 + o["n_nuisance"]}))
