"""GLUE sentence-pair tasks of the SMS-Nyström paper (cross-encoder similarity): STS-B, MRPC, RTE.

Each prepared dataset (kind ``pairs``) has one row per sentence pair:
``extra.sentence_a``, ``extra.sentence_b``, ``extra.split`` ("train", "dev",
"test") and the gold value: ``extra.score`` (STS-B, 0-5, NaN where GLUE
withholds it) or ``extra.label`` and ``y`` (MRPC: 1 = paraphrase; RTE:
1 = entailment; -1 where withheld).

GLUE's TSVs are read as raw tab-separated text with no quoting (the files
contain unbalanced quotes). MRPC comes from SentEval's copies of the original
Microsoft files, which start with a UTF-8 byte-order mark; GLUE's dev set is
the training pairs listed in ``mrpc_dev_ids.tsv``, as GLUE's own download
script builds it.

Checksums: TensorFlow Datasets ``tensorflow_datasets/url_checksums/glue.txt``
(same SHA-256 for the ``dl.fbaipublicfiles.com`` copies, which
Transformers.jl's GLUE data dependencies pin to the same digests).
"""

from __future__ import annotations

import numpy as np

from ..parsing import FormatError, member_bytes, text_lines
from ..prepared import SPLIT_NAMES, Dataset
from ..registry import DatasetSpec, RemoteFile, register

__all__ = ["read_tsv"]

_GLUE = "https://dl.fbaipublicfiles.com/glue/data/"
_FIREBASE = "https://firebasestorage.googleapis.com/v0/b/mtl-sentence-representations.appspot.com/o/"
_SENTEVAL = "https://dl.fbaipublicfiles.com/senteval/senteval_data/"
_LICENCE = {"stsb": "CC BY-SA 4.0 (STS Benchmark, Cer et al. 2017)",
            "mrpc": "Microsoft Research Paraphrase Corpus licence (research use)",
            "rte": "RTE 1-3 and 5 (PASCAL); research use, see GLUE (Wang et al. 2019)"}
_SPLITS_OPTION = {"type": "array", "items": {"type": "string", "enum": list(SPLIT_NAMES)},
                  "default": ["train", "dev"], "uniqueItems": True, "minItems": 1,
                  "description": "GLUE splits to keep (test has no public gold labels for "
                                 "STS-B and RTE)"}



def read_tsv(data: bytes, dataset: str, path, member: str, columns) -> list[dict]:
    """Rows of a tab-separated file with a header, as dicts of the wanted ``columns``.

    The text is decoded as UTF-8 with a byte-order mark allowed; fields are split on
    tabs only (no quote handling, as GLUE's own loaders do).

    Examples
    --------
    >>> from lowdim.data.sources.glue import read_tsv
    >>> data = "index\\tsentence1\\tsentence2\\tlabel\\n0\\tA cat.\\tA dog.\\tnot_entailment\\n".encode()
    >>> read_tsv(data, "rte", "RTE.zip", "RTE/dev.tsv", ["sentence1", "label"])
    [{'sentence1': 'A cat.', 'label': 'not_entailment'}]
    """
    lines = text_lines(data.decode("utf-8-sig"))
    if not lines:
        raise FormatError(dataset, path, f"member {member!r} with a header line, got an empty file")
    header = lines[0].split("\t")
    missing = [c for c in columns if c not in header]
    if missing:
        raise FormatError(dataset, path, f"member {member!r} with columns {list(columns)}, "
                                         f"header is {header}")
    where = [header.index(c) for c in columns]
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        if not line.strip():
            continue
        if len(fields) <= max(where):
            raise FormatError(dataset, path, f"{len(header)} tab-separated fields on line "
                                             f"{number} of {member!r}, got {len(fields)}")
        rows.append({c: fields[i] for c, i in zip(columns, where)})
    return rows


def _pairs(name, rows_by_split, value_key):
    rows = [(split, row) for split, rows in rows_by_split for row in rows]
    extra = {"sentence_a": np.asarray([r["a"] for _, r in rows], dtype=str),
             "sentence_b": np.asarray([r["b"] for _, r in rows], dtype=str),
             "split": np.asarray([s for s, _ in rows], dtype=str)}
    values = np.asarray([r.get("value", np.nan) for _, r in rows], dtype=np.float64)
    y = None
    if value_key == "score":
        extra["score"] = values
    else:
        y = np.where(np.isnan(values), -1, values).astype(np.int64)
        extra["label"] = y
    return Dataset(name=name, kind="pairs", y=y, extra=extra,
                   meta={"gold": value_key, "splits": sorted(set(extra["split"].tolist()))})


def _stsb(raw_files, *, splits):
    archive = raw_files["STS-B.zip"]
    out = []
    for split in splits:
        member = f"STS-B/{split}.tsv"
        columns = ("sentence1", "sentence2") + (("score",) if split != "test" else ())
        rows = read_tsv(member_bytes(archive, member, "stsb"), "stsb", archive, member, columns)
        out.append((split, [{"a": r["sentence1"], "b": r["sentence2"],
                             "value": float(r["score"]) if "score" in r else np.nan}
                            for r in rows]))
    return _pairs("stsb", out, "score")


def _rte(raw_files, *, splits):
    archive = raw_files["RTE.zip"]
    codes = {"entailment": 1, "not_entailment": 0}
    out = []
    for split in splits:
        member = f"RTE/{split}.tsv"
        columns = ("sentence1", "sentence2") + (("label",) if split != "test" else ())
        rows = read_tsv(member_bytes(archive, member, "rte"), "rte", archive, member, columns)
        bad = sorted({r["label"] for r in rows if "label" in r} - set(codes))
        if bad:
            raise FormatError("rte", archive, f"labels {sorted(codes)} in {member!r}, got {bad}")
        out.append((split, [{"a": r["sentence1"], "b": r["sentence2"],
                             "value": codes[r["label"]] if "label" in r else np.nan}
                            for r in rows]))
    return _pairs("rte", out, "label")


_MRPC_COLUMNS = ("Quality", "#1 ID", "#2 ID", "#1 String", "#2 String")


def _mrpc_rows(raw_files, filename):
    path = raw_files[filename]
    rows = read_tsv(path.read_bytes(), "mrpc", path, filename, _MRPC_COLUMNS)
    return [{"a": r["#1 String"], "b": r["#2 String"], "value": int(r["Quality"]),
             "ids": (r["#1 ID"], r["#2 ID"])} for r in rows]


def _mrpc(raw_files, *, splits):
    ids_path = raw_files["mrpc_dev_ids.tsv"]
    dev_ids = {tuple(line.split("\t")[:2])
               for line in text_lines(ids_path.read_bytes().decode("utf-8-sig")) if line.strip()}
    train = _mrpc_rows(raw_files, "msr_paraphrase_train.txt")
    unknown = dev_ids - {r["ids"] for r in train}
    if unknown:
        raise FormatError("mrpc", ids_path, f"dev pairs that are training pairs of "
                                            f"msr_paraphrase_train.txt; {len(unknown)} are not, "
                                            f"e.g. {sorted(unknown)[0]}")
    parts = {"train": [r for r in train if r["ids"] not in dev_ids],
             "dev": [r for r in train if r["ids"] in dev_ids],
             "test": _mrpc_rows(raw_files, "msr_paraphrase_test.txt") if "test" in splits else []}
    return _pairs("mrpc", [(s, parts[s]) for s in splits], "label")


register(DatasetSpec(
    name="stsb", kind="pairs", parser=_stsb,
    files=(RemoteFile("STS-B.zip", (_GLUE + "STS-B.zip",
                                    _FIREBASE + "data%2FSTS-B.zip?alt=media&token="
                                                "bddb94a7-8706-4e0d-a694-1109e12273b5"),
                      "e60a6393de5a8b5b9bac5020a1554b54e3691f9d600b775bd131e613ac179c85", 802872),),
    description="STS Benchmark sentence pairs with similarity scores 0-5 (GLUE STS-B)",
    source="GLUE (Wang et al. 2019), STS-B (Cer et al. 2017)", licence=_LICENCE["stsb"],
    options_schema={"splits": _SPLITS_OPTION}))

register(DatasetSpec(
    name="rte", kind="pairs", parser=_rte,
    files=(RemoteFile("RTE.zip", (_GLUE + "RTE.zip",
                                  _FIREBASE + "data%2FRTE.zip?alt=media&token="
                                              "5efa7e85-a0bb-4f19-8ea2-9e1840f077fb"),
                      "6bf86de103ecd335f3441bd43574d23fef87ecc695977a63b82d5efb206556ee", 697150),),
    description="Recognising Textual Entailment sentence pairs, entailment or not (GLUE RTE)",
    source="GLUE (Wang et al. 2019), RTE (Dagan et al. 2005 and later)", licence=_LICENCE["rte"],
    options_schema={"splits": _SPLITS_OPTION}))

register(DatasetSpec(
    name="mrpc", kind="pairs", parser=_mrpc,
    files=(RemoteFile("msr_paraphrase_train.txt", (_SENTEVAL + "msr_paraphrase_train.txt",),
                      "60a9b09084528f0673eedee2b69cb941920f0b8cd0eeccefc464a98768457f89", 1047044),
           RemoteFile("msr_paraphrase_test.txt", (_SENTEVAL + "msr_paraphrase_test.txt",),
                      "a04e271090879aaba6423d65b94950c089298587d9c084bf9cd7439bd785f784", 441275),
           RemoteFile("mrpc_dev_ids.tsv", (_GLUE + "mrpc_dev_ids.tsv",
                                           _FIREBASE + "data%2Fmrpc_dev_ids.tsv?alt=media&token="
                                                       "ec5c0836-31d5-48f4-b431-7480817f1adc"),
                      "971d7767d81b997fd9060ade0ec23c4fc31cbb226a55d1bd4a1bac474eb81dc7", 6222)),
    description="Microsoft Research Paraphrase Corpus sentence pairs, paraphrase or not "
                "(GLUE MRPC)",
    source="GLUE (Wang et al. 2019), MRPC (Dolan & Brockett 2005) via SentEval",
    licence=_LICENCE["mrpc"],
    options_schema={"splits": _SPLITS_OPTION}))
