# The report: scorecards against published numbers and the cross-paper run summary (a
# short text on the front page, its tables in the Overview result). Both read only tidy
# result files, benchmark files and config/published/*.yaml.

from lowdim.report.render import SCORECARD_FILES as SCORECARD_PAPERS, describe_data

REPORT = config["report"]


rule report_scorecard:
    localrule: True
    input:
        papers=paper_outputs,
        published=published_files(),
    output:
        **{
            stem: report(
                f"results/tables/report/scorecard_{stem}.csv",
                caption="../report/report_scorecard.rst",
                category=paper,
                subcategory="Scorecard",
                labels={"table": "scorecard", "paper": paper},
            )
            for paper, stem in SCORECARD_PAPERS.items()
        },
        markdown=expand("results/tables/report/scorecard_{stem}.md", stem=SCORECARD_PAPERS.values()),
        all="results/tables/report/scorecard.csv",
    params:
        papers=SCORECARD_PAPERS,
        profile=config["profile"],
        # a rehearsal runs replicas, in smaller sweeps: its entries read "ran on replica",
        # each scored at the nearest setting run where the published one was not
        replica=bool(config["resources"]["replica_manifest"]),
        modified=modified_profile_keys,
        data=describe_data(config["datasets"], bool(config["resources"]["replica_manifest"])),
    log:
        "logs/report_scorecard/scorecard.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/report_scorecard.py"


rule report_summary:
    localrule: True
    input:
        papers=paper_outputs,
        scorecard="results/tables/report/scorecard.csv",
    output:
        rst="results/report/summary.rst",
        overview=report(
            "results/report/overview.html",
            caption="../report/report_overview.rst",
            category="Overview",
            subcategory="Run summary",
            labels={"table": "run summary"},
        ),
        stages="results/tables/report/stage_times.csv",
        similarity="results/tables/report/similarity_savings.csv",
        cca="results/tables/report/cca_savings.csv",
    params:
        profile=config["profile"],
        parts={
            part: config[part]["enabled"]
            for part in ("similarity", "sms_tasks", "embedding", "cca", "kernel_cca")
        },
        # sorted: a param compares as written, and the order of `datasets:` keys is no result
        datasets=sorted(configured_datasets()),
        savings_fraction=REPORT["savings_fraction"],
        pcc_targets=REPORT["pcc_targets"],
    log:
        "logs/report_summary/summary.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/report_summary.py"


if REPORT["enabled"]:
    REPORT_OUTPUTS.append(
        lambda: [
            "results/tables/report/scorecard.csv",
            "results/report/summary.rst",
        ]
    )
