"""Text-corpus parsers (20 Newsgroups long/short, movie polarity, web snippets) on real layouts."""

import numpy as np
import pytest

from fixtures import formats
from lowdim.data import get_spec, load_dataset, save_dataset
from lowdim.data.parsing import FormatError, MissingMemberError
from lowdim.data.sources.text_corpora import strip_header, subject_of
from lowdim.data.text import tokenize


@pytest.fixture
def rng():
    return np.random.default_rng(4)


def test_header_and_subject_rules():
    post = "From: a@b\nSubject: Re: RE: Orbit  question\nLines: 2\n\nbody line\n\nmore\n"
    assert strip_header(post) == "body line\n\nmore\n"
    assert subject_of(post) == "Orbit  question"
    assert subject_of("From: a@b\n\nno subject") == ""


def test_newsgroups_long_is_posts_without_headers(tmp_path, rng):
    files, truth = formats.write_20news(tmp_path, rng)
    ds = load_dataset(save_dataset(get_spec("newsgroups_long").prepare(files), tmp_path / "n.npz"))
    assert ds.texts.tolist() == [t["body"] for t in truth]
    assert ds.label_names[ds.y].tolist() == [t["group"] for t in truth]
    assert not any("Subject:" in t or "From:" in t for t in ds.texts)
    np.testing.assert_array_equal(np.sort(ds.train_idx[0]),
                                  [i for i, t in enumerate(truth) if t["train"]])
    # bow counts the tokens of each text exactly
    for i, text in enumerate(ds.texts):
        row = ds.bow.getrow(i)
        counted = {ds.vocab[j]: c for j, c in zip(row.indices, row.data)}
        tokens = tokenize(text)
        assert counted == {w: tokens.count(w) for w in set(tokens)}


def test_newsgroups_short_is_subject_lines(tmp_path, rng):
    files, truth = formats.write_20news(tmp_path, rng)
    ds = get_spec("newsgroups_short").prepare(files, n_rows=4, seed=1)
    assert ds.n == 4
    assert set(ds.texts.tolist()) <= {t["subject"] for t in truth}


def test_20news_missing_test_part_is_named(tmp_path, rng):
    files, _ = formats.write_20news(tmp_path, rng, drop_part="20news-bydate-test/")
    with pytest.raises(FormatError, match=r"'newsgroups_long'.*20news-bydate\.tar\.gz.*"
                                          r"20news-bydate-test/"):
        get_spec("newsgroups_long").prepare(files)


def test_movie_polarity(tmp_path, rng):
    files, truth = formats.write_movie_polarity(tmp_path, rng)
    ds = get_spec("movie_polarity").prepare(files)
    assert sorted(zip(ds.texts.tolist(), ds.label_names[ds.y].tolist())) == sorted(truth)
    assert ds.label_names.tolist() == ["neg", "pos"]


def test_web_snippets_label_is_last_token(tmp_path, rng):
    files, truth = formats.write_web_snippets(tmp_path, rng)
    ds = get_spec("web_snippets").prepare(files)
    assert list(zip(ds.texts.tolist(), ds.label_names[ds.y].tolist())) == \
        [(w, label) for w, label, _ in truth]
    assert ds.test_idx.shape == (1, sum(not t[2] for t in truth))


def test_web_snippets_missing_member(tmp_path, rng):
    files, _ = formats.write_web_snippets(tmp_path, rng)
    formats.tar_gz(files["data-web-snippets.tar.gz"], {"data-web-snippets/train.txt": b"a b\n"})
    with pytest.raises(MissingMemberError, match=r"web_snippets.*data-web-snippets/test\.txt"):
        get_spec("web_snippets").prepare(files)


# str.splitlines() also breaks at these; inside a "\n"-terminated record they are text
NOT_LINE_BREAKS = ["\x85", "\u2028", "\u2029", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"]


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_web_snippets_split_records_at_newlines_only(tmp_path, rng, newline):
    files, _ = formats.write_web_snippets(tmp_path, rng)
    train = "".join(f"guide{c}word{i} deals business{newline}"
                    for i, c in enumerate(NOT_LINE_BREAKS))
    formats.tar_gz(files["data-web-snippets.tar.gz"], {
        "data-web-snippets/train.txt": train.encode(),
        "data-web-snippets/test.txt": b"stock market sports"})  # no final newline
    ds = get_spec("web_snippets").prepare(files)
    # each is whitespace to str.split, so it separates words within its record
    assert ds.texts.tolist() == [f"guide word{i} deals" for i in range(len(NOT_LINE_BREAKS))] \
        + ["stock market"]
    assert ds.label_names.tolist() == ["business", "sports"]


def test_subject_keeps_characters_that_are_not_line_breaks():
    # byte 0x85 (an ellipsis in cp1252) decodes as U+0085 under latin-1
    post = "From: a@b\nSubject: Re: wait\x85 what\x0cnext\r\nLines: 2\n\nbody\n"
    assert subject_of(post) == "wait\x85 what\x0cnext"
