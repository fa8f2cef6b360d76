"""Item embeddings for the pairwise similarity of the coreference task.

The SMS-Nyström paper embeds ECB+ mentions with RoBERTa inside the model of
Cattan et al. (2020). We offer two stand-ins:

- ``"glove50"`` (default, offline): mean GloVe 6B 50d vector of the mention
  text, concatenated with that of its sentence
  (:func:`lowdim.similarity.matrices.item_embeddings`); dense datasets use
  their standardised rows.
- ``"transformer"``: a Hugging Face encoder (e.g.
  ``sentence-transformers/all-MiniLM-L6-v2``, or a local directory holding
  one) applied to the mention and to its sentence, mean-pooled over tokens
  and L2-normalised; needs the ``crossencoder`` extra (transformers, torch).
"""

from __future__ import annotations

import numpy as np

from .._transformers import import_transformers
from .._validation import ArgumentValueError
from ..progress import Progress
from ..similarity.matrices import item_embeddings

__all__ = ["ENCODERS", "mention_embeddings", "transformer_embeddings"]

#: Mention encoders of :func:`mention_embeddings`.
ENCODERS = ("glove50", "transformer")


def transformer_embeddings(texts, model, batch_size=64, max_length=128, n_jobs=1):
    """Mean-pooled, L2-normalised token embeddings of a transformer encoder.

    Parameters
    ----------
    texts : sequence of str
    model : str or path
        Hugging Face model name (loaded from the local cache if present) or
        directory with an ``AutoModel`` and its tokenizer.
    batch_size : int, default=64
    max_length : int, default=128
        Tokens per text after truncation.
    n_jobs : int, default=1
        Torch threads.

    Returns
    -------
    E : ndarray of shape (len(texts), hidden_size), float64

    Examples
    --------
    >>> from lowdim.similarity.tiny_crossencoder import build_tiny_crossencoder
    >>> from lowdim.tasks.encoders import transformer_embeddings
    >>> model = build_tiny_crossencoder(tmp / "tiny")  # random weights
    >>> E = transformer_embeddings(["a cat", "a dog sat"], model)
    >>> E.shape, np.allclose(np.linalg.norm(E, axis=1), 1.0)
    ((2, 32), True)
    """
    torch, transformers = import_transformers("the 'transformer' encoder")
    tokenizer = transformers.AutoTokenizer.from_pretrained(model)
    encoder = transformers.AutoModel.from_pretrained(model).eval()
    previous = torch.get_num_threads()
    torch.set_num_threads(int(n_jobs))
    texts = [str(t) for t in texts]
    out = []
    try:
        with Progress(f"encode with {model}", total=len(texts), unit="texts") as progress, \
                torch.no_grad():
            for start in range(0, len(texts), batch_size):
                batch = tokenizer(texts[start:start + batch_size], padding=True, truncation=True,
                                  max_length=max_length, return_tensors="pt")
                hidden = encoder(**batch).last_hidden_state.double()
                mask = batch["attention_mask"].unsqueeze(-1).double()
                out.append(((hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)).numpy())
                progress.update(len(texts[start:start + batch_size]))
    finally:
        torch.set_num_threads(previous)
    E = np.vstack(out) if out else np.zeros((0, encoder.config.hidden_size))
    return E / np.maximum(np.linalg.norm(E, axis=1, keepdims=True), 1e-12)


def mention_embeddings(dataset, encoder="glove50", model=None, batch_size=64, max_length=128,
                       n_jobs=1):
    """Embeddings of the items of a dataset for the pairwise MLP.

    Parameters
    ----------
    dataset : lowdim.data.Dataset
    encoder : {"glove50", "transformer"}, default="glove50"
    model : str, optional
        The transformer (needed with ``encoder="transformer"``).
    batch_size, max_length, n_jobs
        Passed to :func:`transformer_embeddings`.

    Returns
    -------
    X : ndarray of shape (n, d)
    usable : ndarray of bool of shape (n,)
        False for items without an embedding (no known word).

    Examples
    --------
    >>> from lowdim.data import get_spec
    >>> from lowdim.data.replicas import write_ecbplus
    >>> from lowdim.tasks.encoders import mention_embeddings
    >>> files, _ = write_ecbplus(tmp, rng)
    >>> mentions = get_spec("ecbplus").prepare(files)
    >>> X, usable = mention_embeddings(mentions)   # mean GloVe vectors of mention and sentence
    >>> X.shape, int(usable.sum())
    ((8, 100), 8)
    """
    if encoder not in ENCODERS:
        raise ArgumentValueError(f"`encoder` must be one of {list(ENCODERS)}, got {encoder!r}",
                                 "encoder")
    if encoder == "glove50" or dataset.kind in ("dense", "sparse"):
        return item_embeddings(dataset, "glove50")
    if not model:
        raise ArgumentValueError("`model` must name a transformer encoder when `encoder` is "
                                 "'transformer'", "model")
    embed = lambda texts: transformer_embeddings(texts, model, batch_size, max_length,  # noqa: E731
                                                 n_jobs)
    if dataset.kind == "mentions":
        sentences, inverse = np.unique(dataset.extra["sentence"].astype(str), return_inverse=True)
        X = np.hstack([embed(dataset.texts), embed(sentences)[inverse]])
    elif dataset.kind == "text":
        X = embed(dataset.texts)
    else:
        raise ArgumentValueError(f"`dataset` {dataset.name!r} is {dataset.kind!r}; the "
                                 "transformer encoder reads mentions or text", "dataset")
    return X, np.ones(X.shape[0], dtype=bool)
