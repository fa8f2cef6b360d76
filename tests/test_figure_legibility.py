"""Every figure stays legible whatever its counts, and the paper figures show the published
numbers where the profile runs the papers' data (greyed on a rehearsal's replicas).

Legibility: each figure is drawn from tidy results shaped like the tiny config's, the
default run's, the rehearsal's and the paper profile's (``fixtures/tidy_frames.py``), and
with one dataset and with every method; then no two texts may overlap and none may leave
the canvas (``fixtures/figure_text.py``).
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_rgba

from fixtures.figure_text import text_problems
from fixtures.tidy_frames import draw_figures, many_methods, one_dataset, profile_config
from fixtures.workflow import ROOT
from lowdim.plots.cca import figure_pcc, published_flops
from lowdim.plots.embedding import accuracy_figure
from lowdim.plots.style import REPLICA_GREY, method_style
from lowdim.report.published import figure_points, load_published, point_mode, published_points

PUBLISHED = sorted((ROOT / "config" / "published").glob("*.yaml"))
TRACE = "results/cca/tidy/appgrad_trace.csv"
CLASSIFICATION = "results/embedding/tidy/classification.csv"
CASES = {
    "tiny config": lambda: profile_config("tiny"),
    "default run": lambda: profile_config("default"),
    "rehearsal": lambda: profile_config("rehearsal"),
    "paper profile": lambda: profile_config("paper"),
    "one dataset": lambda: one_dataset(profile_config("default")),
    "every method": lambda: many_methods(profile_config("rehearsal")),
}


@pytest.mark.parametrize("case", CASES)
def test_no_text_overlaps_or_leaves_the_canvas(case):
    problems = {}
    for name, fig in draw_figures(CASES[case]()):
        found = text_problems(fig)
        plt.close(fig)
        if found:
            problems[name] = found[:5]
    assert not problems, f"{case}: {problems}"


def test_the_legibility_check_finds_overlaps_and_text_off_the_canvas():
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.set_title("a title")
    ax.text(0.5, 1.02, "runs into the title", transform=ax.transAxes, ha="center")
    fig.text(0.9, 0.5, "leaves the canvas on the right")
    problems = text_problems(fig)
    plt.close(fig)
    assert any("'a title' overlaps" in p and "runs into the title" in p for p in problems)
    assert any("'leaves the canvas on the right' leaves the canvas" in p for p in problems)


# -- published points -----------------------------------------------------------------
def _rehearsal_trace():
    """AppGrad traces shaped like the rehearsal's mnist_halves (its checkpoints and the
    FLOPs per iteration of its replica's n and p)."""
    rows = []
    for method, per_iteration, max_iter in (("appgrad", 10 * 20 * 800 * 392, 4000),
                                            ("sappgrad", 20 * 392 * (8 * 50 + 2 * 200), 4000)):
        for iteration in (1, 20, 100, 200, 300, 500, 800, 1000, 1500, 2500, 3000, 4000):
            pcc = 1 - np.exp(-iteration / 800)
            rows.append({"dataset": "mnist_halves", "method": method, "iteration": iteration,
                         "flops": float(per_iteration * iteration), "pcc_in": pcc,
                         "pcc_out": 0.95 * pcc})
    trace = pd.DataFrame(rows)
    return trace.assign(log_flops=np.log(trace["flops"]))


def _published_markers(ax):
    """Lines of ``ax`` drawn as hollow markers only (the published points)."""
    return [line for line in ax.lines
            if line.get_linestyle() == "None" and line.get_markerfacecolor() == "none"]


def test_figure_points_follow_the_profile():
    assert [point_mode(p) for p in ("paper", "rehearsal", "offline", "tiny-test")] == \
        ["comparable", "replica", "none", "none"]
    assert figure_points(PUBLISHED, TRACE, "pcc_in", "offline").empty
    replica = figure_points(PUBLISHED, TRACE, "pcc_in", "rehearsal")
    paper = figure_points(PUBLISHED, TRACE, "pcc_in", "paper")
    assert len(replica) == len(paper) == 12 and not replica["comparable"].any()
    assert paper["comparable"].all()
    # in the tidy file's units: the published 92.9 % (scale 100) is 0.929
    row = paper[(paper["method"] == "sappgrad") & (paper["iteration"] == 1000)]
    np.testing.assert_allclose(row["published"], 0.929)


def test_published_points_leave_out_claims_and_other_columns():
    entries = [e for path in PUBLISHED for e in load_published(path)]
    accuracy = published_points(entries, CLASSIFICATION, "accuracy")
    numeric = [e for e in entries if not e.is_claim
               and e.reproduced["file"] == CLASSIFICATION and e.reproduced["column"] == "accuracy"]
    assert len(accuracy) == len(numeric) > 0 and accuracy["published"].between(0, 1).all()
    assert published_points(entries, CLASSIFICATION, "ari").empty


def test_rehearsal_figure1_marks_each_published_iteration_at_its_flops():
    trace = _rehearsal_trace()
    published = figure_points(PUBLISHED, TRACE, "pcc_in", "rehearsal")
    fig = figure_pcc(trace, datasets=["mnist_halves"], title_suffix=" (rehearsal)",
                     published=published)
    markers = _published_markers(fig.axes[0])
    assert len(markers) == 2  # one set per method
    for line in markers:
        method = "appgrad" if line.get_marker() == method_style("appgrad")["marker"] else "sappgrad"
        expected = published[published["method"] == method].sort_values("iteration", kind="stable")
        run = trace[trace["method"] == method]
        np.testing.assert_allclose(line.get_xdata(),
                                   np.log(published_flops(run, expected["iteration"])))
        np.testing.assert_allclose(line.get_ydata(), 100 * expected["published"])
        # at an iteration the run reached, the marker sits at the curve's FLOPs
        at_1000 = run.loc[run["iteration"] == 1000, "log_flops"].iloc[0]
        assert np.isclose(line.get_xdata(), at_1000).sum() == 1
        assert to_rgba(line.get_markeredgecolor()) == to_rgba(REPLICA_GREY)
        assert "replica data: not comparable" in line.get_label()
    assert not text_problems(fig)
    plt.close(fig)


def test_published_flops_need_the_authors_fixed_count_per_iteration():
    trace = pd.DataFrame({"iteration": [0, 10, 20], "flops": [0.0, 100.0, 300.0]})
    with pytest.raises(ValueError, match="different FLOPs per iteration"):
        published_flops(trace, [5])
    np.testing.assert_allclose(published_flops(trace.iloc[:2], [5, 4000]), [50.0, 40000.0])


def test_rehearsal_figure4_marks_each_bar_with_its_published_accuracy():
    methods = ["vec2vec", "pca", "mds", "isomap", "lle", "le", "umap"]
    datasets = ["coil20", "mnist", "digits"]
    rng = np.random.default_rng(0)
    folds = pd.DataFrame([{"dataset": d, "method": m, "fold": f, "accuracy": rng.uniform(0.5, 1)}
                          for d in datasets for m in methods for f in range(4)])
    published = figure_points(PUBLISHED, CLASSIFICATION, "accuracy", "rehearsal")
    fig = accuracy_figure(folds, profile="rehearsal", methods=methods, published=published)
    panels = {ax.get_title(): ax for ax in fig.axes if ax.get_visible()}
    for dataset in datasets:
        marks = sorted((int(line.get_ydata()[0]), float(line.get_xdata()[0]))
                       for line in _published_markers(panels[dataset]))
        expected = published[published["dataset"] == dataset]
        want = sorted((methods.index(m), v) for m, v in zip(expected["method"],
                                                            expected["published"]))
        # digits: none published. Bar indices exactly, accuracies to rounding.
        assert [i for i, _ in marks] == [i for i, _ in want], dataset
        assert [v for _, v in marks] == pytest.approx([v for _, v in want]), dataset
    assert len(_published_markers(panels["mnist"])) == 7
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == ["published (replica data: not comparable)"]
    assert not text_problems(fig)
    plt.close(fig)


def test_offline_figures_draw_no_published_points():
    config = profile_config("default")
    for name, fig in draw_figures(config):
        assert not any(_published_markers(ax) for ax in fig.axes), name
        plt.close(fig)


@pytest.mark.parametrize("n_datasets", [1, 4, 7])
def test_figure4_labels_the_lowest_panel_of_each_column(n_datasets):
    rng = np.random.default_rng(n_datasets)
    folds = pd.DataFrame([{"dataset": f"d{d}", "method": m, "accuracy": rng.uniform(0.3, 1)}
                          for d in range(n_datasets) for m in ("pca", "umap", "vec2vec")
                          for _ in range(4)])
    fig = accuracy_figure(folds, profile="test")
    panels = [ax for ax in fig.axes if ax.get_visible()]
    labelled = [i for i, ax in enumerate(panels) if ax.get_xlabel()]
    columns = min(n_datasets, 3)
    assert sorted(i % columns for i in labelled) == list(range(columns))
    assert all(i + columns >= n_datasets for i in labelled)  # nothing below them
    assert not text_problems(fig)
    plt.close(fig)
