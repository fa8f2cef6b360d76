"""Each config setting is resolved once (lowdim.settings): value and key, after overrides."""

import pytest
from fixtures.workflow import tiny_config

from lowdim.seeding import derive_seed
from lowdim.settings import (cca_datasets, cca_figure_datasets, cca_heuristic_runs, cca_settings,
                             config_keys, job_kinds, job_resources, job_settings,
                             kernel_cca_settings, values, wmd_corpus_settings)
from lowdim.settings.cca import cca_resources


def embedding_settings(config, kind, **wildcards):
    return job_settings(config, "embedding", kind, **wildcards).settings


# -- cca ---------------------------------------------------------------------------------------
def test_an_override_replaces_the_section_value_for_its_dataset_only():
    config = tiny_config((("cca", "overrides", "word_context"),
                        {"n_components": 2, "sappgrad_max_iter": 7, "batch_size": 5,
                         "mem_mb": 99, "n_seeds": 3}))
    over = cca_settings(config, "word_context", "sappgrad")
    assert over["n_components"] == (2, "cca.overrides.word_context.n_components")
    assert over["max_iter"] == (7, "cca.overrides.word_context.sappgrad_max_iter")
    assert over["batch_size"] == (5, "cca.overrides.word_context.batch_size")
    assert over["n_seeds"] == (3, "cca.overrides.word_context.n_seeds")
    # exact CCA is deterministic: one run, no replicates to set
    assert "n_seeds" not in cca_settings(config, "word_context", "exact")
    assert cca_resources(config, "word_context")["mem_mb"] == (
        99, "cca.overrides.word_context.mem_mb")
    # batch AppGrad's iterations are not the stochastic override's
    assert cca_settings(config, "word_context", "appgrad")["max_iter"] == (20,
                                                                          "cca.appgrad.max_iter")
    other = cca_settings(config, "digits_halves", "sappgrad")
    assert other["n_components"] == (3, "cca.n_components")
    assert other["n_seeds"] == (1, "cca.n_seeds")
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
        "seed": derive_seed(seed, "cca", "word_context", "sappgrad"), "n_seeds": 1,
        "batch_size": 20, "normalization_size": None}
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


def test_a_timing_job_times_every_size_of_both_panels_but_those_above_its_cap():
    config = tiny_config()
    mds = values(embedding_settings(config, "timing", method="mds"))
    assert mds["n_samples"] == [100] and mds["n_features_at"] == 64
    vec2vec = values(embedding_settings(config, "timing", method="vec2vec"))
    assert vec2vec["n_features"] == [1000] and vec2vec["n_samples_at"] == 100
    assert vec2vec["repeats"] == 3
    # the methods share each panel's data: one seed per panel
    assert vec2vec["seeds"] == mds["seeds"]
    assert vec2vec["seeds"]["n_samples"] != vec2vec["seeds"]["n_features"]
    # timing.n_neighbors is the baselines' n_neighbors: Vec2vec is timed at its own topk, so
    # the key is not among its settings (changing it does not re-run Vec2vec's timing)
    umap = embedding_settings(config, "timing", method="umap")
    assert umap["n_neighbors"] == (10, "embedding.timing.n_neighbors")
    assert values(embedding_settings(config, "timing", method="vec2vec"))["n_neighbors"] is None
    assert mds["n_neighbors"] is None
    assert vec2vec["params"]["topk"] == config["embedding"]["vec2vec"]["topk"]


def test_a_timing_job_holds_the_exclusive_timing_resource():
    job = job_settings(tiny_config(), "embedding", "timing", method="umap")
    assert job.resources["timing"] == (1, "")
    assert job.resources["threads"] == (1, "embedding.timing.threads")
    assert "timing" not in job_resources("embedding", "embed")


def test_the_timing_batch_holds_each_methods_own_timing_settings_and_keys():
    config = tiny_config()
    batch = job_settings(config, "embedding", "timing_batch")
    runs, keys = batch.values()["runs"], batch.values()["run_keys"]
    assert list(runs) == ["vec2vec_cooccurrence", "mds"]  # timing.methods' order
    for method in runs:
        own = job_settings(config, "embedding", "timing", method=method)
        assert runs[method] == own.values() and keys[method] == own.config_keys()
    assert batch.resources == job_settings(config, "embedding", "timing", method="mds").resources
    # a listed method that is not timed is left out; with none left there is no batch
    config["embedding"]["timing"]["batch_methods"] = ["umap", "mds"]
    assert list(job_settings(config, "embedding", "timing_batch").values()["runs"]) == ["mds"]
    config["embedding"]["timing"]["batch_methods"] = ["umap"]
    assert job_settings(config, "embedding", "timing_batch").values()["runs"] == {}


def test_an_unknown_kind_of_job_is_refused():
    with pytest.raises(ValueError, match="no settings for jobs of kind embedding/plot"):
        job_settings(tiny_config(), "embedding", "plot")


#: One job of every kind in the tiny config: its wildcards.
TINY_JOBS = {
    ("data", "download"): {"dataset": "mnist", "filename": "mnist.gz"},
    ("data", "prepare"): {"dataset": "digits"}, ("data", "replica_mirror"): {},
    ("data", "table"): {}, ("models", "crossencoder"): {"model": "tiny"},
    ("similarity", "matrix"): {"matrix": "mlp_digits"},
    ("similarity", "errors"): {"matrix": "mlp_digits"}, ("similarity", "tidy"): {},
    ("similarity", "render"): {},
    ("sms_tasks", "wmd_kernel"): {"corpus": "pang_lee_own"},
    ("sms_tasks", "wme"): {"corpus": "pang_lee", "d_max": "3"},
    ("sms_tasks", "wmd_classify"): {"corpus": "pang_lee", "method": "wme"},
    ("sms_tasks", "glue_matrix"): {"task": "rte"}, ("sms_tasks", "glue_scores"): {"task": "rte"},
    ("sms_tasks", "coref_matrices"): {"corpus": "digits"},
    ("sms_tasks", "coref_cluster"): {"corpus": "digits"}, ("sms_tasks", "tidy"): {},
    ("sms_tasks", "render"): {},
    ("embedding", "features"): {"dataset": "digits"},
    ("embedding", "embed"): {"dataset": "digits", "method": "vec2vec"},
    ("embedding", "embed_batch"): {"dataset": "digits"},
    ("embedding", "score"): {"dataset": "digits"},
    ("embedding", "sensitivity"): {"dataset": "digits", "parameter": "topk"},
    ("embedding", "timing"): {"method": "mds"}, ("embedding", "timing_batch"): {},
    ("embedding", "tidy"): {},
    ("embedding", "render"): {},
    ("cca", "stats"): {"dataset": "digits_halves"}, ("cca", "exact"): {"dataset": "digits_halves"},
    ("cca", "appgrad"): {"dataset": "word_context", "cca_method": "sappgrad"},
    ("cca", "heuristic"): {"dataset": "sparse_two_view", "heuristic": "pca_cca/m5"},
    ("cca", "tidy"): {}, ("cca", "render"): {},
    ("kernel_cca", "run"): {"kcca_setting": "digits_mlp"}, ("kernel_cca", "tidy"): {},
    ("kernel_cca", "render"): {},
    ("report", "scorecard"): {}, ("report", "summary"): {},
}


def _in_config(config, key):
    from lowdim.settings import setting

    try:
        setting(config, key)
    except (KeyError, IndexError, TypeError):
        return False
    return True


@pytest.mark.parametrize("kind", sorted(TINY_JOBS), ids="/".join)
def test_every_setting_and_resource_names_a_key_of_the_config(kind):
    config = tiny_config((("models",), {"tiny": {}}), (("datasets", "rte"), {}),
                         (("sms_tasks", "glue", "tasks"), [{"dataset": "rte", "model": "tiny"}]))
    job = job_settings(config, *kind, **TINY_JOBS[kind])  # also checks the declared resources
    keys = {key for _, key in [*job.settings.values(), *job.resources.values()]}
    assert all(key in ("", "seed") or _in_config(config, key) for key in keys), keys
    assert list(job.resources) == list(job_resources(*kind)) and "threads" in job.resources


def test_every_kind_of_job_is_covered():
    assert sorted(TINY_JOBS) == job_kinds()


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


def test_the_cca_stats_job_holds_only_what_cuts_the_views():
    # Table 1's statistics read the views (rescaling, held-out split): a change of k or the
    # ridge must not re-run the job, so neither is among its params
    job = job_settings(tiny_config(), "cca", "stats", dataset="digits_halves")
    assert set(job.settings) == {"rescale", "heldout_fraction", "split_seed"}
