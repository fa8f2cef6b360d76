"""Replicas of GLUE STS-B and RTE (zipped TSVs) and SentEval's MRPC (TSV with a UTF-8 BOM)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ._containers import tsv_bytes, write_bytes, zip_bytes

__all__ = ["sentence_pool", "write_stsb", "write_rte", "write_mrpc"]

# Sentences with the characters that break naive TSV readers: quotes, apostrophes, non-ASCII.
_SENTENCES = ['A man is playing a "guitar.', "The cat's bowl is empty.", "Café prices rose 5%.",
              'He said "no" twice', "Stocks fell; bonds rose.", "It isn't raining"]
_WORDS = ["man", "woman", "cat", "dog", "guitar", "plays", "runs", "market", "stocks", "fell",
          "rose", "the", "a", "is", "on", "red", "café", "rain", "bank", "river", "bowl",
          "quickly", "slowly", "said", "never", "bright", "court", "ruled", "city", "news"]


def sentence_pool(rng, n_generated: int = 0) -> list[str]:
    """The fixed awkward sentences plus ``n_generated`` distinct random ones.

    Examples
    --------
    >>> from lowdim.data.replicas.glue import sentence_pool
    >>> pool = sentence_pool(np.random.default_rng(0), n_generated=3)
    >>> len(pool) == len(sentence_pool(np.random.default_rng(0))) + 3, len(set(pool)) == len(pool)
    (True, True)
    """
    pool, seen = list(_SENTENCES), set(_SENTENCES)
    while len(pool) < len(_SENTENCES) + n_generated:
        words = rng.choice(_WORDS, size=int(rng.integers(4, 10)))
        sentence = " ".join(words).capitalize() + "."
        if sentence not in seen:
            seen.add(sentence)
            pool.append(sentence)
    return pool


def _pair(rng, pool):
    a, b = rng.choice(len(pool), size=2, replace=False)
    return pool[a], pool[b]


def write_stsb(directory: Path, rng, n=4, n_sentences=0):
    """STS-B.zip: STS-B/{train,dev,test}.tsv with GLUE's ten columns (test without score).

    Examples
    --------
    >>> from lowdim.data.replicas import write_stsb
    >>> sorted(write_stsb(tmp, rng)[0])   # the file names of the real download
    ['STS-B.zip']
    """
    header = ["index", "genre", "filename", "year", "old_index", "source1", "source2",
              "sentence1", "sentence2", "score"]
    pool = sentence_pool(rng, n_sentences)
    members, truth = {}, {}
    for split in ("train", "dev", "test"):
        rows = []
        for i in range(n):
            a, b = _pair(rng, pool)
            score = round(float(rng.uniform(0, 5)), 3)
            rows.append([i, "main-captions", "MSRvid", "2012test", i, "none", "none", a, b, score])
        cut = -1 if split == "test" else None
        members[f"STS-B/{split}.tsv"] = tsv_bytes(header[:cut], [r[:cut] for r in rows])
        truth[split] = [(r[7], r[8], r[9] if split != "test" else None) for r in rows]
    members["STS-B/LICENSE.txt"] = b"CC BY-SA 4.0\n"
    path = write_bytes(directory / "STS-B.zip", zip_bytes(members))
    return {"STS-B.zip": path}, truth


def write_rte(directory: Path, rng, n=4, n_sentences=0):
    """RTE.zip: RTE/{train,dev,test}.tsv with index, sentence1, sentence2[, label].

    Examples
    --------
    >>> from lowdim.data.replicas import write_rte
    >>> sorted(write_rte(tmp, rng)[0])   # the file names of the real download
    ['RTE.zip']
    """
    pool = sentence_pool(rng, n_sentences)
    members, truth = {}, {}
    for split in ("train", "dev", "test"):
        rows = []
        for i in range(n):
            a, b = _pair(rng, pool)
            rows.append([i, a, b, ["entailment", "not_entailment"][int(rng.integers(2))]])
        header = ["index", "sentence1", "sentence2", "label"]
        cut = -1 if split == "test" else None
        members[f"RTE/{split}.tsv"] = tsv_bytes(header[:cut], [r[:cut] for r in rows])
        truth[split] = [(r[1], r[2], int(r[3] == "entailment") if split != "test" else None)
                        for r in rows]
    path = write_bytes(directory / "RTE.zip", zip_bytes(members))
    return {"RTE.zip": path}, truth


def write_mrpc(directory: Path, rng, n_train=6, n_test=3, n_dev=2, n_sentences=0):
    """SentEval's msr_paraphrase_{train,test}.txt (UTF-8 BOM) and GLUE's mrpc_dev_ids.tsv.

    Examples
    --------
    >>> from lowdim.data.replicas import write_mrpc
    >>> sorted(write_mrpc(tmp, rng)[0])   # the file names of the real download
    ['mrpc_dev_ids.tsv', 'msr_paraphrase_test.txt', 'msr_paraphrase_train.txt']
    """
    header = ["Quality", "#1 ID", "#2 ID", "#1 String", "#2 String"]
    pool = sentence_pool(rng, n_sentences)
    files, truth = {}, {}
    for name, n, offset in (("msr_paraphrase_train.txt", n_train, 1000),
                            ("msr_paraphrase_test.txt", n_test, 5000)):
        rows = []
        for i in range(n):
            a, b = _pair(rng, pool)
            rows.append([int(rng.integers(2)), offset + 2 * i, offset + 2 * i + 1, a, b])
        files[name] = write_bytes(directory / name, b"\xef\xbb\xbf" + tsv_bytes(header, rows))
        truth[name] = rows
    dev = truth["msr_paraphrase_train.txt"][:n_dev]
    files["mrpc_dev_ids.tsv"] = write_bytes(directory / "mrpc_dev_ids.tsv",
                                            "".join(f"{r[1]}\t{r[2]}\n" for r in dev).encode())
    return files, {"train": [(r[3], r[4], r[0]) for r in truth["msr_paraphrase_train.txt"][n_dev:]],
                   "dev": [(r[3], r[4], r[0]) for r in dev],
                   "test": [(r[3], r[4], r[0]) for r in truth["msr_paraphrase_test.txt"]]}
