"""The dataset registry: name -> how to get it, what it is, how to parse it.

A dataset is one :class:`DatasetSpec`. Remote datasets list the files they need
as :class:`RemoteFile` entries, each with an ordered list of addresses (primary
first, then mirrors) and a SHA-256 checksum where one is published; embedded
and synthetic datasets list none and build themselves from what ships inside
our dependencies.

Modules that define datasets call :func:`register` at import time;
``lowdim.data`` imports all of them, so ``REGISTRY`` is complete once
``lowdim.data`` is imported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

from .prepared import KINDS, Dataset, read_dataset

__all__ = ["RemoteFile", "DatasetSpec", "REGISTRY", "register", "get_spec", "dataset_names",
           "load_dataset"]

_SCHEMES = ("https", "http", "file")
_SHA256 = re.compile(r"[0-9a-f]{64}")

@dataclass(frozen=True)
class RemoteFile:
    """One file to download.

    Parameters
    ----------
    filename : str
        Name under ``resources/raw/<dataset>/``.
    urls : tuple of str
        Addresses in order of preference: primary first, then mirrors.
    sha256 : str or None
        Published SHA-256 hex digest. None means no maintained library
        publishes one: the first verified download is pinned in the lock file
        and later downloads must match it.
    size : int or None
        Expected size in bytes, if known; checked before the checksum.

    Examples
    --------
    >>> from lowdim.data import RemoteFile, get_spec
    >>> remote = get_spec("mnist").files[0]
    >>> remote.filename, remote.urls[0].split("://")[0], len(remote.sha256 or "")
    ('train-images-idx3-ubyte.gz', 'https', 64)
    >>> RemoteFile("a.txt", urls="https://example.org/a.txt")
    Traceback (most recent call last):
        ...
    ValueError: RemoteFile 'a.txt': `urls` must be a sequence of addresses, got the single string 'https://example.org/a.txt'
    """

    filename: str
    urls: tuple[str, ...]
    sha256: str | None = None
    size: int | None = None

    def __post_init__(self):
        if "/" in self.filename or self.filename in {"", ".", ".."}:
            raise ValueError(f"RemoteFile filename must be a plain file name, got {self.filename!r}")
        if isinstance(self.urls, str):
            raise ValueError(f"RemoteFile {self.filename!r}: `urls` must be a sequence of "
                             f"addresses, got the single string {self.urls!r}")
        object.__setattr__(self, "urls", tuple(self.urls))  # accept lists, stay hashable
        if not self.urls:
            raise ValueError(f"RemoteFile {self.filename!r} needs at least one address")
        for url in self.urls:
            if not (isinstance(url, str) and url.split("://", 1)[0] in _SCHEMES and "://" in url):
                raise ValueError(f"RemoteFile {self.filename!r}: addresses must start with one "
                                 f"of {'://, '.join(_SCHEMES)}://, got {url!r}")
        if self.sha256 is not None and not _SHA256.fullmatch(str(self.sha256)):
            raise ValueError(f"RemoteFile {self.filename!r}: `sha256` must be 64 lowercase hex "
                             f"digits or None, got {self.sha256!r}")
        if self.size is not None and (isinstance(self.size, bool) or
                                      not isinstance(self.size, int) or self.size < 0):
            raise ValueError(f"RemoteFile {self.filename!r}: `size` must be an int >= 0 or "
                             f"None, got {self.size!r}")


@dataclass(frozen=True)
class DatasetSpec:
    """Everything the workflow needs to know about one dataset.

    Parameters
    ----------
    name : str
        Registry key, used in config files and result paths.
    kind : str
        One of :data:`lowdim.data.prepared.KINDS`.
    description : str
        One line for the dataset table.
    source : str
        Where the data come from (citation or package).
    licence : str
        Licence note shown in the dataset table.
    parser : callable
        ``parser(raw_files: dict[str, Path], **options) -> Dataset``. ``raw_files``
        maps each :attr:`RemoteFile.filename` to its verified local path (empty
        for embedded and synthetic datasets).
    files : tuple of RemoteFile
        Files to download; empty for embedded and synthetic datasets.
    options_schema : dict
        JSON-schema ``properties`` for this dataset's options in the config
        (``datasets: {name: {...}}``); every property needs a ``default``.
    labelled : bool, default=True
        Whether the prepared dataset has class labels ``y``.
    sizes : callable, optional
        ``sizes(options) -> dict``: what the options (defaults filled in) tell
        about the prepared data before it exists, for checking a config when the
        workflow starts. Keys, each an upper bound (exact where the data fix it),
        any of: ``n`` (items), ``n_train`` (training rows, for datasets with a
        split of their own), ``p`` (features of ``X``), ``p1`` and ``p2`` (widths
        of the two views). Omit what only the data can tell. See :meth:`size_bounds`.

    Examples
    --------
    >>> from lowdim.data import Dataset, DatasetSpec
    >>> spec = DatasetSpec(
    ...     name="squares", kind="dense", description="the squares of 0..n-1", source="numpy",
    ...     licence="public domain",
    ...     parser=lambda raw_files, n: Dataset("squares", "dense", X=np.arange(n)[:, None] ** 2.0,
    ...                                         y=np.arange(n) % 2),
    ...     options_schema={"n": {"type": "integer", "minimum": 1, "default": 4}})
    >>> spec.prepare(n=3).X.ravel().tolist()
    [0.0, 1.0, 4.0]
    >>> spec.prepare(n=0)
    Traceback (most recent call last):
        ...
    ValueError: dataset 'squares': option `n` got 0; 0 is less than the minimum of 1
    """

    name: str
    kind: str
    description: str
    source: str
    licence: str
    parser: Callable = field(repr=False)
    files: tuple[RemoteFile, ...] = ()
    options_schema: Mapping = field(default_factory=dict)
    labelled: bool = True
    sizes: Callable | None = field(default=None, repr=False)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"dataset {self.name!r}: kind must be one of {sorted(KINDS)}, "
                             f"got {self.kind!r}")
        names = [f.filename for f in self.files]
        if len(set(names)) != len(names):
            raise ValueError(f"dataset {self.name!r}: file names must be unique, got {names}")
        for key, prop in self.options_schema.items():
            if "default" not in prop:
                raise ValueError(f"dataset {self.name!r}: option {key!r} needs a default")

    @property
    def offline(self) -> bool:
        """True when the dataset needs no download."""
        return not self.files

    def defaults(self) -> dict:
        """The default options."""
        return {key: prop["default"] for key, prop in self.options_schema.items()}

    def json_schema(self) -> dict:
        """A JSON schema for this dataset's options object."""
        return {"type": "object", "additionalProperties": False,
                "properties": dict(self.options_schema)}

    def check_options(self, options: Mapping) -> dict:
        """``options`` with the defaults filled in, after checking them against the schema.

        Raises
        ------
        TypeError
            An option of the wrong type, or an option this dataset does not have.
        ValueError
            An option outside its allowed values.
        """
        import jsonschema

        unknown = sorted(set(options) - set(self.options_schema))
        if unknown:
            known = ", ".join(sorted(self.options_schema)) or "none"
            raise TypeError(f"dataset {self.name!r} has no option {unknown[0]!r}; its options: "
                            f"{known}")
        options = {**self.defaults(), **options}
        errors = jsonschema.Draft202012Validator(self.json_schema()).iter_errors(options)
        error = jsonschema.exceptions.best_match(errors)
        if error is not None:
            key = ".".join(str(part) for part in error.absolute_path) or "(options)"
            kind = TypeError if error.validator == "type" else ValueError
            raise kind(f"dataset {self.name!r}: option `{key}` got {error.instance!r}; "
                       f"{error.message}")
        return options

    def size_bounds(self, options: Mapping | None = None) -> dict:
        """Upper bounds on the prepared data's sizes (``n``, ``n_train``, ``p``, ``p1``,
        ``p2``) that ``options`` determine; empty when the registry entry declares none."""
        if self.sizes is None:
            return {}
        return {key: int(value) for key, value in
                self.sizes({**self.defaults(), **(options or {})}).items()}

    def prepare(self, raw_files: Mapping[str, Path] | None = None, **options):
        """Parse the raw files (or generate) into a :class:`~lowdim.data.prepared.Dataset`.

        ``options`` are checked against :attr:`options_schema` first
        (:meth:`check_options`): an unknown option, a wrong type or a value out
        of range is an error naming the option.
        """
        options = self.check_options(options)
        raw_files = dict(raw_files or {})
        missing = [f.filename for f in self.files if f.filename not in raw_files]
        if missing:
            raise FileNotFoundError(f"dataset {self.name!r}: raw files missing: {missing}")
        dataset = self.parser(raw_files, **options)
        dataset.meta.setdefault("options", options)
        dataset.meta.setdefault("source", self.source)
        dataset.meta.setdefault("licence", self.licence)
        dataset.meta.setdefault("description", self.description)
        return dataset


#: Every registered dataset: name -> :class:`DatasetSpec` (filled by :func:`register`).
REGISTRY: dict[str, DatasetSpec] = {}


def register(spec: DatasetSpec) -> DatasetSpec:
    """Add ``spec`` to :data:`REGISTRY`; a name can be registered once.

    Examples
    --------
    >>> from lowdim.data import REGISTRY, get_spec, register
    >>> register(get_spec("digits"))
    Traceback (most recent call last):
        ...
    ValueError: dataset 'digits' is registered twice
    """
    if spec.name in REGISTRY:
        raise ValueError(f"dataset {spec.name!r} is registered twice")
    REGISTRY[spec.name] = spec
    return spec


def get_spec(name: str) -> DatasetSpec:
    """Return the spec of ``name``; the error lists the known names.

    Examples
    --------
    >>> from lowdim.data import get_spec
    >>> get_spec("digits").kind
    'dense'
    >>> get_spec("digitz")
    Traceback (most recent call last):
        ...
    KeyError: "unknown dataset 'digitz'; known datasets: cifar10, coil20, digits, ..."
    """
    try:
        return REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown dataset {name!r}; known datasets: {', '.join(sorted(REGISTRY))}") \
            from None


def dataset_names(offline: bool | None = None) -> list[str]:
    """Sorted registry names, optionally only the offline (or only the remote) ones.

    Examples
    --------
    >>> from lowdim.data import dataset_names
    >>> "digits" in dataset_names(offline=True), "mnist" in dataset_names(offline=False)
    (True, True)
    """
    return sorted(n for n, s in REGISTRY.items() if offline is None or s.offline == offline)


def load_dataset(path, name: str | None = None) -> Dataset:
    """Read a prepared dataset (:func:`lowdim.data.prepared.read_dataset`) that must hold
    ``name``: by default the registered dataset the file is named after
    (``results/data/<name>.npz``), so another dataset's file copied there is refused.

    Examples
    --------
    >>> from lowdim.data import get_spec, load_dataset, save_dataset
    >>> path = save_dataset(get_spec("pang_lee").prepare(), tmp / "pang_lee.npz")
    >>> data = load_dataset(path)                  # must hold pang_lee: the file is named after it
    >>> data.name, data.kind, data.bow.shape[0], len(data.texts)
    ('pang_lee', 'text', 200, 200)
    >>> _ = save_dataset(get_spec("digits").prepare(n_rows=10), tmp / "lee.npz")
    >>> load_dataset(tmp / "lee.npz")
    Traceback (most recent call last):
        ...
    lowdim.io.CorruptFileError: .../lee.npz: it holds dataset 'digits', not 'lee'; ...
    """
    stem = Path(path).stem
    return read_dataset(path, name if name is not None else stem if stem in REGISTRY else None)
