"""Memory bounded by tokens, not by notes: the tok2vec runs on windows.

What holds the memory when a pipeline with a CNN `tok2vec` (configs/cpu.cfg)
processes text is the tok2vec's forward pass: thinc keeps every layer's
output of the whole batch alive until the batch is done (the embedding's
concatenated hash, vector and feature columns, the Maxout pieces of each of
the four encoder layers), about 22 KB per token. A batch of 32 notes of
37 KB, or one long note, is one such pass (about 5 GB per MB of text). The
NER's precomputed features and the beam scores (`deid_ner_scores`) hold
another 2-4 KB per token of a batch each; the rules little (docs/memory.md).
Three bounds, used by `deidentify` (`pipe_bounded`, `note_pieces`, `join_pieces`):

1. `bound_tok2vec_memory(nlp, max_tokens)` runs each `Tok2Vec` of `nlp` on
windows of at most `max_tokens` tokens, whatever the number or length of the
Docs in a batch: it replaces each spaCy `tok2vec` pipe by a
`deid_windowed_tok2vec` (spacy_deid/pipeline/windowed_tok2vec.py) with the
same model weights; the NER and everything after it then run on the whole
Doc as before. Each token's vector is the one a single pass gives, up to
float rounding (tests/deid/test_deid_windows.py). A model whose context is
not known to be bounded is left as it is.

2. Batches of notes bounded by words (`word_batches`, `max_words`) as well
as by notes, for the NER and the beam: 32 notes of 37 KB are not one batch.

3. A note longer than `piece_chars` characters is processed in pieces cut
at paragraph, line or word breaks (spacy_deid/deid/split.py) and joined
again: name propagation and other note-level steps then work within a piece.
Notes below the limit (100,000 characters, about 16,000 words) are
processed whole, as before.

Pieces overlap (`note_pieces`): each reads `overlap` characters (2,000) past
its cuts on both sides, so a mention near a cut is seen whole and with its
context by both neighbours. `join_pieces` then cuts each overlap where
neither neighbour has an entity or candidate span within `CUT_GAP`
characters (nearest the middle, at a word break) and keeps each side's
annotations up to that cut: a phone, date, name or address is never split
in two by a piece boundary (issue 61).
"""

import re
from typing import Any, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy
from spacy.language import Language
from spacy.pipeline import Tok2Vec
from spacy.tokens import Doc, Span, SpanGroup

from ..extensions import (
    TOKEN_FEATURES,
    TOKEN_FEATURES_STORE,
    has_token_feature,
    set_token_feature_values,
    token_feature_values,
)
from ..ml.fork import BATCHES_PER_WORKER, batches_for_workers  # noqa: F401 (re-exported)
from ..ml.worker_pool import pipe_in_processes
from ..pipeline.windowed_tok2vec import (  # noqa: F401 (re-exported)
    DEFAULT_MAX_TOKENS,
    MIN_MARGIN,
    WindowedTok2Vec,
    encoder_reach,
    plan_windows,
    window_doc,
    windowed_predict,
)
from .split import split_points

# Words per batch of notes, and characters per piece of a long note: the NER
# and its beam hold about 6 KB per token of the Docs in a batch.
DEFAULT_MAX_WORDS = 20000
DEFAULT_PIECE_CHARS = 100000
# Characters each piece of a long note reads past its cuts, on each side: far
# more than a mention and the context the rules and the NER look at.
PIECE_OVERLAP = 2000
# Characters kept between a final cut and any entity or candidate span of the
# two pieces around it; spans longer than MAX_MENTION_CHARS (sections,
# attribute blocks) do not count.
CUT_GAP = 32
MAX_MENTION_CHARS = 300
def bound_tok2vec_memory(nlp: Language, max_tokens: int = DEFAULT_MAX_TOKENS) -> List[str]:
    """Make every `Tok2Vec` pipe of `nlp` whose encoder's reach is bounded run
    on windows of at most `max_tokens` tokens (module docstring); 0 turns it
    off. Returns the names of the pipes that run windowed. A spaCy `tok2vec`
    is replaced (`nlp.replace_pipe`) by a `deid_windowed_tok2vec` with the
    same weights, so `nlp.config` and a pipeline saved afterwards name that
    factory; one already windowed gets the new budget. Lasts for this `nlp`
    object (and processes forked from it)."""
    changed = []
    for name, pipe in list(nlp.pipeline):
        if not isinstance(pipe, Tok2Vec):
            continue
        if not isinstance(pipe, WindowedTok2Vec):
            model_config = nlp.config.interpolate()["components"].get(name, {}).get("model")
            if max_tokens <= 0 or encoder_reach(pipe.model) < 0 or model_config is None:
                continue
            config = {"model": model_config, "max_tokens": max_tokens}
            windowed = nlp.replace_pipe(name, "deid_windowed_tok2vec", config=config)
            windowed.model.from_bytes(pipe.model.to_bytes())
            pipe = windowed
        pipe.max_tokens = max(0, max_tokens)
        pipe.check_max_tokens()
        if pipe.windowed:
            changed.append(name)
    return changed


def word_batches(items: Iterable[Tuple[str, Any]], max_words: int, max_items: int) -> Iterator[list]:
    """(text, context) pairs in lists of at most `max_items`, and of at most
    `max_words` words unless one text alone has more."""
    batch: list = []
    words = 0
    for item in items:
        count = len(item[0].split())
        if batch and (words + count > max_words or len(batch) >= max_items):
            yield batch
            batch, words = [], 0
        batch.append(item)
        words += count
    if batch:
        yield batch


def pipe_bounded(
    nlp: Language,
    stream: Iterable[Tuple[str, Any]],
    *,
    n_process: int = 1,
    batch_size: int = 32,
    max_words: int = DEFAULT_MAX_WORDS,
    max_tokens: int = DEFAULT_MAX_TOKENS,
) -> Iterator[Tuple[Doc, Any]]:
    """`nlp.pipe(stream, as_tuples=True)` with the working set bounded by
    words: the tok2vec on windows of `max_tokens` tokens, and (one process)
    batches of at most `batch_size` notes and `max_words` words, so 32 long
    notes are not one batch. With several processes each worker takes
    `batch_size` notes at a time (spaCy's batching): lower it for long notes;
    a workload too small for that is cut finer (`batches_for_workers`, in
    the package's multiprocessing pipe, ml/worker_pool.py)."""
    bound_tok2vec_memory(nlp, max_tokens)
    if n_process != 1:
        yield from pipe_in_processes(nlp, stream, as_tuples=True, n_process=n_process, batch_size=batch_size)
        return
    if max_words <= 0:
        yield from nlp.pipe(stream, as_tuples=True, batch_size=batch_size)
        return
    for batch in word_batches(stream, max_words, batch_size):
        yield from nlp.pipe(batch, as_tuples=True, batch_size=len(batch))


def without_tensor(doc: Doc) -> Doc:
    """`doc` with its `doc.tensor` emptied (4 bytes x width per token): for the
    pieces of a long note kept until the last one is done, when what is used
    of them afterwards is the text and the annotations."""
    doc.tensor = numpy.zeros((0, 0), dtype="float32")
    return doc


def piece_points(text: str, max_length: int, piece_chars: int = DEFAULT_PIECE_CHARS) -> Optional[List[int]]:
    """Where to cut a note into pieces the pipeline processes one by one: at
    most `piece_chars` characters each where the note has breaks for it (the
    NER and its beam hold a few KB per token of a Doc), else at most the
    pipeline's `max_length` (spacy_deid/deid/split.py), else None."""
    limit = min(max_length, piece_chars) if piece_chars > 0 else max_length
    points = split_points(text, limit)
    if points is None and limit < max_length:
        points = split_points(text, max_length)
    return points


# (start, end) characters of a note that one piece's Doc holds.
PieceBounds = Tuple[int, int]
_WORD_BREAK = re.compile(r"\s+")


def note_pieces(
    text: str,
    max_length: int,
    piece_chars: int = DEFAULT_PIECE_CHARS,
    overlap: int = PIECE_OVERLAP,
) -> Optional[List[PieceBounds]]:
    """The (start, end) characters of each piece the pipeline reads of a note:
    [(0, len(text))] when it fits `piece_chars` (and `max_length`); else
    pieces cut as `piece_points` does, with room left for reading up to
    `overlap` characters past each cut, at word breaks, on both sides
    (`join_pieces` decides where each overlap is cut). None when some stretch
    has no break to cut at."""
    limit = min(max_length, piece_chars) if piece_chars > 0 else max_length
    if len(text) <= limit:
        return [(0, len(text))]
    overlap = max(0, min(overlap, limit // 8))
    room = 4 * overlap  # a piece reads up to 2 * overlap past each of its two cuts
    points = piece_points(text, max_length - room, piece_chars - room if piece_chars > 0 else 0)
    if points is None:
        points = piece_points(text, max_length, piece_chars)
        overlap = 0
    if points is None:
        return None
    bounds = [0, *points, len(text)]
    return [
        (_break_before(text, start, overlap), _break_after(text, end, overlap))
        for start, end in zip(bounds, bounds[1:])
    ]


def _break_before(text: str, cut: int, overlap: int) -> int:
    """A word break from `overlap` to `2 * overlap` characters before `cut`
    (the latest), else the earliest one before it, else `cut`."""
    if cut == 0 or overlap == 0:
        return cut
    ends = [m.end() for m in _WORD_BREAK.finditer(text, max(0, cut - 2 * overlap), cut)]
    ends = [end for end in ends if end < cut]
    far = [end for end in ends if end <= cut - overlap]
    return far[-1] if far else (ends[0] if ends else cut)


def _break_after(text: str, cut: int, overlap: int) -> int:
    """A word break from `overlap` to `2 * overlap` characters after `cut`
    (the earliest), else the latest one after it, else `cut`."""
    if cut == len(text) or overlap == 0:
        return cut
    ends = [m.end() for m in _WORD_BREAK.finditer(text, cut, min(len(text), cut + 2 * overlap))]
    ends = [end for end in ends if end > cut]
    far = [end for end in ends if end >= cut + overlap]
    return far[0] if far else (ends[-1] if ends else cut)


def join_pieces(pieces: Sequence[Tuple[int, Doc]], text: Optional[str] = None) -> Doc:
    """One Doc of a note from its pieces' Docs, each given with the note offset
    it starts at (`note_pieces`). Where two pieces overlap, the cut is the word
    break nearest the overlap's middle that lies at least `CUT_GAP` characters
    from every entity and candidate span of both (else the one farthest from
    them); each side's entities, span groups and token features are kept up
    to it. Pieces that do not overlap are joined as they are."""
    pieces = sorted(pieces, key=lambda piece: piece[0])
    if len(pieces) == 1 and pieces[0][0] == 0:
        return pieces[0][1]
    cuts = [pieces[0][0]]
    for (left_start, left), (right_start, right) in zip(pieces, pieces[1:]):
        cuts.append(overlap_cut(left_start, left, right_start, right))
    cuts.append(pieces[-1][0] + len(pieces[-1][1].text))
    parts = [
        doc_between(doc, cuts[i] - start, cuts[i + 1] - start)
        for i, (start, doc) in enumerate(pieces)
    ]
    joined = Doc.from_docs(parts, ensure_whitespace=False)
    for name in TOKEN_FEATURES:
        if any(has_token_feature(part, name) for part in parts):
            values = [value for part in parts for value in token_feature_values(part, name)]
            set_token_feature_values(joined, name, values)
    if text is not None and joined.text != text:
        raise ValueError("the joined pieces do not give the note's text back")
    return joined


def overlap_cut(left_start: int, left: Doc, right_start: int, right: Doc) -> int:
    """The note offset where the text shared by `left` (starting at note
    offset `left_start`) and `right` is cut (`join_pieces`)."""
    left_end = left_start + len(left.text)
    if right_start >= left_end:
        if right_start > left_end:
            raise ValueError(f"pieces leave a gap at characters {left_end}-{right_start}")
        return right_start
    left_starts = {token.idx + left_start for token in left}
    text = right.text
    candidates = [
        token.idx + right_start
        for token in right
        if token.idx + right_start < left_end
        and token.idx + right_start in left_starts
        and token.idx > 0
        and text[token.idx - 1].isspace()
        and not token.is_space
    ]
    if not candidates:  # no shared word break: the start of the right piece
        return right_start
    spans = _mention_spans(left, left_start) + _mention_spans(right, right_start)
    middle = (right_start + left_end) / 2
    # Within the middle half of the overlap, both sides have read far enough.
    quarter = (left_end - right_start) / 4
    central = [c for c in candidates if abs(c - middle) <= quarter] or candidates

    def distance(cut: int) -> float:
        gaps = [-1 if start < cut < end else max(start - cut, cut - end, 0) for start, end in spans]
        return min(gaps, default=float("inf"))

    safe = [c for c in central if distance(c) >= CUT_GAP]
    if safe:
        return min(safe, key=lambda c: abs(c - middle))
    return max(central, key=lambda c: (distance(c), -abs(c - middle)))


def _mention_spans(doc: Doc, offset: int) -> List[Tuple[int, int]]:
    """(start, end) note offsets of `doc`'s entities and of its span groups'
    spans up to MAX_MENTION_CHARS long."""
    spans = [(ent.start_char, ent.end_char) for ent in doc.ents]
    for group in doc.spans.values():
        short = [s for s in group if s.end_char - s.start_char <= MAX_MENTION_CHARS]
        spans.extend((s.start_char, s.end_char) for s in short)
    return [(start + offset, end + offset) for start, end in spans]


def doc_between(doc: Doc, start_char: int, end_char: int) -> Doc:
    """The tokens of `doc` from character `start_char` to `end_char` (token
    starts, or the Doc's end) as a Doc with their entities, the span group
    spans inside, token features and extension values (`Span.as_doc` copies
    neither span groups nor a feature store it would misalign)."""
    if start_char == 0 and end_char == len(doc.text):
        return doc
    starts = {token.idx: token.i for token in doc}
    starts[len(doc.text)] = len(doc)
    if start_char not in starts or end_char not in starts:
        raise ValueError(f"characters {start_char}-{end_char} are not token boundaries")
    span = doc[starts[start_char] : starts[end_char]]
    piece = span.as_doc()
    for key, value in doc.user_data.items():
        if isinstance(key, tuple) and len(key) == 4 and key[0] == "._.":
            kind, name, start, end = key
            if name == TOKEN_FEATURES_STORE:
                continue
            if start is None:
                piece.user_data[key] = value
            elif start_char <= start < end_char:
                end = None if end is None else end - start_char
                piece.user_data[(kind, name, start - start_char, end)] = value
        else:
            piece.user_data[key] = value
    for name in TOKEN_FEATURES:
        if has_token_feature(doc, name):
            values = token_feature_values(doc, name)
            set_token_feature_values(piece, name, list(values[span.start : span.end]))
    for key, group in doc.spans.items():
        inside = [
            Span(
                piece,
                s.start - span.start,
                s.end - span.start,
                label=s.label,
                kb_id=s.kb_id,
                span_id=s.id,
            )
            for s in group
            if span.start <= s.start and s.end <= span.end
        ]
        piece.spans[key] = SpanGroup(piece, name=key, spans=inside)
    return piece
