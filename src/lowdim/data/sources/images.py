"""Image datasets of the Vec2vec paper (and MNIST for AppGrad CCA): MNIST, CIFAR-10, SVHN, COIL-20.

Every image becomes one row of grey levels or channel values 0-255 (float32);
``meta["image_shape"]`` says how to fold a row back into an image. Where the
source has an official train/test split, ``train_idx``/``test_idx`` (shape
(1, m)) record it, renumbered after sub-sampling. The Vec2vec paper uses 5,000
random images of MNIST, CIFAR-10 and SVHN: set ``n_rows: 5000``.

Checksums come from TensorFlow Datasets' ``url_checksums`` files (MNIST:
``tensorflow_datasets/url_checksums/mnist.txt``, CIFAR-10: ``cifar10.txt``,
SVHN: ``svhn_cropped.txt``); COIL-20 has none published and is pinned on
first download.
"""

from __future__ import annotations

import gzip
import io
import re
import zipfile

import numpy as np

from ..parsing import FormatError, encode_labels, load_mat, member_bytes, members_under, \
    kept_rows, split_indices, subsample
from ..prepared import Dataset
from ..registry import DatasetSpec, RemoteFile, register

__all__ = ["read_idx", "read_cifar_records"]

_ROWS = {"type": "integer", "minimum": 0, "default": 0,
         "description": "rows to keep (random, seeded); 0 keeps all"}
_SEED = {"type": "integer", "minimum": 0, "default": 0, "description": "seed for row sampling"}

# IDX type codes (LeCun's format description): 0x08 = unsigned byte.
_IDX_DTYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


def read_idx(path, dataset: str, ndim: int) -> np.ndarray:
    """Read a (gzipped) IDX file: magic ``0 0 type ndim``, big-endian int32 sizes, data.

    Parameters
    ----------
    path : Path
        ``.gz`` or plain IDX file.
    dataset : str
        For error messages.
    ndim : int
        Expected number of dimensions (3 for images, 1 for labels).

    Examples
    --------
    >>> import gzip
    >>> from lowdim.data.replicas import idx_bytes
    >>> from lowdim.data.sources.images import read_idx
    >>> path = tmp / "labels-idx1-ubyte.gz"
    >>> _ = path.write_bytes(gzip.compress(idx_bytes(np.array([5, 0, 4], dtype=np.uint8))))
    >>> read_idx(path, "mnist", ndim=1)
    array([5, 0, 4], dtype=uint8)
    """
    opener = gzip.open if str(path).endswith(".gz") else open
    try:
        with opener(path, "rb") as fh:
            raw = fh.read()
    except (OSError, EOFError) as exc:
        raise FormatError(dataset, path, f"a gzip-compressed IDX file ({exc})") from exc
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0 or raw[2] not in _IDX_DTYPES or raw[3] != ndim:
        raise FormatError(dataset, path, f"an IDX header with {ndim} dimensions, got bytes "
                                         f"{raw[:4].hex()}")
    shape = tuple(int(s) for s in np.frombuffer(raw, ">i4", count=ndim, offset=4))
    dtype = np.dtype(_IDX_DTYPES[raw[2]])
    expected = 4 + 4 * ndim + int(np.prod(shape)) * dtype.itemsize
    if len(raw) != expected:
        raise FormatError(dataset, path, f"{expected} bytes for an IDX array of shape {shape}, "
                                         f"got {len(raw)}")
    return np.frombuffer(raw, dtype, offset=4 + 4 * ndim).reshape(shape)


_MNIST_FILES = (
    ("train-images-idx3-ubyte.gz", 9912422,
     "440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609"),
    ("train-labels-idx1-ubyte.gz", 28881,
     "3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c"),
    ("t10k-images-idx3-ubyte.gz", 1648877,
     "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6"),
    ("t10k-labels-idx1-ubyte.gz", 4542,
     "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6"),
)
_MNIST_MIRRORS = ("https://ossci-datasets.s3.amazonaws.com/mnist/",
                  "https://storage.googleapis.com/cvdf-datasets/mnist/",
                  "http://yann.lecun.com/exdb/mnist/")
MNIST_FILES = tuple(RemoteFile(name, tuple(m + name for m in _MNIST_MIRRORS), sha, size)
                    for name, size, sha in _MNIST_FILES)


def load_mnist(raw_files, dataset: str = "mnist"):
    """All 70,000 MNIST images (train first) as uint8 (n, 784), labels and the train mask."""
    parts = []
    for prefix in ("train", "t10k"):
        images = read_idx(raw_files[f"{prefix}-images-idx3-ubyte.gz"], dataset, 3)
        labels = read_idx(raw_files[f"{prefix}-labels-idx1-ubyte.gz"], dataset, 1)
        if images.shape[0] != labels.shape[0]:
            raise FormatError(dataset, raw_files[f"{prefix}-labels-idx1-ubyte.gz"],
                              f"{images.shape[0]} labels to match the images, "
                              f"got {labels.shape[0]}")
        parts.append((images.reshape(images.shape[0], -1), labels.astype(np.int64)))
        shape = images.shape[1:]
    X = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    is_train = np.arange(len(y)) < len(parts[0][1])
    return X, y, is_train, shape


def _image_dataset(name, X, y, is_train, label_names, image_shape, n_rows, seed, **meta):
    rows = subsample(len(y), n_rows, seed)
    train_idx, test_idx = split_indices(is_train, rows) if is_train is not None else (None, None)
    return Dataset(name=name, kind="dense", X=X[rows].astype(np.float32), y=y[rows],
                   label_names=np.asarray(label_names, dtype=str),
                   train_idx=train_idx, test_idx=test_idx,
                   meta={"image_shape": list(image_shape), "units": "grey level 0-255",
                         "rows": "random subset" if len(rows) < len(y) else "all", **meta})


def _mnist(raw_files, *, n_rows: int, seed: int):
    X, y, is_train, shape = load_mnist(raw_files)
    return _image_dataset("mnist", X, y, is_train, [str(d) for d in range(10)], shape,
                          n_rows, seed)


# --- CIFAR-10, binary version: records of 1 label byte + 3,072 pixel bytes (R, G, B planes).
_CIFAR_DIR = "cifar-10-batches-bin"
_CIFAR_BATCHES = tuple(f"data_batch_{i}.bin" for i in range(1, 6)) + ("test_batch.bin",)
_CIFAR_RECORD = 1 + 3 * 32 * 32


def read_cifar_records(raw: bytes, dataset: str, path, member: str):
    """Split CIFAR binary records into labels (n,) and pixels (n, 3072), both uint8.

    Examples
    --------
    >>> from lowdim.data.sources.images import read_cifar_records
    >>> records = np.zeros((2, 3073), dtype=np.uint8)
    >>> records[:, 0] = [3, 7]          # the label byte, then 3,072 pixel bytes
    >>> labels, pixels = read_cifar_records(records.tobytes(), "cifar10", "cifar.tar.gz", "data_batch_1.bin")
    >>> labels.tolist(), pixels.shape
    ([3, 7], (2, 3072))
    """
    if len(raw) % _CIFAR_RECORD:
        raise FormatError(dataset, path, f"member {member!r} to be a whole number of "
                                         f"{_CIFAR_RECORD}-byte records, got {len(raw)} bytes")
    records = np.frombuffer(raw, np.uint8).reshape(-1, _CIFAR_RECORD)
    return records[:, 0].astype(np.int64), records[:, 1:]


def _cifar10(raw_files, *, n_rows: int, seed: int):
    archive = raw_files["cifar-10-binary.tar.gz"]
    # One pass over the compressed archive, then check every expected member came by.
    found = dict(members_under(archive, f"{_CIFAR_DIR}/", "cifar10"))
    for member in ("batches.meta.txt",) + _CIFAR_BATCHES:
        if f"{_CIFAR_DIR}/{member}" not in found:
            member_bytes(archive, f"{_CIFAR_DIR}/{member}", "cifar10")  # raises, naming it
    names = found[f"{_CIFAR_DIR}/batches.meta.txt"].decode().split()
    labels, pixels = [], []
    for batch in _CIFAR_BATCHES:
        member = f"{_CIFAR_DIR}/{batch}"
        y, X = read_cifar_records(found[member], "cifar10", archive, member)
        labels.append(y)
        pixels.append(X)
    y = np.concatenate(labels)
    if len(names) != 10 or y.max() >= 10:
        raise FormatError("cifar10", archive, f"10 class names and labels 0-9, got "
                                              f"{len(names)} names and max label {y.max()}")
    is_train = np.arange(len(y)) < sum(len(v) for v in labels[:5])
    return _image_dataset("cifar10", np.concatenate(pixels), y, is_train, names, (3, 32, 32),
                          n_rows, seed, layout="channels first (R, G, B planes), row-major")


# --- SVHN cropped digits: MATLAB v5, X of shape (32, 32, 3, N), y of shape (N, 1), 10 = digit 0.
def _read_svhn(path, dataset):
    mat = load_mat(path, dataset, required=("X", "y"))
    X, y = mat["X"], np.asarray(mat["y"]).ravel().astype(np.int64)
    if X.ndim != 4 or X.shape[:3] != (32, 32, 3) or X.shape[3] != len(y):
        raise FormatError(dataset, path, f"X of shape (32, 32, 3, {len(y)}), got {X.shape}")
    if y.size and (y.min() < 1 or y.max() > 10):
        raise FormatError(dataset, path, f"labels 1-10 (10 = digit 0), got {y.min()}-{y.max()}")
    y[y == 10] = 0
    # (h, w, c, n) -> (n, h, w, c): each row is a 32x32 RGB image, channels last.
    return np.ascontiguousarray(np.transpose(X, (3, 0, 1, 2))).reshape(len(y), -1), y


def _svhn(raw_files, *, n_rows: int, seed: int, include_test: bool):
    X, y = _read_svhn(raw_files["train_32x32.mat"], "svhn")
    is_train = np.ones(len(y), dtype=bool)
    if include_test:
        X_test, y_test = _read_svhn(raw_files["test_32x32.mat"], "svhn")
        X, y = np.concatenate([X, X_test]), np.concatenate([y, y_test])
        is_train = np.concatenate([is_train, np.zeros(len(y_test), dtype=bool)])
    return _image_dataset("svhn", X, y, is_train, [str(d) for d in range(10)], (32, 32, 3),
                          n_rows, seed, layout="channels last (h, w, RGB), row-major")


# --- COIL-20 processed: coil-20-proc/obj<k>__<pose>.png, 128x128 grey, 20 objects x 72 poses.
_COIL_NAME = re.compile(r"^coil-20-proc/obj(\d+)__(\d+)\.png$")


def _coil20(raw_files, *, n_rows: int, seed: int):
    from PIL import Image

    archive = raw_files["coil-20-proc.zip"]
    with zipfile.ZipFile(archive) as zf:
        entries = sorted((int(m[1]), int(m[2]), info) for info in zf.infolist()
                         if (m := _COIL_NAME.match(info.filename)))
        if not entries:
            raise FormatError("coil20", archive, "members coil-20-proc/obj<k>__<pose>.png")
        images = []
        for obj, pose, info in entries:
            with Image.open(io.BytesIO(zf.read(info))) as img:
                pixels = np.asarray(img.convert("L"), dtype=np.uint8)
            if pixels.shape != (128, 128):
                raise FormatError("coil20", archive, f"128x128 images, member {info.filename!r} "
                                                     f"is {pixels.shape}")
            images.append(pixels.ravel())
    y, names = encode_labels([f"obj{obj}" for obj, _, _ in entries],
                             names=[f"obj{k}" for k in sorted({e[0] for e in entries})])
    return _image_dataset("coil20", np.stack(images), y, None, names, (128, 128), n_rows, seed,
                          poses="72 poses per object, 5 degrees apart")


register(DatasetSpec(
    name="mnist", kind="dense", parser=_mnist, files=MNIST_FILES,
    description="MNIST handwritten digits, 70,000 x 784 (28x28 grey), 10 classes",
    source="LeCun, Cortes & Burges; IDX files (mirror used by torchvision)",
    licence="CC BY-SA 3.0 (per LeCun's page as mirrored by TFDS); cite LeCun et al. 1998",
    options_schema={"n_rows": _ROWS, "seed": _SEED},
    sizes=lambda o: {"n": kept_rows(70000, o["n_rows"]), "p": 784}))

register(DatasetSpec(
    name="cifar10", kind="dense", parser=_cifar10,
    files=(RemoteFile("cifar-10-binary.tar.gz",
                      ("https://www.cs.toronto.edu/~kriz/cifar-10-binary.tar.gz",
                       "https://storage.googleapis.com/s4tf-hosted-binaries/datasets/CIFAR10/"
                       "cifar-10-binary.tar.gz"),
                      "c4a38c50a1bc5f3a1c5537f2155ab9d68f9f25eb1ed8d9ddda3db29a59bca1dd",
                      170052171),),
    description="CIFAR-10 colour images, 60,000 x 3,072 (32x32x3), 10 classes",
    source="Krizhevsky 2009, binary version (no pickle)",
    licence="no explicit licence; free for research, cite Krizhevsky 2009",
    options_schema={"n_rows": _ROWS, "seed": _SEED},
    sizes=lambda o: {"n": kept_rows(60000, o["n_rows"]), "p": 3072}))

register(DatasetSpec(
    name="svhn", kind="dense", parser=_svhn,
    files=(RemoteFile("train_32x32.mat", ("http://ufldl.stanford.edu/housenumbers/train_32x32.mat",),
                      "435e94d69a87fde4fd4d7f3dd208dfc32cb6ae8af2240d066de1df7508d083b8",
                      182040794),
           RemoteFile("test_32x32.mat", ("http://ufldl.stanford.edu/housenumbers/test_32x32.mat",),
                      "cdce80dfb2a2c4c6160906d0bd7c68ec5a99d7ca4831afa54f09182025b6a75b",
                      64275384)),
    description="SVHN cropped house-number digits, 99,289 x 3,072 (32x32x3), 10 classes",
    source="Netzer et al. 2011, format 2 (cropped digits, MATLAB v5)",
    licence="non-commercial use only (SVHN terms); cite Netzer et al. 2011",
    options_schema={"n_rows": _ROWS, "seed": _SEED,
                    "include_test": {"type": "boolean", "default": True,
                                     "description": "add test_32x32.mat to the training images"}},
    sizes=lambda o: {"n": kept_rows(73257 + 26032 * o["include_test"], o["n_rows"]),
                     "p": 3072}))

register(DatasetSpec(
    name="coil20", kind="dense", parser=_coil20,
    files=(RemoteFile("coil-20-proc.zip",
                      ("https://cave.cs.columbia.edu/old/databases/SLAM_coil-20_coil-100/coil-20/"
                       "coil-20-proc.zip",
                       "https://www.cs.columbia.edu/CAVE/databases/SLAM_coil-20_coil-100/coil-20/"
                       "coil-20-proc.zip")),),
    description="COIL-20 processed object images, 1,440 x 16,384 (128x128 grey), 20 classes",
    source="Nene, Nayar & Murase 1996, Columbia CAVE (processed set)",
    licence="research use; cite Nene et al. 1996 (Columbia technical report CUCS-005-96)",
    options_schema={"n_rows": _ROWS, "seed": _SEED},
    sizes=lambda o: {"n": kept_rows(1440, o["n_rows"]), "p": 16384}))
