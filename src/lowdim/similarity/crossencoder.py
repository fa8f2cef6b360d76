"""Cross-encoder similarity: a transformer reads both sentences and scores the pair.

Needs the optional extra ``crossencoder`` (``transformers`` and ``torch``):
``pip install "lowdim[crossencoder]"``. The model is loaded by name or local
path with ``AutoModelForSequenceClassification``; nothing is downloaded unless
the name is not already in the local Hugging Face cache.
"""

from __future__ import annotations

import numpy as np

from .._transformers import import_transformers
from .._validation import ArgumentValueError, check_choice
from ._oracle import SimilarityOracle

__all__ = ["CrossEncoderOracle", "SCORES"]

#: What the oracle serves: the logit or the probability of ``label_index``; ``auto`` picks
#: the logit for a one-output regression head, else the probability.
SCORES = ("auto", "logit", "probability")


def _crossencoder_pairs(oracle, i, j):
    scores = oracle._score_ordered(i, j)
    if oracle.symmetrize:
        scores = 0.5 * (scores + oracle._score_ordered(j, i))
    return scores


class CrossEncoderOracle(SimilarityOracle):
    """Score sentence pairs with a sequence-classification transformer.

    ``K[i, j]`` is the model's score for the input ``(sentences[i], sentences[j])``.
    A cross-encoder is not symmetric in its two inputs; with ``symmetrize=True``
    (default) the oracle serves ``(K + K.T) / 2``, one counted evaluation then
    costing two forward passes.

    Parameters
    ----------
    sentences : sequence of str of shape (n,)
        The items, one sentence each.
    model : str or path
        Hugging Face model name or local directory holding a
        sequence-classification model and its tokenizer.
    score : {"auto", "logit", "probability"}, default="auto"
        ``"logit"``: the raw output for ``label_index``; ``"probability"``:
        its softmax probability over the outputs, or ``sigmoid(logit)`` for a
        one-output model (as sentence-transformers' ``CrossEncoder`` does for
        ``num_labels == 1``; a softmax over one output would be 1 everywhere).
        ``"auto"`` takes the logit of a one-output (regression, e.g. STS-B)
        model and the probability otherwise.
    label_index : int, default=-1
        Output used for multi-class models (``-1``: the last, conventionally
        "similar"/"paraphrase"); in ``[-num_labels, num_labels)``, so ``0`` or
        ``-1`` for a one-output model.
    symmetrize : bool, default=True
        Serve ``(K + K.T) / 2`` (needed by the Nyström methods).
    batch_size : int, default=32
        Pairs per forward pass.
    max_length : int, default=256
        Tokens per pair after truncation.
    n_jobs : int, default=1
        Torch intra-op threads while a block is evaluated.
    cache : bool, default=True
        Keep evaluated entries, so none is paid for twice.
    device : str, default="cpu"
        Torch device of the model.

    Attributes
    ----------
    model_ : transformers.PreTrainedModel
    tokenizer_ : transformers.PreTrainedTokenizerBase

    Examples
    --------
    >>> from lowdim.similarity import CrossEncoderOracle
    >>> from lowdim.similarity.tiny_crossencoder import build_tiny_crossencoder
    >>> sentences = ["a cat sat", "a dog sat", "the sea is calm"]
    >>> model = build_tiny_crossencoder(tmp / "m")  # a tiny random model, built locally
    >>> oracle = CrossEncoderOracle(sentences, model)
    >>> K = oracle(np.arange(3), np.arange(3))
    >>> K.shape, np.allclose(K, K.T), oracle.evaluations
    ((3, 3), True, 6)
    """

    def __init__(self, sentences, model, score="auto", label_index=-1, symmetrize=True,
                 batch_size=32, max_length=256, n_jobs=1, cache=True, device="cpu"):
        super().__init__(n_jobs=n_jobs, cache=cache, chunk_size=batch_size)
        _, transformers = import_transformers("CrossEncoderOracle")
        check_choice(score, "score", SCORES)
        self.sentences = [str(s) for s in sentences]
        if not self.sentences:
            raise ArgumentValueError("`sentences` is empty", "sentences")
        empty = [k for k, s in enumerate(self.sentences) if not s.strip()]
        if empty:
            raise ArgumentValueError(f"`sentences`: {len(empty)} empty sentences, first at index "
                                     f"{empty[0]}", "sentences")
        self.tokenizer_ = transformers.AutoTokenizer.from_pretrained(model)
        self.model_ = (transformers.AutoModelForSequenceClassification
                       .from_pretrained(model).to(device).eval())
        n_labels = int(self.model_.config.num_labels)
        if not -n_labels <= label_index < n_labels:
            outputs = "1 output" if n_labels == 1 else f"{n_labels} outputs"
            raise ArgumentValueError(f"`label_index` must be in [-{n_labels}, {n_labels}) for a "
                                     f"model with {outputs}, got {label_index}", "label_index")
        self.score = score if score != "auto" else ("logit" if n_labels == 1 else "probability")
        self.label_index, self.symmetrize = int(label_index), bool(symmetrize)
        self.max_length, self.device = int(max_length), device
        self.symmetric = self.symmetrize
        self._n = len(self.sentences)

    def _score_ordered(self, i, j):
        import torch

        batch = self.tokenizer_([self.sentences[a] for a in i], [self.sentences[b] for b in j],
                                padding=True, truncation=True, max_length=self.max_length,
                                return_tensors="pt").to(self.device)
        with torch.no_grad():
            logits = self.model_(**batch).logits.double()
        if self.score == "probability":
            # one output is a binary logit (a softmax over it would be 1 for every pair)
            single = logits.shape[-1] == 1
            logits = torch.sigmoid(logits) if single else torch.softmax(logits, dim=-1)
        return logits[:, self.label_index].cpu().numpy()

    def _pair_task(self):
        return _crossencoder_pairs, (self,)

    def _compute_chunks(self, i, j, progress):
        import torch

        previous = torch.get_num_threads()
        torch.set_num_threads(self.n_jobs)
        try:  # the model's own threads replace worker processes
            return self._compute_serial(i, j, progress)
        finally:
            torch.set_num_threads(previous)
