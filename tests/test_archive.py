"""Safe extraction: hostile archives are refused before anything is written."""

import io
import stat
import tarfile
import zipfile

import pytest

from lowdim.data import archive as archive_mod
from lowdim.data.archive import (ArchiveError, MissingMemberError, UnsafeArchiveError,
                                 iter_members, list_members, read_member, safe_extract)

GOOD = {"./corpus/README": b"readme\n", "./corpus/train/a.txt": b"alpha\n",
        "./corpus/train/b.txt": b"beta\n", "./corpus/test/c.txt": b"gamma\n"}
TAR_MODES = {"tar.gz": "w:gz", "tgz": "w:gz", "tar.bz2": "w:bz2", "tar": "w", "tar.xz": "w:xz"}


def make_tar(path, files=None, special=(), mode="w:gz"):
    """A tar with regular ``files`` {name: bytes} and ``special`` TarInfo entries."""
    with tarfile.open(path, mode) as tar:
        for name, data in (files or {}).items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        for info in special:
            tar.addfile(info)
    return path


def tar_link(name, target, kind=tarfile.SYMTYPE):
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, target
    return info


def make_zip(path, files=None, symlinks=None):
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in (files or {}).items():
            zf.writestr(zipfile.ZipInfo(name), data)
        for name, target in (symlinks or {}).items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            zf.writestr(info, target)
    return path


@pytest.fixture
def area(tmp_path):
    """(archive dir, extraction parent): an escape from the latter lands in tmp_path."""
    (tmp_path / "archives").mkdir()
    (tmp_path / "out").mkdir()
    return tmp_path


def assert_nothing_written(area):
    assert list((area / "out").iterdir()) == []
    assert sorted(p.name for p in area.iterdir()) == ["archives", "out"]


@pytest.mark.parametrize("fmt", ["tar.gz", "zip"])
@pytest.mark.parametrize("evil", ["../evil", "corpus/../../evil", "/tmp/lowdim-absolute-evil"],
                         ids=["dotdot", "nested-dotdot", "absolute"])
def test_traversal_member_refused_before_writing(area, fmt, evil):
    files = {**GOOD, evil: b"pwned"}
    path = area / "archives" / f"bad.{fmt}"
    make_zip(path, files) if fmt == "zip" else make_tar(path, files)
    with pytest.raises(UnsafeArchiveError) as info:
        safe_extract(path, area / "out" / "corpus", dataset="toy")
    message = str(info.value)
    assert "'toy'" in message and f"'bad.{fmt}'" in message and repr(evil) in message
    assert ("absolute" in message) == evil.startswith("/")
    assert_nothing_written(area)
    assert not (area.parent / "evil").exists()


@pytest.mark.parametrize("target", ["../../outside", "/etc"], ids=["relative", "absolute"])
def test_escaping_symlink_refused(area, target):
    path = make_tar(area / "archives" / "bad.tar.gz", GOOD, [tar_link("corpus/link", target)])
    with pytest.raises(UnsafeArchiveError, match=r"member 'corpus/link' is a symlink to .*outside"):
        safe_extract(path, area / "out" / "corpus")
    assert_nothing_written(area)


def test_escaping_hardlink_refused(area):
    path = make_tar(area / "archives" / "bad.tar", GOOD,
                    [tar_link("passwd", "/etc/passwd", tarfile.LNKTYPE)], mode="w")
    with pytest.raises(UnsafeArchiveError, match="hardlink to '/etc/passwd'"):
        safe_extract(path, area / "out" / "x")
    assert_nothing_written(area)


def test_escaping_zip_symlink_refused(area):
    path = make_zip(area / "archives" / "bad.zip", GOOD, symlinks={"corpus/link": "../../.."})
    with pytest.raises(UnsafeArchiveError, match="'corpus/link' is a symlink"):
        safe_extract(path, area / "out" / "x", dataset="toy")
    assert_nothing_written(area)


def test_write_through_inside_link_refused(area):
    # "a" -> "." is inside, and "a/up" -> ".." looks inside lexically ("a/.." == ".") but
    # resolves to the parent of the destination once "a" is followed.
    path = make_tar(area / "archives" / "bad.tar.gz", {},
                    [tar_link("a", "."), tar_link("a/up", "..")])
    with pytest.raises(UnsafeArchiveError, match="written through the link 'a'"):
        safe_extract(path, area / "out" / "x")
    assert_nothing_written(area)


@pytest.mark.parametrize("kind", [tarfile.FIFOTYPE, tarfile.CHRTYPE, tarfile.BLKTYPE],
                         ids=["fifo", "char-device", "block-device"])
def test_special_member_refused(area, kind):
    info = tarfile.TarInfo("corpus/dev")
    info.type = kind
    path = make_tar(area / "archives" / "bad.tar.gz", GOOD, [info])
    with pytest.raises(UnsafeArchiveError, match="'corpus/dev' is a device, fifo"):
        safe_extract(path, area / "out" / "x")
    assert_nothing_written(area)


@pytest.mark.parametrize("fmt", ["zip", *TAR_MODES])
def test_good_archive_extracts(area, fmt):
    path = area / "archives" / f"good.{fmt}"
    make_zip(path, GOOD) if fmt == "zip" else make_tar(path, GOOD, mode=TAR_MODES[fmt])
    dest = area / "out" / "corpus"
    paths = safe_extract(path, dest, dataset="toy")
    names = [name[2:] for name in GOOD]
    assert paths == [dest / name for name in names]
    for name, data in GOOD.items():
        assert (dest / name[2:]).read_bytes() == data
    assert sorted(p.name for p in (area / "out").iterdir()) == ["corpus"]
    assert list_members(path) == names
    assert read_member(path, "corpus/train/b.txt") == b"beta\n"
    assert read_member(path, "./corpus/train/b.txt") == b"beta\n"
    assert dict(iter_members(path, prefix="corpus/train/")) == {
        "corpus/train/a.txt": b"alpha\n", "corpus/train/b.txt": b"beta\n"}


def test_inside_symlink_is_kept(area):
    path = make_tar(area / "archives" / "good.tar.gz", GOOD,
                    [tar_link("corpus/latest", "train/a.txt")])
    dest = area / "out" / "x"
    safe_extract(path, dest)
    assert (dest / "corpus/latest").is_symlink()
    assert (dest / "corpus/latest").read_bytes() == b"alpha\n"


def test_members_subset_and_directory(area):
    path = make_tar(area / "archives" / "good.tar.gz", GOOD)
    dest = area / "out" / "x"
    paths = safe_extract(path, dest, ["corpus/README", "corpus/train"])
    assert paths == [dest / "corpus/README", dest / "corpus/train/a.txt",
                     dest / "corpus/train/b.txt"]
    assert not (dest / "corpus/test").exists()


def test_subset_skips_unsafe_members_it_does_not_write(area):
    path = make_tar(area / "archives" / "mixed.tar.gz", {**GOOD, "../evil": b"x"})
    dest = area / "out" / "x"
    assert safe_extract(path, dest, ["corpus/README"]) == [dest / "corpus/README"]


def test_reextraction_replaces_old_tree(area):
    path = make_tar(area / "archives" / "good.tar.gz", GOOD)
    dest = area / "out" / "x"
    dest.mkdir()
    (dest / "stale.txt").write_text("old")
    safe_extract(path, dest)
    assert not (dest / "stale.txt").exists()
    assert (dest / "corpus/README").read_bytes() == b"readme\n"
    assert sorted(p.name for p in (area / "out").iterdir()) == ["x"]


def test_interrupted_extraction_does_not_look_complete(area, monkeypatch):
    path = make_tar(area / "archives" / "good.tar.gz", GOOD)
    real = archive_mod._extract_into

    def crash(reader, chosen, root):
        real(reader, chosen[:2], root)
        raise KeyboardInterrupt

    monkeypatch.setattr(archive_mod, "_extract_into", crash)
    with pytest.raises(KeyboardInterrupt):
        safe_extract(path, area / "out" / "x")
    assert list((area / "out").iterdir()) == []


@pytest.mark.parametrize("fmt", ["tar.gz", "zip"])
def test_missing_member_names_dataset_archive_member(area, fmt):
    path = area / "archives" / f"good.{fmt}"
    make_zip(path, GOOD) if fmt == "zip" else make_tar(path, GOOD)
    with pytest.raises(MissingMemberError) as info:
        read_member(path, "corpus/valid/d.txt", dataset="toy")
    error = info.value
    assert isinstance(error, KeyError) and isinstance(error, LookupError)
    message = str(error)
    assert message.startswith(f"dataset 'toy', archive 'good.{fmt}': expected member "
                              "'corpus/valid/d.txt' is missing")
    assert "'corpus/train/a.txt'" in message
    assert error.member == "corpus/valid/d.txt" and error.archive == path
    with pytest.raises(MissingMemberError, match="'corpus/valid'"):
        safe_extract(path, area / "out" / "x", ["corpus/README", "corpus/valid"], dataset="toy")
    assert_nothing_written(area)


def test_not_an_archive(area):
    path = area / "archives" / "junk.tar.gz"
    path.write_bytes(b"<html>not found</html>")
    with pytest.raises(ArchiveError, match="junk.tar.gz.*not a readable zip or tar"):
        list_members(path)


def test_zip_fifo_member_refused(area):
    path = area / "archives" / "bad.zip"
    with zipfile.ZipFile(path, "w") as zf:
        info = zipfile.ZipInfo("corpus/pipe")
        info.external_attr = (stat.S_IFIFO | 0o644) << 16
        zf.writestr(info, b"")
    with pytest.raises(UnsafeArchiveError, match="'corpus/pipe' is a device, fifo"):
        safe_extract(path, area / "out" / "x")
    assert_nothing_written(area)


def make_zip_in_order(path, members):
    """A zip of ``members``, (name, bytes, is_symlink) in that order (names may repeat)."""
    with zipfile.ZipFile(path, "w") as zf:
        for name, data, is_link in members:
            info = zipfile.ZipInfo(name)
            if is_link:
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
            zf.writestr(info, data)
    return path


@pytest.mark.filterwarnings("ignore:Duplicate name")
def test_zip_symlink_chain_out_of_the_destination_refused(area):
    # "l1" -> "." is inside; "l2" -> "l1/../escaped.txt" looks inside lexically, but once "l1"
    # is followed it is the destination's parent; the file "l2" would then be written there.
    path = make_zip_in_order(area / "archives" / "bad.zip", [
        ("l1", b".", True), ("l2", b"l1/../escaped.txt", True), ("l2", b"pwned", False)])
    with pytest.raises(UnsafeArchiveError, match=r"'bad.zip': member 'l2' is a symlink to "
                                                  r"'l1/../escaped.txt'.*through the link 'l1'"):
        safe_extract(path, area / "out" / "x", dataset="toy")
    assert_nothing_written(area)


@pytest.mark.filterwarnings("ignore:Duplicate name")
@pytest.mark.parametrize("fmt", ["zip", "tar"])
def test_member_named_like_a_link_refused(area, fmt):
    # writing the file "corpus/latest" would follow the link and overwrite its target
    members = [("corpus/a.txt", b"alpha", False), ("corpus/latest", b"a.txt", True),
               ("corpus/latest", b"pwned", False)]
    path = area / "archives" / f"bad.{fmt}"
    if fmt == "zip":
        make_zip_in_order(path, members)
    else:
        with tarfile.open(path, "w") as tar:
            for name, data, is_link in members:
                info = tar_link(name, data.decode()) if is_link else tarfile.TarInfo(name)
                info.size = 0 if is_link else len(data)
                tar.addfile(info, None if is_link else io.BytesIO(data))
    with pytest.raises(UnsafeArchiveError, match="member 'corpus/latest' would be written "
                                                 "through the link 'corpus/latest'"):
        safe_extract(path, area / "out" / "x")
    assert_nothing_written(area)


@pytest.mark.filterwarnings("ignore:Duplicate name")
def test_zip_file_is_not_written_through_a_link_even_unchecked(area, monkeypatch):
    # the second line of defence: with the checks off, the write still does not follow a link
    monkeypatch.setattr(archive_mod, "_check_entry", lambda *args: None)
    path = make_zip_in_order(area / "archives" / "bad.zip", [
        ("evil", b"../../escaped.txt", True), ("evil", b"pwned", False)])
    with pytest.raises(UnsafeArchiveError, match="member 'evil' would be written through a link"):
        safe_extract(path, area / "out" / "x")
    assert not (area / "escaped.txt").exists()
    assert_nothing_written(area)


def test_zip_links_inside_the_destination_are_kept(area):
    path = make_zip(area / "archives" / "good.zip", GOOD,
                    symlinks={"corpus/latest": "train/a.txt", "corpus/test/readme": "../README",
                              "corpus/newest": "latest"})
    dest = area / "out" / "x"
    safe_extract(path, dest)
    assert (dest / "corpus/test/readme").is_symlink()
    assert (dest / "corpus/test/readme").read_bytes() == b"readme\n"
    assert (dest / "corpus/newest").read_bytes() == b"alpha\n"
