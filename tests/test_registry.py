"""The dataset registry: RemoteFile and DatasetSpec validation, registration, lookup."""

from pathlib import Path

import numpy as np
import pytest

from lowdim.data import registry
from lowdim.data.prepared import Dataset
from lowdim.data.registry import DatasetSpec, RemoteFile

SHA = "0123456789abcdef" * 4


@pytest.fixture
def fresh_registry(monkeypatch):
    """A registry holding two known datasets; the real one is restored afterwards."""
    monkeypatch.setattr(registry, "REGISTRY", {})
    for name in ("beta", "alpha"):
        registry.register(spec(name))
    return registry.REGISTRY


def _parser(raw_files, **options):
    return Dataset("toy", "dense", X=np.zeros((3, 2)), y=np.arange(3),
                   meta={"seen_options": dict(options), "seen_files": sorted(raw_files)})


def spec(name="toy", files=(), options=None, kind="dense"):
    options = {"n": {"type": "integer", "default": 3},
               "scale": {"type": "number", "default": 1.5}} if options is None else options
    return DatasetSpec(name=name, kind=kind, description="a toy", source="tests",
                       licence="CC0", parser=_parser, files=files, options_schema=options)


def test_remote_file_accepts_valid_and_normalises_urls_to_tuple():
    remote = RemoteFile("a.bin", ["https://example.org/a.bin", "file:///tmp/a.bin"], SHA, 10)
    assert remote.urls == ("https://example.org/a.bin", "file:///tmp/a.bin")
    assert hash(remote) == hash(RemoteFile("a.bin", tuple(remote.urls), SHA, 10))


@pytest.mark.parametrize("kwargs, match", [
    ({"urls": ()}, "at least one address"),
    ({"urls": "https://example.org/a.bin"}, "single string"),
    ({"urls": ("ftp://example.org/a.bin",)}, "'ftp://example.org/a.bin'"),
    ({"urls": ("example.org/a.bin",)}, "'example.org/a.bin'"),
    ({"filename": "dir/a.bin"}, "plain file name, got 'dir/a.bin'"),
    ({"filename": ".."}, "plain file name"),
    ({"sha256": "ABC"}, "`sha256` must be 64 lowercase hex digits or None, got 'ABC'"),
    ({"sha256": SHA.upper()}, "`sha256`"),
    ({"size": -1}, "`size` must be an int >= 0 or None, got -1"),
    ({"size": 1.5}, "`size`"),
], ids=["no-urls", "str-urls", "ftp-scheme", "no-scheme", "slash-in-name", "dotdot-name",
        "short-sha", "uppercase-sha", "negative-size", "float-size"])
def test_remote_file_rejects(kwargs, match):
    args = {"filename": "a.bin", "urls": ("https://example.org/a.bin",), "sha256": SHA,
            "size": 10, **kwargs}
    with pytest.raises(ValueError, match=match):
        RemoteFile(**args)


def test_spec_rejects_unknown_kind_option_without_default_duplicate_files():
    with pytest.raises(ValueError, match="kind must be one of .* got 'tabular'"):
        spec(kind="tabular")
    with pytest.raises(ValueError, match="option 'n' needs a default"):
        spec(options={"n": {"type": "integer"}})
    twice = RemoteFile("a.bin", ("https://example.org/a.bin",))
    with pytest.raises(ValueError, match="file names must be unique"):
        spec(files=(twice, twice))


def test_duplicate_registration_refused(fresh_registry):
    with pytest.raises(ValueError, match="'alpha' is registered twice"):
        registry.register(spec("alpha"))
    assert sorted(fresh_registry) == ["alpha", "beta"]


def test_get_spec_error_lists_known_names(fresh_registry):
    assert registry.get_spec("alpha").name == "alpha"
    with pytest.raises(KeyError) as info:
        registry.get_spec("gamma")
    assert "unknown dataset 'gamma'; known datasets: alpha, beta" in str(info.value)


def test_dataset_names_filters_offline(fresh_registry):
    remote = spec("remote", files=(RemoteFile("a.bin", ("https://example.org/a.bin",)),))
    registry.register(remote)
    assert registry.dataset_names() == ["alpha", "beta", "remote"]
    assert registry.dataset_names(offline=True) == ["alpha", "beta"]
    assert registry.dataset_names(offline=False) == ["remote"]


def test_prepare_fills_defaults_and_meta():
    dataset = spec().prepare(scale=2.0)
    assert dataset.meta["seen_options"] == {"n": 3, "scale": 2.0}
    assert dataset.meta["options"] == {"n": 3, "scale": 2.0}
    assert dataset.meta["source"] == "tests" and dataset.meta["licence"] == "CC0"
    assert spec().defaults() == {"n": 3, "scale": 1.5}
    schema = spec().json_schema()
    assert schema["additionalProperties"] is False and set(schema["properties"]) == {"n", "scale"}


def test_prepare_requires_every_raw_file(tmp_path):
    files = (RemoteFile("a.bin", ("https://example.org/a.bin",)),
             RemoteFile("b.bin", ("https://example.org/b.bin",)))
    with pytest.raises(FileNotFoundError, match=r"'toy': raw files missing: \['b.bin'\]"):
        spec(files=files).prepare({"a.bin": tmp_path / "a.bin"})
    dataset = spec(files=files).prepare({"a.bin": Path("a"), "b.bin": Path("b")})
    assert dataset.meta["seen_files"] == ["a.bin", "b.bin"]


@pytest.mark.parametrize("options, error, match", [
    ({"n_rows": "abc"}, TypeError, r"dataset 'digits': option `n_rows` got 'abc'; 'abc' is not "
                                   r"of type 'integer'"),
    ({"n_rows": -5}, ValueError, r"option `n_rows` got -5; -5 is less than the minimum of 0"),
    ({"n_rows": True}, TypeError, r"option `n_rows` got True"),
    ({"bogus": 1}, TypeError, r"dataset 'digits' has no option 'bogus'; its options: n_rows, "
                              r"seed"),
], ids=["string", "negative", "bool", "unknown"])
def test_prepare_checks_options_against_the_schema(options, error, match):
    from lowdim.data import get_spec

    with pytest.raises(error, match=match):
        get_spec("digits").prepare(**options)


def test_a_dataset_without_options_says_so():
    from lowdim.data import get_spec

    with pytest.raises(TypeError, match="dataset 'lee' has no option 'n_rows'; its options: none"):
        get_spec("lee").prepare(n_rows=5)


def test_size_bounds_fill_defaults_and_are_empty_when_undeclared():
    from lowdim.data import get_spec

    assert get_spec("digits").size_bounds() == {"n": 1797, "p": 64}
    assert get_spec("digits").size_bounds({"n_rows": 100}) == {"n": 100, "p": 64}
    assert spec().size_bounds() == {} and spec().labelled
