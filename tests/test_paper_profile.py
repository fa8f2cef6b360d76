"""The paper profile lists a download job for every raw file and a prepare job per dataset."""

import re

import pytest
import yaml

from lowdim.data import get_spec
from test_workflow import ROOT, jobs_in_dry_run, snakemake

pytestmark = pytest.mark.workflow
PAPER = ROOT / "config" / "paper.yaml"


def test_paper_profile_lists_every_download_and_prepare(tmp_path):
    datasets = yaml.safe_load(PAPER.read_text())["datasets"]
    result = snakemake(tmp_path, "-n", configfile=PAPER)
    out = result.stdout + result.stderr
    outputs = set(re.findall(r"^\s*output: (.+)$", out, re.M))
    expected = {f"resources/raw/{name}/{remote.filename}"
                for name in datasets for remote in get_spec(name).files}
    assert expected <= outputs
    jobs = jobs_in_dry_run(out)
    assert jobs["download"] == len(expected)
    assert jobs["prepare"] == len(datasets)
    assert not (tmp_path / "resources").exists()


def test_paper_profile_uses_paper_sizes():
    datasets = yaml.safe_load(PAPER.read_text())["datasets"]
    for name in ("mnist", "cifar10", "svhn"):
        assert datasets[name]["n_rows"] == 5000
    for name in ("newsgroups_long", "newsgroups_short", "movie_polarity", "web_snippets"):
        assert datasets[name]["n_rows"] == 2000
    assert datasets["url_reputation"]["n_rows"] == 2_000_000
    assert datasets["ptb"]["vocab_size"] == 10_000
