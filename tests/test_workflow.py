"""End-to-end: run Snakemake on the tiny test config in a temporary directory.

One session-scoped run feeds all checks; each check asserts what a user relies
on: outputs exist and are readable, a second run does nothing, changing one
dataset option reruns only that dataset's jobs, bad config fails in one line,
and the paper profile's DAG builds without network access.
"""

import os
import re
import sys

import numpy as np
import pandas as pd
import pytest
import yaml

from fixtures.workflow import ROOT, TINY, jobs_in_dry_run, snakemake, tiny_with
from lowdim.data import load_dataset
from lowdim.report.render import SCORECARD_FILES
from lowdim.report.scorecard import VERDICTS
from lowdim.sweeps import module_name

pytestmark = pytest.mark.workflow


def test_prepares_every_configured_dataset(tiny_run):
    config = yaml.safe_load(TINY.read_text())
    for name in config["datasets"]:
        data = load_dataset(tiny_run / "results" / "data" / f"{name}.npz")
        assert data.name == name and data.n > 0
    table = pd.read_csv(tiny_run / "results" / "tables" / "data" / "datasets.csv")
    assert sorted(table["dataset"]) == sorted(config["datasets"])
    assert {"kind", "n", "dimensions", "classes", "source", "licence"} <= set(table.columns)
    markdown = (tiny_run / "results" / "tables" / "data" / "datasets.md").read_text()
    assert "| digits" in markdown


def test_every_rule_writes_its_log(tiny_run):
    log = (tiny_run / "logs" / "prepare" / "digits.log").read_text()
    assert "prepare digits: start" in log and "prepare digits: done" in log


def test_second_run_does_nothing(tiny_run):
    result = snakemake(tiny_run, "-n")
    assert "Nothing to be done" in result.stdout + result.stderr


def test_reordering_config_keys_reruns_nothing(tiny_run, tmp_path):
    # Rules pass config sections as params; Snakemake compares them as written, so each is
    # key-sorted (common.smk: sorted_params). A dump with sorted keys reorders most sections.
    reordered = tmp_path / "reordered.yaml"
    reordered.write_text(yaml.safe_dump(yaml.safe_load(TINY.read_text()), sort_keys=True))
    result = snakemake(tiny_run, "-n", configfile=reordered)
    assert "Nothing to be done" in result.stdout + result.stderr, result.stdout[-3000:]


def test_changing_one_dataset_option_reruns_only_that_dataset(tiny_run, tmp_path):
    config, changed = tiny_with(tmp_path, ("datasets", "digits", "n_rows"), 250)
    result = snakemake(tiny_run, "-n", configfile=changed)
    out = result.stdout + result.stderr
    assert jobs_in_dry_run(out).get("prepare") == 1
    prepared = re.findall(r"rule prepare:\n\s+input:.*?\n?\s*output: results/data/(\w+)\.npz", out)
    prepared = prepared or re.findall(r"output: results/data/(\w+)\.npz", out)
    assert prepared == ["digits"]


SIMILARITY_FIGURES = ("figure1_error_vs_sample_fraction", "figure2_spectra")


def test_similarity_outputs(tiny_run):
    config = yaml.safe_load(TINY.read_text())["similarity"]
    tidy = tiny_run / "results" / "similarity" / "tidy"
    errors = pd.read_csv(tidy / "errors.csv")
    assert {"matrix", "method", "s", "s/n", "seed", "error", "evaluations",
            "seconds"} <= set(errors.columns)
    names = [m["name"] for m in config["matrices"]]
    runs = errors.groupby(["matrix", "method", "s"])["seed"].nunique()
    assert len(runs) == len(names) * len(config["methods"]) * len(config["fractions"])
    assert (runs == config["n_seeds"]).all()
    assert errors["error"].between(0, 1e6).all()
    n = pd.read_csv(tidy / "matrices.csv").set_index("matrix")["n"]
    nys = errors[errors["method"] == "nystrom"]
    expected = nys["matrix"].map(n) * nys["s"] - nys["s"] * (nys["s"] - 1) // 2
    assert (nys["evaluations"] == expected).all()
    eigenvalues = pd.read_csv(tidy / "eigenvalues.csv")
    assert eigenvalues.groupby("matrix").size().to_dict() == n.to_dict()
    for name in SIMILARITY_FIGURES:
        for ext in ("pdf", "png"):
            assert (tiny_run / "results" / "figures" / "similarity" / f"{name}.{ext}").stat().st_size
    table = pd.read_csv(tiny_run / "results" / "tables" / "similarity" / "diagnostics.csv")
    assert sorted(table["matrix"]) == sorted(names)
    assert {"negative eigenvalues", "negative mass", "error SMS-Nyström"} <= set(table.columns)


def test_changing_sms_alpha_reruns_each_matrix_errors_job_not_the_matrices(tiny_run, tmp_path):
    # One job per matrix computes every method's errors (a few seconds of work, less than
    # the start-ups of one job per method): a sweep of one method's setting reruns it.
    config, changed = tiny_with(tmp_path, ("similarity", "sms"), {"alpha": 2.0})
    out = snakemake(tiny_run, "-n", configfile=changed)
    jobs = jobs_in_dry_run(out.stdout + out.stderr)
    assert jobs.get("similarity_errors") == len(config["similarity"]["matrices"])
    assert "similarity_matrix" not in jobs and "prepare" not in jobs
    assert sorted(re.findall(r"output: results/similarity/errors/(\w+)\.csv", out.stdout)) == \
        sorted(m["name"] for m in config["similarity"]["matrices"])


def test_sms_tasks_outputs(tiny_run):
    config = yaml.safe_load(TINY.read_text())["sms_tasks"]
    tables = tiny_run / "results" / "tables" / "similarity"
    for name in ("table1_wmd_classification", "glue", "coreference"):
        for ext in ("csv", "md", "tex"):
            assert (tables / f"{name}.{ext}").stat().st_size
    tidy = tiny_run / "results" / "similarity" / "tidy"
    wmd = pd.read_csv(tidy / "wmd_classification.csv")
    corpora = [c["name"] for c in config["wmd_classification"]["corpora"]]
    methods = config["wmd_classification"]["methods"]
    assert set(map(tuple, wmd[["corpus", "method"]].drop_duplicates().values)) == \
        {(c, m) for c in corpora for m in methods}
    assert wmd["test_accuracy"].between(0, 1).all()
    capped = wmd[(wmd["rank_requested"] == 64) & (wmd["method"] != "wmd_kernel")]
    assert len(capped) and (capped["rank"] < 64).all() and capped["capped_by"].notna().all()
    table = pd.read_csv(tables / "table1_wmd_classification.csv")
    assert len(table) == len(corpora) * len(methods)
    glue = pd.read_csv(tables / "glue.csv")
    assert glue["status"].tolist() == ["not run"] and "glue.tasks is empty" in glue["reason"][0]
    coref = pd.read_csv(tidy / "coreference.csv")
    pooled = coref[coref["topic"] == "pooled"]
    assert set(pooled["method"]) == {"exact", *config["coreference"]["methods"]}
    assert pooled["conll_f1"].between(0, 1).all()
    assert "published CoNLL F1 (%)" in pd.read_csv(tables / "coreference.csv").columns


def test_changing_coreference_runs_reruns_only_its_clustering(tiny_run, tmp_path):
    config, changed = tiny_with(tmp_path, ("sms_tasks", "coreference", "n_runs"), 2)
    out = snakemake(tiny_run, "-n", configfile=changed)
    jobs = jobs_in_dry_run(out.stdout + out.stderr)
    # one job per corpus clusters with every method (the exact matrix's included)
    assert jobs.get("sms_coref_cluster") == len(config["sms_tasks"]["coreference"]["corpora"])
    assert "sms_coref_matrices" not in jobs and "sms_wmd_classify" not in jobs


#: Every report item of the three papers (and the data and overview parts), by file name.
REPORT_ITEMS = {
    "Data": ["datasets.csv"],
    "SMS-Nyström": ["figure1_error_vs_sample_fraction.png", "figure2_spectra.png",
                    "diagnostics.md", "table1_wmd_classification.md", "glue.md", "coreference.md",
                    "scorecard_sms_nystrom.csv"],
    "Vec2vec": ["figure3_timing.png", "figure4_knn_accuracy.png", "figure5_sensitivity.png",
                "table2_datasets.md", "table3_clustering_ari.md", "knn_accuracy.md", "ttests.md",
                "scorecard_vec2vec.csv"],
    "AppGrad CCA": ["figure1_pcc.png", "figure2_tcc.png", "table1_datasets.md",
                    "scorecard_appgrad_cca.csv"],
    "Overview": ["overview.html"],
    "Kernel CCA": ["kernel_cca_tcc.png", "kernel_cca.md"],
}


@pytest.fixture(scope="session")
def report_html(tiny_report):
    return tiny_report.read_text(errors="replace")


def _in_html(text, html):
    """`text` occurs in the report, raw, JSON-escaped or as HTML entities."""
    import html as html_lib
    import json

    forms = {text, json.dumps(text)[1:-1], html_lib.escape(text),
             text.encode("ascii", "xmlcharrefreplace").decode()}
    return any(form in html for form in forms)


@pytest.mark.parametrize("category", sorted(REPORT_ITEMS))
def test_report_holds_every_figure_and_table(report_html, category):
    assert _in_html(category, report_html)
    missing = [name for name in REPORT_ITEMS[category] if name not in report_html]
    assert not missing, f"report lacks {missing} of {category}"


def test_report_front_page_has_the_run_summary(report_html):
    assert "Run summary" in report_html and "Time per stage" in report_html
    assert "tiny-test" in report_html  # captions name the profile


def test_scorecards_cover_every_published_entry(tiny_run):
    from lowdim.report import load_published

    card = pd.read_csv(tiny_run / "results" / "tables" / "report" / "scorecard.csv")
    entries = [e for path in sorted((ROOT / "config" / "published").glob("*.yaml"))
               for e in load_published(path)]
    assert len(card) == len(entries)
    # a tiny run is not a paper run: no replica verdicts; any other verdict may occur
    assert set(card["verdict"]) <= set(VERDICTS) - {"ran on replica"}
    assert card["reason"].fillna("").str.len().gt(0).all()  # every verdict says why
    assert card["profile"].eq("tiny-test").all()
    sms = (tiny_run / "results" / "tables" / "report" / "scorecard_sms_nystrom.md").read_text()
    assert "(profile tiny-test; data: offline stand-ins for the papers' datasets" in sms
    report = tiny_run / "results" / "tables" / "report"
    for paper, stem in SCORECARD_FILES.items():  # each file holds its own paper's card
        caption = (report / f"scorecard_{stem}.md").read_text().splitlines()[0]
        assert caption.startswith(f"Scorecard, {paper} ("), caption
        assert pd.read_csv(report / f"scorecard_{stem}.csv")["paper"].eq(paper).all()


def test_docs_scorecard_section_is_what_the_run_writes(tiny_run):
    """The scorecard section of docs/scorecard.md, regenerated from the run's scorecard (as
    docs/update_gallery.py does), names only files the run wrote."""
    sys.path.insert(0, str(ROOT / "docs"))  # the docs tooling (not the library)
    from tooling import scorecard_section as readme

    report = tiny_run / "results" / "tables" / "report"
    section = readme.scorecard_section(pd.read_csv(report / "scorecard.csv"))
    assert section in (ROOT / "docs" / "scorecard.md").read_text()
    named = re.findall(r"`(scorecard\w*\.(?:md|csv))`", section)
    assert len(named) == 4 and all((report / name).exists() for name in named)


def test_bad_config_stops_with_one_line(tmp_path):
    _, bad = tiny_with(tmp_path, ("datasets", "digits", "n_rows"), "lots")
    result = snakemake(tmp_path, "-n", configfile=bad, check=False)
    assert result.returncode != 0
    lines = [line for line in (result.stdout + result.stderr).splitlines() if line.startswith("config:")]
    assert lines == ["config: datasets.digits.n_rows: got 'lots' (str); expected integer"]


def test_paper_profile_dag_builds_offline(tmp_path):
    result = snakemake(tmp_path, "-n", configfile=ROOT / "config" / "paper.yaml")
    jobs = jobs_in_dry_run(result.stdout + result.stderr)
    assert jobs.get("prepare", 0) >= 1 and jobs.get("all") == 1
    # Nothing ran: a dry run never downloads.
    assert not (tmp_path / "resources").exists()


def test_cca_figures_tables_and_tidy_results(tiny_run):
    config = yaml.safe_load(TINY.read_text())["cca"]
    trace = pd.read_csv(tiny_run / "results" / "cca" / "tidy" / "appgrad_trace.csv")
    assert set(trace["dataset"]) == set(config["figure1"]["datasets"])
    assert set(trace["method"]) == {"appgrad", "sappgrad"}
    assert trace[["pcc_in", "pcc_out", "log_flops"]].notna().all().all()
    assert ((trace["pcc_in"] > 0) & (trace["pcc_in"] <= 1.0 + 1e-6)).all()
    assert {5, config["appgrad"]["max_iter"]} <= set(trace.loc[trace["method"] == "appgrad",
                                                             "iteration"])
    assert (trace["flops_performed"] > 0).all()
    points = pd.read_csv(tiny_run / "results" / "cca" / "tidy" / "tcc_flops.csv")
    assert set(points["method"]) == {"sappgrad", "dw_cca", "pca_cca"}
    stochastic = points[points["method"] == "sappgrad"]
    # sparse views: the lazy steps perform far fewer FLOPs than the paper's dense count
    assert (stochastic["flops_performed"] < stochastic["flops"]).all()
    # n_seeds = 2 on sparse_two_view: every method's two replicates, each its own run
    assert all(sorted(seeds) == [0, 1] for seeds in points.groupby("method")["seed"].unique())
    assert stochastic.groupby("iteration")["tcc_in"].nunique().eq(2).all()
    assert set(trace["seed"]) == {0}  # one run elsewhere (cca.n_seeds = 1)
    table = pd.read_csv(tiny_run / "results" / "tables" / "cca" / "table1_datasets.csv")
    assert list(table["dataset"]) == config["figure1"]["datasets"] + [config["figure2"]["dataset"]]
    for stem in ("figure1_pcc", "figure2_tcc"):
        for ext in (".pdf", ".png"):
            assert (tiny_run / "results" / "figures" / "cca" / f"{stem}{ext}").stat().st_size > 0
    log = (tiny_run / "logs" / "cca_appgrad" / "word_context" / "sappgrad.log").read_text()
    assert "AppGrad (stochastic, k=3): start" in log and ": done," in log


def test_changing_one_cca_override_reruns_only_that_dataset(tiny_run, tmp_path):
    config, changed = tiny_with(tmp_path, ("cca", "overrides", "word_context"), {"reg": 0.01})
    out = snakemake(tiny_run, "-n", configfile=changed).stdout
    jobs = jobs_in_dry_run(out)
    assert jobs.get("cca_exact") == 1 and jobs.get("cca_appgrad") == 2
    assert "prepare" not in jobs and "cca_heuristic" not in jobs
    assert "output: results/cca/word_context/exact.csv" in out
    assert "output: results/cca/digits_halves/exact.csv" not in out



def test_embedding_outputs(tiny_run):
    config = yaml.safe_load(TINY.read_text())["embedding"]
    for name in ("figure3_timing", "figure4_knn_accuracy", "figure5_sensitivity"):
        for ext in ("pdf", "png"):
            assert (tiny_run / "results" / "figures" / "embedding" / f"{name}.{ext}").stat().st_size
    for name in ("table2_datasets", "table3_clustering_ari", "knn_accuracy", "ttests"):
        for ext in ("md", "csv", "tex"):
            assert (tiny_run / "results" / "tables" / "embedding" / f"{name}.{ext}").exists()
    tidy = tiny_run / "results" / "embedding" / "tidy"
    classification = pd.read_csv(tidy / "classification.csv")
    assert set(classification["method"]) == set(config["methods"])
    assert set(classification["dataset"]) == set(config["datasets"])
    assert classification.groupby(["dataset", "method"]).size().eq(4).all()  # 4 folds
    assert classification["accuracy"].between(0, 1).all()
    ttests = pd.read_csv(tidy / "ttests.csv")
    assert set(ttests["task"]) == {"classification", "clustering"}
    assert "vec2vec" not in set(ttests["method"])
    # Selection inside the folds: each fold's setting is one of the method's sweep.
    assert set(classification.loc[classification["method"] == "vec2vec", "setting"]) <= {
        f"topk={k}" for k in config["neighbors"]}
    # Timing: one job per method (or one for `timing.batch_methods`), `repeats` timed fits
    # per value of both axes after a warm-up per axis; MDS only up to its cap on n.
    timing = pd.read_csv(tidy / "timing.csv")
    cap = config["timing"]["max_samples"]

    def within_cap(axis, value, method):
        n = value if axis == "n_samples" else config["timing"]["n_samples_at"]
        return n <= cap.get(method, n)

    points = {(a, v, m) for a in ("n_samples", "n_features") for v in config["timing"][a]
              for m in config["timing"]["methods"] if within_cap(a, v, m)}
    assert set(zip(timing["axis"], timing["value"], timing["method"])) == points
    assert ("n_samples", 200, "mds") not in points
    repeats = timing.groupby(["axis", "value", "method"])["repeat"].agg(sorted)
    assert repeats.map(lambda r: r == [0, 1, 2]).all()  # timing.repeats, default 3
    assert (timing["cpu_seconds"] > 0).all()
    np.testing.assert_allclose(timing["cpu_over_wall"],
                               timing["cpu_seconds"] / timing["fit_seconds"])
    # A job's wall time holds its warm-ups (whose first fits pay the compilation) and its
    # timed fits, of every method it timed: it is at least their sum.
    batch = config["timing"]["batch_methods"]
    assert set(timing.loc[timing["method"].isin(batch), "job_methods"]) == {"+".join(
        method for method in config["timing"]["methods"] if method in batch)}
    assert set(timing.loc[~timing["method"].isin(batch), "job_methods"]) == set(
        timing.loc[~timing["method"].isin(batch), "method"])
    compiles = timing.groupby(["method", "axis"])["compile_seconds"].agg(["first", "nunique"])
    assert (compiles["nunique"] == 1).all()
    timing["compile"] = timing.groupby(["method", "axis"])["compile_seconds"].transform(
        lambda seconds: seconds.iloc[0] / len(seconds))  # once per method and axis
    jobs = timing.groupby("job_methods").agg(job=("job_seconds", "first"),
                                             fits=("fit_seconds", "sum"),
                                             compile=("compile", "sum"))
    assert (jobs["job"] >= jobs["fits"] + jobs["compile"]).all(), jobs
    bench = tiny_run / "results" / "benchmarks" / "embedding_timing"
    assert sorted(path.name for path in bench.glob("*.tsv")) == ["batch.tsv", "vec2vec.tsv"]
    sensitivity = pd.read_csv(tidy / "sensitivity.csv")
    assert set(sensitivity["parameter"]) == {"n_components", "topk"}


def test_changing_a_vec2vec_parameter_reruns_only_vec2vec_jobs(tiny_run, tmp_path):
    config, changed = tiny_with(tmp_path, ("embedding", "vec2vec", "epochs"), 2)
    out = snakemake(tiny_run, "-n", configfile=changed).stdout
    jobs = jobs_in_dry_run(out)
    assert jobs.get("embedding_embed") == len(config["embedding"]["datasets"])  # vec2vec only
    assert "embedding_features" not in jobs and "prepare" not in jobs
    rerun = set(re.findall(r"output: results/embedding/embeddings/\w+/(\w+)\.npz", out))
    assert rerun == {"vec2vec"}


def test_changing_a_batched_method_refits_its_batch_only(tiny_run, tmp_path):
    # pca and mds share one job per dataset (embedding.batch_methods); le has its own
    config, changed = tiny_with(tmp_path, ("embedding", "mds", "max_iter"), 40)
    out = snakemake(tiny_run, "-n", configfile=changed).stdout
    jobs = jobs_in_dry_run(out)
    assert jobs.get("embedding_embed_batch") == len(config["embedding"]["datasets"])
    assert "embedding_embed" not in jobs and "embedding_features" not in jobs
    assert jobs.get("embedding_score") == len(config["embedding"]["datasets"])
    # mds is timed in the timing batch too (timing.batch_methods): the batch is timed again,
    # vec2vec's own timing job is not
    assert jobs.get("embedding_timing_batch") == 1 and "embedding_timing" not in jobs


def _reversed_keys(value):
    """``value`` with the keys of every mapping in reverse order (lists keep theirs)."""
    if isinstance(value, dict):
        return {key: _reversed_keys(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed_keys(item) for item in value]
    return value


def test_reordering_embedding_keys_reruns_nothing(tiny_run, tmp_path):
    # The keys the run sets (vec2vec, mds, timing caps) in reverse order, plus the
    # schema's defaults, which validation appends after them: the same values.
    config = yaml.safe_load(TINY.read_text())
    section = config["embedding"]
    section["vec2vec"].update(window=10, negative=5)  # defaults, now written first
    section["vec2vec"] = _reversed_keys(section["vec2vec"])
    section["classification"] = {"n_splits": 4, "standardize": True}
    config["embedding"] = _reversed_keys(section)
    path = tmp_path / "reordered.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    out = snakemake(tiny_run, "-n", configfile=path)
    jobs = jobs_in_dry_run(out.stdout + out.stderr)
    assert not [rule for rule in jobs if rule.startswith("embedding_")], jobs


def test_kernel_cca_outputs(tiny_run):
    config = yaml.safe_load(TINY.read_text())["kernel_cca"]
    tidy = pd.read_csv(tiny_run / "results" / "cca" / "tidy" / "kernel_cca.csv")
    assert set(tidy["setting"]) == {s["name"] for s in config["settings"]}
    runs = tidy[tidy["method"].str.startswith("kernel_cca")]
    expected = {("nonlinear_rbf", "kernel_cca_nystrom"), ("digits_mlp", "kernel_cca_nystrom"),
                ("digits_mlp", "kernel_cca_sms_nystrom")}
    assert set(zip(runs["setting"], runs["method"])) == expected
    assert (runs.groupby(["setting", "method", "n_landmarks"]).size() == config["n_seeds"]).all()
    assert set(runs["n_landmarks"]) == set(config["landmarks"])
    for setting in ("nonlinear_rbf", "digits_mlp"):  # both under exact_max_n: a reference each
        assert set(tidy.loc[tidy["setting"] == setting, "method"]) >= {"linear_cca",
                                                                        "exact_kernel_cca"}
    # Held-out rows cost s evaluations per row and view; the exact reference n per row and view.
    np.testing.assert_array_equal(runs["evaluations_heldout"],
                                  2 * runs["n_heldout"] * runs["n_landmarks"])
    exact = tidy[tidy["method"] == "exact_kernel_cca"]
    n = exact["n_train"]
    assert (exact["evaluations"] >= n * (n + 1) + 2 * exact["n_heldout"] * n).all()
    assert tidy["tcc_out"].between(0, config["n_components"] + 1e-9).all()
    sms = runs[runs["method"] == "kernel_cca_sms_nystrom"]
    assert (sms[["shift_x", "shift_y"]] < 0).all().all()  # the MLP similarity is indefinite
    table = pd.read_csv(tiny_run / "results" / "tables" / "cca" / "kernel_cca.csv")
    assert "held-out ρ1" in table.columns and len(table) == len(
        tidy.groupby(["setting", "method", "n_landmarks"]))
    for ext in ("pdf", "png"):
        assert (tiny_run / "results" / "figures" / "cca" / f"kernel_cca_tcc.{ext}").stat().st_size
    bench = tiny_run / "results" / "benchmarks" / "kernel_cca_run" / "nonlinear_rbf.tsv"
    assert bench.exists()


def test_changing_kernel_cca_landmarks_reruns_only_kernel_cca(tiny_run, tmp_path):
    config, changed = tiny_with(tmp_path, ("kernel_cca", "landmarks"), [10, 30])
    jobs = jobs_in_dry_run(snakemake(tiny_run, "-n", configfile=changed).stdout)
    assert jobs.get("kernel_cca_run") == len(config["kernel_cca"]["settings"])
    assert "prepare" not in jobs and "cca_exact" not in jobs and "similarity_matrix" not in jobs


def test_kernel_cca_setting_on_a_one_view_dataset_stops_with_one_line(tmp_path):
    _, bad = tiny_with(tmp_path, ("kernel_cca", "settings"), [{"name": "x", "dataset": "digits"}])
    result = snakemake(tmp_path, "-n", configfile=bad, check=False)
    assert result.returncode != 0
    lines = [line for line in (result.stdout + result.stderr).splitlines()
             if line.startswith("config:")]
    assert len(lines) == 1 and lines[0].startswith(
        "config: kernel_cca.settings[0].dataset: got 'digits'; must be a two-view dataset, but "
        "digits is of kind dense"), lines


# -- issue 13: misconfiguration and damaged files fail loudly, naming the key or the file --
#: A mistake the registry and the dataset options reveal, stopped before any job runs: what
#: this test proves is the wiring (Snakemake stops at once, prints the one line, writes
#: nothing). Which mistakes the checks catch, and the line each prints, is a property of
#: check_config, which tests/test_config_checks.py runs on the tiny config without Snakemake
#: (its MISTAKES): the four other kinds this test ran through Snakemake until issue 34
#: (single-view dataset for CCA Figure 2, unlabelled dataset for embedding, sappgrad batch
#: above n, CCA k above min(p1, p2)) are its rows "single-view figure 2", "unlabelled
#: embedding", "batch above n" and "k above p", as are `embedding.neighbors: []`,
#: `n_rows: 3` and the rest of issue 13's list.
CAUGHT_AT_START = {
    "embedding k above n": (("embedding", "n_components"), 5000,
                            "config: embedding.n_components: got 5000;"),
}


@pytest.mark.parametrize("keys, value, line", CAUGHT_AT_START.values(),
                         ids=CAUGHT_AT_START.keys())
def test_misconfiguration_stops_before_any_job_naming_the_key(tmp_path, keys, value, line):
    _, bad = tiny_with(tmp_path, keys, value)
    result = snakemake(tmp_path, "-n", configfile=bad, check=False)
    assert result.returncode != 0
    lines = [text for text in (result.stdout + result.stderr).splitlines()
             if text.startswith("config:")]
    assert len(lines) == 1 and lines[0].startswith(line), lines
    assert not (tmp_path / "results").exists()


def test_a_job_whose_every_fit_fails_exits_non_zero_naming_the_key(tiny_run, tmp_path):
    # LLE with one neighbour has a singular weight matrix: the setting fails on any data,
    # which only the fit can tell. One job: the features are already prepared.
    _, bad = tiny_with(tmp_path, ("embedding", "neighbors"), [1])
    target = "results/embedding/embeddings/digits/lle.npz"
    result = snakemake(tiny_run, "-p", target, configfile=bad, check=False)
    out = result.stdout + result.stderr
    assert result.returncode != 0
    assert "config: embedding.neighbors: got [1]; every setting of lle failed" in out, out[-3000:]
    assert "embedding_features" not in jobs_in_dry_run(out)
    assert not (tiny_run / target).exists()


def test_a_corrupt_prepared_file_is_named_with_how_to_rebuild_it(tmp_path):
    # Random bytes where results/data/digits.npz should be; the one job that reads it fails.
    data = tmp_path / "results" / "data" / "digits.npz"
    data.parent.mkdir(parents=True)
    data.write_bytes(os.urandom(4096))
    result = snakemake(tmp_path, "-p", "results/embedding/features/digits.npz", check=False)
    out = result.stdout + result.stderr
    assert result.returncode != 0
    assert ("results/data/digits.npz: not an .npz archive (truncated, or another kind of file)"
            in out), out[-3000:]
    assert "delete it, or rerun `prepare`" in out and "allow_pickle" not in out


# -- issue 17: config ergonomics ------------------------------------------------------------
@pytest.fixture(scope="module")
def default_dry_run(tmp_path_factory):
    """A dry run of the default profile from another working directory: (directory, output)."""
    workdir = tmp_path_factory.mktemp("default_profile")
    # No --configfile: the default profile, found from another working directory; the
    # nested value arrives as the string "0.01" and must validate as a number.
    result = snakemake(workdir, "-n", "--config", 'cca={"reg": 0.01}', configfile=None)
    return workdir, result.stdout + result.stderr


def test_default_profile_runs_elsewhere_with_nested_config_numbers(default_dry_run):
    workdir, out = default_dry_run
    assert "profiles/default for setting default command line arguments" in out
    jobs = jobs_in_dry_run(out)
    assert jobs.get("cca_exact", 0) >= 1 and jobs.get("all") == 1
    assert not (workdir / "results").exists()


def _braces(text: str) -> list[str]:
    """``a/{b,c}.{md,csv}`` -> ``[a/b.md, a/b.csv, a/c.md, a/c.csv]``."""
    match = re.search(r"\{([^{}]*,[^{}]*)\}", text)
    if not match:
        return [text]
    return [path for alternative in match.group(1).split(",")
            for path in _braces(text[:match.start()] + alternative + text[match.end():])]


def readme_figure_map() -> list[re.Pattern]:
    """The files the figure map (docs/figures.md) names, as patterns (``{name}`` is any name)."""
    section = (ROOT / "docs" / "figures.md").read_text()
    cells = re.findall(r"`((?:figures|tables)/[^`]+)`", section)
    return [re.compile(re.escape(path).replace(r"\{name\}", r"\w+") + "$")
            for cell in cells for path in _braces(cell)]


def test_readme_maps_every_figure_and_table_the_default_run_writes(default_dry_run):
    _, out = default_dry_run
    written = sorted({path.strip().removeprefix("results/")
                      for line in re.findall(r"^\s*output: (.*)$", out, re.M)
                      for path in line.split(",")
                      if path.strip().startswith(("results/figures/", "results/tables/"))})
    assert len(written) > 40, written  # the three papers' figures and tables, at least
    patterns = readme_figure_map()
    assert not [p for p in written if not any(pattern.match(p) for pattern in patterns)]
    # and the map names no file the workflow does not write (sweeps are off by default)
    mapped_but_not_written = [pattern.pattern for pattern in patterns
                              if "sweeps" not in pattern.pattern
                              and not any(pattern.match(p) for p in written)]
    assert not mapped_but_not_written


def test_a_partial_config_file_is_refused_with_the_overlay_to_use(tmp_path):
    overrides = tmp_path / "my_overrides.yaml"
    overrides.write_text("cca:\n  reg: 1e-4\n")
    result = snakemake(tmp_path, "-n", configfile=overrides, check=False)
    lines = [line for line in (result.stdout + result.stderr).splitlines()
             if line.startswith("config:")]
    assert result.returncode != 0 and len(lines) == 1, lines
    assert "is not a complete profile" in lines[0]
    assert f"--configfile config/config.yaml {overrides}" in lines[0]


# -- issue 17: own data and sweeps, the way a user runs them ----------------------------------
#: The worked example of docs/own_data.md, cut to one method so that the run stays small.
OWN_DATA_CONFIG = {
    "profile": "own-data",
    "datasets": {"mine": {"file": "mine.csv", "label": "label"}},
    "embedding": {"enabled": True, "datasets": ["mine"], "methods": ["pca"],
                  "n_components": 2, "classification": {"k_grid": [1, 5]},
                  "clustering": {"gammas": [0.1]},
                  "timing": {"n_samples": [], "n_features": []}},
    "sweeps": [{"key": "embedding.n_components", "values": [1, 3]}],
    "report": {"enabled": False},
}
SWEEP = "embedding_n_components"
OWN_TARGETS = ("results/tables/embedding/knn_accuracy.md", f"results/tables/sweeps/{SWEEP}.md",
               f"results/figures/sweeps/{SWEEP}.png")


def _own_config(workdir, **changes):
    config = {**OWN_DATA_CONFIG, **changes}
    path = workdir / "mine.yaml" if not changes else workdir / "changed.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


@pytest.fixture(scope="session")
def own_data_run(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("own_data")
    # The two lines of the example in docs/own_data.md.
    from sklearn.datasets import load_iris
    load_iris(as_frame=True).frame.rename(columns={"target": "label"}).to_csv(
        workdir / "mine.csv", index=False)
    snakemake(workdir, *OWN_TARGETS, configfile=_own_config(workdir))
    return workdir


def test_own_csv_runs_through_the_embedding_experiment_into_the_knn_table(own_data_run):
    data = load_dataset(own_data_run / "results" / "data" / "mine.npz")
    assert (data.kind, data.n, data.X.shape[1]) == ("dense", 150, 4)
    assert data.label_names.tolist() == ["0", "1", "2"]
    table = pd.read_csv(own_data_run / "results" / "tables" / "embedding" / "knn_accuracy.csv")
    assert table["dataset"].tolist() == ["mine"]
    accuracy = pd.read_csv(own_data_run / "results" / "embedding" / "tidy" / "classification.csv")
    assert accuracy["accuracy"].mean() > 0.8  # PCA to 2-D keeps iris separable


def test_each_sweep_value_has_its_own_results_and_one_table_and_figure(own_data_run):
    sweeps = own_data_run / "results" / "sweeps" / SWEEP
    assert sorted(p.name for p in sweeps.iterdir() if p.is_dir()) == \
        ["n_components~1", "n_components~3"]
    for value in (1, 3):
        run = sweeps / f"n_components~{value}"
        embedding = np.load(run / "embedding" / "embeddings" / "mine" / "pca.npz")
        assert embedding["embeddings"].shape == (1, 150, value)  # (settings, n, d)
        assert not (run / "data").exists()  # the main run's prepared data are shared
    tidy = pd.read_csv(sweeps / "tidy.csv")
    assert tidy["numeric_value"].tolist() == [1, 3] and tidy["method"].eq("pca").all()
    assert tidy["score"].between(0, 1).all()
    table = (own_data_run / "results" / "tables" / "sweeps" / f"{SWEEP}.md").read_text()
    assert "embedding.n_components" in table and "mine: PCA" in table
    assert (own_data_run / "results" / "figures" / "sweeps" / f"{SWEEP}.pdf").stat().st_size


def test_changing_one_sweep_value_reruns_only_that_values_jobs(own_data_run):
    changed = _own_config(own_data_run, sweeps=[{"key": "embedding.n_components",
                                                 "values": [1, 4]}])
    out = snakemake(own_data_run, *OWN_TARGETS, "-n", configfile=changed).stdout
    jobs = jobs_in_dry_run(out)
    swept = {rule for rule in jobs if rule.startswith(module_name(SWEEP, 0)[:-2])}
    # the changed value is the sweep's second (its module has index 1)
    assert swept and all(rule.startswith(module_name(SWEEP, 1)) for rule in swept), jobs
    assert set(jobs) - swept == {"sweep_tidy", "sweep_table", "sweep_figure"}, jobs
    assert "results/sweeps/embedding_n_components/n_components~4/" in out
    outputs = [line for line in out.splitlines() if line.strip().startswith("output:")]
    assert not [line for line in outputs if "n_components~1/" in line], outputs


def test_editing_own_data_prepares_it_again(own_data_run):
    csv = own_data_run / "mine.csv"
    original, before = csv.read_bytes(), csv.stat()
    pd.read_csv(csv).iloc[:-1].to_csv(csv, index=False)  # the user drops a row
    try:
        out = snakemake(own_data_run, OWN_TARGETS[0], "-n",
                        configfile=_own_config(own_data_run)).stdout
    finally:
        csv.write_bytes(original)
        os.utime(csv, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert jobs_in_dry_run(out).get("prepare") == 1


def test_own_data_plan_into_the_cca_and_similarity_experiments(tmp_path):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(200, 6))
    pd.DataFrame(x, columns=[f"f{i}" for i in range(6)]).assign(
        label=np.repeat(["a", "b"], 100)).to_csv(tmp_path / "mine.csv", index=False)
    np.save(tmp_path / "other_view.npy", x[:, :4] @ rng.normal(size=(4, 5)))
    config = {
        "profile": "own-data",
        "datasets": {"mine": {"file": "mine.csv", "label": "label"},
                     "pair": {"file_x": "mine.csv", "file_y": "other_view.npy",
                              "label": "label"}},
        "cca": {"enabled": True, "n_components": 2, "figure1": {"datasets": ["pair"]}},
        "similarity": {"enabled": True, "methods": ["nystrom"], "fractions": [0.2],
                       "table_fraction": 0.2,
                       "matrices": [{"name": "mlp_mine", "kind": "mlp", "dataset": "mine",
                                     "n_items": 50}]},
        "report": {"enabled": False},
    }
    (tmp_path / "own.yaml").write_text(yaml.safe_dump(config))
    out = snakemake(tmp_path, "-n", configfile=tmp_path / "own.yaml").stdout
    jobs = jobs_in_dry_run(out)
    assert jobs.get("prepare") == 2, jobs
    assert "wildcards: dataset=pair" in out and "matrix=mlp_mine" in out
    assert any(rule.startswith("cca_") for rule in jobs), jobs
    assert any(rule.startswith("similarity_") for rule in jobs), jobs
