"""Each config setting is resolved once (lowdim.settings): value and key, after overrides."""

import pytest
from fixtures.workflow import tiny_config

from lowdim.seeding import derive_seed
from lowdim.settings import (cca_datasets, cca_figure_datasets, cca_heuristic_runs,
                             cca_resources, cca_settings, config_keys, embedding_settings,
                             kernel_cca_settings, values, wmd_corpus_settings)


# -- cca ---------------------------------------------------------------------------------------
def test_an_override_replaces_the_section_value_for_its_dataset_only():
    config = tiny_config((("cca", "overrides", "word_context"),
                        {"n_components": 2, "sappgrad_max_iter": 7, "batch_size": 5,
                         "mem_mb": 99}))
    over = cca_settings(config, "word_context", "sappgrad")
    assert over["n_components"] == (2, "cca.overrides.word_context.n_components")
    assert over["max_iter"] == (7, "cca.overrides.word_context.sappgrad_max_iter")
    assert over["batch_size"] == (5, "cca.overrides.word_context.batch_size")
    assert cca_resources(config, "word_context")["mem_mb"] == (
        99, "cca.overrides.word_context.mem_mb")
    # batch AppGrad's iterations are not the stochastic override's
    assert cca_settings(config, "word_context", "appgrad")["max_iter"] == (20,
                                                                          "cca.appgrad.max_iter")
    other = cca_settings(config, "digits_halves", "sappgrad")
    assert other["n_components"] == (3, "cca.n_components")
    assert other["batch_size"] == (20, "cca.sappgrad.batch_size")
    assert other["rescale"] == ("max_abs", "cca.overrides.digits_halves.rescale")
    assert cca_resources(config, "digits_halves")["mem_mb"] == (4000, "cca.mem_mb")


def test_each_cca_job_gets_the_arguments_its_script_passes():
    config = tiny_config()
    seed = config["seed"]
    shared = {"n_components": 3, "reg": 0.005, "rescale": "none", "heldout_fraction": 0.2,
              "split_seed": derive_seed(seed, "cca", "word_context", "split")}
    assert values(cca_settings(config, "word_context")) == shared
    assert values(cca_settings(config, "word_context", "exact")) == {**shared, "method": "auto"}
    assert values(cca_settings(config, "word_context", "sappgrad")) == {
        **shared, "max_iter": 40, "step_size": "auto", "checkpoint_count": 3,
        "checkpoint_iterations": [5], "normalization": "paper",
        "seed": derive_seed(seed, "cca", "word_context", "sappgrad"), "batch_size": 20,
        "normalization_size": None}
    assert "batch_size" not in cca_settings(config, "word_context", "appgrad")
    with pytest.raises(ValueError, match=r"a heuristic run of this config \['dw_cca', "
                                         r"'pca_cca/m5'\], got 'nw_cca'"):
        cca_settings(config, "word_context", "nw_cca")


def test_pca_cca_runs_are_named_by_their_path_and_keep_their_seed():
    config = tiny_config((("cca", "figure2", "methods"), ["nw_cca", "pca_cca"]),
                       (("cca", "figure2", "pca_components"), [5, 8]))
    assert cca_heuristic_runs(config) == ["nw_cca", "pca_cca/m5", "pca_cca/m8"]
    run = cca_settings(config, "sparse_two_view", "pca_cca/m8")
    assert run["n_pca_components"] == (8, "cca.figure2.pca_components[1]")
    assert run["method"] == ("pca_cca", "cca.figure2.methods[1]")
    # The seed depends on the run's identity, not on the file it writes.
    assert run["seed"][0] == derive_seed(config["seed"], "cca", "sparse_two_view", "pca_cca-m8")
    nw = cca_settings(config, "sparse_two_view", "nw_cca")
    assert values(nw)["n_pca_components"] == 0
    assert nw["seed"][0] == derive_seed(config["seed"], "cca", "sparse_two_view", "nw_cca")


@pytest.mark.parametrize("given, expected", [
    (None, []), ("planted_cca", [("planted_cca", "cca.figure2.dataset")]),
    (["planted_cca", "digits_halves"], [("planted_cca", "cca.figure2.dataset[0]"),
                                        ("digits_halves", "cca.figure2.dataset[1]")])],
    ids=["null", "one name", "a list"])
def test_figure2_datasets_are_one_name_a_list_or_none(given, expected):
    config = tiny_config((("cca", "figure2", "dataset"), given))
    assert cca_figure_datasets(config, 2) == expected
    figure1 = ["digits_halves", "word_context"]
    assert cca_datasets(config) == list(dict.fromkeys(figure1 + [n for n, _ in expected]))


# -- embedding ---------------------------------------------------------------------------------
def test_an_embed_job_names_its_swept_neighbour_count_after_embedding_neighbors():
    config = tiny_config()
    vec2vec = embedding_settings(config, "embed", dataset="digits", method="vec2vec")
    assert vec2vec["topk"] == ([8], "embedding.neighbors")
    assert vec2vec["params"][1] == "embedding.vec2vec"
    le = embedding_settings(config, "embed", dataset="digits", method="le")
    assert le["n_neighbors"] == ([8], "embedding.neighbors") and "topk" not in le
    assert values(le)["params"] == {}
    cooc = values(embedding_settings(config, "embed", dataset="digits",
                                     method="vec2vec_cooccurrence"))
    assert "solver" not in cooc["params"] and "epochs" not in cooc["params"]
    mds = embedding_settings(config, "embed", dataset="digits", method="mds")
    assert values(mds)["params"] == {"n_init": 1, "max_iter": 50}


def test_a_sensitivity_job_names_the_parameter_it_varies():
    config = tiny_config()
    k = embedding_settings(config, "sensitivity", dataset="digits", parameter="n_components")
    assert k["values"] == ([2, 4], "embedding.sensitivity.n_components")
    assert k["params"][1] == "embedding.vec2vec"  # the n_components sweep keeps vec2vec.topk
    topk = embedding_settings(config, "sensitivity", dataset="digits", parameter="topk")
    assert topk["values"] == ([2, 3], "embedding.sensitivity.topk")
    assert topk["n_components"] == (4, "embedding.n_components")
    assert set(config_keys(embedding_settings(config, "score", dataset="digits"))) == {
        "k_grid", "n_splits", "standardize", "gammas", "standardize_clustering",
        "random_state"}


def test_timing_values_leave_out_those_above_the_methods_cap():
    config = tiny_config()
    mds = values(embedding_settings(config, "timing", method="mds", axis="n_samples"))
    assert mds["values"] == [100] and mds["fixed"] == 64
    d = values(embedding_settings(config, "timing", method="vec2vec", axis="n_features"))
    assert d["values"] == [1000] and d["fixed"] == 100


def test_an_unknown_embedding_job_is_refused():
    with pytest.raises(ValueError, match="`job` must be one of"):
        embedding_settings(tiny_config(), "plot")


# -- kernel_cca and sms_tasks -----------------------------------------------------------------
def test_a_kernel_cca_setting_without_n_components_takes_the_sections():
    config = tiny_config()
    rbf = kernel_cca_settings(config, "nonlinear_rbf")
    assert rbf["n_components"] == (2, "kernel_cca.n_components")
    assert rbf["dataset"] == ("nonlinear_two_view", "kernel_cca.settings[0].dataset")
    assert rbf["landmarks"] == ([10, 20], "kernel_cca.landmarks")
    assert "mlp" not in rbf  # only the MLP similarity reads its options
    mlp = kernel_cca_settings(config, "digits_mlp")
    assert mlp["mlp"][1] == "kernel_cca.settings[1].mlp"
    config["kernel_cca"]["settings"][1]["n_components"] = 3
    assert kernel_cca_settings(config, "digits_mlp")["n_components"] == (
        3, "kernel_cca.settings[1].n_components")


def test_a_wmd_corpus_takes_gamma_from_the_matrix_it_names():
    config = tiny_config((("sms_tasks", "wmd_classification", "corpora", 1, "large_rank_max"),
                        16))
    named = wmd_corpus_settings(config, "pang_lee")
    assert named["gamma0"] == (0.1, "similarity.matrices[0].wmd.gamma")
    assert named["large_rank_max"] == (4096, "sms_tasks.wmd_classification.large_rank_max")
    own = wmd_corpus_settings(config, "pang_lee_own")
    assert own["gamma0"][1] == "sms_tasks.wmd_classification.corpora[1].gamma0"
    assert own["large_rank_max"] == (16,
                                     "sms_tasks.wmd_classification.corpora[1].large_rank_max")
