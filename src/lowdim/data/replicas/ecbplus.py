"""Replica of ECB+ (LREC 2014 release): a zip holding a nested zip of XML documents and a CSV."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ._containers import write_bytes, zip_bytes

__all__ = ["write_ecbplus"]

# Real English words, so that word-vector mention embeddings (GloVe) know them.
_EVENT_WORDS = ["struck", "hit", "killed", "arrested", "fired", "elected", "won", "signed",
                "attacked", "released", "launched", "resigned", "announced", "crashed", "sold",
                "acquired", "charged", "injured", "rescued", "approved"]
_ENTITY_WORDS = ["police", "president", "company", "earthquake", "actress", "team", "court",
                 "minister", "bank", "hospital", "city", "army", "rebels", "singer", "storm",
                 "ship", "school", "senator", "coach", "mayor"]
_FILLER = ["the", "in", "on", "after", "said", "reported", "yesterday", "officials", "local",
           "news", "near", "during", "early", "late", "new", "two", "three", "of", "and", "a"]


def _ecb_document(doc_name, sentences, mentions, relations):
    """One ECB+ XML document.

    sentences: list of token lists; mentions: {m_id: (tag, [t_id, ...])};
    relations: list of (kind, instance m_id, instance_id or None, [source m_ids]).
    """
    lines = ['<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
             f'<Document doc_name="{doc_name}" doc_id="DOC{sum(map(ord, doc_name)) * 7919}">']
    t_id = 0
    for s, words in enumerate(sentences):
        for number, word in enumerate(words):
            t_id += 1
            lines.append(f'<token t_id="{t_id}" sentence="{s}" number="{number}">{word}</token>')
    lines.append("<Markables>")
    for m_id, (tag, anchors) in mentions.items():
        lines.append(f'<{tag} m_id="{m_id}" note="byCROMER" >')
        lines.extend(f'<token_anchor t_id="{a}"/>' for a in anchors)
        lines.append(f"</{tag}>")
    for kind, target, instance_id, _ in relations:
        extra = f' instance_id="{instance_id}"' if instance_id else ""
        lines.append(f'<ACTION_OCCURRENCE m_id="{target}" RELATED_TO="" '
                     f'TAG_DESCRIPTOR="t_{target}"{extra}/>')
    lines.append("</Markables>\n<Relations>")
    for r, (kind, target, instance_id, sources) in enumerate(relations):
        note = f' note="{instance_id}"' if instance_id else ""
        lines.append(f'<{kind} r_id="{1000 + r}"{note} >')
        lines.extend(f'<source m_id="{m}" />' for m in sources)
        lines.append(f'<target m_id="{target}" />\n</{kind}>')
    lines.append("</Relations>\n</Document>")
    return "\n".join(lines).encode("utf-8")


def _fixed_documents():
    """Four hand-written documents in three topics (1: train, 2: dev, 36: test), and the truth."""
    docs = {
        "1_1ecb.xml": ([["Tara", "Reid", "entered", "rehab", "."], ["She", "checked", "in", "."]],
                       {"10": ("HUMAN_PART_PER", [1, 2]), "11": ("ACTION_OCCURRENCE", [3]),
                        "12": ("HUMAN_PART_PER", [6]), "13": ("ACTION_OCCURRENCE", [7, 8])},
                       [("CROSS_DOC_COREF", "40", "ACT1", ["11", "13"]),
                        ("INTRA_DOC_COREF", "41", None, ["10", "12"])]),
        "1_2ecbplus.xml": ([["Reid", "checks", "into", "rehab"]],
                           {"20": ("HUMAN_PART_PER", [1]), "21": ("ACTION_OCCURRENCE", [2, 3])},
                           [("CROSS_DOC_COREF", "40", "ACT1", ["21"])]),
        "2_1ecb.xml": ([["An", "earthquake", "struck", "."]],
                       {"30": ("NEG_ACTION_OCCURRENCE", [3]), "31": ("LOC_GEO", [2])}, []),
        "36_1ecbplus.xml": ([["Shares", "fell", "sharply"]],
                            {"50": ("ACTION_OCCURRENCE", [2])}, []),
    }
    validated = [("1", "1ecb", 0), ("1", "1ecb", 1), ("1", "2ecbplus", 0), ("2", "1ecb", 0)]
    truth = [  # (doc, text, type, gold key, validated)
        ("1_1ecb.xml", "Tara Reid", "entity", "1_1:chain", True),
        ("1_1ecb.xml", "entered", "event", "ACT1", True),
        ("1_1ecb.xml", "She", "entity", "1_1:chain", True),
        ("1_1ecb.xml", "checked in", "event", "ACT1", True),
        ("1_2ecbplus.xml", "Reid", "entity", "1_2:single", True),
        ("1_2ecbplus.xml", "checks into", "event", "ACT1", True),
        ("2_1ecb.xml", "struck", "event", "2_1:single", True),
        ("2_1ecb.xml", "earthquake", "entity", "2_1:single2", True),
        ("36_1ecbplus.xml", "fell", "event", "36:single", False),
    ]
    return docs, validated, truth


def _generated_document(rng, topic, clusters, n_sentences, doc_name, truth):
    """Sentences mentioning random clusters of the topic; cross-document relations by cluster."""
    sentences, mentions, members = [], {}, {}
    t_id, m_id = 0, 100
    for _ in range(n_sentences):
        tokens, chosen = list(rng.choice(_FILLER, size=3)), rng.choice(len(clusters), 2, False)
        for c in chosen:
            kind, key, words = clusters[c]
            tokens.insert(int(rng.integers(len(tokens) + 1)), str(rng.choice(words)))
        for c in chosen:  # anchors after all insertions, so token positions are final
            kind, key, words = clusters[c]
            position = next(i for i, w in enumerate(tokens) if w in words)
            anchor = t_id + position + 1
            tag = "ACTION_OCCURRENCE" if kind == "event" else "HUMAN_PART_ORG"
            mentions[str(m_id)] = (tag, [anchor])
            members.setdefault(key, []).append(str(m_id))
            truth.append((doc_name, tokens[position], kind, key, True))
            m_id += 1
        sentences.append(tokens)
        t_id += len(tokens)
    relations = []
    for key, sources in members.items():
        relations.append(("CROSS_DOC_COREF", str(m_id), key, sources))
        m_id += 1
    return sentences, mentions, relations


def _generated_documents(rng, topics, docs_per_topic, sentences_per_doc, clusters_per_topic):
    """Documents of ``topics``: each topic's clusters use words of their own (distinct topics)."""
    docs, validated, truth = {}, [], []
    for t, topic in enumerate(topics):
        clusters = []
        for k in range(clusters_per_topic):
            kind = "event" if k % 2 == 0 else "entity"
            pool = _EVENT_WORDS if kind == "event" else _ENTITY_WORDS
            start = (t * clusters_per_topic + k) % len(pool)
            words = sorted({pool[start], pool[(start + 7) % len(pool)]})
            clusters.append((kind, f"{'ACT' if kind == 'event' else 'HUM'}{topic}_{k}", words))
        for d in range(docs_per_topic):
            subtopic = "ecb" if d % 2 == 0 else "ecbplus"
            name = f"{topic}_{d // 2 + 1}{subtopic}.xml"
            docs[name] = _generated_document(rng, topic, clusters, sentences_per_doc, name, truth)
            validated += [(str(topic), f"{d // 2 + 1}{subtopic}", s)
                          for s in range(sentences_per_doc)]
    return docs, validated, truth


def write_ecbplus(directory: Path, rng, omit_member=None, topics=None, docs_per_topic=4,
                  sentences_per_doc=4, clusters_per_topic=6):
    """ECB+_LREC2014.zip with a nested ECB+.zip of XML documents and the validated-sentence CSV.

    By default four hand-written documents in three topics (1: train, 2: dev,
    36: test), where event cluster "ACT1" crosses documents of topic 1. With
    ``topics`` (a list of topic numbers, whose split follows the corpus's own
    rule), generated documents: ``docs_per_topic`` per topic, each sentence
    mentioning two of the topic's ``clusters_per_topic`` event and entity
    clusters. Truth: a list of mentions (doc, text, type, gold key, validated).

    Examples
    --------
    >>> from lowdim.data.replicas import write_ecbplus
    >>> sorted(write_ecbplus(tmp, rng)[0])   # the file names of the real download
    ['ECB+_LREC2014.zip']
    """
    if topics is None:
        docs, validated, truth = _fixed_documents()
    else:
        docs, validated, truth = _generated_documents(rng, topics, docs_per_topic,
                                                      sentences_per_doc, clusters_per_topic)
    inner = {}
    for name, (sentences, mentions, relations) in docs.items():
        inner[f"ECB+/{name.split('_')[0]}/{name}"] = _ecb_document(name, sentences, mentions,
                                                                    relations)
    csv_text = "Topic,File,Sentence Number\n" + "".join(f"{t},{f},{s}\n" for t, f, s in validated)
    members = {"ECB+_LREC2014/ECB+.zip": zip_bytes(inner),
               "ECB+_LREC2014/ECBplus_coreference_sentences.csv": csv_text.encode(),
               "ECB+_LREC2014/README.txt": b"ECB+ corpus\n"}
    if omit_member:
        del members[f"ECB+_LREC2014/{omit_member}"]
    path = write_bytes(directory / "ECB+_LREC2014.zip", zip_bytes(members))
    return {"ECB+_LREC2014.zip": path}, truth
