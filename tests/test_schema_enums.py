"""Every enumeration of the config schemas is the library's list, not a copy of it.

A schema enum that drifts from the library either refuses a method the library has or
lets through a name the job then rejects. Each enum found in workflow/schemas/ must be
listed in :data:`LIBRARY_LISTS` and equal the library's list; a new enum fails
:func:`test_every_schema_enum_has_a_library_list` until it is tied to one.
"""

from pathlib import Path

import pytest
import yaml

from lowdim.approx._linalg import EIGEN_SOLVERS
from lowdim.approx.experiment import METHODS as APPROX_METHODS
from lowdim.approx.methods import METHOD_NAMES as APPROX_METHOD_NAMES
from lowdim.approx.methods import SAMPLING_METHODS
from lowdim.cca._linalg import NORMALIZATIONS
from lowdim.cca.experiments import HEURISTICS
from lowdim.cca.kernel import APPROXIMATIONS, SOLVERS as KERNEL_CCA_SOLVERS
from lowdim.cca.kernel_experiments import SIMILARITIES
from lowdim.cca.methods import EXACT_METHODS, HEURISTIC_METHODS, RESCALINGS
from lowdim.settings.similarity import MATRIX_DATASET_KINDS
from lowdim.data.prepared import SPLIT_NAMES
from lowdim.data.word_vectors import NAMED_WORD_VECTORS
from lowdim.embedding.baselines import METHODS as EMBEDDING_ESTIMATORS
from lowdim.embedding.graph import GRAPH_METRICS, KNN_MODES
from lowdim.embedding.methods import METHOD_NAMES
from lowdim.embedding.vec2vec import INITS as VEC2VEC_INITS
from lowdim.embedding.vec2vec import SOLVERS as VEC2VEC_SOLVERS
from lowdim.similarity.crossencoder import SCORES as CROSSENCODER_SCORES
from lowdim.similarity.matrices import MATRIX_KINDS
from lowdim.similarity.mlp import SCORES as MLP_SCORES
from lowdim.similarity.tiny_crossencoder import MODEL_KINDS
from lowdim.sweeps import SWEEP_SECTIONS
from lowdim.tasks.encoders import ENCODERS
from lowdim.tasks.glue import GLUE_METRICS
from lowdim.tasks.wmd_classification import CLASSIFICATION_METHODS, SICUR_FEATURES

SCHEMAS = Path(__file__).resolve().parents[1] / "workflow" / "schemas"

#: Config key (``*`` for a list index or a free name) -> the library's list of its values.
LIBRARY_LISTS = {
    "cca.rescale": RESCALINGS,
    "cca.overrides.*.rescale": RESCALINGS,
    "cca.exact_method": EXACT_METHODS,
    "cca.normalization": NORMALIZATIONS,
    "cca.figure2.methods.*": HEURISTIC_METHODS,
    "embedding.methods.*": METHOD_NAMES,
    "embedding.batch_methods.*": METHOD_NAMES,
    "embedding.timing.methods.*": METHOD_NAMES,
    "embedding.timing.batch_methods.*": METHOD_NAMES,
    "embedding.vec2vec.knn": KNN_MODES,
    "embedding.vec2vec.metric": GRAPH_METRICS,
    "embedding.vec2vec.solver": VEC2VEC_SOLVERS,
    "embedding.vec2vec.init": VEC2VEC_INITS,
    "kernel_cca.solver": KERNEL_CCA_SOLVERS,
    "kernel_cca.settings.*.similarity": SIMILARITIES,
    "kernel_cca.settings.*.approximations.*": APPROXIMATIONS,
    "kernel_cca.settings.*.rescale": RESCALINGS,
    "kernel_cca.settings.*.mlp.score": MLP_SCORES,
    "models.*.kind": MODEL_KINDS,
    "similarity.methods.*": APPROX_METHOD_NAMES,
    "similarity.sms.eigen_solver": EIGEN_SOLVERS,
    "similarity.matrices.*.kind": MATRIX_KINDS,
    "similarity.matrices.*.wmd.word_vectors": NAMED_WORD_VECTORS,
    "similarity.matrices.*.mlp.score": MLP_SCORES,
    "similarity.matrices.*.mlp.word_vectors": NAMED_WORD_VECTORS,
    "similarity.matrices.*.crossencoder.score": CROSSENCODER_SCORES,
    "sms_tasks.wmd_classification.methods.*": CLASSIFICATION_METHODS,
    "sms_tasks.wmd_classification.sicur_features": SICUR_FEATURES,
    "sms_tasks.wmd_classification.sms.eigen_solver": EIGEN_SOLVERS,
    "sms_tasks.wmd_classification.corpora.*.word_vectors": NAMED_WORD_VECTORS,
    "sms_tasks.glue.methods.*": SAMPLING_METHODS,
    "sms_tasks.glue.tasks.*.dataset": tuple(GLUE_METRICS),
    "sms_tasks.glue.tasks.*.split": SPLIT_NAMES,
    "sms_tasks.glue.tasks.*.score": CROSSENCODER_SCORES,
    "sms_tasks.glue.sms.eigen_solver": EIGEN_SOLVERS,
    "sms_tasks.coreference.methods.*": SAMPLING_METHODS,
    "sms_tasks.coreference.sms.eigen_solver": EIGEN_SOLVERS,
    "sms_tasks.coreference.corpora.*.encoder": ENCODERS,
    "sms_tasks.coreference.corpora.*.train_split": SPLIT_NAMES,
    "sms_tasks.coreference.corpora.*.tune_split": SPLIT_NAMES,
    "sms_tasks.coreference.corpora.*.test_split": SPLIT_NAMES,
    "sweeps.*.section": SWEEP_SECTIONS,
}

#: Enums that are one literal beside a number (``step_size: auto`` or a positive number):
#: a keyword of the argument, not an enumeration.
LITERALS = {"cca.appgrad.step_size": ["auto"], "cca.sappgrad.step_size": ["auto"],
            "cca.overrides.*.appgrad_step_size": ["auto"],
            "cca.overrides.*.sappgrad_step_size": ["auto"]}


def _walk(node, key):
    """``(config key, enum)`` of every enum below schema ``node`` at ``key``."""
    if isinstance(node, list):
        for item in node:
            yield from _walk(item, key)
        return
    if not isinstance(node, dict):
        return
    if "enum" in node:
        yield key, node["enum"]
    for name, child in node.get("properties", {}).items():
        yield from _walk(child, f"{key}.{name}")
    for part in ("items", "additionalProperties"):
        if isinstance(node.get(part), dict):
            yield from _walk(node[part], f"{key}.*")
    for part in ("oneOf", "anyOf", "allOf"):
        yield from _walk(node.get(part, []), key)


def schema_enums() -> dict:
    """Every enum of the section schemas, by config key."""
    found = {}
    for path in sorted(SCHEMAS.glob("*.schema.yaml")):
        if path.name == "config.schema.yaml":
            continue
        section = path.name.removesuffix(".schema.yaml")
        for key, values in _walk(yaml.safe_load(path.read_text()), section):
            found.setdefault(key, []).append(values)
    return found


ENUMS = schema_enums()


def test_every_schema_enum_has_a_library_list():
    assert len(ENUMS) > 30  # the walk reaches nested settings, lists and oneOf alternatives
    unlisted = sorted(set(ENUMS) - set(LIBRARY_LISTS) - set(LITERALS))
    assert not unlisted, f"schema enums not tied to a library list: {unlisted}"
    gone = sorted(set(LIBRARY_LISTS) - set(ENUMS))
    assert not gone, f"listed here but no longer in a schema: {gone}"


@pytest.mark.parametrize("key", sorted(LIBRARY_LISTS))
def test_schema_enum_is_the_library_list(key):
    for values in ENUMS[key]:
        assert sorted(values) == sorted(LIBRARY_LISTS[key]), key


@pytest.mark.parametrize("key", sorted(LITERALS))
def test_literal_beside_a_number_is_only_that_literal(key):
    assert ENUMS[key] == [LITERALS[key]]


def test_library_lists_agree_with_what_they_name():
    # the names of a list and the mapping that builds each are the same
    assert tuple(EMBEDDING_ESTIMATORS) == METHOD_NAMES
    assert tuple(HEURISTICS) == HEURISTIC_METHODS
    assert set(MATRIX_DATASET_KINDS) == set(MATRIX_KINDS)
    assert tuple(APPROX_METHODS) == APPROX_METHOD_NAMES
