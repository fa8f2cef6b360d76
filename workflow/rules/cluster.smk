# Cluster execution (workflow/profiles/slurm): jobs that only aggregate, tabulate or plot
# run on the host that runs Snakemake instead of being submitted. Each reads only small
# result files (per-job CSVs, benchmark TSVs, tidy CSVs, tables, figures) and writes a
# tidy file, a table or a figure in seconds: less than a scheduler takes to start a job
# (sbatch, the queue, then two Snakemake start-ups in the job). Jobs that load a dataset,
# matrix, features or embeddings (.npz) stay on the cluster, even when they write a tidy
# file (cca_stats, embedding_datasets, embedding_score).
# Without a cluster executor (`snakemake --cores N`) localrules change nothing.
# tests/test_slurm.py checks that these rules read no .npz file and no raw download.

localrules:
    dataset_table,
    similarity_tidy_errors,
    similarity_tidy_spectra,
    similarity_error_figure,
    similarity_spectra_figure,
    similarity_diagnostics_table,
    sms_wmd_tidy,
    sms_wmd_table,
    sms_glue_tidy,
    sms_glue_table,
    sms_coref_tidy,
    sms_coref_table,
    embedding_select,
    embedding_tables,
    embedding_figure4,
    embedding_sensitivity_tidy,
    embedding_figure5,
    embedding_timing_tidy,
    embedding_figure3,
    cca_tidy_pcc,
    cca_tidy_tcc,
    cca_tidy_datasets,
    cca_figure1,
    cca_figure2,
    cca_table1,
    kernel_cca_tidy,
    kernel_cca_figure,
    kernel_cca_table,
    report_scorecard,
    report_summary,
