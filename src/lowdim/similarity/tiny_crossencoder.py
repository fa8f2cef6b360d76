"""A tiny transformer cross-encoder built locally from a config: no hub download.

:func:`build_tiny_crossencoder` writes a randomly initialised (seeded) BERT
sequence classifier and a character-level WordPiece vocabulary to a
directory, in the layout ``transformers`` saves, so
:class:`~lowdim.similarity.CrossEncoderOracle` loads it by path exactly as it
loads a fine-tuned hub model. Its scores carry no meaning: it exists so that
the cross-encoder path (tokenizer, forward passes, symmetrisation, the GLUE
table) runs end to end offline, e.g. in the rehearsal profile.

Needs the optional extra ``crossencoder`` (``transformers`` and ``torch``).
"""

from __future__ import annotations

import string
from pathlib import Path

from .._transformers import import_transformers
from .._validation import ArgumentValueError

__all__ = ["MODEL_KINDS", "build_tiny_crossencoder", "character_vocabulary"]

#: Kinds of cross-encoder model lowdim builds (:func:`build_tiny_crossencoder`).
MODEL_KINDS = ("tiny_bert",)

_SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def character_vocabulary() -> list[str]:
    """Special tokens, then every lower-case ASCII letter, digit and punctuation mark, alone
    and as a WordPiece continuation (``##c``): any lower-cased, accent-stripped text is
    tokenised without unknown tokens.

    Returns
    -------
    vocabulary : list of str
        The tokens, special tokens first.

    Examples
    --------
    >>> from lowdim.similarity.tiny_crossencoder import character_vocabulary
    >>> vocabulary = character_vocabulary()
    >>> vocabulary[:6], "##a" in vocabulary, len(vocabulary)
    (['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', '!'], True, 109)
    """
    chars = sorted(set(string.ascii_lowercase + string.digits + string.punctuation))
    return _SPECIAL + chars + [f"##{c}" for c in chars if c.isalnum()]


def build_tiny_crossencoder(path, *, num_labels: int = 1, hidden_size: int = 32,
                            num_hidden_layers: int = 2, num_attention_heads: int = 2,
                            intermediate_size: int = 64, max_position_embeddings: int = 512,
                            seed: int = 0) -> Path:
    """Write a tiny BERT cross-encoder (model and tokenizer) to the directory ``path``.

    Parameters
    ----------
    path : str or Path
        Directory to create (replaced if it exists).
    num_labels : int, default=1
        Outputs: 1 for a regression head (STS-B style), 2 for a classifier.
    hidden_size, num_hidden_layers, num_attention_heads, intermediate_size : int
        BERT dimensions; ``hidden_size`` must be a multiple of ``num_attention_heads``.
    max_position_embeddings : int, default=512
        Longest token sequence (characters of both sentences, plus 3).
    seed : int, default=0
        Seed of the weight initialisation: the same seed writes the same model.

    Returns
    -------
    path : Path

    Examples
    --------
    >>> from lowdim.similarity import CrossEncoderOracle
    >>> from lowdim.similarity.tiny_crossencoder import build_tiny_crossencoder
    >>> path = build_tiny_crossencoder(tmp / "tiny", seed=0)
    >>> oracle = CrossEncoderOracle(["a cat", "a dog", "the sea"], path)
    >>> K = oracle([0, 1, 2], [0, 1, 2])
    >>> path.name, K.shape
    ('tiny', (3, 3))
    """
    torch, transformers = import_transformers("build_tiny_crossencoder")
    if hidden_size % num_attention_heads:
        raise ArgumentValueError("`hidden_size` must be a multiple of `num_attention_heads` = "
                                 f"{num_attention_heads}, got {hidden_size}", "hidden_size")
    if num_labels < 1:
        raise ArgumentValueError(f"`num_labels` must be >= 1, got {num_labels}", "num_labels")
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    vocab = character_vocabulary()
    (path / "vocab.txt").write_text("\n".join(vocab) + "\n")
    # positional: transformers 4 names it vocab_file, 5 names it vocab (and ignores vocab_file)
    tokenizer = transformers.BertTokenizer(str(path / "vocab.txt"), do_lower_case=True,
                                           model_max_length=max_position_embeddings)
    config = transformers.BertConfig(vocab_size=len(vocab), hidden_size=hidden_size,
                                     num_hidden_layers=num_hidden_layers,
                                     num_attention_heads=num_attention_heads,
                                     intermediate_size=intermediate_size,
                                     max_position_embeddings=max_position_embeddings,
                                     num_labels=num_labels, initializer_range=0.5)
    generator_state = torch.random.get_rng_state()
    torch.manual_seed(seed)
    try:
        model = transformers.BertForSequenceClassification(config).eval()
    finally:
        torch.random.set_rng_state(generator_state)
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path
