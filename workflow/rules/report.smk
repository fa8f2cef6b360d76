# The report: scorecards against published numbers and the cross-paper run summary (a
# short text on the front page, its tables in the Overview result). Both read only tidy
# result files, benchmark files and config/published/*.yaml.
# Every setting comes from lowdim.settings.report.

from lowdim.report.render import SCORECARD_FILES as SCORECARD_PAPERS


REPORT_SCORECARD = job_params("report", "scorecard")
REPORT_SUMMARY = job_params("report", "summary")


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
        # named by paper, as the CSVs: the script looks each paper's files up by its stem
        **{
            f"{stem}_md": f"results/tables/report/scorecard_{stem}.md"
            for stem in SCORECARD_PAPERS.values()
        },
        all="results/tables/report/scorecard.csv",
    params:
        **REPORT_SCORECARD.params,
        # the result-changing keys this run changed in its profile's file (common.smk)
        modified=modified_profile_keys,
    log:
        "logs/report_scorecard/scorecard.log",
    conda:
        CONDA_ENV
    threads: REPORT_SCORECARD.threads
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
        **REPORT_SUMMARY.params,
    log:
        "logs/report_summary/summary.log",
    conda:
        CONDA_ENV
    threads: REPORT_SUMMARY.threads
    script:
        "../scripts/report_summary.py"


if config["report"]["enabled"]:
    REPORT_OUTPUTS.append(
        lambda: [
            "results/tables/report/scorecard.csv",
            "results/report/summary.rst",
        ]
    )
