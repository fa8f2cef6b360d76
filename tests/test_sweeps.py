"""Sweeps (`sweeps:` in the config): each value a validated run config with a results folder of
its own, mistakes named at start, and the metric of every run gathered into a table and figure."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from lowdim.config import ConfigError, validate_config
from lowdim.settings import check_config
from lowdim.plots.sweeps import error_bars
from lowdim.sweeps import (METRICS, _unique, expand_sweeps, module_name, parse_key, sweep_tidy,
                           value_text)
from lowdim.tables.sweeps import sweep_caption

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"
TINY = yaml.safe_load((ROOT / "tests" / "config" / "tiny.yaml").read_text())


def validate(config):
    return check_config(validate_config(config, SCHEMA))


def sweeps_of(*entries):
    return expand_sweeps(validate({**TINY, "sweeps": list(entries)}), validate)


def test_each_value_is_a_validated_run_of_its_section_alone():
    (sweep,) = sweeps_of({"key": "cca.reg", "values": [0.001, "1e-2"]})
    assert (sweep.name, sweep.section, sweep.metric.name) == ("cca_reg", "cca", "pcc_in")
    assert [run.value for run in sweep.runs] == [0.001, 0.01]  # "1e-2" read as a number
    assert [run.prefix for run in sweep.runs] == ["results/sweeps/cca_reg/reg~0.001/",
                                                  "results/sweeps/cca_reg/reg~0.01/"]
    run = sweep.runs[1]
    assert run.config["cca"]["reg"] == 0.01 and run.config["cca"]["enabled"]
    assert not any(run.config[s]["enabled"] for s in ("similarity", "sms_tasks", "embedding",
                                                      "kernel_cca", "report"))
    assert run.config["sweeps"] == [] and "cca.reg = 0.01" in run.config["profile"]
    # Nothing but cca.reg differs from the main run's settings of the section, and the run
    # leaves out Figure 2, which the metric (Figure 1's PCC) does not read: the section's one
    # tidy job would otherwise run its heuristics in every run.
    main = validate(TINY)["cca"]
    assert {k for k in main if main[k] != run.config["cca"][k]} == {"reg", "figure2"}
    assert run.config["cca"]["figure2"] == {**main["figure2"], "dataset": None}
    assert run.config["sweep_run"]["shared_datasets"] == sorted(TINY["datasets"])
    assert sweep.targets()[0] == "results/sweeps/cca_reg/reg~0.001/cca/tidy/appgrad_trace.csv"


def test_a_cca_sweep_sets_its_key_for_every_dataset_and_says_which_overrides_it_set_aside():
    # cca.overrides.<dataset>.reg would keep that dataset at its own reg in every run: a flat
    # line labelled with the swept values. Each run sets the key for every dataset instead.
    from lowdim.settings import cca_settings

    (dataset,) = validate(TINY)["cca"]["figure1"]["datasets"][:1]
    cca = {**TINY.get("cca", {}), "overrides": {dataset: {"reg": 0.5, "n_components": 2}}}
    (sweep,) = sweeps_of_config({**TINY, "cca": cca}, {"key": "cca.reg", "values": [0.001, 0.01]})
    for run in sweep.runs:
        assert cca_settings(run.config, dataset)["reg"] == (run.value, "cca.reg")
        assert run.config["cca"]["overrides"][dataset] == {"n_components": 2}  # others kept
        assert run.config["profile"].endswith(
            f"cca.reg = {run.value} (for every dataset: cca.overrides.{dataset}.reg set aside)")
    (other,) = sweeps_of_config({**TINY, "cca": cca}, {"key": "cca.appgrad.max_iter",
                                                       "values": [10, 20]})
    assert "set aside" not in other.runs[0].config["profile"]


def sweeps_of_config(config, *entries):
    return expand_sweeps(validate({**config, "sweeps": list(entries)}), validate)


def test_an_embedding_run_leaves_out_the_figures_its_metric_does_not_read():
    (sweep,) = sweeps_of({"key": "embedding.n_components", "values": [2, 3]})
    run = sweep.runs[0].config["embedding"]
    assert run["sensitivity"]["datasets"] == [] and run["timing"]["methods"] == []
    assert run["datasets"] == TINY["embedding"]["datasets"] and run["n_components"] == 2


def test_sweeping_a_dataset_option_prepares_that_dataset_again():
    (sweep,) = sweeps_of({"key": "datasets.digits_halves.n_rows", "section": "cca",
                          "values": [100, 200]})
    shared = sweep.runs[0].config["sweep_run"]["shared_datasets"]
    assert "digits_halves" not in shared and "word_context" in shared
    assert [run.label for run in sweep.runs] == ["n_rows~100", "n_rows~200"]


def test_list_entries_and_list_values_get_readable_folders():
    (sweep,) = sweeps_of({"key": "similarity.matrices[1].mlp.hidden_layer_sizes",
                          "values": [[8], [8, 4]], "name": "mlp_layers"})
    assert [run.label for run in sweep.runs] == ["hidden_layer_sizes~8",
                                                 "hidden_layer_sizes~8-4"]
    assert sweep.runs[1].config["similarity"]["matrices"][1]["mlp"]["hidden_layer_sizes"] == [8, 4]
    assert sweep.metric.name == "error" and len({r.module for r in sweep.runs}) == 2


def test_module_names_never_collide():
    """A sweep "x" at cca.reg = 1.5 and a sweep "x_1" at cca.n_components = 5 once both made
    module sweep_x_1_5_; every module (and so every rule name built on one) is distinct."""
    sweeps = sweeps_of({"key": "cca.reg", "values": [1.5, 0.01], "name": "x"},
                       {"key": "cca.n_components", "values": [5, 3], "name": "x_1"},
                       {"key": "cca.reg", "values": [0.1] * 11, "name": "x_1_1"})
    modules = [run.module for sweep in sweeps for run in sweep.runs]
    assert len(set(modules)) == len(modules) == 15
    # no module is the start of another's rule names (rule names start with a letter)
    assert not [(a, b) for a in modules for b in modules if a != b and b.startswith(a)]
    assert module_name("x", 1) != module_name("x_1", 0)
    assert all(m.isidentifier() for m in modules)


def test_rule_names_read_as_the_sweep_and_a_name_cannot_hide_the_value():
    """A sweep's rules read ``sweep_<name>__<value index>_<rule>`` in logs; a name with two
    underscores in a row (which would end it early) is refused by the schema, and the
    default name of a list key collapses them."""
    (sweep,) = sweeps_of({"key": "embedding.n_components", "values": [2, 3]})
    assert [run.module for run in sweep.runs] == ["sweep_embedding_n_components__0_",
                                                  "sweep_embedding_n_components__1_"]
    with pytest.raises(ConfigError, match="name"):
        sweeps_of({"key": "cca.reg", "values": [0.1], "name": "a__b"})
    (listed,) = sweeps_of({"key": "similarity.matrices[0].n_items", "values": [30]})
    assert listed.name == "similarity_matrices_0_n_items"


def test_folder_labels_never_collide():
    # a repeated text gets its position, which must not read as another value's text
    assert _unique(["a", "a", "a_1", "b"]) == ["a_0", "a_1_1", "a_1", "b"]
    labels = _unique(["a_1", "a", "a", "a_2_2", "a_2"])
    assert len(set(labels)) == 5


def test_parse_key_and_value_text():
    assert parse_key("similarity.matrices[0].wmd.gamma") == ("similarity", "matrices", 0,
                                                             "wmd", "gamma")
    assert [value_text(v) for v in (1e-5, True, None, "a/b", {"x": 1})] == \
        ["1e-05", "true", "null", "a_b", "__x__1_"]


@pytest.mark.parametrize("entry, line", [
    ({"key": "cca.regg", "values": [0.1]},
     "config: sweeps[0].values[0]: unknown key 'cca.regg'; allowed keys here: "),
    ({"key": "cca.reg", "values": [0.1, "lots"]},
     "config: sweeps[0].values[1]: cca.reg: got 'lots' (str); expected number"),
    ({"key": "cca.n_components", "values": [3, 50]},
     "config: sweeps[0].values[1]: cca.n_components: got 50; must be <= min(p1, p2)"),
    ({"key": "cca.nothing.reg", "values": [0.1]},
     "config: sweeps[0].values[0].key: got 'cca.nothing.reg'; 'cca.nothing' is not in the "
     "config"),
    ({"key": "cca.threads", "values": [1, 2]},
     "config: sweeps[0].key: got 'cca.threads'; it changes no result"),
    ({"key": "seed", "values": [1, 2]},
     "config: sweeps[0].section: key 'seed' is outside the experiment sections; name the "
     "experiment to run"),
    ({"key": "cca.reg", "values": [0.1], "metric": "accuracy"},
     "config: sweeps[0].metric: got 'accuracy'; metrics of section cca: pcc_in, pcc_out"),
    ({"key": "cca.reg", "values": [0.1], "section": "embedding"},
     "config: sweeps[0].section: got 'embedding'; key 'cca.reg' belongs to section 'cca'"),
    ({"key": "cca.figure1.datasets", "values": [[]]},
     "config: sweeps[0]: cca.figure1.datasets is empty, so metric pcc_in has nothing"),
], ids=["unknown key", "value of the wrong type", "value the data refuse", "missing parent",
        "resource key", "top-level key without a section", "metric of another section",
        "section of another key", "nothing to measure"])
def test_mistakes_in_a_sweep_are_named_at_start(entry, line):
    with pytest.raises(ConfigError) as info:
        sweeps_of(entry)
    assert str(info.value).startswith(line), str(info.value)


def test_two_sweeps_need_two_names():
    with pytest.raises(ConfigError, match=r"sweeps\[1\].name: got 'cca_reg'; another sweep"):
        sweeps_of({"key": "cca.reg", "values": [0.1]}, {"key": "cca.reg", "values": [0.2]})


def test_seed_is_sweepable_with_a_section():
    (sweep,) = sweeps_of({"key": "seed", "section": "embedding", "values": [0, 1]})
    assert [run.config["seed"] for run in sweep.runs] == [0, 1]
    assert sweep.metric.name == "accuracy"


# -- tidy, table, figure --------------------------------------------------------------------
def _params(section, metric, values, settings=None):
    return {"name": "s", "key": f"{section}.x", "section": section, "metric": metric,
            "labels": [f"x~{v}" for v in values], "values": values,
            "settings": settings or [{} for _ in values]}


def test_cca_metric_is_pcc_at_the_last_checkpoint():
    trace = pd.DataFrame({"dataset": "d", "method": ["appgrad"] * 3, "iteration": [1, 10, 5],
                          "pcc_in": [0.2, 0.9, 0.5], "pcc_out": [0.1, 0.8, 0.4]})
    tidy = sweep_tidy(_params("cca", "pcc_in", [0.1, 0.2]), [trace, trace.assign(pcc_in=0.7)])
    assert tidy["score"].tolist() == [0.9, 0.7] and tidy["numeric_value"].tolist() == [0.1, 0.2]
    # one seeded fit per value: no spread, and the figure says so rather than drawing none
    assert tidy["spread"].isna().all() and tidy["runs"].eq(1).all()
    assert error_bars(tidy) == ("no error bars: the mean of 1 seeded run per value "
                                "(cca.n_seeds; ± 2 sd with several)")


def test_cca_metric_averages_each_seeds_last_checkpoint():
    # two replicates (cca.n_seeds = 2): each one's last checkpoint, then their mean ± 2 sd
    trace = pd.DataFrame({"dataset": "d", "method": "appgrad", "seed": [0, 0, 1, 1],
                          "iteration": [1, 10, 1, 10], "pcc_in": [0.2, 0.9, 0.3, 0.7],
                          "pcc_out": 0.5})
    tidy = sweep_tidy(_params("cca", "pcc_in", [0.1]), [trace])
    assert tidy["score"].tolist() == pytest.approx([0.8])
    assert tidy["spread"].tolist() == pytest.approx([0.2]) and tidy["runs"].tolist() == [2]
    assert error_bars(tidy) == ("error bars: the mean of 2 seeded runs per value "
                                "(cca.n_seeds; ± 2 sd with several)")


def test_embedding_metric_is_the_fold_mean_with_two_sd():
    folds = pd.DataFrame({"dataset": "d", "method": "pca", "accuracy": [0.8, 0.9, 1.0, 0.9]})
    tidy = sweep_tidy(_params("embedding", "accuracy", ["a"]), [folds])
    np.testing.assert_allclose(tidy["score"], 0.9)
    np.testing.assert_allclose(tidy["spread"], 2 * np.std([0.8, 0.9, 1.0, 0.9]))
    assert tidy["value"].tolist() == ["a"] and tidy["numeric_value"].isna().all()
    assert error_bars(tidy) == "error bars: mean ± 2 sd over 4 folds"
    assert sweep_caption(tidy, "Sweep s.") == "Sweep s. Cells: mean ± 2 sd over 4 folds."


def test_similarity_metric_is_the_median_at_the_table_fraction():
    errors = pd.DataFrame({"matrix": "m", "method": "nystrom", "s/n": [0.1] * 3 + [0.2] * 3,
                           "error": [1.0, 3.0, 2.0, 9.0, 9.0, 9.0]})
    tidy = sweep_tidy(_params("similarity", "error", [1], [{"table_fraction": 0.1}]), [errors])
    assert tidy["score"].tolist() == [2.0] and tidy["dataset"].tolist() == ["m"]
    assert error_bars(tidy) == "no error bars: the median of 3 seeds per value"


def test_similarity_metric_picks_the_table_fraction_per_matrix():
    # 74/737 ≈ 0.1004 (wmd_bbcsport) beside 50/500 = 0.1: each matrix is scored at its own
    # s/n nearest table_fraction, as diagnostics_table does; neither matrix is dropped.
    errors = pd.DataFrame({"matrix": ["bbc"] * 4 + ["stsb"] * 4,
                           "method": "nystrom",
                           "s/n": [37 / 737, 74 / 737, 74 / 737, 147 / 737, 0.05, 0.1, 0.1, 0.2],
                           "error": [9.0, 0.4, 0.6, 1.0, 9.0, 0.2, 0.3, 1.0]})
    tidy = sweep_tidy(_params("similarity", "error", [1], [{"table_fraction": 0.1}]), [errors])
    assert tidy["dataset"].tolist() == ["bbc", "stsb"]
    np.testing.assert_allclose(tidy["score"], [0.5, 0.25])
    assert tidy["runs"].tolist() == [2, 2]


def test_table_keeps_each_score_on_its_value_when_a_value_has_no_rows():
    from lowdim.tables.sweeps import sweep_table

    clustering = [pd.DataFrame({"dataset": ["d"], "method": ["vec2vec"], "ari": [ari]})
                  for ari in (0.61, 0.70, 0.83)]
    empty = pd.DataFrame(columns=["dataset", "method", "ari"])  # value 10: no ARI kept
    tidy = sweep_tidy(_params("embedding", "ari", [5, 10, 20, 40]),
                      [clustering[0], empty, clustering[1], clustering[2]])
    table = sweep_table(tidy, digits=2)
    assert table["embedding.x"].tolist() == ["5", "20", "40"]
    assert table["d: Vec2vec"].tolist() == ["0.61", "0.70", "**0.83**"]


def test_table_bolds_the_best_value_and_figure_has_a_panel_per_dataset():
    from lowdim.plots.sweeps import sweep_figure
    from lowdim.tables.sweeps import sweep_table

    errors = [pd.DataFrame({"matrix": [m], "method": "sms_nystrom", "s/n": 0.1, "error": e})
              for m, e in (("a", 0.3), ("b", 0.1))]
    runs = [pd.concat(errors), pd.concat([f.assign(error=f["error"] / 2) for f in errors])]
    tidy = sweep_tidy(_params("similarity", "error", [1.0, 20.0], [{"table_fraction": 0.1}] * 2),
                      runs)
    table = sweep_table(tidy, METRICS[("similarity", "error")].higher_is_better)
    assert list(table.columns) == ["similarity.x", "a: SMS-Nyström", "b: SMS-Nyström"]
    assert table["a: SMS-Nyström"].tolist() == ["0.3000", "**0.1500**"]  # lower error wins
    fig = sweep_figure(tidy, label="error")
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in panels] == ["a", "b"]
    assert all(ax.get_ylabel() == "error\n(no error bars: the median of 1 seed per value)"
               for ax in panels)
    assert panels[0].get_xscale() == "log"  # 1 and 20 span a decade


def test_figure_axis_names_the_error_bars_it_draws():
    from lowdim.plots.sweeps import sweep_figure

    folds = pd.DataFrame({"dataset": "d", "method": "pca", "accuracy": [0.8, 0.9, 1.0, 0.9]})
    tidy = sweep_tidy(_params("embedding", "accuracy", [1, 2]), [folds, folds])
    (ax, *_) = sweep_figure(tidy, label="kNN accuracy").axes
    assert ax.get_ylabel() == "kNN accuracy\n(error bars: mean ± 2 sd over 4 folds)"
    (bars,) = ax.containers  # one errorbar container per method, with its vertical bars
    assert bars.has_yerr
