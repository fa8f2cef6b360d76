"""Format-exact replicas of every downloaded dataset, and a mirror tree to serve them from.

Each ``write_<dataset>(directory, rng, ...)`` writes, in code (no data blobs),
the files a dataset's :class:`~lowdim.data.RemoteFile` list names, in the exact
real format: same file names, archive layout and member names, MATLAB variable
names, encodings (UTF-8 BOM, latin-1) and compression. It returns ``(files,
truth)``: ``files`` maps each file name to its path and ``truth`` holds what a
correct parser must recover. The tests use them at their small defaults.

:func:`write_mirror` writes the replicas of a list of datasets as a mirror
tree ``<base>/<dataset>/<filename>`` at the sizes of :data:`REHEARSAL_SIZES`,
and returns the *replica manifest*: the SHA-256 and size of every file. The
rehearsal profile (``config/rehearsal.yaml``) lists the tree under
``resources.mirrors`` and names the manifest, so the replicas reach the
workflow through the same verified download as real data. The numbers they
give are not comparable to the papers'.

Examples
--------
A replica goes through its dataset's real parser, which recovers ``truth``:

>>> from lowdim.data import get_spec
>>> from lowdim.data.replicas import WRITERS
>>> files, truth = WRITERS["mnist"](tmp, rng)
>>> data = get_spec("mnist").prepare(files)
>>> data.kind, bool((data.X == truth["X"]).all() and (data.y == truth["y"]).all())
('dense', True)
>>> {name: get_spec(name).prepare(WRITERS[name](tmp / name, rng)[0]).kind
...  for name in ("ptb", "stsb", "ecbplus", "wmd_r8")}
{'ptb': 'two_view', 'stsb': 'pairs', 'ecbplus': 'mentions', 'wmd_r8': 'text'}
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np

from ..._validation import ArgumentValueError
from ...io import read_json, write_json
from ...seeding import derive_seed
from ..download import sha256_file
from ..registry import get_spec
from ..sources.kusner import KUSNER_CORPORA
from ._containers import idx_bytes, tar_gz, zip_bytes
from .cca_data import write_mediamill, write_ptb, write_url_reputation
from .ecbplus import write_ecbplus
from .glue import write_mrpc, write_rte, write_stsb
from .images import write_cifar10, write_coil20, write_mnist, write_svhn
from .kusner import write_kusner_fixed, write_kusner_split
from .text_corpora import write_20news, write_movie_polarity, write_web_snippets
from .word2vec import write_word2vec

__all__ = ["WRITERS", "REHEARSAL_SIZES", "MANIFEST_KIND", "write_mirror", "save_manifest",
           "read_manifest",
           "idx_bytes", "tar_gz", "zip_bytes", "write_mnist", "write_cifar10", "write_svhn",
           "write_coil20", "write_20news", "write_movie_polarity", "write_web_snippets",
           "write_mediamill", "write_ptb", "write_url_reputation", "write_stsb", "write_rte",
           "write_mrpc", "write_kusner_split", "write_kusner_fixed", "write_word2vec",
           "write_ecbplus"]

#: The ``kind`` of a replica manifest file (checked by :func:`read_manifest`).
MANIFEST_KIND = "lowdim replica manifest"


def _kusner_writer(name):
    filename = KUSNER_CORPORA[name][0]
    if "_split" in filename:
        extra = ({"words_variable": "the_words", "shift_words_at": 4}
                 if name == "wmd_recipe" else {})  # recipe2's misaligned word lists
        return partial(write_kusner_split, filename=filename, **extra)
    return partial(write_kusner_fixed, filename=filename, with_words=name != "wmd_20news")


#: Registry name -> writer of its files.
WRITERS = {
    "mnist": write_mnist, "mnist_halves": write_mnist, "cifar10": write_cifar10,
    "svhn": write_svhn, "coil20": write_coil20, "newsgroups_long": write_20news,
    "newsgroups_short": write_20news, "movie_polarity": write_movie_polarity,
    "web_snippets": write_web_snippets, "stsb": write_stsb, "rte": write_rte,
    "mrpc": write_mrpc, "ecbplus": write_ecbplus, "mediamill": write_mediamill,
    "ptb": write_ptb, "url_reputation": write_url_reputation,
    "word2vec_googlenews": write_word2vec,
    **{name: _kusner_writer(name) for name in KUSNER_CORPORA},
}

_KUSNER_SPLIT = {"n_docs": 120, "n_words": 300, "doc_words": (5, 20)}
_KUSNER_FIXED = {"n_train": 80, "n_test": 40, "n_words": 300, "doc_words": (5, 20)}
_GLUE_SENTENCES = 80

#: Writer arguments of the rehearsal's replicas: big enough for every experiment of the
#: paper profile to run (folds, splits, neighbours, k = 20 canonical pairs), small enough
#: for the whole rehearsal to take minutes.
REHEARSAL_SIZES = {
    "mnist": {"n_train": 500, "n_test": 200},
    "mnist_halves": {"n_train": 500, "n_test": 200},
    "cifar10": {"per_batch": 60},
    "svhn": {"n_train": 250, "n_test": 100},
    "coil20": {"n_objects": 20, "n_poses": 8},
    "newsgroups_long": {"n_groups": 8, "per_group": 25, "body_words": 30},
    "newsgroups_short": {"n_groups": 8, "per_group": 25, "body_words": 30},
    "movie_polarity": {"per_class": 100, "review_words": 60},
    "web_snippets": {"n_train": 200, "n_test": 100, "n_labels": 6},
    "stsb": {"n": 60, "n_sentences": _GLUE_SENTENCES},
    "rte": {"n": 60, "n_sentences": _GLUE_SENTENCES},
    "mrpc": {"n_train": 80, "n_test": 40, "n_dev": 30, "n_sentences": _GLUE_SENTENCES},
    "ecbplus": {"topics": [1, 3, 4, 6, 2, 5, 36, 37, 38], "docs_per_topic": 4,
                "sentences_per_doc": 4, "clusters_per_topic": 6},
    "mediamill": {"n_train": 600, "n_test": 200},
    "ptb": {"sentences": (400, 60, 60), "n_words": 300, "sentence_words": (5, 15)},
    "url_reputation": {"n_days": 3, "rows_per_day": 800, "n_features": 3000,
                       "real": tuple(range(1, 41)), "nnz_per_row": 20, "real_per_row": 10},
    "word2vec_googlenews": {"n_words": 50, "dim": 300},
    "wmd_bbcsport": {**_KUSNER_SPLIT, "n_classes": 5},
    "wmd_twitter": {**_KUSNER_SPLIT, "n_classes": 3},
    "wmd_recipe": {**_KUSNER_SPLIT, "n_classes": 6},
    "wmd_classic": {**_KUSNER_SPLIT, "n_classes": 4},
    "wmd_amazon": {**_KUSNER_SPLIT, "n_classes": 4},
    "wmd_ohsumed": {**_KUSNER_FIXED, "n_classes": 5},
    "wmd_r8": {**_KUSNER_FIXED, "n_classes": 4},
    "wmd_20news": {**_KUSNER_FIXED, "n_classes": 5},
}


def write_mirror(base, datasets, seed: int = 0) -> dict:
    """Write the rehearsal replicas of ``datasets`` as ``<base>/<dataset>/<filename>``.

    Parameters
    ----------
    base : str or Path
        Root of the mirror tree.
    datasets : iterable of str
        Registry names; datasets without downloads (embedded, synthetic) are skipped.
    seed : int, default=0
        Each dataset's files are drawn from a generator seeded with
        ``derive_seed(seed, "replica", dataset)``: the same seed writes the same bytes.

    Returns
    -------
    manifest : dict
        ``{"kind": MANIFEST_KIND, "seed": seed, "files": {dataset: {filename:
        {"sha256": ..., "size": ...}}}}``.

    Raises
    ------
    ValueError
        If a dataset has no writer, or its writer did not produce exactly the
        files its registry entry names.

    Examples
    --------
    >>> from lowdim.data.replicas import write_mirror
    >>> manifest = write_mirror(tmp, ["web_snippets", "mnist"])
    >>> sorted(manifest["files"]), sorted(p.name for p in (tmp / "mnist").iterdir())[:2]
    (['mnist', 'web_snippets'], ['t10k-images-idx3-ubyte.gz', 't10k-labels-idx1-ubyte.gz'])
    """
    base = Path(base)
    files = {}
    for name in datasets:
        spec = get_spec(name)
        if spec.offline:
            continue
        if name not in WRITERS:
            raise ArgumentValueError(f"dataset {name!r} has no replica writer; known: "
                                     f"{sorted(WRITERS)}", "datasets")
        directory = base / name
        directory.mkdir(parents=True, exist_ok=True)
        rng = np.random.default_rng(derive_seed(seed, "replica", name))
        written, _ = WRITERS[name](directory, rng, **REHEARSAL_SIZES.get(name, {}))
        expected = {remote.filename for remote in spec.files}
        if set(written) != expected:
            raise ValueError(f"replica writer of {name!r} wrote {sorted(written)}, but the "
                             f"registry names {sorted(expected)}")
        files[name] = {}
        for filename in sorted(expected):
            sha256, size = sha256_file(directory / filename)
            files[name][filename] = {"sha256": sha256, "size": size}
    return {"kind": MANIFEST_KIND, "seed": int(seed), "files": files}


def save_manifest(path, manifest: dict) -> None:
    """Write a replica manifest as JSON (atomically).

    Examples
    --------
    >>> from lowdim.data.replicas import read_manifest, save_manifest, write_mirror
    >>> save_manifest(tmp / "manifest.json", write_mirror(tmp / "mirror", ["web_snippets"]))
    >>> list(read_manifest(tmp / "manifest.json"))
    ['web_snippets']
    """
    write_json(path, manifest)


def read_manifest(path) -> dict:
    """``{dataset: {filename: {"sha256", "size"}}}`` from a replica manifest file.

    Raises
    ------
    ValueError
        If the file is not a replica manifest (the message names the file).

    Examples
    --------
    >>> from lowdim.data.replicas import read_manifest, save_manifest, write_mirror
    >>> save_manifest(tmp / "manifest.json", write_mirror(tmp / "mirror", ["web_snippets"]))
    >>> entry = read_manifest(tmp / "manifest.json")["web_snippets"]["data-web-snippets.tar.gz"]
    >>> sorted(entry), len(entry["sha256"])
    (['sha256', 'size'], 64)
    """
    try:
        doc = read_json(path)
    except ValueError as exc:
        raise ValueError(f"replica manifest {str(path)!r} is not valid JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("kind") != MANIFEST_KIND \
            or not isinstance(doc.get("files"), dict):
        raise ValueError(f"{str(path)!r} is not a replica manifest (expected a JSON object "
                         f"with kind {MANIFEST_KIND!r} and `files`)")
    for dataset, entries in doc["files"].items():
        for filename, entry in entries.items():
            if not (isinstance(entry, dict) and isinstance(entry.get("sha256"), str)
                    and isinstance(entry.get("size"), int)):
                raise ValueError(f"replica manifest {str(path)!r}: entry {dataset}/{filename} "
                                 f"needs `sha256` (hex) and `size` (bytes)")
    return doc["files"]
