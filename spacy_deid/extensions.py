"""Every Doc/Span/Token extension of spacy-deid, installed in one place.

Call `install_extensions()` wherever an extension is needed; it is idempotent
and never overrides an extension someone else registered.
"""
from typing import Any, Callable, Dict, Tuple

from spacy.tokens import Doc, Span, Token

# name -> default value. Values are plain strings (or None) so that they
# travel through DocBin (store_user_data=True) and Doc.to_bytes.
DOC_EXTENSIONS: Dict[str, Any] = {
    # Note id: the file stem for i2b2 2014 files ("110-01"), the RECORD ID for
    # i2b2 2006, "pid-note" for PhysioNet.
    "note_id": None,
    # Patient id where the format has one (i2b2 2014 "PPP-RR" names, PhysioNet).
    "patient_id": None,
    # File the note was read from (a path, never text).
    "source_file": None,
    # The note with its PHI replaced, set by the deid_release component
    # (spacy_deid/deid/component.py); the Doc's own text is unchanged.
    "released_text": None,
}
SPAN_EXTENSIONS: Dict[str, Any] = {}
TOKEN_EXTENSIONS: Dict[str, Any] = {
    # Normalised name of the section the token is in ("social_history"), set
    # by the deid_sections component; None before the first header.
    "section_name": None,
    # Normalised attribute name ("mrn", "referral_source") for tokens inside
    # an attribute value, set by the deid_sections component; else None.
    "attribute_name": None,
    # Lexicon categories of the token ("FIRST|LAST", "CITY", "JOB"), set by the
    # deid_lexicon component (spacy_deid/pipeline/lexicon.py); else None.
    "lexicon": None,
    # Zipf frequency bucket of the word in English ("3" … "7"), "" for rarer
    # words; set by the deid_lexicon component.
    "word_frequency": "",
    # OntoNotes label of the pretrained (en_core_web_md) entity the token is in
    # ("PERSON", "ORG", "GPE", "FAC", "LOC"), "" for none; set by the
    # deid_ontonotes component (spacy_deid/pipeline/ontonotes.py).
    "ontonotes": "",
}

# --- span groups -------------------------------------------------------------
# The default keys of the span groups the components share (each component's
# config can rename its own). Span groups travel through DocBin.
# deid_sections: header words, attribute names, attribute values (label = the
# normalised name, "mrn"), read by the rule tagger and the reconciler.
SECTIONS_KEY = "sections"
ATTRIBUTE_NAMES_KEY = "attribute_names"
ATTRIBUTES_KEY = "attributes"
# deid_phi_rules: the regex hits, `id_` = the pattern id; read by the reconciler.
RULES_KEY = "phi_rules"
# deid_reconciler (spacy_deid/pipeline/reconciler.py): one span per final
# entity, its `id_` a provenance string such as
# "rule:phone_nanp|correct:fax_context"; and the mentions it removed, `id_`
# saying why ("ner|merge:under_rule").
PROVENANCE_KEY = "phi_provenance"
DROPPED_KEY = "phi_dropped"


def _phi_source(span: Span) -> Any:
    """Why a PHI span is there: the reconciler's provenance string, or None."""
    group = span.doc.spans.get(PROVENANCE_KEY)
    if group is None:
        return None
    for twin in group:
        if twin.start == span.start and twin.end == span.end:
            return twin.id_ or None
    return None


# Span group of the scored spans that `deid_confidence` did not put in doc.ents
# at its operating point (spacy_deid/pipeline/confidence.py). It and the
# provenance group carry one calibrated score per span in attrs[SCORES_ATTR].
REJECTED_KEY = "phi_rejected"
SCORES_ATTR = "scores"


def _phi_score(span: Span) -> Any:
    """Calibrated probability (0..1) that a span is PHI, set by deid_confidence; else None."""
    for key in (PROVENANCE_KEY, REJECTED_KEY):
        group = span.doc.spans.get(key)
        scores = group.attrs.get(SCORES_ATTR) if group is not None else None
        if not scores:
            continue
        for twin, score in zip(group, scores):
            if twin.start == span.start and twin.end == span.end:
                return float(score)
    return None


# name -> getter, for values computed from the Doc rather than stored.
SPAN_GETTERS: Dict[str, Callable[[Span], Any]] = {"phi_source": _phi_source, "phi_score": _phi_score}


_TARGETS: Tuple[Tuple[Any, Dict[str, Any]], ...] = (
    (Doc, DOC_EXTENSIONS),
    (Span, SPAN_EXTENSIONS),
    (Token, TOKEN_EXTENSIONS),
)


def install_extensions() -> None:
    """Register the package's extensions that are not registered yet."""
    for cls, extensions in _TARGETS:
        for name, default in extensions.items():
            if not cls.has_extension(name):
                cls.set_extension(name, default=default)
    for name, getter in SPAN_GETTERS.items():
        if not Span.has_extension(name):
            Span.set_extension(name, getter=getter)
