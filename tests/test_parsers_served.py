"""Every downloaded dataset end to end: served over HTTP -> download -> verify -> prepare.

The real-format files of ``tests/fixtures/formats.py`` are served by a real HTTP
server on 127.0.0.1. Each dataset's registry entry is used as is, except that
its addresses point to that server and a published checksum is replaced by the
fixture's (the fixture is not the real file); unpublished ones stay None and
must be pinned in the lock file by the first download.
"""

import dataclasses
import hashlib

import numpy as np
import pytest

from fixtures import formats
from lowdim.data import get_spec, load_dataset
from lowdim.data.download import DownloadError, ensure_dataset_files, pin_parsed
from lowdim.data.integrity import has_container_check
from lowdim.data.lock import read_lock
from lowdim.data.pipeline import write_prepared
from lowdim.data.sources.kusner import KUSNER_CORPORA

pytestmark = pytest.mark.network


def _kusner(name):
    filename = KUSNER_CORPORA[name][0]
    if "_split" in filename:
        return lambda d, rng: formats.write_kusner_split(d, rng, filename=filename)
    return lambda d, rng: formats.write_kusner_fixed(d, rng, filename=filename,
                                                     with_words=name != "wmd_20news")


WRITERS = {
    "mnist": formats.write_mnist, "mnist_halves": formats.write_mnist,
    "cifar10": formats.write_cifar10, "svhn": formats.write_svhn, "coil20": formats.write_coil20,
    "newsgroups_long": formats.write_20news, "newsgroups_short": formats.write_20news,
    "movie_polarity": formats.write_movie_polarity, "web_snippets": formats.write_web_snippets,
    "stsb": formats.write_stsb, "rte": formats.write_rte, "mrpc": formats.write_mrpc,
    "ecbplus": formats.write_ecbplus, "mediamill": formats.write_mediamill,
    "ptb": formats.write_ptb, "url_reputation": formats.write_url_reputation,
    "word2vec_googlenews": formats.write_word2vec,
    **{name: _kusner(name) for name in KUSNER_CORPORA},
}


def _sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _served_spec(name, files, server, mirror_down=False):
    """The registered spec with addresses on ``server`` (and a dead primary if asked)."""
    spec = get_spec(name)
    remotes = []
    for remote in spec.files:
        path = files[remote.filename]
        url = server.serve(f"/{name}/{remote.filename}", path.read_bytes())
        urls = (url,)
        if mirror_down:
            urls = (server.serve(f"/gone/{name}/{remote.filename}", b"", fault=404),) + urls
        sha = _sha256(path) if remote.sha256 else None
        size = path.stat().st_size if remote.size else None
        remotes.append(dataclasses.replace(remote, urls=urls, sha256=sha, size=size))
    return dataclasses.replace(spec, files=tuple(remotes))


def test_every_remote_dataset_has_a_format_writer():
    from lowdim.data import REGISTRY

    remote = {name for name, spec in REGISTRY.items() if spec.files}
    assert remote == set(WRITERS)


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_download_verify_prepare(name, tmp_path, http_server):
    upstream = tmp_path / "upstream"
    upstream.mkdir()
    files, _ = WRITERS[name](upstream, np.random.default_rng(7))
    spec = _served_spec(name, files, http_server, mirror_down=True)
    lock = tmp_path / "downloads.lock.json"
    raw = ensure_dataset_files(spec, tmp_path / "raw", lockfile=lock, retries=1, backoff=0)
    assert {p.name for p in raw.values()} == {f.filename for f in spec.files}
    for remote in spec.files:
        assert _sha256(raw[remote.filename]) == _sha256(files[remote.filename])
    # unpublished files are pinned at download when their container is whole (archives,
    # compressed and .mat files), and plain files only once their parser accepted them
    unpublished = {f.filename for f in spec.files if f.sha256 is None}
    whole = {f for f in unpublished if has_container_check(f)}
    assert set(read_lock(lock).get(name, {})) == whole
    # parsed from the downloaded copies exactly as from the originals
    served = spec.prepare(raw)
    assert set(pin_parsed(spec, raw, lockfile=lock)) == unpublished - whole
    assert set(read_lock(lock).get(name, {})) == unpublished
    direct = spec.prepare(files)
    row = write_prepared(served, tmp_path / f"{name}.npz", tmp_path / f"{name}.csv")
    loaded = load_dataset(tmp_path / f"{name}.npz")
    assert row["n"] == direct.n == loaded.n > 0
    for field in ("X", "Y", "y", "bow", "word_vectors", "texts"):
        a, b = getattr(direct, field), getattr(loaded, field)
        assert (a is None) == (b is None), field
        if a is not None:
            a = a.toarray() if hasattr(a, "toarray") else a
            b = b.toarray() if hasattr(b, "toarray") else b
            np.testing.assert_array_equal(np.asarray(a), np.asarray(b), err_msg=field)


def test_interrupted_download_leaves_nothing_and_next_run_restarts(tmp_path, http_server):
    files, _ = formats.write_cifar10(tmp_path, np.random.default_rng(8))
    spec = _served_spec("cifar10", files, http_server)
    remote = spec.files[0]
    data = files[remote.filename].read_bytes()
    http_server.serve(f"/cifar10/{remote.filename}", data, fault="truncate", times=1)
    dest_dir = tmp_path / "raw" / "cifar10"
    with pytest.raises(DownloadError, match="cifar10"):
        ensure_dataset_files(spec, tmp_path / "raw", lockfile=tmp_path / "lock.json",
                             retries=1, backoff=0)
    assert not (dest_dir / remote.filename).exists()
    assert not any(dest_dir.glob("*")) if dest_dir.exists() else True
    raw = ensure_dataset_files(spec, tmp_path / "raw", lockfile=tmp_path / "lock.json",
                               retries=1, backoff=0)
    assert raw[remote.filename].read_bytes() == data
    assert spec.prepare(raw).n == 18
