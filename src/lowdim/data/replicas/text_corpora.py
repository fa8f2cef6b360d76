"""Replicas of the text corpora: 20 Newsgroups (latin-1 posts), movie polarity, web snippets."""

from __future__ import annotations

from pathlib import Path

from ._containers import balanced_labels, class_words, tar_gz

__all__ = ["write_20news", "write_movie_polarity", "write_web_snippets"]

_GROUPS = ["alt.atheism", "comp.graphics", "sci.space", "rec.autos", "sci.med", "talk.politics.guns",
           "misc.forsale", "rec.sport.hockey"]
_WORDS = ["orbit", "rocket", "render", "pixel", "faith", "belief", "launch", "shader", "moon",
          "doctrine", "engine", "wheel", "doctor", "patient", "gun", "law", "sale", "price",
          "hockey", "goal", "image", "church", "planet", "brake", "disease", "vote", "offer",
          "puck", "screen", "god", "nasa", "car", "health", "rights", "shipping", "team"]


def _post(number, subject, body):
    return (f"From: user{number}@example.edu\nSubject: {subject}\nOrganization: Example\n"
            f"Lines: 3\n\n{body}\n").encode("latin-1")


def write_20news(directory: Path, rng, per_group=2, drop_part=None, n_groups=3, body_words=6):
    """20news-bydate.tar.gz: 20news-bydate-{train,test}/<group>/<id>, latin-1 posts.

    Examples
    --------
    >>> from lowdim.data.replicas import write_20news
    >>> sorted(write_20news(tmp, rng)[0])   # the file names of the real download
    ['20news-bydate.tar.gz']
    """
    groups = _GROUPS[:n_groups]
    members, truth = {}, []
    number = 1000
    for part in ("train", "test"):
        for g, group in enumerate(groups):
            for _ in range(per_group):
                number += 1
                subject = (("Re: " if number % 2 else "")
                           + " ".join(class_words(rng, g, n_groups, _WORDS, 2)))
                body = " ".join(class_words(rng, g, n_groups, _WORDS, body_words)) \
                    + " na\xefve caf\xe9"
                members[f"20news-bydate-{part}/{group}/{number}"] = _post(number, subject, body)
                truth.append({"group": group, "subject": subject.removeprefix("Re: "),
                              "body": body + "\n", "train": part == "train"})
    if drop_part:
        members = {k: v for k, v in members.items() if not k.startswith(drop_part)}
    path = tar_gz(directory / "20news-bydate.tar.gz", members)
    return {"20news-bydate.tar.gz": path}, truth


def write_movie_polarity(directory: Path, rng, per_class=3, review_words=8):
    """review_polarity.tar.gz: txt_sentoken/{neg,pos}/cv<nnn>_<id>.txt plus the README.

    Examples
    --------
    >>> from lowdim.data.replicas import write_movie_polarity
    >>> sorted(write_movie_polarity(tmp, rng)[0])   # the file names of the real download
    ['review_polarity.tar.gz']
    """
    members, truth = {"poldata.README.2.0": b"polarity dataset v2.0\n"}, []
    for c, label in enumerate(("neg", "pos")):
        for i in range(per_class):
            text = " ".join(class_words(rng, c, 2, _WORDS, review_words)) + " .\n"
            members[f"txt_sentoken/{label}/cv{i:03d}_{int(rng.integers(10**4))}.txt"] = text.encode()
            truth.append((text, label))
    path = tar_gz(directory / "review_polarity.tar.gz", members)
    return {"review_polarity.tar.gz": path}, truth


def write_web_snippets(directory: Path, rng, n_train=5, n_test=3, n_labels=3):
    """data-web-snippets.tar.gz: data-web-snippets/{train,test}.txt, '<words> <label>' lines.

    Examples
    --------
    >>> from lowdim.data.replicas import write_web_snippets
    >>> sorted(write_web_snippets(tmp, rng)[0])   # the file names of the real download
    ['data-web-snippets.tar.gz']
    """
    labels = ["business", "computers", "sports", "health", "politics", "culture"][:n_labels]
    members, truth = {}, []
    for part, n in (("train", n_train), ("test", n_test)):
        lines = []
        for c in balanced_labels(rng, n, n_labels):
            words = " ".join(class_words(rng, int(c), n_labels, _WORDS, 5))
            lines.append(f"{words} {labels[c]} \n")
            truth.append((words, labels[c], part == "train"))
        members[f"data-web-snippets/{part}.txt"] = "".join(lines).encode()
    path = tar_gz(directory / "data-web-snippets.tar.gz", members)
    return {"data-web-snippets.tar.gz": path}, truth
