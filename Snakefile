# lowdim: reproduce SMS-Nystrom, Vec2vec and AppGrad CCA end to end, from raw data.
#
#   snakemake --cores 2                                  # default offline profile
#   snakemake --cores 8 --configfile config/paper.yaml   # full reproduction (downloads)
#   snakemake --report results/report.html               # the report
#
# Layout follows snakemake-workflows: one .smk per concern under workflow/rules/.

import os

from snakemake.utils import min_version

min_version("8.20")


# The default profile, unless config files are given with --configfile: then those
# alone define the run (Snakemake would otherwise merge them into this one, and
# the offline datasets would leak into the paper profile). To change a few keys,
# overlay them: --configfile config/config.yaml my_overrides.yaml. The path is
# the repository's, so --directory elsewhere finds it.
if not workflow.overwrite_configfiles:

    configfile: os.path.join(workflow.basedir, "config", "config.yaml")


report: "workflow/report/workflow.rst"


include: "workflow/rules/scheduling.smk"
include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/models.smk"
include: "workflow/rules/similarity.smk"
include: "workflow/rules/sms_tasks.smk"
include: "workflow/rules/embedding.smk"
include: "workflow/rules/cca.smk"
include: "workflow/rules/kernel_cca.smk"
include: "workflow/rules/sweeps.smk"
include: "workflow/rules/report.smk"


rule all:
    input:
        get_final_output,
    default_target: True
