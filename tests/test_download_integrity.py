"""A truncated first download is never pinned; prepare verifies and never downloads; mirrors.

The first two reproduce the defects of issue 11: a half-length Mediamill
``train-exp1.svm.bz2`` served as if complete was pinned in the lock file, after
which the complete file was rejected; and ``prepare`` re-downloaded raw files
itself, inside a compute job.
"""

import dataclasses

import numpy as np
import pytest

from fixtures import formats
from lowdim.data import get_spec, lock
from lowdim.data.download import (ChecksumError, DownloadError, RawFileError, download,
                                  mirror_urls, verify_file)
from lowdim.data.integrity import CorruptFileError, check_container
from lowdim.data.pipeline import prepare_dataset

pytestmark = pytest.mark.network
FAST = {"retries": 1, "backoff": 0.0}  # the default 30-s timeout: no fault here waits for it


@pytest.fixture
def mediamill(tmp_path):
    """The two real-format Mediamill files and the registry's (unpublished) remote entries."""
    upstream = tmp_path / "upstream"
    upstream.mkdir()
    files, _ = formats.write_mediamill(upstream, np.random.default_rng(0), n_train=300)
    return files, {f.filename: f for f in get_spec("mediamill").files}


def test_truncated_first_download_is_not_pinned_and_complete_one_is_accepted(
        http_server, tmp_path, mediamill):
    files, remotes = mediamill
    complete = files["train-exp1.svm.bz2"].read_bytes()
    half = complete[: len(complete) // 2]
    lockfile, dest = tmp_path / "lock.json", tmp_path / "raw" / "train-exp1.svm.bz2"
    # the server announces the half length, so the transfer itself looks complete
    url = http_server.serve("/train-exp1.svm.bz2", half)
    remote = dataclasses.replace(remotes["train-exp1.svm.bz2"], urls=(url,))
    with pytest.raises(DownloadError, match="incomplete or corrupt file.*end-of-stream"):
        download(remote, dest, dataset="mediamill", lockfile=lockfile, **FAST)
    assert not dest.exists() and not list(dest.parent.glob("*"))
    assert lock.get_pin("mediamill", "train-exp1.svm.bz2", lockfile) is None

    http_server.serve("/train-exp1.svm.bz2", complete)
    download(remote, dest, dataset="mediamill", lockfile=lockfile, **FAST)
    assert dest.read_bytes() == complete
    assert lock.get_pin("mediamill", "train-exp1.svm.bz2", lockfile)["size"] == len(complete)


def test_truncated_hand_copied_file_is_rejected_not_pinned(tmp_path, mediamill):
    files, remotes = mediamill
    path = tmp_path / "train-exp1.svm.bz2"
    path.write_bytes(files["train-exp1.svm.bz2"].read_bytes()[:-100])
    with pytest.raises(ChecksumError, match="no checksum to compare with.*truncated"):
        verify_file(path, remotes["train-exp1.svm.bz2"], dataset="mediamill",
                    lockfile=tmp_path / "lock.json")
    assert not (tmp_path / "lock.json").exists()


@pytest.mark.parametrize("name, filename", [
    ("cifar10", "cifar-10-binary.tar.gz"), ("coil20", "coil-20-proc.zip"),
    ("svhn", "train_32x32.mat"), ("wmd_bbcsport", "bbcsport-emd_tr_te_split.mat"),
    ("mnist", "train-images-idx3-ubyte.gz"), ("mediamill", "test-exp1.svm.bz2")])
def test_every_container_kind_detects_truncation(tmp_path, name, filename):
    files, _ = formats.WRITERS[name](tmp_path, np.random.default_rng(1))
    assert check_container(files[filename]) is True
    data = files[filename].read_bytes()
    for keep in (len(data) // 2, len(data) - 1):
        cut = tmp_path / f"cut_{filename}"
        cut.write_bytes(data[:keep])
        with pytest.raises(CorruptFileError, match="truncated"):
            check_container(cut, filename)


def test_plain_files_are_pinned_only_after_they_parse(tmp_path):
    raw = tmp_path / "raw"
    formats.write_ptb(raw / "ptb", np.random.default_rng(2))
    lockfile = tmp_path / "lock.json"
    data = prepare_dataset("ptb", {"vocab_size": 5}, raw_dir=raw, lockfile=lockfile)
    assert data.n > 0
    assert set(lock.read_lock(lockfile)["ptb"]) == {"ptb.train.txt", "ptb.valid.txt",
                                                   "ptb.test.txt"}


def test_prepare_never_downloads_and_names_the_missing_file(tmp_path, http_server):
    raw = tmp_path / "raw"
    formats.write_mediamill(raw / "mediamill", np.random.default_rng(3))
    (raw / "mediamill" / "test-exp1.svm.bz2").unlink()
    with pytest.raises(RawFileError) as info:
        prepare_dataset("mediamill", raw_dir=raw, lockfile=tmp_path / "lock.json")
    message = str(info.value)
    path = raw / "mediamill" / "test-exp1.svm.bz2"
    assert f"'{path}' is missing" in message
    assert f"snakemake --cores 1 --force {path}" in message
    assert http_server.requests == [] and not path.exists()


def test_prepare_refuses_a_file_that_changed_since_its_pin(tmp_path):
    raw = tmp_path / "raw"
    files, _ = formats.write_mediamill(raw / "mediamill", np.random.default_rng(4))
    lockfile = tmp_path / "lock.json"
    prepare_dataset("mediamill", raw_dir=raw, lockfile=lockfile)  # pins both (whole bz2)
    formats.write_mediamill(raw / "mediamill", np.random.default_rng(5))
    with pytest.raises(RawFileError, match=r"fails verification: .*(size|checksum) mismatch.*--force"):
        prepare_dataset("mediamill", raw_dir=raw, lockfile=lockfile)


def test_mirror_addresses_and_order(tmp_path, http_server):
    local = tmp_path / "copy"
    assert mirror_urls([str(local), "https://mirror.example.org/lowdim/"], "ecbplus",
                       "ECB+_LREC2014.zip") == [
        (local / "ecbplus" / "ECB+_LREC2014.zip").as_uri(),
        "https://mirror.example.org/lowdim/ecbplus/ECB%2B_LREC2014.zip"]
    with pytest.raises(ValueError, match="mirror 'ftp://x'.*http, https or file"):
        mirror_urls(["ftp://x"], "d", "f")
    # a mirror is tried before the registry's addresses, which are then not contacted
    files, _ = formats.write_mediamill(local / "mediamill", np.random.default_rng(6))
    primary = http_server.serve("/primary/test-exp1.svm.bz2", b"never asked", fault=404)
    remote = dataclasses.replace(get_spec("mediamill").files[1], urls=(primary,))
    dest = download(remote, tmp_path / "raw" / "test-exp1.svm.bz2", dataset="mediamill",
                    lockfile=tmp_path / "lock.json", mirrors=[local.as_uri()], **FAST)
    assert dest.read_bytes() == files["test-exp1.svm.bz2"].read_bytes()
    assert http_server.requests == []


def test_replica_manifest_replaces_registry_checksums_only_when_given(tmp_path):
    from lowdim.data.replicas import read_manifest, save_manifest, write_mirror

    base = tmp_path / "mirror"
    manifest = write_mirror(base, ["rte"], seed=0)
    save_manifest(tmp_path / "manifest.json", manifest)
    checksums = read_manifest(tmp_path / "manifest.json")
    # RTE.zip has a published checksum and size; its real address is not contacted here
    remote = dataclasses.replace(get_spec("rte").files[0],
                                 urls=((tmp_path / "nowhere" / "RTE.zip").as_uri(),))
    dest = tmp_path / "raw" / "RTE.zip"
    with pytest.raises(DownloadError, match=r"announces \d+ bytes, expected 697150"):
        download(remote, dest, dataset="rte", mirrors=[str(base)], **FAST)
    download(remote, dest, dataset="rte", mirrors=[str(base)], checksums=checksums, **FAST)
    assert verify_file(dest, remote, dataset="rte", checksums=checksums) == \
        checksums["rte"]["RTE.zip"]["sha256"]
