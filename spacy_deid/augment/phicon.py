"""The PHICON augmenter for training configs: `spacy-deid.Phicon.v1`.

    [corpora.train.augmenter]
    @augmenters = "spacy-deid.Phicon.v1"
    alpha = 1
    phi = true
    context = false

Each training example that contains PHI is yielded as it is and then `alpha`
times augmented (Yue & Zhou 2020, "PHICON": D_new = D + alpha x D_aug): PHI
augmentation replaces every mention with a same-subtype surrogate
(augment/phi.py), context augmentation replaces and inserts words around it
(augment/context.py). Examples without PHI are yielded unchanged. Copy k of a
note is the same in every epoch and every run with the same seed: its random
draws are seeded by the seed, k and a digest of the note's text.
"""
import hashlib
import random
from typing import Callable, Iterator, List, Optional, Tuple

from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import registry

from ..extensions import DOC_EXTENSIONS, install_extensions
from .context import WordNetLexicon, apply_context_edits, plan_context_edits
from .phi import Span3, augment_phi
from .wordnet import load_wordnet

Augmenter = Callable[[Language, Example], Iterator[Example]]


@registry.augmenters("spacy-deid.Phicon.v1")
def create_phicon_augmenter(
    alpha: int = 1,
    phi: bool = True,
    context: bool = False,
    synonym_rate: float = 0.1,
    insertion_rate: float = 0.1,
    seed: int = 0,
) -> Augmenter:
    """PHI and/or context augmentation, `alpha` augmented copies per example."""
    return PhiconAugmenter(
        alpha=alpha,
        phi=phi,
        context=context,
        synonym_rate=synonym_rate,
        insertion_rate=insertion_rate,
        seed=seed,
    )


class PhiconAugmenter:
    def __init__(
        self,
        *,
        alpha: int = 1,
        phi: bool = True,
        context: bool = False,
        synonym_rate: float = 0.1,
        insertion_rate: float = 0.1,
        seed: int = 0,
        wordnet: Optional[object] = None,
    ) -> None:
        if alpha < 0:
            raise ValueError(f"spacy-deid.Phicon.v1: alpha must be 0 or more, not {alpha}")
        for name, rate in (("synonym_rate", synonym_rate), ("insertion_rate", insertion_rate)):
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"spacy-deid.Phicon.v1: {name} must be in [0, 1], not {rate}")
        if alpha and not (phi or context):
            raise ValueError("spacy-deid.Phicon.v1: alpha > 0 needs phi or context (or both)")
        self.alpha = alpha
        self.phi = phi
        self.context = context
        self.synonym_rate = synonym_rate
        self.insertion_rate = insertion_rate
        self.seed = seed
        self._wordnet = wordnet
        self._lexicon: Optional[WordNetLexicon] = None
        if context and alpha and wordnet is None:
            # Fail when the config is loaded, not hours into training.
            from .wordnet import locate_wordnet

            locate_wordnet()

    @property
    def lexicon(self) -> WordNetLexicon:
        if self._lexicon is None:  # loading WordNet takes seconds: once, on first use
            self._lexicon = WordNetLexicon(self._wordnet or load_wordnet())
        return self._lexicon

    def __call__(self, nlp: Language, example: Example) -> Iterator[Example]:
        yield example
        reference = example.reference
        if not self.alpha or not reference.ents:
            return
        digest = hashlib.sha256(reference.text.encode("utf8")).hexdigest()[:16]
        for copy in range(1, self.alpha + 1):
            text, spans = self.augment(nlp, reference, f"{self.seed}:{copy}:{digest}")
            augmented = _reference_doc(nlp, text, spans, reference)
            yield Example(nlp.make_doc(text), augmented)

    def augment(self, nlp: Language, reference: Doc, seed: str) -> Tuple[str, List[Span3]]:
        """The text and PHI spans of one augmented copy of `reference`."""
        text = reference.text
        spans: List[Span3] = [(e.start_char, e.end_char, e.label_) for e in reference.ents]
        if self.phi:
            text, spans = augment_phi(text, spans, seed)
        if self.context:
            doc = nlp.make_doc(text) if self.phi else reference
            doc_spans = [doc.char_span(s, e, label=lb, alignment_mode="expand") for s, e, lb in spans]
            phi_tokens = [False] * len(doc)
            for span in doc_spans:
                for i in range(span.start, span.end):
                    phi_tokens[i] = True
            spans = [(span.start_char, span.end_char, span.label_) for span in doc_spans]
            edits = plan_context_edits(
                doc,
                phi_tokens,
                self.lexicon,
                random.Random(f"context:{seed}"),
                self.synonym_rate,
                self.insertion_rate,
            )
            text, spans = apply_context_edits(doc, spans, edits)
        return text, spans


def _reference_doc(nlp: Language, text: str, spans: List[Span3], original: Doc) -> Doc:
    """A gold Doc of `text` with `spans` as ents and the original's note ids."""
    install_extensions()
    doc = nlp.make_doc(text)
    ents = []
    for start, end, label in spans:
        span = doc.char_span(start, end, label=label)
        if span is None:  # a surrogate the tokenizer splits differently: its tokens
            span = doc.char_span(start, end, label=label, alignment_mode="expand")
        if span is not None and len(span) and (not ents or span.start >= ents[-1].end):
            ents.append(span)
    doc.ents = ents
    for name in DOC_EXTENSIONS:
        setattr(doc._, name, getattr(original._, name))
    return doc
