"""Every method a result file can name has one label, colour and marker (lowdim.methods),
which the figures and the tables both read."""

import pytest

from lowdim.approx.methods import METHOD_NAMES as APPROXIMATIONS
from lowdim.cca.kernel import APPROXIMATIONS as KERNEL_APPROXIMATIONS
from lowdim.cca.methods import APPGRAD_METHODS, HEURISTIC_METHODS
from lowdim.embedding.methods import METHOD_NAMES as EMBEDDINGS
from lowdim.methods import METHOD_STYLES, method_label, method_order
from lowdim.tasks.wmd_classification import CLASSIFICATION_METHODS

#: The names result files use, list by list.
RESULT_METHODS = {
    "approximations": APPROXIMATIONS,
    "WMD classification": CLASSIFICATION_METHODS,
    "coreference (the exact matrix)": ("exact",),
    "embeddings": EMBEDDINGS,
    "AppGrad": APPGRAD_METHODS,
    "Figure 2's heuristics": HEURISTIC_METHODS,
    "kernel CCA": ("linear_cca", "exact_kernel_cca",
                   *(f"kernel_cca_{a}" for a in KERNEL_APPROXIMATIONS)),
}


@pytest.mark.parametrize("names", RESULT_METHODS.values(), ids=RESULT_METHODS.keys())
def test_every_method_of_a_result_file_has_a_style(names):
    assert not set(names) - set(METHOD_STYLES)


def test_labels_and_styles_are_distinct_within_a_paper():
    labels = [label for label, _, _ in METHOD_STYLES.values()]
    assert len(labels) == len(set(labels))
    for names in RESULT_METHODS.values():
        looks = [METHOD_STYLES[n][1:] for n in names]
        assert len(looks) == len(set(looks)), names


def test_plots_and_tables_read_the_same_labels_and_order():
    from lowdim.plots import method_style

    assert method_style("sicur")["label"] == method_label("sicur") == "SiCUR"
    # the tables' order: the task's own method first, baselines and the exact matrix last
    assert method_order(["wmd_kernel", "exact", "nystrom", "wme"]) == \
        ["wme", "nystrom", "exact", "wmd_kernel"]
