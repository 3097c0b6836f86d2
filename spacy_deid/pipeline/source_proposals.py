"""`deid_source_proposals`: a second NER's entities where the pipeline's own NER found none.

A pipeline fine-tuned on a site's corrected notes (`fine-tune-site`) learns the
site's notes and forgets some of what it was trained with: on patients it never
saw it proposes fewer names and dates than the pipeline it started from. This
component keeps the starting pipeline's NER beside the fine-tuned one, as a
disabled pipe (`ner_name`, "source_ner" by default: spaCy does not run it in
sequence, this component calls it), and after the fine-tuned `ner` adds every
entity of the source NER whose label is in `labels` and whose tokens no entity
of the fine-tuned NER touches. Which labels: those the site's corrections show
the source NER gets right (`spacy_deid.transfer.trusted_labels`), so the
source's proposals of the kinds the site taught away (a ward's abbreviation as a
department) stay away.

The source NER decodes the Doc with its entities cleared (set to missing), so
it proposes exactly what it would alone, then the Doc's entities are the
fine-tuned NER's plus the added ones; `doc.spans[spans_key]` lists the added
ones (provenance). The reconciler, the confidence component and the release
treat them as NER entities. The source NER carries its own copy of the
tok2vec it was trained with (`spacy_deid.transfer.add_source_proposals`
replaces its listener), so the fine-tuned tok2vec may change freely.
"""
from typing import Iterable, Iterator, List, Sequence, Tuple

from spacy.language import Language
from spacy.tokens import Doc, Span, SpanGroup
from spacy.util import minibatch

from .lifecycle import SettingsOnlyPipe

DEFAULT_SOURCE_NER = "source_ner"
DEFAULT_SPANS_KEY = "source_proposals"


@Language.factory(
    "deid_source_proposals",
    requires=["doc.ents"],
    assigns=["doc.ents", "doc.spans"],
    default_config={"ner_name": DEFAULT_SOURCE_NER, "labels": [], "spans_key": DEFAULT_SPANS_KEY},
    default_score_weights={},
)
def make_source_proposals(
    nlp: Language, name: str, ner_name: str, labels: List[str], spans_key: str
) -> "SourceProposals":
    """Create a `deid_source_proposals` component (calls the pipe called `ner_name`)."""
    return SourceProposals(nlp, name, ner_name=ner_name, labels=labels, spans_key=spans_key)


def added_entities(
    own: Sequence[Tuple[int, int, str]], theirs: Sequence[Tuple[int, int, str]], labels: Iterable[str]
) -> List[Tuple[int, int, str]]:
    """The (start, end, label) of `theirs` with a label in `labels` that overlap
    no span of `own` nor an earlier added one, in order."""
    wanted = set(labels)
    taken = set()
    for start, end, _ in own:
        taken.update(range(start, end))
    added = []
    for start, end, label in sorted(theirs):
        if label not in wanted or taken.intersection(range(start, end)):
            continue
        taken.update(range(start, end))
        added.append((start, end, label))
    return added


class SourceProposals(SettingsOnlyPipe):
    """The source NER's entities of `labels` added beside the pipeline's own.

    ner_name: the (disabled) pipe holding the source NER.
    labels: the entity labels taken from it (none: the component adds nothing).
    spans_key: the span group listing the entities it added.
    """

    def __init__(
        self,
        nlp: Language,
        name: str = "deid_source_proposals",
        *,
        ner_name: str = DEFAULT_SOURCE_NER,
        labels: Sequence[str] = (),
        spans_key: str = DEFAULT_SPANS_KEY,
    ) -> None:
        self.nlp = nlp
        self.name = name
        self.ner_name = ner_name
        self.source_labels = list(labels)
        self.spans_key = spans_key

    def _source_ner(self):
        try:
            ner = self.nlp.get_pipe(self.ner_name)
        except KeyError:
            raise ValueError(
                f"{self.name}: the pipeline has no component {self.ner_name!r} to take "
                f"proposals from (components: {', '.join(self.nlp.component_names)})"
            ) from None
        if not hasattr(ner, "predict") or not hasattr(ner, "set_annotations"):
            raise ValueError(f"{self.name}: {self.ner_name!r} is not an entity recognizer")
        return ner

    def __call__(self, doc: Doc) -> Doc:
        return next(self.pipe([doc]))

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        for batch in minibatch(stream, size=batch_size):
            docs = list(batch)
            yield from self._annotate(docs)

    def _annotate(self, docs: List[Doc]) -> List[Doc]:
        own = [[(e.start, e.end, e.label_) for e in doc.ents] for doc in docs]
        if not self.source_labels:
            for doc in docs:
                doc.spans[self.spans_key] = SpanGroup(doc, name=self.spans_key)
            return docs
        ner = self._source_ner()
        for doc in docs:
            doc.set_ents([], default="missing")
        ner.set_annotations(docs, ner.predict(docs))
        for doc, mine in zip(docs, own):
            theirs = [(e.start, e.end, e.label_) for e in doc.ents]
            added = added_entities(mine, theirs, self.source_labels)
            entities = [Span(doc, s, e, label=lab) for s, e, lab in sorted(mine + added)]
            doc.set_ents(entities, default="outside")
            doc.spans[self.spans_key] = SpanGroup(
                doc, name=self.spans_key, spans=[Span(doc, s, e, label=lab) for s, e, lab in added]
            )
        return docs


# --- building a site pipeline with its source's proposals --------------------

# A label is taken from the source NER when at least this share of the words it
# proposes with that label in the site's corrected notes are PHI.
DEFAULT_MIN_PRECISION = 0.8


def _listened_tok2vec(nlp: Language, ner_name: str):
    """The name of the tok2vec pipe `ner_name` listens to, or None (its own tok2vec)."""
    for name, pipe in nlp.pipeline:
        if ner_name in getattr(pipe, "listening_components", ()):
            return name
    return None


def label_precision(nlp: Language, notes: Sequence) -> dict:
    """{label: (PHI words, words)} of the entities `nlp` releases in `notes`
    (corrected notes: `text` and `mentions` with character offsets); a word is
    PHI when a mention covers it. The whole pipeline runs: a proposal the
    source's reconciler drops would be dropped in the site pipeline too."""
    counts: dict = {}
    for note, doc in zip(notes, nlp.pipe(note.text for note in notes)):
        phi = [(m.start, m.end) for m in note.mentions]
        for ent in doc.ents:
            words = [t for t in ent if not t.is_space and not t.is_punct]
            hits = sum(1 for t in words if any(s <= t.idx < e for s, e in phi))
            seen = counts.setdefault(ent.label_, [0, 0])
            seen[0] += hits
            seen[1] += len(words)
    return {label: (hits, total) for label, (hits, total) in sorted(counts.items())}


def trusted_labels(counts: dict, min_precision: float = DEFAULT_MIN_PRECISION) -> List[str]:
    """The labels whose proposals are at least `min_precision` PHI words
    (`label_precision`'s counts); a label never proposed is not taken: nothing
    shows the source is right about it."""
    if not 0.0 <= min_precision <= 1.0:
        raise ValueError(f"min_precision must be in 0..1, not {min_precision}")
    return [label for label, (hits, total) in counts.items() if total and hits / total >= min_precision]


def add_source_proposals(
    nlp: Language, source: Language, labels: Sequence[str], *, ner_name: str = DEFAULT_SOURCE_NER
) -> None:
    """Put `source`'s NER into `nlp` (disabled, as `ner_name`, with its own copy of
    the tok2vec it listens to) and a `deid_source_proposals` for `labels` after
    `nlp`'s `ner`. Replaces what an earlier call added. `source` is changed (its
    NER's listener is replaced): use it for nothing else afterwards."""
    if "ner" not in nlp.pipe_names or "ner" not in source.pipe_names:
        raise ValueError("both pipelines need a component named 'ner'")
    for name in ("deid_source_proposals", ner_name):
        if name in nlp.component_names:
            nlp.remove_pipe(name)
    tok2vec = _listened_tok2vec(source, "ner")
    if tok2vec is not None:
        source.replace_listeners(tok2vec, "ner", ["model.tok2vec"])
    nlp.add_pipe("ner", name=ner_name, source=source, after="ner")
    nlp.disable_pipe(ner_name)
    nlp.add_pipe(
        "deid_source_proposals",
        after="ner",
        config={"ner_name": ner_name, "labels": list(labels)},
    )
