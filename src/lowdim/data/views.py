"""Two-view splits of image data (CCA between image halves)."""

from __future__ import annotations

import numpy as np

from .._validation import ArgumentValueError

__all__ = ["SPLITS", "split_image_halves"]

#: left_right: the AppGrad paper's text ("left and right halves of the images").
#: top_bottom: the first 392 against the last 392 pixels of a row-major image, which is
#: what ``X(:, 1:392)`` selects when read naively; the authors' MATLAB code most likely
#: loads images column-major, where that slice is the left half (see config/README.md).
SPLITS = ("left_right", "top_bottom")


def split_image_halves(X, image_shape, split: str = "left_right"):
    """Split flattened images into two halves.

    Parameters
    ----------
    X : ndarray of shape (n, h * w)
        Row-major flattened grey-scale images.
    image_shape : tuple of int (h, w)
    split : {"left_right", "top_bottom"}, default="left_right"

    Returns
    -------
    first, second : ndarrays of shape (n, h * w // 2)
        Left and right (or top and bottom) halves, each flattened row-major.

    Examples
    --------
    >>> from lowdim.data.views import split_image_halves
    >>> image = np.arange(16).reshape(1, 16)       # one 4 x 4 image, flattened
    >>> left, right = split_image_halves(image, (4, 4))
    >>> left.reshape(4, 2)
    array([[ 0,  1],
           [ 4,  5],
           [ 8,  9],
           [12, 13]])
    >>> top, bottom = split_image_halves(image, (4, 4), split="top_bottom")
    >>> top.reshape(2, 4)
    array([[0, 1, 2, 3],
           [4, 5, 6, 7]])
    """
    h, w = image_shape
    X = np.asarray(X)
    if X.ndim != 2 or X.shape[1] != h * w:
        raise ArgumentValueError(f"`X` must have shape (n, {h * w}) for image_shape "
                                 f"{image_shape}, got {X.shape}", "X")
    images = X.reshape(-1, h, w)
    if split == "left_right":
        if w % 2:
            raise ArgumentValueError(f"left_right split needs an even image width, got {w}",
                                     ("split", "image_shape"))
        first, second = images[:, :, : w // 2], images[:, :, w // 2:]
    elif split == "top_bottom":
        if h % 2:
            raise ArgumentValueError(f"top_bottom split needs an even image height, got {h}",
                                     ("split", "image_shape"))
        first, second = images[:, : h // 2, :], images[:, h // 2:, :]
    else:
        raise ArgumentValueError(f"`split` must be one of {SPLITS}, got {split!r}", "split")
    n = X.shape[0]
    return first.reshape(n, -1).copy(), second.reshape(n, -1).copy()
