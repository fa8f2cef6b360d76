from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from lowdim.io import atomic_path
from lowdim.report import load_published, scorecard
from lowdim.report.profile import profile_label
from lowdim.report.render import write_scorecards

s, modified = snakemake.params.settings, snakemake.params.modified
entries = [entry for path in snakemake.input.published for entry in load_published(path)]
card = scorecard(entries, root=".", nearest_settings=s["replica"], replica=s["replica"],
                 profile=s["profile"], modified=modified)
papers = s["papers"]  # keys sorted (sorted_params): look each paper's files up by its stem
write_scorecards(card, papers, {stem: snakemake.output[stem] for stem in papers.values()},
                 {stem: snakemake.output[f"{stem}_md"] for stem in papers.values()},
                 profile_label(s["profile"], modified), s["data"])
with atomic_path(snakemake.output.all) as tmp:
    card.to_csv(tmp, index=False)
