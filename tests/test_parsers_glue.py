"""GLUE STS-B, RTE and MRPC parsers on TSVs in the real layout (MRPC with its UTF-8 BOM)."""

import zipfile

import numpy as np
import pytest

from fixtures import formats
from lowdim.data import get_spec, load_dataset, save_dataset
from lowdim.data.parsing import FormatError, MissingMemberError
from lowdim.data.sources.glue import read_tsv


@pytest.fixture
def rng():
    return np.random.default_rng(2)


def _rows(ds, split, value):
    keep = ds.extra["split"] == split
    values = ds.extra[value][keep]
    return list(zip(ds.extra["sentence_a"][keep].tolist(), ds.extra["sentence_b"][keep].tolist(),
                    values.tolist()))


def test_stsb_scores_and_unscored_test(tmp_path, rng):
    files, truth = formats.write_stsb(tmp_path, rng)
    ds = get_spec("stsb").prepare(files, splits=["train", "dev", "test"])
    ds = load_dataset(save_dataset(ds, tmp_path / "stsb.npz"))
    for split in ("train", "dev"):
        assert _rows(ds, split, "score") == truth[split]
    test = ds.extra["score"][ds.extra["split"] == "test"]
    assert test.size == len(truth["test"]) and np.isnan(test).all()
    assert ds.n == 3 * len(truth["train"])


def test_rte_labels(tmp_path, rng):
    files, truth = formats.write_rte(tmp_path, rng)
    ds = get_spec("rte").prepare(files)
    assert _rows(ds, "dev", "label") == truth["dev"]
    assert set(ds.extra["split"].tolist()) == {"train", "dev"}
    np.testing.assert_array_equal(ds.y, ds.extra["label"])


def test_mrpc_bom_and_glue_dev_split(tmp_path, rng):
    files, truth = formats.write_mrpc(tmp_path, rng)
    ds = get_spec("mrpc").prepare(files, splits=["train", "dev", "test"])
    for split in ("train", "dev", "test"):
        assert _rows(ds, split, "label") == truth[split]
    assert not any(s.startswith("\ufeff") for s in ds.extra["sentence_a"])


def test_stsb_missing_member_is_named(tmp_path, rng):
    files, _ = formats.write_stsb(tmp_path, rng)
    with zipfile.ZipFile(files["STS-B.zip"]) as zf:
        kept = {n: zf.read(n) for n in zf.namelist() if not n.endswith("train.tsv")}
    files["STS-B.zip"].write_bytes(formats.zip_bytes(kept))
    with pytest.raises(MissingMemberError, match=r"stsb.*STS-B\.zip.*STS-B/train\.tsv"):
        get_spec("stsb").prepare(files)


def test_mrpc_wrong_header_is_named(tmp_path, rng):
    files, _ = formats.write_mrpc(tmp_path, rng)
    path = files["msr_paraphrase_test.txt"]
    path.write_bytes(path.read_bytes().replace(b"#2 String", b"Second"))
    with pytest.raises(FormatError, match=r"'mrpc'.*msr_paraphrase_test\.txt.*#2 String"):
        get_spec("mrpc").prepare(files, splits=["test"])


# str.splitlines() also breaks at these; inside a "\n"-terminated row they are text
NOT_LINE_BREAKS = ["\x85", "\u2028", "\u2029", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"]


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_tsv_rows_end_at_newlines_only(newline):
    lines = ["index\tsentence1\tsentence2\tlabel"] + [
        f"{i}\tHe said{c} it rained.\tIt rained.\tentailment"
        for i, c in enumerate(NOT_LINE_BREAKS)]
    data = newline.join(lines).encode("utf-8")  # the last row has no newline
    rows = read_tsv(data, "rte", "RTE.zip", "RTE/dev.tsv", ["sentence1", "label"])
    assert rows == [{"sentence1": f"He said{c} it rained.", "label": "entailment"}
                    for c in NOT_LINE_BREAKS]
    assert read_tsv(data + newline.encode(), "rte", "RTE.zip", "RTE/dev.tsv", ["label"]) == \
        [{"label": "entailment"}] * len(NOT_LINE_BREAKS)


def test_mrpc_dev_ids_file_with_crlf(tmp_path, rng):
    files, truth = formats.write_mrpc(tmp_path, rng)
    ids = files["mrpc_dev_ids.tsv"]
    ids.write_bytes(ids.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    ds = get_spec("mrpc").prepare(files, splits=["dev"])
    assert _rows(ds, "dev", "label") == truth["dev"]
