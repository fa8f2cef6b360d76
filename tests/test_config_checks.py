"""Checks across config keys at start: each mistake stops the run in one line naming the key.

The workflow runs them at DAG-build time (tests/test_workflow.py shows that
for the issue's cases); here every check is exercised directly, and the
registry facts they rely on (kind, labels, size bounds) are checked against
the prepared data.
"""

from pathlib import Path

import pytest
import yaml
from fixtures.workflow import SCHEMA, tiny_config

from lowdim.config import ConfigError, validate_config
from lowdim.settings import check_config, config_problems, dataset_facts
from lowdim.data import REGISTRY, get_spec

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", ["config/config.yaml", "config/paper.yaml",
                                  "config/rehearsal.yaml", "tests/config/tiny.yaml"])
def test_shipped_profiles_pass_every_check(name):
    config = validate_config(yaml.safe_load((ROOT / name).read_text()), SCHEMA)
    assert config_problems(config) == []


#: (edits, the key the first problem must name, a fragment of what is allowed)
MISTAKES = {
    "single-view figure 1": ([(("cca", "figure1", "datasets"), ["digits_halves", "digits"])],
                             "cca.figure1.datasets[1]: got 'digits'", "must be a two-view"),
    "single-view figure 2": ([(("cca", "figure2", "dataset"), "pang_lee")],
                             "cca.figure2.dataset: got 'pang_lee'", "digits_halves, planted_cca"),
    "single-view figure 2 in a list": (
        [(("cca", "figure2", "dataset"), ["digits_halves", "pang_lee"])],
        "cca.figure2.dataset[1]: got 'pang_lee'", "must be a two-view"),
    "pca-cca m below k, figure 2 list": (
        [(("cca", "figure2", "dataset"), ["digits_halves"]),
         (("cca", "figure2", "pca_components"), [2])],
        "cca.figure2.pca_components[0]: got 2", ">= cca.n_components = 3"),
    "unlabelled embedding": ([(("embedding", "datasets"), ["digits", "lee"])],
                             "embedding.datasets[1]: got 'lee'", "lee has no labels"),
    "two-view embedding": ([(("embedding", "datasets"), ["digits_halves"])],
                           "embedding.datasets[0]: got 'digits_halves'", "of kind two_view"),
    "unlabelled sensitivity": ([(("embedding", "sensitivity", "datasets"), ["lee"])],
                               "embedding.sensitivity.datasets[0]: got 'lee'", "no labels"),
    "batch above n": ([(("cca", "sappgrad", "batch_size"), 241)],
                      "cca.sappgrad.batch_size: got 241",
                      "must be <= 240, the training rows of dataset digits_halves"),
    "override batch above n": ([(("cca", "overrides", "word_context"), {}),
                                (("cca", "overrides", "digits_halves"), {"batch_size": 500})],
                               "cca.overrides.digits_halves.batch_size: got 500", "<= 240"),
    "k above p": ([(("cca", "n_components"), 33)], "cca.n_components: got 33",
                  "must be <= min(p1, p2) = 32 of dataset digits_halves (p1 = 32, p2 = 32)"),
    "override k above p": ([(("cca", "overrides", "digits_halves", "n_components"), 33)],
                           "cca.overrides.digits_halves.n_components: got 33",
                           "min(p1, p2) = 32"),
    "normalization below k": ([(("cca", "sappgrad", "normalization_size"), 2)],
                              "cca.sappgrad.normalization_size: got 2", ">= cca.n_components = 3"),
    "pca-cca m below k": ([(("cca", "figure2", "pca_components"), [2])],
                          "cca.figure2.pca_components[0]: got 2", ">= cca.n_components = 3"),
    "embedding k above n": ([(("embedding", "n_components"), 5000)],
                            "embedding.n_components: got 5000",
                            "must be < 300, the number of samples of dataset digits "
                            "(datasets.digits.n_rows = 300)"),
    "embedding k above p for pca": ([(("embedding", "n_components"), 65)],
                                    "embedding.n_components: got 65",
                                    "the 64 features of dataset digits for pca"),
    "no neighbour counts": ([(("embedding", "neighbors"), [])], "embedding.neighbors: got []",
                            "at least one neighbour count for vec2vec, vec2vec_cooccurrence, le"),
    "three rows": ([(("datasets", "digits", "n_rows"), 3)], "embedding.n_components: got 4",
                   "< 3, the number of samples of dataset digits (datasets.digits.n_rows = 3)"),
    "neighbour counts all above n": ([(("embedding", "neighbors"), [250]),
                                      (("embedding", "max_samples"), 100)],
                                     "embedding.neighbors: got [250]", "every setting of the "
                                                                       "sweep would be skipped"),
    # Figure 4's jobs sweep topk over embedding.neighbors; Figure 5's d sweep uses topk.
    "topk above n": ([(("embedding", "vec2vec"), {"topk": 300})],
                     "embedding.vec2vec.topk: got 300",
                     "< 200, the number of samples of dataset digits in Figure 5"),
    "no neighbour counts for vec2vec": ([(("embedding", "neighbors"), []),
                                         (("embedding", "methods"), ["pca", "vec2vec"])],
                                        "embedding.neighbors: got []",
                                        "at least one neighbour count for vec2vec"),
    "sensitivity k above n": ([(("embedding", "sensitivity", "n_components"), [2, 200])],
                              "embedding.sensitivity.n_components[1]: got 200",
                              "< 200, the number of samples of dataset digits in Figure 5"),
    "sensitivity rows above the features'": (
        [(("embedding", "sensitivity", "max_samples"), 301)],
        "embedding.sensitivity.max_samples: got 301",
        "more rows than the embedding features of dataset digits keep (embedding.max_samples "
        "= 300), which Figure 5 subsamples; set it to at most 300, or 0 for all of them"),
    "folds above n": ([(("embedding", "classification"), {"n_splits": 201})],
                      "embedding.classification.n_splits: got 201", "<= 200"),
    "timing k above n": ([(("embedding", "timing", "n_components"), 100)],
                         "embedding.timing.n_components: got 100",
                         "(embedding.timing.n_samples[0] = 100)"),
    "wmd matrix on images": ([(("similarity", "matrices", 0, "dataset"), "digits")],
                             "similarity.matrices[0].dataset: got 'digits'",
                             "listed datasets of kind text: pang_lee, lee"),
    "mlp matrix unlabelled": ([(("similarity", "matrices", 1, "dataset"), "lee")],
                              "similarity.matrices[1].dataset: got 'lee'", "no labels"),
    "kernel cca on one view": ([(("kernel_cca", "settings"), [{"name": "x", "dataset": "digits"}])],
                               "kernel_cca.settings[0].dataset: got 'digits'",
                               "must be a two-view dataset"),
    "kernel cca k above p": ([(("kernel_cca", "settings", 0, "n_components"), 7)],
                             "kernel_cca.settings[0].n_components: got 7",
                             "must be <= min(p1, p2) = 6 of dataset nonlinear_two_view"),
    "kernel cca shared k above p": ([(("kernel_cca", "n_components"), 7)],
                                    "kernel_cca.n_components: got 7", "min(p1, p2) = 6"),
    "kernel cca mlp unlabelled": (
        [(("kernel_cca", "settings", 0, "similarity"), "mlp")],
        "kernel_cca.settings[0].similarity: got 'mlp'",
        "dataset nonlinear_two_view (kernel_cca.settings[0].dataset) has none; labelled "
        "two-view datasets: digits_halves"),
    "model width not split over heads": (
        [(("models",), {"tiny_rte": {"hidden_size": 30, "num_attention_heads": 4}})],
        "models.tiny_rte.hidden_size: got 30",
        "must be a multiple of models.tiny_rte.num_attention_heads = 4"),
    "kernel cca names twice": (
        [(("kernel_cca", "settings"), [{"name": "x", "dataset": "digits_halves"}] * 2)],
        "kernel_cca.settings: got ['x', 'x']", "repeated: x"),
    "matrix names twice": ([(("similarity", "matrices", 1, "name"), "wmd_pang_lee")],
                           "similarity.matrices: got ['wmd_pang_lee', 'wmd_pang_lee']",
                           "repeated: wmd_pang_lee"),
    "table fraction not swept": ([(("similarity", "table_fraction"), 0.3)],
                                 "similarity.table_fraction: got 0.3",
                                 "must be one of similarity.fractions [0.1, 0.2]"),
    "sms sample above n": ([(("similarity", "sms"), {"multiplier": 6})],
                           "similarity.fractions: got [0.1, 0.2]",
                           "times similarity.sms.multiplier = 6 must be <= 1 (|S2| would exceed n "
                           "for [0.2])"),
    "small rank above a corpus's large rank": (
        [(("sms_tasks", "wmd_classification", "corpora", 1, "large_rank_max"), 2)],
        "sms_tasks.wmd_classification.corpora[1].large_rank_max: got 2",
        ">= sms_tasks.wmd_classification.small_rank_max = 4"),
    "wmd corpus names a matrix of another dataset": (
        [(("sms_tasks", "wmd_classification", "corpora", 0, "matrix"), "mlp_digits")],
        "sms_tasks.wmd_classification.corpora[0].matrix: got 'mlp_digits'",
        "must name a similarity.matrices entry of kind wmd on dataset 'pang_lee'"),
    "wmd classification unlabelled": (
        [(("sms_tasks", "wmd_classification", "corpora", 1, "dataset"), "lee")],
        "sms_tasks.wmd_classification.corpora[1].dataset: got 'lee'", "no labels"),
}


@pytest.mark.parametrize("edits, key, allowed", MISTAKES.values(), ids=MISTAKES.keys())
def test_mistake_stops_the_run_in_one_line_naming_the_key(edits, key, allowed):
    with pytest.raises(ConfigError) as info:
        check_config(tiny_config(*edits))
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"config: {key};"), message
    assert allowed in message, message


def test_disabled_sections_are_not_checked():
    config = tiny_config((("cca", "figure2", "dataset"), "digits"), (("cca", "enabled"), False),
                       (("embedding", "n_components"), 5000), (("embedding", "enabled"), False))
    assert check_config(config) is config


def test_sizes_the_data_alone_can_tell_are_left_to_the_job():
    # word_context's row count is known only once its text is tokenised: no bound, no error.
    config = tiny_config((("cca", "figure1", "datasets"), ["word_context"]),
                       (("cca", "figure2", "dataset"), None),
                       (("cca", "sappgrad", "batch_size"), 10**9))
    assert config_problems(config) == []


# -- the facts the checks use are true of the prepared data --------------------------------
SMALL = {"planted_cca": {"n": 300, "p1": 12, "p2": 9, "n_planted": 3},
         "sparse_two_view": {"n": 400, "p1": 300, "p2": 200, "n_factors": 10},
         "word_context": {"corpora": ["lee.cor"], "vocab_size": 50, "window": 2},
         "gaussian_blobs": {"n_samples": 50, "n_features": 7},
         "sparse_blobs": {"n_samples": 50, "n_features": 500},
         "digits": {"n_rows": 40}, "digits_halves": {"n_rows": 40}}


@pytest.mark.parametrize("name", sorted(n for n, s in REGISTRY.items() if s.offline))
def test_registry_facts_hold_for_the_prepared_data(name):
    spec = get_spec(name)
    options = SMALL.get(name, {})
    data = spec.prepare(**options)
    facts = dataset_facts({"datasets": {name: options}}, name)
    assert data.kind == facts.kind
    assert (data.y is not None) == facts.labelled
    bounds = facts.bounds
    assert data.n <= bounds.get("n", data.n)
    if "n" in bounds and name not in ("sparse_two_view",):
        assert data.n == bounds["n"], "offline sizes are exact"
    if data.kind == "two_view":
        assert data.X.shape[1] <= bounds.get("p1", data.X.shape[1])
        assert data.Y.shape[1] <= bounds.get("p2", data.Y.shape[1])
        if data.train_idx is not None and "n" in bounds:
            assert "n_train" in bounds, "a dataset with its own split must bound n_train"
    elif data.X is not None:
        assert data.X.shape[1] <= bounds.get("p", data.X.shape[1])


def test_every_sized_paper_dataset_with_a_split_bounds_its_training_rows():
    # Paper datasets cannot be prepared offline; their parsers state whether they split.
    for name in ("mnist_halves", "ptb", "mediamill", "word_context"):
        bounds = get_spec(name).size_bounds()
        assert "n" not in bounds or bounds["n_train"] < bounds["n"], name
