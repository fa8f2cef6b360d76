"""ECB+ parser on a nested zip of XML documents in the real LREC2014 layout."""

import numpy as np
import pytest

from fixtures import formats
from lowdim.data import get_spec, load_dataset, save_dataset
from lowdim.data.parsing import MissingMemberError


@pytest.fixture
def rng():
    return np.random.default_rng(3)


def _partition(keys):
    """A partition as a set of frozensets of positions (labels themselves do not matter)."""
    groups = {}
    for i, k in enumerate(keys):
        groups.setdefault(k, set()).add(i)
    return {frozenset(g) for g in groups.values()}


def _key(ds, i):
    return (ds.extra["doc_id"][i], ds.texts[i])


def test_mentions_and_gold_clusters(tmp_path, rng):
    files, truth = formats.write_ecbplus(tmp_path, rng)
    ds = get_spec("ecbplus").prepare(files, validated_only=False)
    ds = load_dataset(save_dataset(ds, tmp_path / "ecb.npz"))
    got = {_key(ds, i): i for i in range(ds.n)}
    assert set(got) == {(t[0], t[1]) for t in truth}
    order = [got[(t[0], t[1])] for t in truth]
    np.testing.assert_array_equal(ds.extra["mention_type"][order], [t[2] for t in truth])
    # the parsed clusters are exactly the true ones: cross-document, intra-document, singletons
    assert _partition(ds.y[order].tolist()) == _partition([t[3] for t in truth])
    assert ds.extra["split"][got[("2_1ecb.xml", "struck")]] == "dev"
    assert ds.extra["split"][got[("36_1ecbplus.xml", "fell")]] == "test"
    assert ds.extra["sentence"][got[("1_1ecb.xml", "She")]] == "She checked in ."
    assert ds.extra["tag"][got[("2_1ecb.xml", "struck")]] == "NEG_ACTION_OCCURRENCE"


def test_validated_sentences_and_type_filter(tmp_path, rng):
    files, truth = formats.write_ecbplus(tmp_path, rng)
    events = get_spec("ecbplus").prepare(files, mention_types="event")
    expected = sorted(t[1] for t in truth if t[2] == "event" and t[4])
    assert sorted(events.texts.tolist()) == expected
    test_only = get_spec("ecbplus").prepare(files, splits=["test"], validated_only=False)
    assert test_only.texts.tolist() == ["fell"]


def test_missing_inner_archive_is_named(tmp_path, rng):
    files, _ = formats.write_ecbplus(tmp_path, rng, omit_member="ECB+.zip")
    with pytest.raises(MissingMemberError, match=r"ecbplus.*ECB\+_LREC2014\.zip.*ECB\+\.zip"):
        get_spec("ecbplus").prepare(files)
