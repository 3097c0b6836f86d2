"""Token representations for the NER: transformer output plus surface and structure features.

all-MiniLM-L6-v2 is uncased, so capitalisation, word shape, prefixes and
suffixes must reach the NER another way: `spacy-deid.FeaturedTok2Vec.v1`
concatenates the transformer listener's vectors with spaCy's MultiHashEmbed
over such attributes and, optionally, with `spacy-deid.StructureEmbed.v1`,
which embeds the section and attribute names the section detector puts on
tokens (the hybrid-system paper's "section header" and "attribute name"
features).
"""
from typing import Dict, List, Optional

from spacy.strings import hash_string
from spacy.tokens import Doc, Token
from spacy.util import registry
from thinc.api import HashEmbed, Maxout, Model, concatenate, chain, with_array
from thinc.layers.concatenate import init as concatenate_init
from thinc.types import Floats2d, Ints2d

import numpy

from ..extensions import TOKEN_FEATURES, token_feature_values


@registry.architectures("spacy-deid.FeaturedTok2Vec.v1")
def create_featured_tok2vec(
    transformer: Model[List[Doc], List[Floats2d]],
    features: Model[List[Doc], List[Floats2d]],
    structure: Optional[Model[List[Doc], List[Floats2d]]] = None,
    mix_width: int = 0,
) -> Model[List[Doc], List[Floats2d]]:
    """Concatenate the transformer's vectors with feature embeddings per token.

    mix_width > 0 adds a Maxout layer of that width over the concatenation,
    so features can interact before the NER sees them.
    """
    parts = [transformer, features] + ([structure] if structure is not None else [])
    model: Model = concatenate_docs(*parts)
    if mix_width > 0:
        model = chain(model, with_array(Maxout(nO=mix_width, nP=2, dropout=0.0, normalize=True)))
    return model


def concatenate_docs(*layers: Model[List[Doc], List[Floats2d]]) -> Model[List[Doc], List[Floats2d]]:
    """Thinc's `concatenate` for layers that map Docs to one array per Doc,
    where a layer's array for an empty Doc may be (0, 0) wide.

    spacy-transformers returns a (0, 0) array for an empty Doc, which
    `concatenate` cannot stack beside the (n, width) arrays of the other Docs
    of the batch; an empty note would fail its whole batch. This node gives
    such arrays the layer's width (and hands the layer back its own shape in
    the backward pass); otherwise it computes what `concatenate` computes.
    It has the same name and children as `concatenate(*layers)`, so saved
    pipelines load into it unchanged."""
    dims: Dict[str, Optional[int]] = {"nO": None}
    if all(layer.has_dim("nI") in (True, None) for layer in layers):
        dims["nI"] = None
    return Model(
        "|".join(layer.name for layer in layers),
        _concatenate_docs_forward,
        init=concatenate_init,
        dims=dims,
        layers=list(layers),
    )


def _concatenate_docs_forward(model: Model, docs: List[Doc], is_train: bool):
    outputs, callbacks = zip(*[layer(docs, is_train=is_train) for layer in model.layers])
    lengths = [len(doc) for doc in docs]
    padded = [_with_width(model, arrays) for arrays in outputs]
    flat = [model.ops.xp.concatenate(arrays, axis=0) for arrays in padded]
    widths = [array.shape[1] for array in flat]
    stacked = model.ops.xp.hstack(flat)
    lengths_array = model.ops.asarray1i(lengths)

    def backprop(d_outputs: List[Floats2d]):
        d_stacked = model.ops.xp.concatenate(d_outputs, axis=0)
        d_inputs = None
        start = 0
        for callback, arrays, width in zip(callbacks, outputs, widths):
            d_layer = model.ops.unflatten(model.ops.as_contig(d_stacked[:, start : start + width]), lengths_array)
            # each layer gets its gradients in the shapes it gave (a (0, 0) stays so)
            d_layer = [d if d.shape == a.shape else a for d, a in zip(d_layer, arrays)]
            gradient = callback(d_layer)
            if d_inputs is None:
                d_inputs = gradient
            else:
                d_inputs += gradient
            start += width
        return d_inputs

    return model.ops.unflatten(stacked, lengths_array), backprop


def _with_width(model: Model, arrays: List[Floats2d]) -> List[Floats2d]:
    """`arrays` with each empty (0, 0) array as wide as the others (unchanged if none is)."""
    widths = [array.shape[1] for array in arrays if array.shape[0]]
    if not widths or all(array.shape[1] == widths[0] for array in arrays):
        return list(arrays)
    return [array if array.shape[0] else model.ops.alloc2f(0, widths[0]) for array in arrays]


@registry.architectures("spacy-deid.StructureEmbed.v1")
def create_structure_embed(
    width: int,
    rows: int = 500,
    extensions: List[str] = ["section_name", "attribute_name"],
) -> Model[List[Doc], List[Floats2d]]:
    """Embed token extensions (by default the section and attribute names)."""
    columns = [
        HashEmbed(nO=width, nV=rows, column=index, seed=index + 17)
        for index in range(len(extensions))
    ]
    return chain(
        extension_ids(extensions),
        with_array(concatenate(*columns)),
    )


@registry.architectures("spacy-deid.FeaturedTok2Vec.v2")
def create_featured_tok2vec_v2(
    transformer: Model[List[Doc], List[Floats2d]],
    features: Model[List[Doc], List[Floats2d]],
    structure: Optional[Model[List[Doc], List[Floats2d]]] = None,
    lexicon: Optional[Model[List[Doc], List[Floats2d]]] = None,
    mix_width: int = 0,
) -> Model[List[Doc], List[Floats2d]]:
    """As v1, plus optional lexicon features (`spacy-deid.LexiconEmbed.v1`)."""
    parts = [transformer, features] + [part for part in (structure, lexicon) if part is not None]
    model: Model = concatenate_docs(*parts)
    if mix_width > 0:
        model = chain(model, with_array(Maxout(nO=mix_width, nP=2, dropout=0.0, normalize=True)))
    return model


@registry.architectures("spacy-deid.FeaturedEmbed.v1")
def create_featured_embed(
    embed: Model[List[Doc], List[Floats2d]],
    width: int,
    structure: Optional[Model[List[Doc], List[Floats2d]]] = None,
    lexicon: Optional[Model[List[Doc], List[Floats2d]]] = None,
    maxout_pieces: int = 3,
) -> Model[List[Doc], List[Floats2d]]:
    """An `embed` layer for spacy.Tok2Vec.v2: spaCy's MultiHashEmbed (with static
    vectors if configured) concatenated with the structure and lexicon
    embeddings, mixed back to `width` by a Maxout layer for the encoder."""
    parts = [embed] + [part for part in (structure, lexicon) if part is not None]
    if len(parts) == 1:
        return embed
    return chain(
        concatenate(*parts),
        with_array(Maxout(nO=width, nP=maxout_pieces, dropout=0.0, normalize=True)),
    )


@registry.architectures("spacy-deid.LexiconEmbed.v1")
def create_lexicon_embed(
    width: int,
    rows: int = 500,
    extensions: List[str] = ["lexicon", "word_frequency"],
    dropout: float = 0.2,
) -> Model[List[Doc], List[Floats2d]]:
    """Embed the lexicon features of `deid_lexicon` (categories, word frequency).

    During training each token loses all its lexicon features with probability
    `dropout` (lexicon dropout), so the NER learns names and places from their
    context and shape too, not from list membership alone.
    """
    columns = [
        HashEmbed(nO=width, nV=rows, column=index, seed=index + 31)
        for index in range(len(extensions))
    ]
    return chain(
        extension_ids(extensions),
        feature_dropout(dropout),
        with_array(concatenate(*columns)),
    )


def feature_dropout(rate: float) -> Model[List[Ints2d], List[Ints2d]]:
    """In training, zero (= "no feature") every id of a random `rate` of the rows."""
    return Model("feature_dropout", _feature_dropout_forward, attrs={"rate": rate})


def _feature_dropout_forward(model: Model, arrays: List[Ints2d], is_train: bool):
    rate = model.attrs["rate"]
    if not is_train or rate <= 0.0:
        return arrays, _same_gradient
    out = []
    for ids in arrays:
        keep = model.ops.xp.random.uniform(0.0, 1.0, (ids.shape[0], 1)) >= rate
        out.append(ids * keep.astype(ids.dtype))
    return out, _same_gradient


def _same_gradient(d_arrays):
    return d_arrays


def extension_ids(extensions: List[str]) -> Model[List[Doc], List[Ints2d]]:
    """A (tokens x extensions) array of hashed extension values per doc (0 for none).

    The package's per-token features are read as whole columns from the Doc's
    feature store (spacy_deid/extensions.py); each distinct value is hashed
    once. Other token extensions are read token by token."""
    return Model("extension_ids", _extension_ids_forward, attrs={"extensions": list(extensions)})


# Forward passes are module-level functions reading the model's attrs, not
# closures, so a pipeline pickles (spawned `nlp.pipe` workers receive it so).
def _extension_ids_forward(model: Model, docs: List[Doc], is_train: bool):
    extensions = model.attrs["extensions"]
    present = [name for name in extensions if Token.has_extension(name)]
    hashes: Dict[str, int] = {}
    arrays = []
    for doc in docs:
        ids = numpy.zeros((len(doc), len(extensions)), dtype="uint64")
        for column, name in enumerate(extensions):
            if name not in present:
                continue
            if name in TOKEN_FEATURES:
                values = token_feature_values(doc, name)
            else:
                values = [token._.get(name) for token in doc]
            ids[:, column] = [_hash_value(value, hashes) for value in values]
        arrays.append(model.ops.asarray(ids, dtype="uint64"))
    return arrays, _no_gradient


def _no_gradient(d_arrays):
    return []


def _hash_value(value, hashes: Dict[str, int]) -> int:
    """spaCy's string hash of the value's text; 0 for none or an empty value."""
    if not value:
        return 0
    text = str(value)
    found = hashes.get(text)
    if found is None:
        found = hashes[text] = hash_string(text)
    return found
