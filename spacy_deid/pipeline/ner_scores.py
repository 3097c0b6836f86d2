"""`deid_ner_scores`: entity probabilities from the trained NER, by beam search.

spaCy's `ner` is transition-based and decodes greedily: it gives one set of
entities and no probabilities. The same trained model can also decode with a
beam (`Parser.beam_parse`), and `EntityRecognizer.scored_ents` turns the
beam's parses into a probability for every (start, end, label) any parse
proposed. This component runs that beam after `ner`, on a copy of the Doc with
its entities cleared (the NER's transition system keeps preset entities, so
without the copy every greedy entity would come back with probability 1),
and writes

- `doc.spans["ner_candidates"]`: one span per proposed entity whose
  probability is at least `min_score`, greedy entities and rejected ones
  alike, with the probabilities in the group's `attrs["scores"]` (span group
  attrs travel through DocBin and `Doc.to_bytes`).

The greedy `doc.ents` are not changed. The probabilities are raw: the
`deid_confidence` component calibrates them (spacy_deid/pipeline/confidence/component.py).
The tok2vec or transformer output the NER listens to is read from the Doc
(`doc.tensor`, `doc._.trf_data`), so nothing is computed twice but the
decoding. See docs/recall.md.

What the beam decodes (`scope`):

- `"doc"`: each Doc as one beam. Its cost grows faster than the Doc's
  length (every beam step copies each parse's history), and in a long note
  the 16 parses of the final beam differ only in its last few ambiguous
  places, so early alternatives are pruned to probability 0 or 1.
- `"lines"`: each line (the tokens between newline tokens; never cut inside
  a greedy entity) as its own beam, over a sub-Doc carrying its slice of
  `doc.tensor`. The NER's state features are the next token and the open
  entity's first token, so once no entity is open a line decodes exactly as
  it would inside the Doc; only entities crossing a newline are not proposed.
  Every line gets its own parses and probabilities.
- `"focus"`: as `"lines"`, but only windows around the tokens that can be
  PHI: tokens of a greedy entity and every token but spaces, punctuation and
  common lower-case words (`Token._.word_frequency` of `deid_lexicon`, not
  tagged as a job title), widened by `focus_margin` tokens on each side. A
  run of common lower-case words outside the windows gets no candidates.
  Without `deid_lexicon` no word counts as common: the windows are the lines.

In the line scopes no beam decodes more than `max_segment_tokens` tokens
(1,000): a beam's cost per token grows with the length it decodes, so a
longer line or window (a one-line note, a pasted base64 blob with no
whitespace) would take time quadratic in its length. It is cut into windows
of at most that many tokens, each cut before a token that no greedy entity
continues, at a space or punctuation where there is one in the window's
second half. Lines of clinical notes are far shorter (the longest of the dev
notes: about 260 tokens), so they decode as before. 0 turns the cap off.

The line scopes need an NER that reads `doc.tensor` (a `Tok2VecListener`,
as in `configs/cpu.cfg`); with any other (a transformer listener, an inline
tok2vec) the component decodes whole Docs whatever the scope says.
"""

from typing import Dict, Iterable, Iterator, List, Tuple

import numpy
from spacy.attrs import IS_ALPHA, IS_LOWER, IS_PUNCT, IS_SPACE
from spacy.language import Language
from spacy.pipeline.tok2vec import Tok2VecListener
from spacy.tokens import Doc, Span, SpanGroup
from spacy.util import minibatch

from ..extensions import install_extensions, token_feature_values
from .lifecycle import SettingsOnlyPipe

DEFAULT_CANDIDATES_KEY = "ner_candidates"
# Name of the span group attribute holding one probability per span.
SCORES_ATTR = "scores"

EntityScores = Dict[Tuple[int, int, str], float]
# What one beam decodes (see the module docstring). The factory's default stays
# "doc", so a pipeline saved before the setting existed decodes (and is
# calibrated) as before; configs/cpu.cfg sets its own.
SCOPE_DOC, SCOPE_LINES, SCOPE_FOCUS = "doc", "lines", "focus"
SCOPES = (SCOPE_DOC, SCOPE_LINES, SCOPE_FOCUS)
# `deid_lexicon`'s tag of job titles: lower-case common words that can be PHI.
_JOB_TAG = "JOB"


@Language.factory(
    "deid_ner_scores",
    requires=["doc.ents"],
    assigns=["doc.spans"],
    default_config={
        "ner_name": "ner",
        "spans_key": DEFAULT_CANDIDATES_KEY,
        "beam_width": 16,
        "beam_density": 0.0001,
        "min_score": 0.001,
        "scope": SCOPE_DOC,
        "focus_margin": 2,
        "max_segment_tokens": 1000,
    },
    default_score_weights={},
)
def make_ner_scores(
    nlp: Language,
    name: str,
    ner_name: str,
    spans_key: str,
    beam_width: int,
    beam_density: float,
    min_score: float,
    scope: str,
    focus_margin: int,
    max_segment_tokens: int,
) -> "NerScores":
    """Create a `deid_ner_scores` component (reads the pipe called `ner_name`)."""
    return NerScores(
        nlp,
        name,
        ner_name=ner_name,
        spans_key=spans_key,
        beam_width=beam_width,
        beam_density=beam_density,
        min_score=min_score,
        scope=scope,
        focus_margin=focus_margin,
        max_segment_tokens=max_segment_tokens,
    )


class NerScores(SettingsOnlyPipe):
    """Beam-search entity probabilities of a trained `ner`, as a span group.

    ner_name: the pipe whose model is decoded (an `EntityRecognizer`).
    spans_key: the span group written.
    beam_width: parses kept by the beam (more: smoother probabilities, slower).
    beam_density: prune parses whose score is below this share of the best.
    min_score: candidates below this probability are not written.
    scope: what one beam decodes: "doc", "lines" or "focus" (module docstring).
    focus_margin: tokens kept on each side of a possible-PHI token ("focus").
    max_segment_tokens: longest stretch one beam decodes in the line scopes
        (longer lines or windows are cut; 0: no limit).
    """

    def __init__(
        self,
        nlp: Language,
        name: str = "deid_ner_scores",
        *,
        ner_name: str = "ner",
        spans_key: str = DEFAULT_CANDIDATES_KEY,
        beam_width: int = 16,
        beam_density: float = 0.0001,
        min_score: float = 0.001,
        scope: str = SCOPE_DOC,
        focus_margin: int = 2,
        max_segment_tokens: int = 1000,
    ) -> None:
        if beam_width < 2:
            raise ValueError(f"{name}: beam_width must be at least 2, got {beam_width}")
        if scope not in SCOPES:
            raise ValueError(f"{name}: scope must be one of {', '.join(SCOPES)}, got {scope!r}")
        if focus_margin < 0:
            raise ValueError(f"{name}: focus_margin must be at least 0, got {focus_margin}")
        if max_segment_tokens < 0 or 0 < max_segment_tokens < 2:
            raise ValueError(
                f"{name}: max_segment_tokens must be 0 (no limit) or at least 2, "
                f"got {max_segment_tokens}"
            )
        install_extensions()
        self.nlp = nlp
        self.name = name
        self.ner_name = ner_name
        self.spans_key = spans_key
        self.beam_width = beam_width
        self.beam_density = beam_density
        self.min_score = min_score
        self.scope = scope
        self.focus_margin = focus_margin
        self.max_segment_tokens = max_segment_tokens

    def _ner(self):
        if self.ner_name not in self.nlp.pipe_names:
            raise ValueError(
                f"{self.name}: the pipeline has no component {self.ner_name!r} to score "
                f"(components: {', '.join(self.nlp.pipe_names)})"
            )
        ner = self.nlp.get_pipe(self.ner_name)
        if not hasattr(ner, "beam_parse") or not hasattr(ner, "scored_ents"):
            raise ValueError(f"{self.name}: {self.ner_name!r} is not a transition-based NER")
        return ner

    def predict(self, docs: List[Doc]) -> List[EntityScores]:
        """Probability of every (start, end, label) the beam proposes, per Doc."""
        ner = self._ner()
        # Each piece: (doc index, token offset, Doc the beam decodes).
        pieces: List[Tuple[int, int, Doc]] = []
        by_lines = self.scope != SCOPE_DOC and reads_doc_tensor(ner)
        for i, doc in enumerate(docs):
            if by_lines and doc.tensor.shape[0] == len(doc) and len(doc):
                for start, end in self.segments(doc):
                    pieces.append((i, start, blank_slice(doc, start, end)))
            elif len(doc):
                # A copy with every entity *missing* (not "O"): the beam may then
                # propose anything, as the greedy decoder could.
                copy = doc.copy()
                copy.set_ents([], default="missing")
                pieces.append((i, 0, copy))
        scores: List[EntityScores] = [{} for _ in docs]
        if not pieces:
            return scores
        beams = ner.beam_parse(
            [piece for _, _, piece in pieces],
            beam_width=self.beam_width,
            beam_density=self.beam_density,
        )
        for (i, offset, _), piece_scores in zip(pieces, ner.scored_ents(beams)):
            for (start, end, label), value in piece_scores.items():
                scores[i][(start + offset, end + offset, label)] = value
        return scores

    def segments(self, doc: Doc) -> List[Tuple[int, int]]:
        """The (start, end) token ranges the beam decodes, for the line scopes."""
        lines = line_ranges(doc)
        if self.scope == SCOPE_FOCUS:
            possible = possible_phi_tokens(doc)
            windows = []
            for start, end in lines:
                windows.extend(focus_windows(possible[start:end], self.focus_margin, start))
            lines = windows
        cap = self.max_segment_tokens
        if cap <= 0 or all(end - start <= cap for start, end in lines):
            return lines
        return bounded_segments(doc, lines, self.max_segment_tokens)

    def set_annotations(self, docs: Iterable[Doc], scores: List[EntityScores]) -> None:
        for doc, entity_scores in zip(docs, scores):
            kept = sorted(
                (key, value) for key, value in entity_scores.items() if value >= self.min_score
            )
            spans = [Span(doc, start, end, label=label) for (start, end, label), _ in kept]
            doc.spans[self.spans_key] = SpanGroup(
                doc,
                name=self.spans_key,
                attrs={SCORES_ATTR: [round(min(1.0, float(value)), 6) for _, value in kept]},
                spans=spans,
            )

    def __call__(self, doc: Doc) -> Doc:
        self.set_annotations([doc], self.predict([doc]))
        return doc

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        for batch in minibatch(stream, size=batch_size):
            docs = list(batch)
            self.set_annotations(docs, self.predict(docs))
            yield from docs

    # Nothing to learn or save (SettingsOnlyPipe): the probabilities come from
    # the NER's own model.


def reads_doc_tensor(ner) -> bool:
    """Whether the NER's features come from `doc.tensor` (a spaCy `Tok2VecListener`).

    Only then can a slice of the Doc be decoded with the slice of its tensor;
    a transformer listener reads `doc._.trf_data`, an inline tok2vec would
    recompute the vectors without the rest of the note as context.
    """
    if not ner.model.has_ref("tok2vec"):
        return False
    return any(isinstance(layer, Tok2VecListener) for layer in ner.model.get_ref("tok2vec").walk())


def line_ranges(doc: Doc) -> List[Tuple[int, int]]:
    """(start, end) of each line: the tokens between newline tokens, never cutting an entity."""
    inside_entity = numpy.zeros(len(doc) + 1, dtype=bool)
    for ent in doc.ents:
        inside_entity[ent.start + 1 : ent.end] = True
    ranges, start = [], 0
    for token in doc:
        if token.is_space and "\n" in token.text and not inside_entity[token.i]:
            if token.i > start:
                ranges.append((start, token.i))
            start = token.i + 1
    if len(doc) > start:
        ranges.append((start, len(doc)))
    return ranges


def bounded_segments(
    doc: Doc, segments: List[Tuple[int, int]], max_tokens: int
) -> List[Tuple[int, int]]:
    """`segments` with each one longer than `max_tokens` cut into pieces of at
    most that many: each cut is before a token that continues no greedy
    entity, the last one in the piece's second half that follows a space or
    punctuation token, else the last one that continues no entity there, else
    at `max_tokens` (an entity that long is cut)."""
    continues = numpy.zeros(len(doc) + 1, dtype=bool)
    for ent in doc.ents:
        continues[ent.start + 1 : ent.end] = True
    flags = doc.to_array([IS_SPACE, IS_PUNCT]).astype(bool).reshape(len(doc), 2)
    after_break = numpy.zeros(len(doc) + 1, dtype=bool)
    after_break[1 : len(doc) + 1] = flags[:, 0] | flags[:, 1]
    bounded = []
    for start, end in segments:
        while end - start > max_tokens:
            low, high = start + max_tokens // 2 + 1, start + max_tokens
            free = numpy.flatnonzero(~continues[low : high + 1])
            best = numpy.flatnonzero(~continues[low : high + 1] & after_break[low : high + 1])
            cut = low + int(best[-1] if len(best) else free[-1]) if len(free) else high
            bounded.append((start, cut))
            start = cut
        bounded.append((start, end))
    return bounded


def possible_phi_tokens(doc: Doc) -> numpy.ndarray:
    """Per token: can it be (part of) PHI? False for spaces, punctuation and common
    lower-case words that are no job title; True for the greedy entities' tokens."""
    if not len(doc):
        return numpy.ones(0, dtype=bool)
    flags = doc.to_array([IS_SPACE, IS_PUNCT, IS_ALPHA, IS_LOWER]).astype(bool)
    space, punct, alpha, lower = flags.T
    common = numpy.fromiter(map(bool, token_feature_values(doc, "word_frequency")), bool, len(doc))
    job = numpy.fromiter(
        (_JOB_TAG in (tags or "") for tags in token_feature_values(doc, "lexicon")), bool, len(doc)
    )
    possible = ~(space | punct)
    common_word = possible & alpha & lower & common
    possible[common_word] = job[common_word]
    for ent in doc.ents:
        possible[ent.start : ent.end] = True
    return possible


def focus_windows(possible: numpy.ndarray, margin: int, offset: int = 0) -> List[Tuple[int, int]]:
    """Maximal runs of `possible` widened by `margin` on each side, as (start, end) + offset."""
    covered = possible.copy()
    for shift in range(1, min(margin, len(possible)) + 1):
        covered[shift:] |= possible[:-shift]
        covered[:-shift] |= possible[shift:]
    edges = numpy.diff(numpy.concatenate(([0], covered.astype(numpy.int8), [0])))
    starts, ends = numpy.flatnonzero(edges == 1), numpy.flatnonzero(edges == -1)
    return [(int(a) + offset, int(b) + offset) for a, b in zip(starts, ends)]


def blank_slice(doc: Doc, start: int, end: int) -> Doc:
    """Tokens start..end of `doc` as a new Doc with their `doc.tensor` rows and no entities.

    A new Doc's entity annotation is missing, so the beam may propose anything.
    """
    tokens = doc[start:end]
    piece = Doc(
        doc.vocab,
        words=[token.text for token in tokens],
        spaces=[bool(token.whitespace_) for token in tokens],
    )
    piece.tensor = doc.tensor[start:end]
    return piece


def group_scores(group: SpanGroup) -> List[float]:
    """The scores of a span group written by this package (0.0 where missing)."""
    scores = list(group.attrs.get(SCORES_ATTR, []))
    return scores + [0.0] * (len(group) - len(scores))


def token_probabilities(doc: Doc, spans_key: str = DEFAULT_CANDIDATES_KEY) -> List[float]:
    """Per token, the probability that it is inside some entity.

    Within one beam parse the entities do not overlap, so summing the
    probabilities of the candidates that cover a token sums the probabilities
    of the parses in which it is PHI.
    """
    probs = [0.0] * len(doc)
    group = doc.spans.get(spans_key)
    if group is None:
        return probs
    for span, score in zip(group, group_scores(group)):
        for i in range(span.start, span.end):
            probs[i] += score
    return [min(1.0, p) for p in probs]
