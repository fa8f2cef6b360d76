"""Checks across config keys at start: each mistake stops the run in one line naming the key.

The workflow runs them at DAG-build time (tests/test_workflow.py shows that
for the issue's cases); here every check is exercised directly, and the
registry facts they rely on (kind, labels, size bounds) are checked against
the prepared data.
"""

import copy
import logging
from pathlib import Path

import pytest
import yaml

from lowdim.config import ConfigError, validate_config
from lowdim.config_checks import (cca_job_keys, check_config, config_problems, dataset_facts,
                                  embedding_job_keys, naming_config_keys)
from lowdim.data import REGISTRY, get_spec
from lowdim.embedding.experiments import embed_sweep, sweep_settings

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"
TINY = yaml.safe_load((ROOT / "tests" / "config" / "tiny.yaml").read_text())


def tiny_with(*edits):
    """The validated tiny config after ``(keys, value)`` edits."""
    config = copy.deepcopy(TINY)
    for keys, value in edits:
        node = config
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value
    return validate_config(config, SCHEMA)


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
    "wmd classification unlabelled": (
        [(("sms_tasks", "wmd_classification", "corpora", 1, "dataset"), "lee")],
        "sms_tasks.wmd_classification.corpora[1].dataset: got 'lee'", "no labels"),
}


@pytest.mark.parametrize("edits, key, allowed", MISTAKES.values(), ids=MISTAKES.keys())
def test_mistake_stops_the_run_in_one_line_naming_the_key(edits, key, allowed):
    with pytest.raises(ConfigError) as info:
        check_config(tiny_with(*edits))
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"config: {key};"), message
    assert allowed in message, message


def test_disabled_sections_are_not_checked():
    config = tiny_with((("cca", "figure2", "dataset"), "digits"), (("cca", "enabled"), False),
                       (("embedding", "n_components"), 5000), (("embedding", "enabled"), False))
    assert check_config(config) is config


def test_sizes_the_data_alone_can_tell_are_left_to_the_job():
    # word_context's row count is known only once its text is tokenised: no bound, no error.
    config = tiny_with((("cca", "figure1", "datasets"), ["word_context"]),
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


# -- in a job: a library error names the config key -----------------------------------------
def test_job_error_names_the_config_key_of_the_argument(caplog):
    config = tiny_with((("embedding", "n_components"), 7))
    with caplog.at_level(logging.ERROR, logger="lowdim"):
        with pytest.raises(SystemExit) as info:
            with naming_config_keys(embedding_job_keys(config, "embed"), "pca on digits"):
                raise ValueError("`n_components` must be <= n_features = 5, got 7")
    line = str(info.value)
    assert line == ("config: embedding.n_components: got 7; `n_components` must be <= "
                    "n_features = 5, got 7 (pca on digits)")
    assert line in caplog.text


def test_job_error_names_the_argument_it_is_about_not_the_first_one_listed():
    config = tiny_with()
    keys = embedding_job_keys(config, "sensitivity", "n_components")
    with pytest.raises(SystemExit, match=r"^config: embedding.vec2vec.topk: got 5;"):
        with naming_config_keys(keys):
            raise ValueError("n_components=4: `topk` must be < n_samples = 3, got 5")


def test_job_error_without_a_known_argument_lists_the_jobs_keys():
    keys = cca_job_keys(tiny_with(), "digits_halves")
    assert keys["batch_size"] == ("cca.sappgrad.batch_size", 20)
    with pytest.raises(SystemExit, match=r"^config: singular matrix \(exact CCA\); with "
                                         r"cca.n_components = 3, "):
        with naming_config_keys(keys, "exact CCA"):
            raise ValueError("singular matrix")


def test_each_kind_of_job_names_only_the_keys_it_reads():
    config = tiny_with()
    assert set(embedding_job_keys(config, "score")) == {"k_grid", "n_splits", "gammas"}
    sensitivity = embedding_job_keys(config, "sensitivity", "topk")
    assert sensitivity["topk"] == ("embedding.sensitivity.topk", [2, 3])
    assert sensitivity["n_components"] == ("embedding.n_components", 4)
    # Figure 4's embed jobs take topk from the neighbour sweep, not embedding.vec2vec.topk.
    assert embedding_job_keys(config, "embed")["topk"] == ("embedding.neighbors", [8])
    assert embedding_job_keys(config, "embed")["n_init"] == ("embedding.mds.n_init", 1)


def test_job_errors_of_other_kinds_pass_through():
    with pytest.raises(KeyError):
        with naming_config_keys({"n_components": ("embedding.n_components", 2)}):
            raise KeyError("n_components")


def test_overrides_give_the_override_key():
    config = tiny_with((("cca", "overrides", "word_context"), {"n_components": 2}))
    assert cca_job_keys(config, "word_context")["n_components"] == \
        ("cca.overrides.word_context.n_components", 2)
    assert cca_job_keys(config, "digits_halves")["n_components"] == ("cca.n_components", 3)


def test_a_sweep_whose_every_setting_fails_is_an_error():
    X = get_spec("digits").prepare(n_rows=300).X
    with pytest.raises(ValueError, match=r"every setting of lle failed \(n_neighbors=1: "):
        embed_sweep(X, "lle", n_components=4, settings=sweep_settings("lle", [1], 300),
                    random_state=0)
    with pytest.raises(ValueError, match=r"`neighbors` \[60, 80\] holds no neighbour count < "
                                         r"n_samples = 60"):
        sweep_settings("lle", [60, 80], 60)
    partial = embed_sweep(X, "lle", n_components=4, settings=sweep_settings("lle", [1, 8], 300),
                          random_state=0)
    assert partial["errors"][0] and not partial["errors"][1]  # one failure is recorded, not fatal
