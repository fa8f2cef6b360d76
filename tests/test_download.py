"""Fault tests for verified downloads, against a real HTTP server on 127.0.0.1."""

import gzip
import hashlib
import importlib
import json
import logging
import multiprocessing
import random
import re
import threading
import time
from pathlib import Path

import pytest

from lowdim.data import RemoteFile, lock
from lowdim.data.download import (ChecksumError, DownloadError, download, ensure_file,
                                  verify_file)

pytestmark = pytest.mark.network

# Whole gzip streams (pins need a container that passes its integrity check), about 100 kB:
# several reads, below one chunk. ``OTHER`` is a newer release of the same file.
DATA = gzip.compress(random.Random(0).randbytes(102_400), mtime=0)
OTHER = gzip.compress(b"a newer release of the file\n" * 1000, mtime=0)
#: One attempt, no back-off; the default 30-s timeout. Only a "hang" fault waits for a
#: timeout (its tests give a short one); every other fault must be reported as itself however
#: slowly a loaded machine runs the server thread, so no other test gives a short timeout.
FAST = {"retries": 1, "backoff": 0.0}


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def remote(*urls, data=DATA, pinned_only=False, size=True):
    """A RemoteFile for ``data`` (no published checksum if ``pinned_only``)."""
    return RemoteFile("file.gz", tuple(urls), None if pinned_only else sha(data),
                      len(data) if size else None)


@pytest.fixture
def raw(tmp_path):
    """Directory standing in for resources/raw/<dataset>/."""
    directory = tmp_path / "raw"
    directory.mkdir()
    return directory


@pytest.fixture
def lockfile(tmp_path):
    return tmp_path / "config" / "downloads.lock.json"


def assert_clean_failure(raw: Path):
    """Nothing at the final path and no temporary file left behind."""
    assert list(raw.iterdir()) == []


def test_primary_404_uses_mirror(http_server, raw):
    primary = http_server.serve("/primary/file.gz", DATA, fault=404)
    mirror = http_server.serve("/mirror/file.gz", DATA)
    dest = download(remote(primary, mirror), raw / "file.gz", dataset="toy", retries=3,
                    backoff=0.0)
    assert dest.read_bytes() == DATA
    # a 404 is not retried: one request to the primary, one to the mirror
    assert http_server.requests == ["/primary/file.gz", "/mirror/file.gz"]
    assert list(raw.iterdir()) == [dest]


def test_transient_500_is_retried_with_exponential_backoff(http_server, raw, monkeypatch):
    sleeps, real_sleep, this_thread = [], time.sleep, threading.current_thread()
    # ``lowdim.data.download`` is the function (exported by the package); patch the module.
    # Its ``time`` is the interpreter's one module: the session's background threads (the
    # SLURM cluster's start-up polls every 0.2 s) sleep through it too, so only this
    # thread's sleeps are the download's.

    def sleep(seconds):
        if threading.current_thread() is this_thread:
            sleeps.append(seconds)
        else:
            real_sleep(seconds)

    module = importlib.import_module("lowdim.data.download")
    monkeypatch.setattr(module.time, "sleep", sleep)
    url = http_server.serve("/flaky.bin", DATA, fault=500, times=2)
    download(remote(url), raw / "file.gz", dataset="toy", retries=3, backoff=0.25)
    assert (raw / "file.gz").read_bytes() == DATA
    assert http_server.count("/flaky.bin") == 3
    assert sleeps == [0.25, 0.5]


def test_truncated_body_fails_cleanly(http_server, raw):
    url = http_server.serve("/cut.bin", DATA, fault="truncate")
    with pytest.raises(DownloadError) as info:
        download(remote(url), raw / "file.gz", dataset="toy", retries=2, backoff=0.0)
    reason = f"truncated: got {len(DATA) // 2} of {len(DATA)} bytes"
    assert reason in str(info.value)
    assert info.value.attempts == [(url, reason)] * 2  # transient: retried
    assert_clean_failure(raw)


def test_truncated_body_detected_without_known_size(http_server, raw):
    url = http_server.serve("/cut.bin", DATA, fault="truncate")
    with pytest.raises(DownloadError, match=rf"truncated: got {len(DATA) // 2} of {len(DATA)} bytes"):
        download(remote(url, size=False), raw / "file.gz", dataset="toy", **FAST)
    assert_clean_failure(raw)


def test_wrong_checksum_fails_cleanly_and_is_not_retried_endlessly(http_server, raw):
    url = http_server.serve("/bad.bin", DATA, fault="corrupt")
    with pytest.raises(DownloadError) as info:
        download(remote(url), raw / "file.gz", dataset="toy", retries=5, backoff=0.0)
    corrupt = bytearray(DATA)
    corrupt[len(DATA) // 2] ^= 0xFF
    message = str(info.value)
    assert f"checksum mismatch: expected {sha(DATA)} got {sha(bytes(corrupt))}" in message
    assert http_server.count("/bad.bin") <= 2
    assert_clean_failure(raw)


def test_wrong_size_announced_is_refused(http_server, raw):
    url = http_server.serve("/other.bin", OTHER)
    with pytest.raises(DownloadError, match=rf"size mismatch: server announces {len(OTHER)} "
                                            rf"bytes, expected {len(DATA)}"):
        download(remote(url), raw / "file.gz", dataset="toy", retries=3, backoff=0.0)
    assert http_server.count("/other.bin") == 1
    assert_clean_failure(raw)


def test_connection_refused_tries_next_address(http_server, refused_server, raw):
    dead = refused_server.url("/file.gz")
    mirror = http_server.serve("/file.gz", DATA)
    download(remote(dead, mirror), raw / "file.gz", dataset="toy", **FAST)
    assert (raw / "file.gz").read_bytes() == DATA
    assert http_server.requests == ["/file.gz"]


def test_server_that_never_answers_times_out(http_server, raw):
    # deterministic however loaded the machine: a server that never answers always times out
    url = http_server.serve("/hang.bin", DATA, fault="hang")
    with pytest.raises(DownloadError) as info:
        download(remote(url), raw / "file.gz", dataset="toy", timeout=0.3, retries=1,
                 backoff=0.0)
    assert info.value.attempts == [(url, "timed out (no data for 0.3 s)")]
    assert_clean_failure(raw)


def test_all_addresses_fail_one_error_lists_each(http_server, refused_server, raw):
    urls = [http_server.serve("/a/file.gz", DATA, fault=404),
            refused_server.url("/b/file.gz"),
            http_server.serve("/c/file.gz", DATA, fault="truncate"),
            http_server.serve("/d/file.gz", DATA, fault="corrupt"),
            http_server.serve("/f/file.gz", DATA, fault="close")]
    with pytest.raises(DownloadError) as info:
        download(remote(*urls), raw / "file.gz", dataset="toy", **FAST)
    lines = str(info.value).splitlines()
    assert "'file.gz' of dataset 'toy'" in lines[0] and "5 address(es)" in lines[0]
    expected = ["HTTP 404", "connection refused",
                f"truncated: got {len(DATA) // 2} of {len(DATA)} bytes",
                "checksum mismatch: expected", "without a response"]
    assert len(lines) == 1 + len(urls)
    for line, url, reason in zip(lines[1:], urls, expected):
        assert line.startswith(f"  - {url}: ") and reason in line, line
    assert [u for u, _ in info.value.attempts] == urls
    assert_clean_failure(raw)


def test_a_timeout_is_listed_with_the_other_failures(http_server, refused_server, raw):
    # the refused address fails in the kernel, with no server thread to wait for: only the
    # hang waits for the short timeout
    urls = [refused_server.url("/a/file.gz"), http_server.serve("/b/file.gz", DATA, fault="hang")]
    with pytest.raises(DownloadError) as info:
        download(remote(*urls), raw / "file.gz", dataset="toy", timeout=0.3, retries=1,
                 backoff=0.0)
    assert info.value.attempts == [(urls[0], "connection refused"),
                                   (urls[1], "timed out (no data for 0.3 s)")]
    assert str(info.value).splitlines()[2] == f"  - {urls[1]}: timed out (no data for 0.3 s)"
    assert_clean_failure(raw)


def test_retried_address_reports_attempt_count(refused_server, raw):
    url = refused_server.url("/file.gz")
    with pytest.raises(DownloadError) as info:
        download(remote(url), raw / "file.gz", dataset="toy", retries=3, backoff=0.0)
    assert str(info.value).splitlines()[1] == f"  - {url}: connection refused (3 attempts)"
    assert len(info.value.attempts) == 3


def test_failed_download_leaves_existing_dest_untouched(http_server, raw):
    dest = raw / "file.gz"
    dest.write_bytes(b"previous")
    url = http_server.serve("/cut.bin", DATA, fault="truncate")
    with pytest.raises(DownloadError):
        download(remote(url), dest, dataset="toy", **FAST)
    assert dest.read_bytes() == b"previous"
    assert list(raw.iterdir()) == [dest]


def test_first_download_is_pinned_then_changed_file_rejected(http_server, raw, lockfile):
    url = http_server.serve("/file.gz", DATA)
    unpinned = remote(url, pinned_only=True, size=False)
    download(unpinned, raw / "file.gz", dataset="toy", lockfile=lockfile, **FAST)
    entry = json.loads(lockfile.read_text())["toy"]["file.gz"]
    assert entry["sha256"] == sha(DATA) and entry["size"] == len(DATA) and entry["url"] == url
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", entry["pinned"])

    http_server.serve("/file.gz", OTHER)  # upstream silently changes the file
    with pytest.raises(DownloadError) as info:
        download(unpinned, raw / "again.bin", dataset="toy", lockfile=lockfile, **FAST)
    assert (f"size mismatch: server announces {len(OTHER)} bytes, expected {len(DATA)}"
            in str(info.value))
    assert not (raw / "again.bin").exists()
    assert json.loads(lockfile.read_text())["toy"]["file.gz"] == entry

    same_size = bytes(reversed(DATA))
    http_server.serve("/file.gz", same_size)
    with pytest.raises(DownloadError, match=rf"checksum mismatch: expected {sha(DATA)} "
                                            rf"got {sha(same_size)} \(lock file\)"):
        download(unpinned, raw / "again.bin", dataset="toy", lockfile=lockfile, **FAST)
    assert sorted(p.name for p in raw.iterdir()) == ["file.gz"]


def test_published_checksum_is_not_pinned(http_server, raw, lockfile):
    download(remote(http_server.serve("/file.gz", DATA)), raw / "file.gz", dataset="toy",
             lockfile=lockfile, **FAST)
    assert not lockfile.exists()


def test_ensure_file_replaces_corrupt_cache(http_server, raw, lockfile, caplog):
    url = http_server.serve("/file.gz", DATA)
    dest = raw / "file.gz"
    dest.write_bytes(DATA[:-1] + bytes([DATA[-1] ^ 1]))  # same size, wrong content
    with caplog.at_level(logging.WARNING, logger="lowdim"):
        ensure_file(remote(url), dest, dataset="toy", lockfile=lockfile, **FAST)
    assert dest.read_bytes() == DATA
    assert http_server.count("/file.gz") == 1
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("checksum mismatch" in w and "'toy'" in w and "downloading again" in w
               for w in warnings), warnings
    assert list(raw.iterdir()) == [dest]


def test_ensure_file_corrupt_cache_and_failed_download_leaves_nothing(http_server, raw):
    dest = raw / "file.gz"
    dest.write_bytes(b"corrupt")
    url = http_server.serve("/file.gz", DATA, fault=404)
    with pytest.raises(DownloadError):
        ensure_file(remote(url), dest, dataset="toy", **FAST)
    assert_clean_failure(raw)


def test_ensure_file_uses_valid_cache_without_request(http_server, raw, lockfile):
    url = http_server.serve("/file.gz", DATA)
    dest = raw / "file.gz"
    ensure_file(remote(url, pinned_only=True), dest, dataset="toy", lockfile=lockfile, **FAST)
    assert http_server.requests == ["/file.gz"]
    assert ensure_file(remote(url, pinned_only=True), dest, dataset="toy",
                       lockfile=lockfile, **FAST) == dest
    assert ensure_file(remote(url), dest, dataset="toy", lockfile=lockfile, **FAST) == dest
    assert http_server.requests == ["/file.gz"]


def test_ensure_file_pins_hand_copied_file(raw, lockfile, refused_server):
    dest = raw / "file.gz"
    dest.write_bytes(DATA)
    unpinned = remote(refused_server.url("/file.gz"), pinned_only=True)
    ensure_file(unpinned, dest, dataset="toy", lockfile=lockfile, **FAST)
    assert lock.get_pin("toy", "file.gz", lockfile)["sha256"] == sha(DATA)


def test_verify_file_error_names_dataset_file_expected_got(tmp_path):
    path = tmp_path / "file.gz"
    path.write_bytes(OTHER[: len(DATA)].ljust(len(DATA), b"x"))
    with pytest.raises(ChecksumError) as info:
        verify_file(path, remote("http://example.invalid/file.gz"), dataset="toy")
    error = info.value
    assert isinstance(error, ValueError)
    message = str(error)
    assert "'toy'" in message and "'file.gz'" in message
    assert sha(DATA) in message and error.got in message and error.got != sha(DATA)
    path.write_bytes(b"short")
    with pytest.raises(ChecksumError, match=rf"size mismatch: expected {len(DATA)} bytes"):
        verify_file(path, remote("http://example.invalid/file.gz"), dataset="toy")


def test_file_url_and_progress_lines(tmp_path, raw, caplog):
    source = tmp_path / "source.bin"
    source.write_bytes(DATA)
    url = source.as_uri()
    with caplog.at_level(logging.INFO, logger="lowdim"):
        download(remote(url), raw / "file.gz", dataset="toy", **FAST)
    assert (raw / "file.gz").read_bytes() == DATA
    lines = [r.getMessage() for r in caplog.records]
    assert f"download toy/file.gz from {url}: start, {len(DATA)} bytes" in lines
    assert any(re.fullmatch(rf"download toy/file\.gz from {re.escape(url)}: done, "
                            rf"{len(DATA)} bytes in \S+ s \(\S+ bytes/s\)", line)
               for line in lines), lines


def test_missing_local_file_is_not_retried(tmp_path, raw):
    url = (tmp_path / "absent.bin").as_uri()
    with pytest.raises(DownloadError, match="no such file") as info:
        download(remote(url), raw / "file.gz", dataset="toy", retries=3, backoff=0.0)
    assert len(info.value.attempts) == 1


@pytest.mark.parametrize("kwargs, name", [({"timeout": 0}, "timeout"),
                                          ({"retries": 0}, "retries"),
                                          ({"backoff": -1}, "backoff")])
def test_bad_arguments_are_named(raw, kwargs, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        download(remote("http://example.invalid/x"), raw / "x", dataset="toy", **kwargs)


def _pin_many(lockfile, worker, n):
    for i in range(n):
        lock.pin(f"set{worker}", f"file{i}.bin", sha256=f"{worker:032x}{i:032x}", size=i,
                 url=f"http://example.invalid/{worker}/{i}", lockfile=lockfile)


def test_concurrent_pins_do_not_corrupt_lock_file(lockfile):
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_pin_many, args=(lockfile, w, 25)) for w in range(4)]
    threads = [threading.Thread(target=_pin_many, args=(lockfile, 10 + w, 25)) for w in range(2)]
    for job in workers + threads:
        job.start()
    for job in workers + threads:
        job.join(timeout=60)
    assert [w.exitcode for w in workers] == [0] * 4
    data = lock.read_lock(lockfile)
    assert sorted(data) == sorted(f"set{w}" for w in [0, 1, 2, 3, 10, 11])
    for name, files in data.items():
        worker = int(name[3:])
        assert len(files) == 25
        for i in range(25):
            assert files[f"file{i}.bin"]["sha256"] == f"{worker:032x}{i:032x}"
    assert [p.name for p in lockfile.parent.iterdir() if p.name.endswith(".part.json")] == []


def test_first_pin_wins(lockfile):
    first = lock.pin("toy", "f", sha256="a" * 64, size=1, url="u1", lockfile=lockfile)
    second = lock.pin("toy", "f", sha256="b" * 64, size=2, url="u2", lockfile=lockfile)
    assert second == first and lock.get_pin("toy", "f", lockfile)["sha256"] == "a" * 64


def test_concurrent_downloads_of_unpinned_file_agree(http_server, tmp_path, lockfile):
    url = http_server.serve("/file.gz", DATA)
    unpinned = remote(url, pinned_only=True)
    errors = []

    def job(i):
        try:
            download(unpinned, tmp_path / f"raw{i}" / "file.gz", dataset="toy",
                     lockfile=lockfile, **FAST)
        except Exception as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=job, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == []
    pinned = lock.read_lock(lockfile)
    assert list(pinned) == ["toy"] and list(pinned["toy"]) == ["file.gz"]
    assert pinned["toy"]["file.gz"]["sha256"] == sha(DATA)
    for i in range(4):
        assert (tmp_path / f"raw{i}" / "file.gz").read_bytes() == DATA


def test_corrupt_lock_file_is_reported(lockfile):
    lockfile.parent.mkdir(parents=True)
    lockfile.write_text("{not json")
    with pytest.raises(ValueError, match="downloads.lock.json.*not valid JSON"):
        lock.get_pin("toy", "file.gz", lockfile)


def test_data_layer_never_unpickles():
    root = Path(__file__).resolve().parents[1] / "src" / "lowdim" / "data"
    pattern = re.compile(r"^\s*(import|from)\s+(pickle|cPickle|_pickle|dill|joblib)\b|"
                         r"allow_pickle\s*=\s*True|pd\.read_pickle|torch\.load", re.M)
    offenders = [str(p) for p in root.rglob("*.py") if pattern.search(p.read_text())]
    assert offenders == []


def test_ensure_dataset_files_feeds_prepare(http_server, tmp_path, lockfile):
    from lowdim.data import DatasetSpec, Dataset, ensure_dataset_files
    from lowdim.data.download import pin_parsed

    def parser(raw_files, **options):
        text = raw_files["words.txt"].read_text().split()
        return Dataset("words", "text", texts=__import__("numpy").asarray(text))

    files = (RemoteFile("words.txt", (http_server.serve("/w.txt", b"a b c"),)),
             RemoteFile("file.gz", (http_server.serve("/f.bin", DATA),), sha(DATA), len(DATA)))
    spec = DatasetSpec("words", "text", "three words", "tests", "CC0", parser, files)
    raw = ensure_dataset_files(spec, tmp_path / "resources" / "raw", lockfile=lockfile, **FAST)
    assert raw == {"words.txt": tmp_path / "resources/raw/words/words.txt",
                   "file.gz": tmp_path / "resources/raw/words/file.gz"}
    assert list(spec.prepare(raw).texts) == ["a", "b", "c"]
    # plain text has no container to check: pinned only once its parser accepted it
    assert not lockfile.exists()
    assert pin_parsed(spec, raw, lockfile=lockfile) == ["words.txt"]
    assert set(lock.read_lock(lockfile)["words"]) == {"words.txt"}
