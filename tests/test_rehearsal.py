"""The rehearsal profile: every rule of the paper DAG, on replicas, offline; its report.

The dry-run checks are quick. ``test_rehearsal_run_*`` run the whole rehearsal
(``snakemake --cores 2 --configfile config/rehearsal.yaml``, several minutes on 2 cores)
in a temporary directory once, and check what a user relies on before spending cluster
time on the paper profile: every rule of the paper DAG ran, every scorecard entry was
scored, the report builds. Deselect them with ``-m "not rehearsal"``.
"""

import importlib.util
import json
import re

import pandas as pd
import pytest
import yaml

from fixtures.requirements import require
from lowdim.report.published import load_published
from test_workflow import ROOT, jobs_in_dry_run, snakemake

pytestmark = pytest.mark.workflow
PAPER = ROOT / "config" / "paper.yaml"
REHEARSAL = ROOT / "config" / "rehearsal.yaml"
HAVE_CROSSENCODER = all(importlib.util.find_spec(m) for m in ("torch", "transformers"))


def _rules(workdir, configfile):
    workdir.mkdir(parents=True, exist_ok=True)
    result = snakemake(workdir, "-n", configfile=configfile)
    return jobs_in_dry_run(result.stdout + result.stderr)


@pytest.fixture(scope="module")
def dry_runs(tmp_path_factory):
    """Jobs per rule of the paper and the rehearsal DAGs."""
    root = tmp_path_factory.mktemp("dry_runs")
    return _rules(root / "paper", PAPER), _rules(root / "rehearsal", REHEARSAL)


def test_rehearsal_lists_every_rule_of_the_paper_dag(dry_runs):
    paper, rehearsal = dry_runs
    missing = sorted(set(paper) - set(rehearsal))
    assert not missing, f"rules of the paper DAG the rehearsal does not run: {missing}"
    # the downloads are the same files: one download job per raw file of each profile
    assert rehearsal["download"] == paper["download"]
    assert rehearsal["replica_mirror"] == 1 and "replica_mirror" not in paper


def test_rehearsal_runs_the_cross_encoder_path(dry_runs):
    """With torch and transformers the GLUE matrices are computed, not a "not run" table."""
    require([] if HAVE_CROSSENCODER else ["torch and transformers (pip install -e "
                                          "'.[crossencoder]')"],
            "LOWDIM_REQUIRE_CROSSENCODER", "the rehearsal's cross-encoder checks")
    paper, rehearsal = dry_runs
    assert {"sms_glue_matrix", "sms_glue_scores", "crossencoder_model"} <= set(rehearsal)
    assert {"sms_glue_matrix", "sms_glue_scores"} <= set(paper)


def _edited(tmp_path, path, edit):
    config = yaml.safe_load(path.read_text())
    edit(config)
    out = tmp_path / "edited.yaml"
    out.write_text(yaml.safe_dump(config))
    return out


@pytest.mark.parametrize("edit, message", [
    (lambda c: c.update(profile="paper"),
     "only `profile: rehearsal` may name a replica manifest"),
    (lambda c: c["resources"].update(lockfile="config/downloads.lock.json"),
     "resources.lockfile: got 'config/downloads.lock.json'; a rehearsal keeps"),
    (lambda c: c["resources"].update(raw_dir="resources/raw"),
     "resources.raw_dir: got 'resources/raw'; a rehearsal keeps"),
    (lambda c: c["resources"].update(mirrors=[]),
     "must list the replica directory 'results/rehearsal/mirror'"),
], ids=["manifest-outside-rehearsal", "committed-lockfile", "real-raw-dir", "no-mirror"])
def test_only_a_separate_rehearsal_may_name_a_replica_manifest(tmp_path, edit, message):
    config = _edited(tmp_path, REHEARSAL, edit)
    result = snakemake(tmp_path, "-n", configfile=config, check=False)
    assert result.returncode != 0
    assert message in result.stdout + result.stderr


BANNER = '{% if snakemake.config["profile"] == "rehearsal" %}**Rehearsal on replicas:**'


def test_every_report_caption_opens_with_the_rehearsal_banner():
    """A rehearsal's figures and tables must not pass for the papers' numbers."""
    # every caption file but the front page: the render rules name theirs from the part's
    # figures and tables (caption=f"../report/cca_{name}.rst"), not each literally
    captions = {path.name for path in (ROOT / "workflow" / "report").glob("*.rst")} - \
        {"workflow.rst"}
    assert len(captions) >= 15  # every figure and table of the three papers, scorecard, ...
    missing = [name for name in sorted(captions)
               if not (ROOT / "workflow" / "report" / name).read_text().startswith(BANNER)]
    assert not missing, f"captions without the rehearsal banner: {missing}"
    front = (ROOT / "workflow" / "report" / "workflow.rst").read_text()
    assert "This is a rehearsal on replicas, not a reproduction." in front


def _rules_run(workdir):
    """Rules that ran: each writes logs/<rule>/..."""
    return {path.name for path in (workdir / "logs").iterdir() if path.is_dir()}


@pytest.mark.rehearsal
def test_rehearsal_run_exercises_every_rule_of_the_paper_dag(rehearsal_run, tmp_path):
    paper = set(_rules(tmp_path, PAPER)) - {"all"}
    assert not sorted(paper - _rules_run(rehearsal_run))
    # it never touched the committed lock file or the real raw directory
    assert not (rehearsal_run / "resources").exists()
    pins = json.loads((rehearsal_run / "results/rehearsal/downloads.lock.json").read_text()) \
        if (rehearsal_run / "results/rehearsal/downloads.lock.json").exists() else {}
    assert pins == {}  # the manifest gives every checksum: nothing needs pinning


@pytest.mark.rehearsal
def test_rehearsal_scorecard_scores_every_entry(rehearsal_run):
    card = pd.read_csv(rehearsal_run / "results/tables/report/scorecard.csv")
    published = sorted((ROOT / "config" / "published").glob("*.yaml"))
    assert len(card) == sum(len(load_published(path)) for path in published)
    not_run = card[card["verdict"] == "not run"]
    assert not_run.empty, not_run[["artifact", "setting", "reason"]].to_string()
    # replica numbers are neither reproduced nor differ: a match with the paper is chance
    assert set(card["verdict"]) <= {"ran on replica", "not computed"}
    assert card["profile"].eq("rehearsal").all()
    # every substitution of a setting not run is named (the StaCUR claims' s/n = 0.05)
    stacur = card[card["artifact"].str.endswith("StaCUR")]
    assert len(stacur) and stacur["reason"].str.contains(
        r"scored at s/n = 0\.1\d*, nearest run to the published 0\.05").all()


@pytest.mark.rehearsal
def test_rehearsal_report_builds_and_says_it_is_a_rehearsal(rehearsal_run):
    snakemake(rehearsal_run, "--report", "results/report.html", configfile=REHEARSAL)
    html = (rehearsal_run / "results" / "report.html").read_text(errors="replace")
    assert re.search(r"rehearsal on replicas", html, re.I)
