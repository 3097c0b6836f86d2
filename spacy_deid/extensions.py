"""Every Doc/Span/Token extension of spacy-deid, installed in one place.

Call `install_extensions()` wherever an extension is needed; it is idempotent
and never overrides an extension someone else registered.
"""
from bisect import bisect_left
from functools import partial
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from spacy.attrs import IDX
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
TOKEN_EXTENSIONS: Dict[str, Any] = {}
# Per-token features the components compute for every token, name -> default.
# They are stored once per Doc, one list per feature (see "per-token features"
# below), not as one user_data entry per token: a 1,000-token note would
# otherwise carry 5,000 entries to set, read and serialise. `Token._.<name>`
# reads and writes that storage (getter and setter extensions).
TOKEN_FEATURES: Dict[str, Any] = {
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
# deid_reconciler (spacy_deid/pipeline/reconciler/component.py): one span per final
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
# at its operating point (spacy_deid/pipeline/confidence/component.py). It and the
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


# --- per-token features ----------------------------------------------------------
# One dict per Doc in `doc.user_data`: {"starts": token start offsets, name:
# [one value per token], ...}. Its key has the shape of spaCy's own token
# extension keys, ("._.", name, start char, None), with start 0, so that spaCy
# carries it like a token value: `Doc.to_bytes`, `DocBin(store_user_data=True)`
# and `Doc.copy` keep it, and `Doc.from_docs` / `Span.as_doc(copy_user_data=True)`
# shift its offset to the piece's position (the getter finds pieces by it).
# The name is reserved: it is not a registered extension.
TOKEN_FEATURES_STORE = "deid_token_features"
_STORE_KEY = ("._.", TOKEN_FEATURES_STORE, 0, None)
_STARTS = "starts"


def _token_starts(doc: Doc) -> List[int]:
    return doc.to_array(IDX).tolist() if len(doc) else []


def _aligned_store(doc: Doc) -> Optional[Dict[str, Any]]:
    """The Doc's feature store if its tokens are still the ones it was written for."""
    store = doc.user_data.get(_STORE_KEY)
    if store is None:
        return None
    starts = store[_STARTS]
    if len(starts) != len(doc) or list(starts) != _token_starts(doc):
        return None  # retokenized since
    return store


def token_feature_values(doc: Doc, name: str) -> Sequence[Any]:
    """The feature `name` of every token of the Doc, in token order (the default
    where none was set). The returned sequence may be the store itself: read only."""
    store = _aligned_store(doc)
    if store is not None and name in store:
        return store[name]
    default = TOKEN_FEATURES[name]
    return [_get_token_feature(token, name, default) for token in doc]


def has_token_feature(doc: Doc, name: str) -> bool:
    """Whether a component set the feature `name` on this Doc's tokens."""
    return any(_is_store_key(key) and name in value for key, value in doc.user_data.items())


def set_token_feature_values(doc: Doc, name: str, values: Sequence[Any]) -> None:
    """Set the feature `name` of every token of the Doc at once (one value per token)."""
    if name not in TOKEN_FEATURES:
        raise KeyError(f"unknown token feature {name!r}; known: {sorted(TOKEN_FEATURES)}")
    if len(values) != len(doc):
        raise ValueError(f"{len(values)} values of {name!r} for a Doc of {len(doc)} tokens")
    store = _aligned_store(doc)
    if store is None:
        store = _rebuild_store(doc)
    store[name] = list(values)


def lexicon_tags(token: Token) -> Tuple[str, ...]:
    """The `deid_lexicon` categories of a token ("FIRST", "CITY"; none without
    that component), for the reconciler and the corpus-aware pass alike."""
    value = token._.get("lexicon") if Token.has_extension("lexicon") else None
    return tuple(value.split("|")) if value else ()


def _rebuild_store(doc: Doc) -> Dict[str, Any]:
    """One store at offset 0 for the Doc's current tokens, with every value the
    Doc had (from older stores, pieces joined by Doc.from_docs, or spaCy's
    per-token entries of Docs saved before the store existed)."""
    names = set()
    for key, value in doc.user_data.items():
        if _is_store_key(key):
            names.update(n for n in value if n != _STARTS)
    store: Dict[str, Any] = {
        name: [_get_token_feature(token, name, TOKEN_FEATURES[name]) for token in doc]
        for name in sorted(names)
    }
    for key in [key for key in doc.user_data if _is_store_key(key)]:
        del doc.user_data[key]
    store[_STARTS] = _token_starts(doc)
    doc.user_data[_STORE_KEY] = store
    return store


def _is_store_key(key: Any) -> bool:
    if not (isinstance(key, tuple) and len(key) == 4):
        return False
    return key[0] == "._." and key[1] == TOKEN_FEATURES_STORE


def _get_token_feature(token: Token, name: str, default: Any) -> Any:
    user_data = token.doc.user_data
    store = user_data.get(_STORE_KEY)
    if store is not None:
        column = store.get(name)
        starts = store[_STARTS]
        i = token.i
        if column is not None and i < len(starts) and starts[i] == token.idx:
            return column[i]
    # Not at its place in the store: a retokenized Doc, a Doc joined from
    # pieces, or one saved with spaCy's per-token entries.
    legacy = user_data.get(("._.", name, token.idx, None), _MISSING)
    if legacy is not _MISSING:
        return legacy
    if store is None and len(user_data) > len(token.doc):
        return default  # per-token entries only (a Doc saved before the store)
    for key, value in user_data.items():
        if _is_store_key(key) and name in value:
            starts = value[_STARTS]
            j = bisect_left(starts, token.idx - key[2])
            if j < len(starts) and starts[j] == token.idx - key[2]:
                return value[name][j]
    return default


def _set_token_feature(token: Token, value: Any, *, name: str) -> None:
    doc = token.doc
    store = doc.user_data.get(_STORE_KEY)
    i = token.i
    if store is None or len(store[_STARTS]) != len(doc) or store[_STARTS][i] != token.idx:
        store = _rebuild_store(doc)
    column = store.get(name)
    if not isinstance(column, list):  # absent, or a tuple read back from a DocBin
        default = TOKEN_FEATURES[name]
        column = store[name] = list(column) if column is not None else [default] * len(doc)
    if not isinstance(store[_STARTS], list):
        store[_STARTS] = list(store[_STARTS])
    column[i] = value


_MISSING = object()


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
    for name, default in TOKEN_FEATURES.items():
        if not Token.has_extension(name):
            Token.set_extension(
                name,
                getter=partial(_get_token_feature, name=name, default=default),
                setter=partial(_set_token_feature, name=name),
            )
