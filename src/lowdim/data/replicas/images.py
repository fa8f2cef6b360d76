"""Replicas of the image datasets: MNIST (IDX), CIFAR-10 (binary batches), SVHN (.mat), COIL-20 (PNG)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from ._containers import (balanced_labels, class_pixels, gzip_bytes, idx_bytes, savemat, tar_gz,
                          write_bytes, zip_bytes)

__all__ = ["CIFAR_NAMES", "write_mnist", "write_cifar10", "write_svhn", "write_coil20"]

#: CIFAR-10's class names, in label order.
CIFAR_NAMES = ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship",
               "truck"]


def write_mnist(directory: Path, rng, n_train=12, n_test=5):
    """The four gzipped IDX files; truth: X (n, 784) uint8, y, n_train.

    Examples
    --------
    >>> from lowdim.data.replicas import write_mnist
    >>> sorted(write_mnist(tmp, rng)[0])   # the file names of the real download
    ['t10k-images-idx3-ubyte.gz', 't10k-labels-idx1-ubyte.gz', 'train-images-idx3-ubyte.gz', 'train-labels-idx1-ubyte.gz']
    """
    y = balanced_labels(rng, n_train + n_test, 10).astype(np.uint8)
    X = class_pixels(rng, y, 784, 10).reshape(-1, 28, 28)
    files = {}
    for prefix, part in (("train", slice(0, n_train)), ("t10k", slice(n_train, None))):
        for kind, array in (("images-idx3", X[part]), ("labels-idx1", y[part])):
            name = f"{prefix}-{kind}-ubyte.gz"
            files[name] = write_bytes(directory / name, gzip_bytes(idx_bytes(array)))
    return files, {"X": X.reshape(len(y), -1), "y": y.astype(np.int64), "n_train": n_train}


def write_cifar10(directory: Path, rng, per_batch=3, drop_member=None):
    """cifar-10-binary.tar.gz with 5 training batches, a test batch and batches.meta.txt.

    Examples
    --------
    >>> from lowdim.data.replicas import write_cifar10
    >>> sorted(write_cifar10(tmp, rng)[0])   # the file names of the real download
    ['cifar-10-binary.tar.gz']
    """
    batches = [f"data_batch_{i}.bin" for i in range(1, 6)] + ["test_batch.bin"]
    y_all = balanced_labels(rng, 6 * per_batch, 10).astype(np.uint8)
    X_all = class_pixels(rng, y_all, 3072, 10)
    members = {}
    for b, batch in enumerate(batches):
        part = slice(b * per_batch, (b + 1) * per_batch)
        members[f"cifar-10-batches-bin/{batch}"] = np.hstack([y_all[part, None],
                                                              X_all[part]]).tobytes()
    members["cifar-10-batches-bin/batches.meta.txt"] = ("\n".join(CIFAR_NAMES) + "\n\n").encode()
    members["cifar-10-batches-bin/readme.html"] = b"<html></html>"
    if drop_member:
        del members[f"cifar-10-batches-bin/{drop_member}"]
    path = tar_gz(directory / "cifar-10-binary.tar.gz", members)
    return {"cifar-10-binary.tar.gz": path}, {
        "X": X_all, "y": y_all.astype(np.int64), "n_train": 5 * per_batch, "names": CIFAR_NAMES}


def write_svhn(directory: Path, rng, n_train=7, n_test=4, omit_variable=None):
    """train_32x32.mat and test_32x32.mat: X uint8 (32, 32, 3, N), y uint8 (N, 1) with 10 = 0.

    Examples
    --------
    >>> from lowdim.data.replicas import write_svhn
    >>> sorted(write_svhn(tmp, rng)[0])   # the file names of the real download
    ['test_32x32.mat', 'train_32x32.mat']
    """
    files, images, digits = {}, [], []
    for name, n in (("train_32x32.mat", n_train), ("test_32x32.mat", n_test)):
        y = (balanced_labels(rng, n, 10) + 1).astype(np.uint8).reshape(n, 1)
        y[0, 0] = 10
        flat = class_pixels(rng, y.ravel() - 1, 32 * 32 * 3, 10)
        X = np.ascontiguousarray(np.transpose(flat.reshape(n, 32, 32, 3), (1, 2, 3, 0)))
        variables = {"X": X, "y": y}
        if omit_variable:
            variables.pop(omit_variable)
        files[name] = savemat(directory / name, variables)
        images.append(flat)
        digits.append(np.where(y.ravel() == 10, 0, y.ravel()).astype(np.int64))
    return files, {"X": np.vstack(images), "y": np.concatenate(digits), "n_train": n_train}


def write_coil20(directory: Path, rng, n_objects=3, n_poses=2):
    """coil-20-proc.zip: coil-20-proc/obj<k>__<pose>.png, 128x128 8-bit grey PNGs.

    Examples
    --------
    >>> from lowdim.data.replicas import write_coil20
    >>> sorted(write_coil20(tmp, rng)[0])   # the file names of the real download
    ['coil-20-proc.zip']
    """
    from PIL import Image

    y = np.repeat(np.arange(n_objects), n_poses)
    pixels = class_pixels(rng, y, 128 * 128, n_objects)
    members, truth = {}, []
    for row, (obj, pose) in enumerate((o, p) for o in range(1, n_objects + 1)
                                      for p in range(n_poses)):
        buffer = io.BytesIO()
        Image.fromarray(pixels[row].reshape(128, 128), mode="L").save(buffer, format="PNG")
        members[f"coil-20-proc/obj{obj}__{pose}.png"] = buffer.getvalue()
        truth.append((obj, pose, pixels[row]))
    path = write_bytes(directory / "coil-20-proc.zip", zip_bytes(members))
    return {"coil-20-proc.zip": path}, {
        "X": np.stack([t[2] for t in truth]), "y": np.array([t[0] - 1 for t in truth])}
