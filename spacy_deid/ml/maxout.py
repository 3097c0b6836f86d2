"""Thinc's Maxout layers at inference, without the index of each winning piece.

Thinc's `Maxout` forward asks its ops for the largest piece of each unit and
for which piece it was (`NumpyOps.maxout`, a Cython loop): the index is only
read by the backward pass. Predicting, the default pipeline's tok2vec spends
about 5% of all its time there (docs/speed.md). numpy's elementwise maximum
over the pieces gives the same largest values (for finite values, which is
all a trained model produces) several times faster, and computes no index.

`use_inference_maxout` swaps the forward of every Thinc `Maxout` node of a
pipeline for `inference_maxout_forward`, which takes this path only when
not training, on plain numpy arrays; training, and any other ops (a GPU),
go through Thinc's own forward unchanged. `use_thinc_maxout` swaps it back.
The configs do both through the matrix-product callbacks (ml/matmul.py):
numpy's BLAS and this forward at inference, blis and Thinc's forward to train.
"""
from typing import Callable, Tuple

import numpy
from spacy.language import Language
from thinc.api import Model
from thinc.layers import maxout as thinc_maxout
from thinc.types import Floats2d

from .matmul import model_nodes

thinc_maxout_forward = thinc_maxout.forward


def inference_maxout_forward(model: Model, X: Floats2d, is_train: bool) -> Tuple[Floats2d, Callable]:
    """Thinc's Maxout forward; when predicting on numpy arrays, without the piece index."""
    if is_train or not isinstance(X, numpy.ndarray):
        return thinc_maxout_forward(model, X, is_train)
    nO, nP, nI = model.get_dim("nO"), model.get_dim("nP"), model.get_dim("nI")
    W = model.ops.reshape2f(model.get_param("W"), nO * nP, nI)
    Y = model.ops.gemm(X, W, trans2=True)
    Y += model.ops.reshape1f(model.get_param("b"), nO * nP)
    Z = Y.reshape((Y.shape[0], nO, nP))
    best = Z[:, :, 0].copy()
    for piece in range(1, nP):
        numpy.maximum(best, Z[:, :, piece], out=best)
    return best, _no_backprop


def _no_backprop(d_best):
    raise ValueError("a Maxout forward made for inference (is_train=False) has no backward pass")


def _swap(nlp: Language, old: Callable, new: Callable) -> int:
    changed = 0
    for node in model_nodes(nlp):
        if node._func is old:
            node._func = new
            changed += 1
    return changed


def use_inference_maxout(nlp: Language) -> int:
    """Give every Thinc Maxout node of `nlp` the inference forward; the number changed."""
    return _swap(nlp, thinc_maxout_forward, inference_maxout_forward)


def use_thinc_maxout(nlp: Language) -> int:
    """Give every Maxout node of `nlp` Thinc's own forward back; the number changed."""
    return _swap(nlp, inference_maxout_forward, thinc_maxout_forward)
