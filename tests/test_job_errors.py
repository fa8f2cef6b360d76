"""In a job, a library error about an argument names the config key that set it.

The library's errors carry the argument's name (lowdim._validation.arguments_of); a job
maps it through its settings (lowdim.settings) with lowdim.job_errors.config_errors.
These run the library as the workflow's scripts call it, with a config's settings.
"""

import logging
import pickle
import runpy
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from fixtures.workflow import Named, tiny_config

from lowdim._validation import ArgumentTypeError, ArgumentValueError, arguments_of
from lowdim.cca import AppGradCCA
from lowdim.data import get_spec, save_dataset
from lowdim.embedding.experiments import embed_sweep, sensitivity_sweep, sweep_settings
from lowdim.job_errors import config_error_line, config_errors
from lowdim.settings import cca_settings, config_keys, job_settings, kernel_cca_settings, values

DIGITS = get_spec("digits").prepare(n_rows=300)


def embedding_settings(config, kind, **wildcards):
    return job_settings(config, "embedding", kind, **wildcards).settings


def job_line(settings, where, call):
    """The one line a job with ``settings`` exits with when ``call(values)`` raises."""
    given = values(settings)
    with pytest.raises(SystemExit) as info:
        with config_errors(given, config_keys(settings), where):
            call(given)
    return str(info.value)


def embed(X, method):
    """What workflow/scripts/embedding_embed.py does with its settings."""
    def call(s):
        return embed_sweep(X, method, n_components=s["n_components"],
                           settings=sweep_settings(method, s["neighbors"], X.shape[0]),
                           params=s["params"], random_state=s["random_state"],
                           n_jobs=s["n_jobs"])
    return call


def test_an_embedding_job_names_the_key_of_the_argument_every_setting_failed_on(caplog):
    config = tiny_config((("embedding", "n_components"), 7))
    settings = embedding_settings(config, "embed", dataset="digits", method="pca")
    with caplog.at_level(logging.ERROR, logger="lowdim"):
        line = job_line(settings, "pca on digits", embed(DIGITS.X[:, :5], "pca"))
    assert line.startswith("config: embedding.n_components: got 7; every setting of pca failed "
                           "(default: ArgumentValueError: `n_components` must be <= "
                           "n_features = 5"), line
    assert line.endswith("(pca on digits)")
    assert line in caplog.text


def test_a_swept_neighbour_count_that_fails_everywhere_names_embedding_neighbors():
    # LLE with one neighbour has a singular weight matrix on any data; the error comes from
    # scikit-learn and names no argument: the sweep's parameter is what every setting varied.
    config = tiny_config((("embedding", "neighbors"), [1]))
    settings = embedding_settings(config, "embed", dataset="digits", method="lle")
    line = job_line(settings, "lle on digits", embed(DIGITS.X, "lle"))
    assert line.startswith("config: embedding.neighbors: got [1]; every setting of lle "
                           "failed (n_neighbors=1: "), line


def test_neighbour_counts_all_above_n_name_embedding_neighbors():
    config = tiny_config((("embedding", "neighbors"), [60, 80]))
    settings = embedding_settings(config, "embed", dataset="digits", method="lle")
    line = job_line(settings, "lle on digits", embed(DIGITS.X[:60], "lle"))
    assert line.startswith("config: embedding.neighbors: got [60, 80]; `neighbors` [60, 80] "
                           "holds no neighbour count < n_samples = 60"), line


def sensitivity(X, y, parameter):
    """What workflow/scripts/embedding_sensitivity.py does with its settings."""
    def call(s):
        s = {k: v for k, v in s.items() if k != "max_samples"}
        return sensitivity_sweep(X, y, parameter=parameter, **s)
    return call


@pytest.mark.parametrize("parameter, edits, start", [
    ("topk", [(("embedding", "sensitivity", "topk"), [2, 40])],
     "config: embedding.sensitivity.topk: got [2, 40]; topk=40: `topk` must be"),
    ("n_components", [(("embedding", "vec2vec"), {"topk": 40})],
     "config: embedding.vec2vec.topk: got 40; `topk` must be"),
], ids=["the swept topk", "vec2vec.topk under an n_components sweep"])
def test_a_sensitivity_job_names_the_key_its_bad_value_came_from(parameter, edits, start):
    config = tiny_config(*edits)
    settings = embedding_settings(config, "sensitivity", dataset="digits", parameter=parameter)
    line = job_line(settings, "Figure 5", sensitivity(DIGITS.X[:30], DIGITS.y[:30], parameter))
    assert line.startswith(start), line


def test_a_cca_override_is_named_by_its_override_key():
    config = tiny_config((("cca", "overrides", "word_context"), {"batch_size": 500}))
    settings = cca_settings(config, "word_context", "sappgrad")
    X = np.random.default_rng(0).normal(size=(100, 6))

    def call(s):
        AppGradCCA(s["n_components"], reg=s["reg"], batch_size=s["batch_size"], max_iter=2,
                   random_state=0).fit(X, X[:, ::-1] + 0.1)

    line = job_line(settings, "sappgrad on word_context", call)
    assert line.startswith("config: cca.overrides.word_context.batch_size: got 500; "
                           "`batch_size` must be at most n_samples = 100, got 500"), line


def test_a_kernel_cca_setting_without_its_own_k_names_the_sections_key():
    settings = kernel_cca_settings(tiny_config(), "nonlinear_rbf")

    def call(s):
        raise ArgumentValueError(f"`n_components` = {s['n_components']} exceeds the rank",
                                 "n_components")

    assert job_line(settings, "kernel CCA", call).startswith(
        "config: kernel_cca.n_components: got 2; `n_components` = 2 exceeds the rank")


def test_an_estimator_parameter_is_named_below_its_section():
    settings = embedding_settings(tiny_config(), "embed", dataset="digits", method="mds")
    error = ArgumentValueError("`n_init` must be >= 1, got 0", "n_init")
    line = config_error_line(error, values(settings), config_keys(settings))
    assert line == "config: embedding.mds.n_init: got 1; `n_init` must be >= 1, got 0"


def test_an_error_about_no_argument_lists_the_jobs_keys():
    settings = cca_settings(tiny_config(), "digits_halves", "exact")

    def call(s):
        raise ValueError("singular matrix")

    line = job_line(settings, "exact CCA", call)
    assert line.startswith("config: singular matrix (exact CCA); with cca.n_components = 3, "
                           "cca.reg = 0.005, cca.overrides.digits_halves.rescale = 'max_abs'")


def test_errors_of_other_kinds_pass_through():
    with pytest.raises(KeyError):
        with config_errors({"n_components": 2}, {"n_components": "embedding.n_components"}):
            raise KeyError("n_components")


def test_an_argument_error_survives_pickling_with_its_names():
    # joblib and multiprocessing hand errors between processes by pickling them
    for error in (ArgumentValueError("`Y` must have the rows of `X`", ("Y", "X")),
                  ArgumentTypeError("`n` must be an int", "n")):
        copy_ = pickle.loads(pickle.dumps(error))
        assert type(copy_) is type(error) and str(copy_) == str(error)
        assert arguments_of(copy_) == arguments_of(error)


# -- one job of every part, run as the workflow runs it ----------------------------------------
SCRIPTS = Path(__file__).resolve().parents[1] / "workflow" / "scripts"



def run_job(tmp_path, config, part, kind, script, inputs, outputs, **wildcards):
    """Run ``workflow/scripts/<script>.py`` as the job of ``kind`` in ``part`` that the
    wildcards name, with its settings from lowdim.settings; return the line it exits with."""
    job = job_settings(config, part, kind, **wildcards)
    snakemake = SimpleNamespace(
        input=Named(inputs), output=Named({k: str(tmp_path / v) for k, v in outputs.items()}),
        log=Named(log=str(tmp_path / "job.log")), wildcards=Named(wildcards),
        params=Named(settings=job.values(), config_keys=job.config_keys()),
        threads=job.resource_values()["threads"], rule=f"{part}_{kind}")
    with pytest.raises(SystemExit) as info:
        runpy.run_path(str(SCRIPTS / f"{script}.py"), init_globals={"snakemake": snakemake})
    for name in outputs:
        assert not (tmp_path / outputs[name]).exists()  # nothing partial at a final path
    return str(info.value.code)


def prepared(tmp_path, name, **options):
    path = tmp_path / f"{name}.npz"
    save_dataset(get_spec(name).prepare(**options), path)
    return str(path)


def _data(tmp_path):
    config = tiny_config((("datasets", "sparse_two_view"), {"n": 100, "p1": 10, "p2": 10}))
    return run_job(tmp_path, config, "data", "prepare", "prepare", {"raw": []},
                   {"npz": "out.npz", "summary": "out.summary.csv"}, dataset="sparse_two_view")


def _similarity(tmp_path):
    config = tiny_config((("similarity", "matrices", 1, "n_items"), 3))
    return run_job(tmp_path, config, "similarity", "matrix", "similarity_matrix",
                   {"data": prepared(tmp_path, "digits", n_rows=300), "model": []},
                   {"npz": "m.npz", "info": "m.info.csv"}, matrix="mlp_digits")


def _sms_tasks(tmp_path):
    config = tiny_config((("sms_tasks", "coreference", "corpora", 0, "train_items"), 10**6))
    return run_job(tmp_path, config, "sms_tasks", "coref_matrices", "sms_coref_matrices",
                   {"data": prepared(tmp_path, "digits", n_rows=300)}, {"npz": "topics.npz"},
                   corpus="digits")


def _embedding(tmp_path):
    config = tiny_config((("embedding", "neighbors"), [1]))
    features = tmp_path / "features.npz"
    save_dataset(get_spec("digits").prepare(n_rows=300), features)
    return run_job(tmp_path, config, "embedding", "embed", "embedding_embed",
                   {"features": str(features)}, {"npz": "lle.npz"}, dataset="digits",
                   method="lle")


def _cca(tmp_path):
    config = tiny_config((("cca", "overrides", "word_context"), {"batch_size": 10**5}))
    data = prepared(tmp_path, "word_context", corpora=["lee.cor"], vocab_size=50, window=1)
    return run_job(tmp_path, config, "cca", "appgrad", "cca_appgrad", {"npz": data},
                   {"csv": "sappgrad.csv"}, dataset="word_context", cca_method="sappgrad")


def _kernel_cca(tmp_path):
    config = tiny_config((("kernel_cca", "settings", 0, "n_components"), 15))
    data = prepared(tmp_path, "nonlinear_two_view", n=300)
    return run_job(tmp_path, config, "kernel_cca", "run", "kernel_cca_run", {"npz": data},
                   {"csv": "run.csv"}, kcca_setting="nonlinear_rbf")


#: part -> (the job it runs, the line's start: the config key of the bad value and the value)
EVERY_PART = {
    "data": (_data, "config: datasets.sparse_two_view.p1: got 10; `p1` = 10 is too small"),
    "similarity": (_similarity, "config: similarity.matrices[1].n_items: got 3; matrix of "),
    "sms_tasks": (_sms_tasks, "config: sms_tasks.coreference.corpora[0].train_items: got 1000000;"),
    "embedding": (_embedding, "config: embedding.neighbors: got [1]; every setting of lle failed"),
    "cca": (_cca, "config: cca.overrides.word_context.batch_size: got 100000; `batch_size` must"),
    "kernel_cca": (_kernel_cca, "config: kernel_cca.settings[0].n_components: got 15; "
                                "`n_components` must be between 1 and"),
}


@pytest.mark.parametrize("part", sorted(EVERY_PART))
def test_one_job_of_every_part_fails_in_one_line_naming_the_config_key(tmp_path, part):
    # Values the start-time checks cannot judge (they need the data), or, for kernel_cca's
    # n_components, judge again in the job (run here without them), so the job fails:
    # its one line names the key that set the value, from the job's settings.
    job, start = EVERY_PART[part]
    line = job(tmp_path)
    assert "\n" not in line and line.startswith(start), line
