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
`deid_confidence` component calibrates them (spacy_deid/pipeline/confidence.py).
The tok2vec or transformer output the NER listens to is read from the Doc
(`doc.tensor`, `doc._.trf_data`), so nothing is computed twice but the
decoding. See docs/recall.md.
"""

from typing import Dict, Iterable, Iterator, List, Optional, Tuple

from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc, Span, SpanGroup
from spacy.util import minibatch

DEFAULT_CANDIDATES_KEY = "ner_candidates"
# Name of the span group attribute holding one probability per span.
SCORES_ATTR = "scores"

EntityScores = Dict[Tuple[int, int, str], float]


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
    )


class NerScores(Pipe):
    """Beam-search entity probabilities of a trained `ner`, as a span group.

    ner_name: the pipe whose model is decoded (an `EntityRecognizer`).
    spans_key: the span group written.
    beam_width: parses kept by the beam (more: smoother probabilities, slower).
    beam_density: prune parses whose score is below this share of the best.
    min_score: candidates below this probability are not written.
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
    ) -> None:
        if beam_width < 2:
            raise ValueError(f"{name}: beam_width must be at least 2, got {beam_width}")
        self.nlp = nlp
        self.name = name
        self.ner_name = ner_name
        self.spans_key = spans_key
        self.beam_width = beam_width
        self.beam_density = beam_density
        self.min_score = min_score

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
        blank = []
        for doc in docs:
            # A copy with every entity *missing* (not "O"): the beam may then
            # propose anything, as the greedy decoder could.
            copy = doc.copy()
            copy.set_ents([], default="missing")
            blank.append(copy)
        if not any(len(doc) for doc in blank):
            return [{} for _ in docs]
        beams = ner.beam_parse(blank, beam_width=self.beam_width, beam_density=self.beam_density)
        return [dict(scores) for scores in ner.scored_ents(beams)]

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

    # Nothing to learn or save: the probabilities come from the NER's own model.
    def initialize(self, get_examples=None, *, nlp: Optional[Language] = None) -> None:
        return None


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
