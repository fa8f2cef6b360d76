"""End-to-end: run Snakemake on the tiny test config in a temporary directory.

One session-scoped run feeds all checks; each check asserts what a user relies
on: outputs exist and are readable, a second run does nothing, changing one
dataset option reruns only that dataset's jobs, bad config fails in one line,
and the paper profile's DAG builds without network access.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from lowdim.data import load_dataset

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "config" / "tiny.yaml"

pytestmark = pytest.mark.workflow


def snakemake(workdir, *args, configfile=TINY, check=True):
    """Run snakemake on this checkout's Snakefile inside `workdir`."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cmd = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "--directory",
           str(workdir), "--cores", "2", "--configfile", str(configfile), *args]
    result = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=workdir)
    if check and result.returncode != 0:
        raise AssertionError(f"snakemake {' '.join(args)} failed:\n{result.stdout[-4000:]}\n"
                             f"{result.stderr[-6000:]}")
    return result


def jobs_in_dry_run(output: str) -> dict:
    """rule -> number of jobs, from the 'Job stats' table of a dry run."""
    match = re.search(r"Job stats:\n.*?\n-+\s+-+\n(.*?)\ntotal", output, re.S)
    if not match:
        return {}
    return {line.split()[0]: int(line.split()[1]) for line in match.group(1).splitlines()
            if line.strip()}


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("tiny_run")
    snakemake(workdir)
    return workdir


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


def test_changing_one_dataset_option_reruns_only_that_dataset(tiny_run, tmp_path):
    config = yaml.safe_load(TINY.read_text())
    config["datasets"]["digits"]["n_rows"] = 250
    changed = tmp_path / "changed.yaml"
    changed.write_text(yaml.safe_dump(config))
    result = snakemake(tiny_run, "-n", configfile=changed)
    out = result.stdout + result.stderr
    assert jobs_in_dry_run(out).get("prepare") == 1
    prepared = re.findall(r"rule prepare:\n\s+input:.*?\n?\s*output: results/data/(\w+)\.npz", out)
    prepared = prepared or re.findall(r"output: results/data/(\w+)\.npz", out)
    assert prepared == ["digits"]


def test_report_builds(tiny_run):
    snakemake(tiny_run, "--report", "results/report.html")
    html = (tiny_run / "results" / "report.html").read_text(errors="replace")
    assert "datasets.csv" in html


def test_bad_config_stops_with_one_line(tmp_path):
    config = yaml.safe_load(TINY.read_text())
    config["datasets"]["digits"]["n_rows"] = "lots"
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(config))
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
    # Timing comes from Snakemake's benchmark files, one per (axis, value, method).
    timing = pd.read_csv(tidy / "timing.csv")
    points = {(a, v, m) for a in ("n_samples", "n_features") for v in config["timing"][a]
              for m in config["timing"]["methods"]}
    assert set(zip(timing["axis"], timing["value"], timing["method"])) == points
    assert (timing["seconds"] >= timing["fit_seconds"]).all()
    bench = tiny_run / "results" / "benchmarks" / "embedding_timing" / "n_samples" / "100"
    assert (bench / "vec2vec.tsv").exists()
    sensitivity = pd.read_csv(tidy / "sensitivity.csv")
    assert set(sensitivity["parameter"]) == {"n_components", "topk"}


def test_changing_a_vec2vec_parameter_reruns_only_vec2vec_jobs(tiny_run, tmp_path):
    config = yaml.safe_load(TINY.read_text())
    config["embedding"]["vec2vec"]["epochs"] = 2
    changed = tmp_path / "changed.yaml"
    changed.write_text(yaml.safe_dump(config))
    out = snakemake(tiny_run, "-n", configfile=changed).stdout
    jobs = jobs_in_dry_run(out)
    assert jobs.get("embedding_embed") == len(config["embedding"]["datasets"])  # vec2vec only
    assert "embedding_features" not in jobs and "prepare" not in jobs
    rerun = set(re.findall(r"output: results/embedding/embeddings/\w+/(\w+)\.npz", out))
    assert rerun == {"vec2vec"}
