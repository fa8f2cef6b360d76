"""Text datasets of the Vec2vec paper: 20 Newsgroups (long and short), movie reviews, web snippets.

Each prepared dataset (kind ``text``) keeps the raw ``texts``, labels ``y`` and a
bag of words (``bow`` over ``vocab``) from :func:`lowdim.data.text.tokenize`
(lower-case, English stop words removed); the Vec2vec experiments weight it
with TF-IDF. Documents with no token left are dropped before sampling (they
have no direction for cosine similarity); ``meta["dropped_empty"]`` counts them.
The paper uses 2,000 random documents of each: ``n_rows: 2000``.

- ``newsgroups_long``: posts of the "bydate" version (18,846) without their headers
  (everything before the first blank line), as scikit-learn's
  ``remove=("headers",)`` does; quotes and signatures are kept.
- ``newsgroups_short``: the Subject line only (its text after ``Subject:``, with
  any leading ``Re:`` removed), the "titles" of the paper.
- ``movie_polarity``: Pang & Lee's polarity dataset v2.0, 1,000 positive and
  1,000 negative reviews.
- ``web_snippets``: Phan et al.'s Google search snippets, 12,340 snippets in 8
  domains; each line is the snippet's words followed by its label.

Checksums: 20 Newsgroups' from scikit-learn (``sklearn/datasets/_twenty_newsgroups.py``,
``ARCHIVE.checksum``); none published for the others (pinned on first download).
"""

from __future__ import annotations

import re

import numpy as np

from ..parsing import FormatError, kept_rows, member_bytes, members_under, text_lines
from ..registry import DatasetSpec, RemoteFile, register
from ..text import text_dataset

__all__ = ["strip_header", "subject_of"]

_OPTIONS = {
    "n_rows": {"type": "integer", "minimum": 0, "default": 0,
               "description": "documents to keep (random, seeded); 0 keeps all"},
    "seed": {"type": "integer", "minimum": 0, "default": 0,
             "description": "seed for document sampling"},
    "min_count": {"type": "integer", "minimum": 1, "default": 1,
                  "description": "keep words seen at least this many times in the kept documents"},
}


# --- 20 Newsgroups ------------------------------------------------------------------------
_NEWS_PARTS = ("20news-bydate-train/", "20news-bydate-test/")
_RE_PREFIX = re.compile(r"^\s*(re\s*:\s*)+", re.IGNORECASE)



def strip_header(post: str) -> str:
    """The body of a post: everything after the first blank line (scikit-learn's rule).

    Examples
    --------
    >>> from lowdim.data.sources.text_corpora import strip_header
    >>> strip_header("From: a@b.c\\nSubject: Re: cats\\n\\nCats sleep a lot.\\n")
    'Cats sleep a lot.\\n'
    """
    _, blank, body = post.partition("\n\n")
    return body if blank else post


def subject_of(post: str) -> str:
    """The Subject header's text without leading ``Re:`` prefixes ("" if there is none).

    Examples
    --------
    >>> from lowdim.data.sources.text_corpora import subject_of
    >>> subject_of("From: a@b.c\\nSubject: Re: RE: cats\\n\\nCats sleep a lot.\\n")
    'cats'
    """
    header = post.partition("\n\n")[0]
    for line in text_lines(header):
        if line.lower().startswith("subject:"):
            return _RE_PREFIX.sub("", line[len("subject:"):]).strip()
    return ""


def read_20news(archive, dataset: str):
    """Posts (latin-1), newsgroup names and the train mask, in archive order by part."""
    posts, groups, is_train = [], [], []
    for part in _NEWS_PARTS:
        found = 0
        for name, data in members_under(archive, part, dataset):
            pieces = name.split("/")
            if len(pieces) != 3:
                continue
            posts.append(data.decode("latin-1"))
            groups.append(pieces[1])
            is_train.append(part == _NEWS_PARTS[0])
            found += 1
        if not found:
            raise FormatError(dataset, archive, f"posts under {part}<newsgroup>/<id>")
    return posts, groups, np.asarray(is_train)


def _twenty_news(name, extract):
    def parse(raw_files, *, n_rows, seed, min_count):
        posts, groups, is_train = read_20news(raw_files["20news-bydate.tar.gz"], name)
        return text_dataset(name, [extract(p) for p in posts], groups, is_train, n_rows=n_rows,
                            seed=seed, min_count=min_count)

    parse.__name__ = f"_parse_{name}"
    return parse


# --- movie reviews ------------------------------------------------------------------------
def _movie_polarity(raw_files, *, n_rows, seed, min_count):
    archive = raw_files["review_polarity.tar.gz"]
    texts, labels = [], []
    for name, data in members_under(archive, "txt_sentoken/", "movie_polarity"):
        pieces = name.split("/")
        if len(pieces) == 3 and pieces[1] in ("neg", "pos") and pieces[2].endswith(".txt"):
            texts.append(data.decode("utf-8", errors="replace"))
            labels.append(pieces[1])
    if set(labels) != {"neg", "pos"}:
        raise FormatError("movie_polarity", archive, "reviews under txt_sentoken/neg/ and "
                                                     "txt_sentoken/pos/")
    return text_dataset("movie_polarity", texts, labels, n_rows=n_rows, seed=seed,
                        min_count=min_count, label_names=["neg", "pos"])


# --- web snippets -------------------------------------------------------------------------
def _web_snippets(raw_files, *, n_rows, seed, min_count):
    archive = raw_files["data-web-snippets.tar.gz"]
    texts, labels, is_train = [], [], []
    for part in ("train", "test"):
        member = f"data-web-snippets/{part}.txt"
        lines = member_bytes(archive, member, "web_snippets").decode("utf-8", errors="replace")
        for number, line in enumerate(text_lines(lines), start=1):
            words = line.split()
            if not words:
                continue
            if len(words) < 2:
                raise FormatError("web_snippets", archive, f"'<words> <label>' on line {number} "
                                                           f"of {member!r}, got {line!r}")
            texts.append(" ".join(words[:-1]))
            labels.append(words[-1])
            is_train.append(part == "train")
    return text_dataset("web_snippets", texts, labels, is_train, n_rows=n_rows, seed=seed,
                        min_count=min_count)


_NEWS_FILE = RemoteFile(
    "20news-bydate.tar.gz",
    ("https://ndownloader.figshare.com/files/5975967",
     "http://qwone.com/~jason/20Newsgroups/20news-bydate.tar.gz"),
    "8f1b2514ca22a5ade8fbb9cfa5727df95fa587f4c87b786e15c759fa66d95610")
_NEWS_SOURCE = "Lang 1995; 'bydate' version by J. Rennie (the archive scikit-learn uses)"
_NEWS_LICENCE = "no explicit licence; distributed for research, cite Lang 1995"

register(DatasetSpec(
    name="newsgroups_long", kind="text", parser=_twenty_news("newsgroups_long", strip_header),
    files=(_NEWS_FILE,), source=_NEWS_SOURCE, licence=_NEWS_LICENCE,
    description="20 Newsgroups posts without headers, 18,846 documents, 20 classes",
    options_schema=_OPTIONS,
    sizes=lambda o: {"n": kept_rows(18846, o["n_rows"])}))

register(DatasetSpec(
    name="newsgroups_short", kind="text", parser=_twenty_news("newsgroups_short", subject_of),
    files=(_NEWS_FILE,), source=_NEWS_SOURCE, licence=_NEWS_LICENCE,
    description="20 Newsgroups Subject lines only, 20 classes",
    options_schema=_OPTIONS,
    sizes=lambda o: {"n": kept_rows(18846, o["n_rows"])}))

register(DatasetSpec(
    name="movie_polarity", kind="text", parser=_movie_polarity,
    files=(RemoteFile("review_polarity.tar.gz",
                      ("http://www.cs.cornell.edu/people/pabo/movie-review-data/"
                       "review_polarity.tar.gz",
                       "https://www.cs.cornell.edu/people/pabo/movie-review-data/"
                       "review_polarity.tar.gz")),),
    description="movie reviews, polarity dataset v2.0, 2,000 documents, 2 classes",
    source="Pang & Lee 2004, Cornell movie-review data",
    licence="no explicit licence; distributed for research, cite Pang & Lee 2004",
    options_schema=_OPTIONS,
    sizes=lambda o: {"n": kept_rows(2000, o["n_rows"])}))

register(DatasetSpec(
    name="web_snippets", kind="text", parser=_web_snippets,
    files=(RemoteFile("data-web-snippets.tar.gz",
                      ("http://jwebpro.sourceforge.net/data-web-snippets.tar.gz",)),),
    description="Google web search snippets, 12,340 snippets, 8 domains",
    source="Phan, Nguyen & Horiguchi 2008 (WWW), JWebPro",
    licence="no explicit licence; distributed for research, cite Phan et al. 2008",
    options_schema=_OPTIONS,
    sizes=lambda o: {"n": kept_rows(12340, o["n_rows"])}))
