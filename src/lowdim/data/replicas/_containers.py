"""Containers and encodings shared by the replica writers (tar.gz, zip, IDX, TSV, svmlight)."""

from __future__ import annotations

import gzip
import io
import struct
import tarfile
import zipfile
from pathlib import Path

import numpy as np

from ...io import atomic_path

__all__ = ["tar_gz", "zip_bytes", "write_bytes", "gzip_bytes", "savemat", "idx_bytes", "tsv_bytes", "svmlight_line",
           "balanced_labels", "class_pixels", "class_words"]


def write_bytes(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically; return ``path``."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)
    return Path(path)


def gzip_bytes(data: bytes) -> bytes:
    """``data`` gzipped with no time stamp in the header."""
    return gzip.compress(data, mtime=0)


def savemat(path: Path, variables: dict) -> Path:
    """Write a MATLAB v5 file atomically, with a fixed header text (scipy writes the date)."""
    import scipy.io

    with atomic_path(path) as tmp:
        scipy.io.savemat(tmp, variables, format="5")
        with open(tmp, "r+b") as handle:
            handle.write(b"MATLAB 5.0 MAT-file, written by lowdim.data.replicas".ljust(116))
    return Path(path)


def tar_gz(path: Path, members: dict[str, bytes]) -> Path:
    """Write a .tar.gz with ``members`` (name -> bytes) in the given order, directories implied.

    The gzip header carries no time stamp or name, so the same members give the same bytes.

    Examples
    --------
    >>> from lowdim.data import list_members
    >>> from lowdim.data.replicas import tar_gz
    >>> first = tar_gz(tmp / "a.tar.gz", {"d/x.txt": b"1", "d/y.txt": b"2"}).read_bytes()
    >>> second = tar_gz(tmp / "b.tar.gz", {"d/x.txt": b"1", "d/y.txt": b"2"}).read_bytes()
    >>> list_members(tmp / "a.tar.gz"), first == second
    (['d/x.txt', 'd/y.txt'], True)
    """
    with atomic_path(path, suffix=".gz") as tmp:
        with open(tmp, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                                                   mtime=0) as gz, \
                tarfile.open(fileobj=gz, mode="w") as tf:
            for name, data in members.items():
                info = tarfile.TarInfo(name)
                info.size = len(data)
                info.mode = 0o644
                tf.addfile(info, io.BytesIO(data))
    return Path(path)


def zip_bytes(members: dict[str, bytes]) -> bytes:
    """A zip archive (deflated) holding ``members``, as bytes (fixed member dates).

    Examples
    --------
    >>> import io
    >>> import zipfile
    >>> from lowdim.data.replicas import zip_bytes
    >>> data = zip_bytes({"a.txt": b"alpha"})
    >>> zipfile.ZipFile(io.BytesIO(data)).read("a.txt"), data == zip_bytes({"a.txt": b"alpha"})
    (b'alpha', True)
    """
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data,
                        compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def idx_bytes(array: np.ndarray) -> bytes:
    """IDX encoding of a uint8 array: magic 0 0 0x08 ndim, big-endian int32 sizes, data.

    Examples
    --------
    >>> from lowdim.data.replicas import idx_bytes
    >>> idx_bytes(np.array([[1, 2, 3]], dtype=np.uint8))
    b'\\x00\\x00\\x08\\x02\\x00\\x00\\x00\\x01\\x00\\x00\\x00\\x03\\x01\\x02\\x03'
    """
    array = np.asarray(array, dtype=np.uint8)
    header = bytes([0, 0, 0x08, array.ndim]) + struct.pack(f">{array.ndim}i", *array.shape)
    return header + array.tobytes()


def tsv_bytes(header, rows) -> bytes:
    """UTF-8 tab-separated lines: the header, then one line per row."""
    lines = ["\t".join(header)] + ["\t".join(map(str, row)) for row in rows]
    return ("\n".join(lines) + "\n").encode()


def svmlight_line(labels, features: dict) -> str:
    """``<l1,l2,...> <j>:<v> ...`` with features in increasing index order."""
    head = ",".join(str(int(label)) for label in labels)
    return f"{head} " + " ".join(f"{j}:{v:.6g}" for j, v in sorted(features.items())) + "\n"


def balanced_labels(rng, n: int, n_classes: int) -> np.ndarray:
    """``n`` labels in 0..n_classes-1, as balanced as possible, in random order."""
    return rng.permutation(np.arange(n) % n_classes)


def class_pixels(rng, y, n_features: int, n_classes: int, signal: float = 0.5) -> np.ndarray:
    """uint8 pixels: a random prototype per class blended with per-image noise.

    Images of one class share their prototype, so nearest neighbours and
    canonical correlations between image halves are not pure chance.
    """
    prototypes = rng.integers(0, 256, size=(n_classes, n_features)).astype(np.float64)
    noise = rng.integers(0, 256, size=(len(y), n_features)).astype(np.float64)
    return np.rint(signal * prototypes[np.asarray(y)] + (1 - signal) * noise).astype(np.uint8)


def class_words(rng, label: int, n_classes: int, vocabulary, n_words: int, signal=0.6):
    """``n_words`` words: a share ``signal`` from the class's slice of ``vocabulary``."""
    vocabulary = list(vocabulary)
    own = vocabulary[label::n_classes] or vocabulary
    from_class = rng.random(n_words) < signal
    words = np.where(from_class, rng.choice(own, n_words), rng.choice(vocabulary, n_words))
    return [str(w) for w in words]
