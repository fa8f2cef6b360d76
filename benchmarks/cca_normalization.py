"""AppGrad's two normalisations on digits halves: the paper's against the authors' MNIST code's.

    python benchmarks/cca_normalization.py [--out benchmarks/cca_normalization.md]

The paper normalises ``Φ = Φ̃ (Φ̃ᵀ(S_x + λI)Φ̃)^{-1/2}``; the authors' ``sgd_cca2.m`` and
``gd_cca.m`` (github.com/MaZhuang/CCA) use ``Φ̃ᵀS_xΦ̃ + λI_k``. Both run here with the default
profile's digits-halves settings (left/right halves, k = 8, λ = 0.005, views scaled by their
largest value, 20 % held out with the workflow's split seed, step 'auto', same seeds), batch for
1,000 iterations and stochastic (b = 50, s = 10k) for 4,000, and the PCC of each checkpoint is
compared. PCC needs no timing, so the table is the same on a quiet or a busy machine.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from lowdim.cca import ExactCCA, tcc
from lowdim.cca.experiments import checkpoint_iterations, run_appgrad, training_views
from lowdim.data import get_spec
from lowdim.seeding import derive_seed

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = {"appgrad": 1000, "sappgrad": 4000}


def traces(views, k, reg, seed):
    exact = ExactCCA(k, reg=reg).fit(views.X, views.Y)
    ref_in = tcc(views.X, views.Y, exact.x_weights_, exact.y_weights_)
    ref_out = tcc(views.X_test, views.Y_test, exact.x_weights_, exact.y_weights_)
    rows = []
    for method, max_iter in SETTINGS.items():
        for normalization in ("paper", "authors"):
            trace = run_appgrad(views, method=method, n_components=k, reg=reg, step_size="auto",
                                max_iter=max_iter, checkpoints=checkpoint_iterations(max_iter, 15),
                                batch_size=50, seed=derive_seed(seed, "cca", "digits_halves",
                                                                method),
                                normalization=normalization)
            trace["normalization"] = normalization
            trace["pcc_in"] = 100 * trace["tcc_in"] / ref_in
            trace["pcc_out"] = 100 * trace["tcc_out"] / ref_out
            rows.append(trace)
    return pd.concat(rows, ignore_index=True)


def summary(trace):
    wide = trace.pivot_table(index=["method", "iteration"], columns="normalization",
                             values=["pcc_in", "pcc_out"])
    out = []
    for method, group in wide.groupby(level="method"):
        last = group.iloc[-1]
        gap_in = (group["pcc_in"]["authors"] - group["pcc_in"]["paper"]).abs()
        gap_out = (group["pcc_out"]["authors"] - group["pcc_out"]["paper"]).abs()
        out.append({"method": method, "iterations": int(group.index[-1][1]),
                    "PCC in, paper (%)": f"{last['pcc_in']['paper']:.2f}",
                    "PCC in, authors (%)": f"{last['pcc_in']['authors']:.2f}",
                    "PCC out, paper (%)": f"{last['pcc_out']['paper']:.2f}",
                    "PCC out, authors (%)": f"{last['pcc_out']['authors']:.2f}",
                    "largest gap over checkpoints, in / out (points)":
                        f"{gap_in.max():.2f} / {gap_out.max():.2f}"})
    return pd.DataFrame(out)


def per_checkpoint(trace):
    wide = trace.pivot_table(index=["method", "iteration"], columns="normalization",
                             values=["pcc_in", "pcc_out"]).reset_index()
    return pd.DataFrame({
        "method": wide["method"], "iteration": wide["iteration"],
        "PCC in, paper": wide["pcc_in"]["paper"].round(2),
        "PCC in, authors": wide["pcc_in"]["authors"].round(2),
        "PCC out, paper": wide["pcc_out"]["paper"].round(2),
        "PCC out, authors": wide["pcc_out"]["authors"].round(2)})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "cca_normalization.md")
    parser.add_argument("--seed", type=int, default=0, help="the config's top-level seed")
    args = parser.parse_args()
    dataset = get_spec("digits_halves").parser({}, split="left_right", n_rows=0, seed=0)
    views = training_views(dataset, rescale="max_abs", heldout_fraction=0.2,
                           seed=derive_seed(args.seed, "cca", "digits_halves", "split"))
    trace = traces(views, k=8, reg=0.005, seed=args.seed)
    table = summary(trace)
    print(table.to_string(index=False))
    header = (f"# AppGrad normalisation: paper vs authors' code (`benchmarks/cca_normalization.py`)\n\n"
              f"digits halves (left/right, {views.X.shape[0]} training and {views.X_test.shape[0]} "
              f"held-out rows, 32/32 pixels), k = 8, λ = 0.005, step 'auto', seeds as in the "
              f"default profile. PCC in percent of exact CCA (same λ).\n\n")
    detail = per_checkpoint(trace)
    args.out.write_text(header + table.to_markdown(index=False)
                        + "\n\n## Every checkpoint (PCC in %)\n\n"
                        + detail.to_markdown(index=False) + "\n")


if __name__ == "__main__":
    main()
