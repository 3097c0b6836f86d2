"""`deid_windowed_tok2vec`: spaCy's `tok2vec` with its memory bounded by tokens.

What holds the memory when a pipeline with a CNN `tok2vec` (configs/cpu.cfg)
processes text is the tok2vec's forward pass: thinc keeps every layer's
output of the whole batch alive until the batch is done, about 22 KB per
token (docs/memory.md). This component is spaCy's `Tok2Vec` (same model,
same weights, same training) whose `predict` runs the model on windows of at
most `max_tokens` tokens, whatever the number or length of the Docs in a
batch:

- short Docs are grouped until the next would pass the budget;
- a Doc longer than the budget is cut into windows that overlap by the
  encoder's context (`margin` tokens on each side); each window's rows away
  from its cut edges are copied into the Doc's tensor, so every token's
  vector is computed with the same neighbours it has in the whole Doc.

With a margin of at least the encoder's reach (4 tokens for cpu.cfg's depth 4
and window 1), each token's vector is the one a single pass gives, up to
float rounding (about 1e-6, as when notes are batched differently). A model
whose reach is not known to be bounded (anything but spaCy's window
encoders: recurrent, attention, wrapped foreign layers) runs unwindowed.

Use it in a config (`factory = "deid_windowed_tok2vec"`, `max_tokens = 4000`
under `[components.tok2vec]`), or turn a loaded pipeline's `tok2vec` into
one with `spacy_deid.deid.windows.bound_tok2vec_memory(nlp)` (what
`deidentify` does).
"""

from typing import Iterable, List, Sequence, Tuple

import numpy
from spacy.language import Language
from spacy.pipeline import Tok2Vec
from spacy.pipeline.tok2vec import DEFAULT_TOK2VEC_MODEL
from spacy.tokens import Doc
from thinc.api import Model

from ..extensions import TOKEN_FEATURES, set_token_feature_values, token_feature_values

# Tokens per tok2vec pass: at about 22 KB per token, some 90 MB of working
# memory; the speed per token stays the same from a few hundred tokens on.
DEFAULT_MAX_TOKENS = 4000
# Tokens of context kept on each side of a cut, at least the encoder's reach.
MIN_MARGIN = 32
# Layers whose reach is known: thinc's windowing (seq2col inside with_array)
# and layers that work token by token.
_BOUNDED_ENCODERS = ("seq2col", "expand_window")
_UNBOUNDED_LAYERS = ("lstm", "pytorch", "transformer", "tf", "mxnet", "attention")

# (doc index, window start, window end, first row kept, end of rows kept)
Window = Tuple[int, int, int, int, int]


@Language.factory(
    "deid_windowed_tok2vec",
    assigns=["doc.tensor"],
    default_config={"model": DEFAULT_TOK2VEC_MODEL, "max_tokens": DEFAULT_MAX_TOKENS},
    default_score_weights={},
)
def make_windowed_tok2vec(
    nlp: Language, name: str, model: Model, max_tokens: int
) -> "WindowedTok2Vec":
    """Create a `deid_windowed_tok2vec` component (spaCy's tok2vec, windowed)."""
    return WindowedTok2Vec(nlp.vocab, model, name, max_tokens=max_tokens)


class WindowedTok2Vec(Tok2Vec):
    """spaCy's `Tok2Vec`, predicting on windows of at most `max_tokens` tokens.

    max_tokens: tokens per pass of the model; 0 runs it on whole batches
        (as spaCy's tok2vec does). Must exceed twice the margin (64 tokens).
    """

    def __init__(
        self, vocab, model: Model, name: str = "tok2vec", *, max_tokens: int = DEFAULT_MAX_TOKENS
    ) -> None:
        super().__init__(vocab, model, name)
        self.max_tokens = max_tokens
        self.check_max_tokens()

    def check_max_tokens(self) -> None:
        """ValueError unless `max_tokens` is 0 or over twice the margin."""
        margin = self.margin
        too_small = self.max_tokens and 0 < margin and self.max_tokens <= 2 * margin
        if self.max_tokens < 0 or too_small:
            raise ValueError(
                f"{self.name}: max_tokens must be 0 or over {2 * margin}, got {self.max_tokens}"
            )

    @property
    def margin(self) -> int:
        """Tokens of context on each cut side; -1 when the model's reach is unknown."""
        reach = encoder_reach(self.model)
        return -1 if reach < 0 else max(MIN_MARGIN, 2 * reach)

    @property
    def windowed(self) -> bool:
        """Whether `predict` runs on windows (a budget, and a bounded reach)."""
        return self.max_tokens > 0 and self.margin > 0

    def predict(self, docs: Iterable[Doc]):
        docs = list(docs)
        if not self.windowed or not any(len(doc) for doc in docs):
            return super().predict(docs)
        return windowed_predict(self.model, docs, self.max_tokens, self.margin)


def encoder_reach(model: Model) -> int:
    """Tokens on each side a token's vector depends on, or -1 when unknown.

    The sum, over the windowing layers, of their window size (`seq2col`'s
    nW); -1 for recurrent, attention or wrapped foreign layers."""
    reach = 0
    for layer in model.walk():
        name = layer.name.lower()
        if any(word in name for word in _UNBOUNDED_LAYERS):
            return -1
        if name in _BOUNDED_ENCODERS:
            reach += int(layer.attrs.get("nW", layer.attrs.get("window_size", 1)))
    return reach


def plan_windows(lengths: Sequence[int], max_tokens: int, margin: int) -> List[List[Window]]:
    """Batches of windows covering every token of Docs of `lengths` tokens,
    each batch at most `max_tokens` tokens long (a window of a long Doc has
    `margin` tokens of context on each cut side, not kept)."""
    if max_tokens <= 2 * margin:
        raise ValueError(f"max_tokens ({max_tokens}) must exceed twice the margin ({margin})")
    windows: List[Window] = []
    for index, length in enumerate(lengths):
        if length <= max_tokens:
            windows.append((index, 0, length, 0, length))
            continue
        kept = 0
        while kept < length:
            start = max(0, kept - margin)
            end = min(length, start + max_tokens)
            keep_end = length if end == length else end - margin
            windows.append((index, start, end, kept, keep_end))
            kept = keep_end
    batches: List[List[Window]] = []
    batch: List[Window] = []
    size = 0
    for window in windows:
        tokens = window[2] - window[1]
        if batch and size + tokens > max_tokens:
            batches.append(batch)
            batch, size = [], 0
        batch.append(window)
        size += tokens
    if batch:
        batches.append(batch)
    return batches


def window_doc(doc: Doc, start: int, end: int) -> Doc:
    """Tokens start..end of `doc` as a Doc with the same token attributes and
    the package's token features (what a tok2vec reads)."""
    if start == 0 and end == len(doc):
        return doc
    piece = doc[start:end].as_doc()
    for name in TOKEN_FEATURES:
        values = token_feature_values(doc, name)
        set_token_feature_values(piece, name, list(values[start:end]))
    return piece


def windowed_predict(
    model: Model, docs: Sequence[Doc], max_tokens: int, margin: int
) -> List[numpy.ndarray]:
    """`model.predict(docs)` computed on windows of at most `max_tokens` tokens."""
    docs = list(docs)
    width = model.get_dim("nO")
    outputs = [model.ops.alloc2f(len(doc), width) for doc in docs]
    for batch in plan_windows([len(doc) for doc in docs], max_tokens, margin):
        pieces = [window_doc(docs[index], start, end) for index, start, end, _, _ in batch]
        for (index, start, _, keep_start, keep_end), rows in zip(batch, model.predict(pieces)):
            outputs[index][keep_start:keep_end] = rows[keep_start - start : keep_end - start]
    return outputs
