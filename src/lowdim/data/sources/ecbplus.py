"""ECB+ (Cybulska & Vossen 2014): event and entity mentions with gold coreference clusters.

``ECB+_LREC2014.zip`` holds ``ECB+_LREC2014/ECB+.zip`` (one XML file per
document, ``ECB+/<topic>/<topic>_<n>ecb[plus].xml``) and
``ECB+_LREC2014/ECBplus_coreference_sentences.csv`` (the sentences whose
annotation was validated; the corpus authors recommend using only those, as
Cattan et al. 2020 do).

In each XML file, ``<token t_id sentence number>`` elements carry the text;
``<Markables>`` holds mentions (a tag such as ``ACTION_OCCURRENCE`` or
``HUMAN_PART_PER`` with ``<token_anchor t_id>`` children) and instance
markables without anchors; ``<Relations>`` links source mentions to a target
instance: ``CROSS_DOC_COREF`` targets carry a corpus-wide ``instance_id``,
``INTRA_DOC_COREF`` targets do not (their chain is local to the document).
A mention in no relation is a singleton.

Prepared dataset (kind ``mentions``): ``texts`` are the mention strings,
``y`` integer gold cluster ids (``label_names`` the cluster keys), and
``extra`` has ``doc_id``, ``topic``, ``subtopic`` ("ecb"/"ecbplus"),
``sentence_id``, ``token_ids`` (space-separated), ``mention_type``
("event"/"entity"), ``tag``, ``sentence`` (the sentence text, for contextual
embeddings) and ``split`` (Cybulska & Vossen 2015 topic split). No checksum is
published: pinned on first download.
"""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET
import zipfile

import numpy as np

from ..parsing import FormatError, encode_labels, member_bytes
from ..prepared import SPLIT_NAMES, Dataset
from ..registry import DatasetSpec, RemoteFile, register

__all__ = ["DEV_TOPICS", "TEST_TOPICS", "parse_document"]

_ROOT = "ECB+_LREC2014"
#: Cybulska & Vossen (2015) split, used by Barhom et al. (2019) and Cattan et al. (2020).
DEV_TOPICS = frozenset({2, 5, 12, 18, 21, 23, 34, 35})
#: The test topics of the same split.
TEST_TOPICS = frozenset(range(36, 46))
_DOC_NAME = re.compile(r"^(\d+)_(\d+)(ecbplus|ecb)\.xml$")


def _split_of(topic: int) -> str:
    return "test" if topic in TEST_TOPICS else ("dev" if topic in DEV_TOPICS else "train")


def _mention_type(tag: str) -> str:
    return "event" if tag.startswith(("ACTION", "NEG_ACTION")) else "entity"


def parse_document(xml: bytes, doc_name: str, archive, dataset: str = "ecbplus") -> list[dict]:
    """Mentions of one ECB+ XML document with their gold cluster keys.

    Examples
    --------
    >>> from lowdim.data.sources.ecbplus import parse_document
    >>> xml = b'''<Document doc_name="1_1ecb.xml">
    ...   <token t_id="1" sentence="0">Police</token><token t_id="2" sentence="0">arrested</token>
    ...   <token t_id="3" sentence="0">him</token>
    ...   <Markables>
    ...     <ACTION_OCCURRENCE m_id="10"><token_anchor t_id="2"/></ACTION_OCCURRENCE>
    ...     <ACTION_OCCURRENCE m_id="20" TAG_DESCRIPTOR="arrest" instance_id="ACT1"/>
    ...   </Markables>
    ...   <Relations>
    ...     <CROSS_DOC_COREF r_id="1" note="ACT1"><source m_id="10"/><target m_id="20"/></CROSS_DOC_COREF>
    ...   </Relations>
    ... </Document>'''
    >>> [(m["text"], m["mention_type"], m["cluster"], m["sentence"])
    ...  for m in parse_document(xml, "1_1ecb.xml", "ECB+.zip")]
    [('arrested', 'event', 'ACT1', 'Police arrested him')]
    """
    try:
        root = ET.fromstring(xml)
    except ET.ParseError as exc:
        raise FormatError(dataset, archive, f"well-formed XML in {doc_name!r} ({exc})") from exc
    tokens = {t.get("t_id"): (t.text or "", int(t.get("sentence", -1)))
              for t in root.iter("token")}
    sentences: dict[int, list[str]] = {}
    for text, sent in tokens.values():
        sentences.setdefault(sent, []).append(text)
    markables = root.find("Markables")
    if markables is None or not tokens:
        raise FormatError(dataset, archive, f"<token> elements and <Markables> in {doc_name!r}")
    mentions, instances = {}, {}
    for mark in markables:
        anchors = [a.get("t_id") for a in mark.iter("token_anchor")]
        if anchors:
            mentions[mark.get("m_id")] = (mark.tag, [a for a in anchors if a in tokens])
        else:
            instances[mark.get("m_id")] = mark.get("instance_id")
    cluster = _clusters(root, instances, doc_name)
    out = []
    for m_id, (tag, anchors) in mentions.items():
        if not anchors:
            continue
        sentence = tokens[anchors[0]][1]
        out.append({"doc_id": doc_name, "m_id": m_id, "tag": tag, "token_ids": anchors,
                    "text": " ".join(tokens[a][0] for a in anchors), "sentence_id": sentence,
                    "sentence": " ".join(sentences[sentence]), "mention_type": _mention_type(tag),
                    "cluster": cluster.get(m_id, f"{doc_name}:{m_id}:singleton")})
    return out


def _clusters(root, instances, doc_name) -> dict:
    """Source mention id -> cluster key, from the document's coreference relations."""
    cluster = {}
    relations = root.find("Relations")
    for rel in (relations if relations is not None else []):
        if rel.tag not in ("CROSS_DOC_COREF", "INTRA_DOC_COREF"):
            continue
        target = rel.find("target")
        if target is None:
            continue
        t_id = target.get("m_id")
        cross = rel.get("note") if rel.tag == "CROSS_DOC_COREF" else None
        key = instances.get(t_id) or cross or f"{doc_name}:{t_id}"
        for source in rel.iter("source"):
            cluster[source.get("m_id")] = key
    return cluster


def _validated_sentences(data: bytes) -> set:
    reader = csv.reader(io.StringIO(data.decode("utf-8-sig")))
    header = next(reader, [])
    rows = [r for r in reader if len(r) >= 3]
    if [h.strip() for h in header[:3]] != ["Topic", "File", "Sentence Number"]:
        raise ValueError(f"header 'Topic,File,Sentence Number', got {header}")
    return {(f"{r[0].strip()}_{r[1].strip()}.xml", int(r[2])) for r in rows}


def _ecbplus(raw_files, *, mention_types: str, splits, validated_only: bool):
    archive = raw_files["ECB+_LREC2014.zip"]
    inner = member_bytes(archive, f"{_ROOT}/ECB+.zip", "ecbplus")
    try:
        validated = _validated_sentences(
            member_bytes(archive, f"{_ROOT}/ECBplus_coreference_sentences.csv", "ecbplus"))
    except ValueError as exc:
        raise FormatError("ecbplus", archive, f"ECBplus_coreference_sentences.csv with {exc}") \
            from exc
    mentions, n_docs = [], 0
    with zipfile.ZipFile(io.BytesIO(inner)) as zf:
        for name in sorted(zf.namelist()):
            match = _DOC_NAME.match(name.rsplit("/", 1)[-1])
            n_docs += bool(match)
            if not match or _split_of(int(match[1])) not in splits:
                continue
            for m in parse_document(zf.read(name), match[0], archive):
                m.update(topic=int(match[1]), subtopic=match[3], split=_split_of(int(match[1])))
                mentions.append(m)
    if not n_docs:
        raise FormatError("ecbplus", archive, "XML documents ECB+/<topic>/<topic>_<n>ecb[plus].xml "
                                              "inside ECB+.zip")
    if validated_only:
        mentions = [m for m in mentions if (m["doc_id"], m["sentence_id"]) in validated]
    if mention_types != "both":
        mentions = [m for m in mentions if m["mention_type"] == mention_types]
    return _mentions_dataset(mentions, mention_types, validated_only)


def _mentions_dataset(mentions, mention_types, validated_only):
    y, names = encode_labels([m["cluster"] for m in mentions])
    extra = {key: np.asarray([m[key] for m in mentions], dtype=str)
             for key in ("doc_id", "subtopic", "mention_type", "tag", "sentence", "split")}
    extra["topic"] = np.asarray([m["topic"] for m in mentions], dtype=np.int64)
    extra["sentence_id"] = np.asarray([m["sentence_id"] for m in mentions], dtype=np.int64)
    extra["token_ids"] = np.asarray([" ".join(m["token_ids"]) for m in mentions], dtype=str)
    return Dataset(name="ecbplus", kind="mentions",
                   texts=np.asarray([m["text"] for m in mentions], dtype=str), y=y,
                   label_names=names, extra=extra,
                   meta={"mention_types": mention_types, "validated_only": validated_only,
                         "n_clusters": int(len(names)),
                         "split_topics": {"dev": sorted(DEV_TOPICS), "test": sorted(TEST_TOPICS)}})


register(DatasetSpec(
    name="ecbplus", kind="mentions", parser=_ecbplus,
    # GitHub's cltl/ecbPlus holds the same corpus unpacked (ECB+.zip and the CSV at its
    # root), not this archive byte for byte, so it cannot serve as a verified mirror.
    files=(RemoteFile("ECB+_LREC2014.zip", ("http://kyoto.let.vu.nl/repo/ECB+_LREC2014.zip",)),),
    description="ECB+ news documents: event and entity mentions with cross-document "
                "coreference clusters, 43 topics",
    source="Cybulska & Vossen 2014 (LREC), ECB+ corpus",
    licence="CC BY 3.0",
    options_schema={
        "mention_types": {"type": "string", "enum": ["event", "entity", "both"],
                          "default": "both", "description": "which mentions to keep"},
        "splits": {"type": "array", "uniqueItems": True, "minItems": 1,
                   "items": {"type": "string", "enum": list(SPLIT_NAMES)},
                   "default": list(SPLIT_NAMES),
                   "description": "topic splits of Cybulska & Vossen (2015) to keep"},
        "validated_only": {"type": "boolean", "default": True,
                           "description": "keep only mentions in the validated sentences of "
                                          "ECBplus_coreference_sentences.csv"}}))
