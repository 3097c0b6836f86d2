"""Corpus-aware de-identification: what a batch of notes from one site says about its words.

A user de-identifies a batch of notes written at one site. Read as a whole, the
batch tells site vocabulary from identifiers better than any one note does:
"foley" written in lower case in the notes of dozens of patients is a word of
the site, not a surname; a capitalised word that only one patient's notes use,
and that the pipeline tagged as a name in one of them, is that patient's name
in the others too; a word written after "Dr."/"Mr." is a name wherever it is
written like one.

`CorpusEvidence` is learned in a first pass from the Docs the pipeline made
(`add(doc, patient)` per note, or `from_docs`) and applied in a second pass
(`apply(doc, patient)`), which changes `doc.ents`:

- drop: a NAME or LOCATION entity all of whose words are site
  vocabulary, with no title before or in it and, in a cased note, not two or
  more capitalised words (a proper name by its writing);
- add: a word outside every entity, written like a name in its note, that is a
  clinician's name at the site (seen after "Dr."; an English or clinical
  word only where a cased note capitalises it), a place or institution of
  the site (tagged as one in the notes of several patients, in most of its
  occurrences: its hospitals, wards and towns), or a name the pipeline found
  in this same patient's notes and that no other patient's notes use.

Statistics only. The evidence holds, per lower-case word form, the sets of
patients whose notes use it in each way; word forms and patients are stored as
64-bit hashes (spaCy's `hash_string`), never as text. An added mention is
decided by a rule about a word form; no span, word or text of one note is
copied into another note's output. Additions from a patient's own names stay
within that patient; only forms seen after a clinician's title and the
site's places (site-wide names) are shared across patients, and each of those
two settings can be turned off.

The statistics are sets, so the result is the same for any order of the notes.
The evidence is derived from PHI (a dictionary of names could be hashed and
compared against it): keep a saved evidence file with the mapping, never with
the released notes. See docs/corpus-aware.md.
"""

from collections import Counter, defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Dict, FrozenSet, Iterable, Iterator, List, Optional, Set, Tuple, Union

import srsly
from spacy.language import Language
from spacy.strings import hash_string
from spacy.tokens import Doc, Span, SpanGroup, Token
from spacy.util import ensure_path, filter_spans

from .. import labels
from ..clinical_lexicon import ENGLISH_OR_CLINICAL_LIST, vocabulary_lists
from ..data_files import DATA_DIR
from ..extensions import install_extensions, lexicon_tags
from ..ml.worker_pool import WorkerDiedError
from .windows import pipe_bounded

# Span groups the second pass writes, so a reviewer can see what it changed.
DROPPED_KEY = "corpus_evidence_dropped"
ADDED_KEY = "corpus_evidence_added"

# Entity categories whose spans are proper names (a word can be site
# vocabulary); dates, ages, contacts and ids are left to the pipeline, and so
# are professions: common nouns by nature ("software engineer"), written in
# lower case everywhere, so the case evidence says nothing about them.
DROPPABLE_CATEGORIES = frozenset({labels.NAME_CATEGORY, labels.LOCATION_CATEGORY})
NAME_LABELS = frozenset(labels.SUBTYPES_BY_CATEGORY[labels.NAME_CATEGORY])

# A word form is site vocabulary when the notes of at least this many distinct
# patients write it in lower case in running, cased text: one writer's habit
# or one patient's name does not reach it; a word of the site's clinical
# language does (docs/corpus-aware.md shows the measure for 2, 3, 5 and 10).
DEFAULT_MIN_PATIENTS = 3
# A note whose words are (nearly) all in one case carries no case evidence
# (ALL-CAPS notes, notes typed all in lower case): the share of its words, of
# two letters or more, that must be in one case for that.
SINGLE_CASE_SHARE = 0.95

# Titles before a name: the reconciler's lists (data/reconciler_lists.json).
_LISTS_PATH = DATA_DIR / "reconciler_lists.json"
_DOCTOR_TITLE_LIST = "title_cues"  # dr, doctor: the name is a clinician's
_OTHER_TITLE_LIST = "name_titles"  # mr, mrs, ms, ...

# The statistics, each a form -> set of patients.
USED, COMMON, TITLED_DOCTOR, TITLED_OTHER = "used", "common", "titled_doctor", "titled_other"
# ... and whose notes write it like a name inside a LOCATION entity (a
# hospital, ward, organisation or town of the pipeline).
TAGGED_PLACE = "tagged_place"
STATISTICS = (USED, COMMON, TITLED_DOCTOR, TITLED_OTHER, TAGGED_PLACE)
# And two counts of occurrences per form: all, and inside a NAME or LOCATION
# entity of the pipeline (its votes).
OCCURRENCES, TAGGED = "occurrences", "tagged"
FORMAT_VERSION = 2
# Version 1 files (before the site's places were counted) still load, with
# no place statistics and place sharing off, so they decide as they did.
READABLE_VERSIONS = (1, 2)
LOCATION_LABELS = frozenset(labels.SUBTYPES_BY_CATEGORY[labels.LOCATION_CATEGORY])
# `deid_lexicon` tags of the place lists (towns, states, countries).
PLACE_TAGS = frozenset({labels.CITY, labels.STATE, labels.COUNTRY})


def _title_words() -> Tuple[frozenset, frozenset]:
    lists = srsly.read_json(_LISTS_PATH)
    doctor = frozenset(word.rstrip(".") for word in lists[_DOCTOR_TITLE_LIST])
    other = frozenset(word.rstrip(".") for word in lists[_OTHER_TITLE_LIST])
    return doctor, other


DOCTOR_TITLES, OTHER_TITLES = _title_words()


def note_is_cased(doc: Doc) -> bool:
    """Whether the note's writer uses both cases, so a word's case says something."""
    words = [token for token in doc if token.is_alpha and len(token) > 1]
    if not words:
        return False
    limit = SINGLE_CASE_SHARE * len(words)
    return sum(t.is_upper for t in words) < limit and sum(t.is_lower for t in words) < limit


def title_before(token: Token, cased: bool) -> Optional[str]:
    """"doctor" or "other" when a title ("Dr", "Dr.", "Mrs") comes just before
    the token (a full stop between them allowed), else None. In a cased note
    the title and the word must be capitalised; in a single-case note only
    the clinician titles count, since "MS", "MR" there are as often clinical
    abbreviations (mental status, mitral regurgitation) as titles."""
    if cased and not (token.is_title or token.is_upper):
        return None
    i = token.i - 1
    if i >= 0 and token.doc[i].text == ".":
        i -= 1
    if i < 0:
        return None
    title = token.doc[i]
    if cased and not title.is_title:
        return None
    word = title.lower_.rstrip(".")
    if word in DOCTOR_TITLES:
        return "doctor"
    if word in OTHER_TITLES and cased:
        return "other"
    return None


def _is_word(token: Token) -> bool:
    return token.is_alpha and len(token) > 1


def _written_like_name(token: Token, cased: bool) -> bool:
    """Capitalised in a cased note; any case in a single-case note."""
    return not cased or token.is_title or token.is_upper


@lru_cache(maxsize=1)
def _word_list_forms() -> FrozenSet[int]:
    """Hashes of the English words (wordfreq, Zipf 3 or more) and clinical
    vocabulary the reconciler reads (spacy_deid/clinical_lexicon.py)."""
    words = vocabulary_lists()[ENGLISH_OR_CLINICAL_LIST]
    return frozenset(hash_string(word) for word in words)


def _may_be_site_place(token: Token) -> bool:
    """A word that may be a site's place on its own: no English or clinical
    word, or one a town, state or country list knows ("Boston"). The words
    that make up institutions' names ("General", "Recovery", "Office") stand
    alone in other senses too."""
    if token.lower not in _word_list_forms():
        return True
    return bool(PLACE_TAGS.intersection(lexicon_tags(token)))


def _may_be_shared_name(token: Token, cased: bool) -> bool:
    """A word that may stand for a clinician seen after a title in other
    patients' notes: no English or clinical word, or one capitalised in a
    cased note. In a note typed in one case, "DREW" or "drew" is the verb
    ("drew labs") as often as a clinician called Drew: case is the only
    evidence, and there is none."""
    return token.lower not in _word_list_forms() or (cased and token.is_title)


def _patient_hash(patient: str) -> int:
    return hash_string(str(patient))


class CorpusEvidence:
    """Counts, per lower-case word form, of the patients whose notes use it:
    at all, in lower case in cased text, after a clinician's title, after
    another title, like a name inside a place or institution; plus, per
    patient, the forms the pipeline tagged as names in that patient's notes
    (with their labels), and per form the place labels it was tagged with.
    Hashes only, never text."""

    def __init__(
        self,
        min_patients: int = DEFAULT_MIN_PATIENTS,
        share_titled_names: bool = True,
        share_site_places: bool = True,
    ):
        if min_patients < 1:
            raise ValueError(f"min_patients must be at least 1, not {min_patients}")
        self.min_patients = min_patients
        self.share_titled_names = share_titled_names
        self.share_site_places = share_site_places
        self.stats: Dict[str, Dict[int, Set[int]]] = {name: defaultdict(set) for name in STATISTICS}
        # statistic -> form hash -> occurrences
        self.votes: Dict[str, Counter] = {OCCURRENCES: Counter(), TAGGED: Counter()}
        # patient hash -> form hash -> label -> occurrences tagged with it
        self.names: Dict[int, Dict[int, Counter]] = defaultdict(lambda: defaultdict(Counter))
        # form hash -> place label -> occurrences tagged with it (all patients)
        self.place_labels: Dict[int, Counter] = defaultdict(Counter)
        self.notes = 0
        self.patients: Set[int] = set()

    # --- first pass ---------------------------------------------------------
    def add(self, doc: Doc, patient: Optional[str] = None) -> None:
        """Count one note (patient: `doc._.patient_id`, else the note alone)."""
        key = _patient_hash(_patient_of(doc, patient))
        self.notes += 1
        self.patients.add(key)
        cased = note_is_cased(doc)
        in_name: Dict[int, str] = {}
        in_place: Dict[int, str] = {}
        tagged: Set[int] = set()
        for ent in doc.ents:
            if labels.category_of(ent.label_) in DROPPABLE_CATEGORIES:
                tagged.update(token.i for token in ent)
            if ent.label_ in NAME_LABELS:
                for token in ent:
                    in_name[token.i] = ent.label_
            elif ent.label_ in LOCATION_LABELS:
                for token in ent:
                    in_place[token.i] = ent.label_
        for token in doc:
            if not _is_word(token):
                continue
            form = token.lower
            self.stats[USED][form].add(key)
            self.votes[OCCURRENCES][form] += 1
            if token.i in tagged:
                self.votes[TAGGED][form] += 1
            title = title_before(token, cased)
            if title == "doctor":
                self.stats[TITLED_DOCTOR][form].add(key)
            elif title == "other":
                self.stats[TITLED_OTHER][form].add(key)
            elif cased and token.is_lower:
                self.stats[COMMON][form].add(key)
            label = in_name.get(token.i)
            if label is not None and _written_like_name(token, cased):
                self.names[key][form][label] += 1
            place = in_place.get(token.i)
            if place is not None and _written_like_name(token, cased):
                self.stats[TAGGED_PLACE][form].add(key)
                self.place_labels[form][place] += 1

    @classmethod
    def from_docs(
        cls, docs: Iterable[Union[Doc, Tuple[Doc, str]]], **settings
    ) -> "CorpusEvidence":
        """Evidence from Docs (patient: `doc._.patient_id`) or (Doc, patient) pairs."""
        evidence = cls(**settings)
        for item in docs:
            doc, patient = item if isinstance(item, tuple) else (item, None)
            evidence.add(doc, patient)
        return evidence

    # --- the decision rule --------------------------------------------------
    def count(self, statistic: str, form: Union[str, int]) -> int:
        """Distinct patients in a statistic for a word form (text or hash)."""
        key = hash_string(form.lower()) if isinstance(form, str) else form
        found = self.stats[statistic].get(key)
        return len(found) if found else 0

    def mostly_tagged(self, form: int) -> bool:
        """Whether the pipeline tagged at least half of the form's occurrences."""
        return 2 * self.votes[TAGGED][form] >= self.votes[OCCURRENCES][form]

    def is_site_vocabulary(self, form: Union[str, int]) -> bool:
        """Never more often after a title than not, and either written in lower
        case in cased notes of >= min_patients patients (the writers treat it
        as a common word), or used in notes of >= min_patients patients and
        tagged by the pipeline in fewer than half of its occurrences (the
        pipeline's own majority, over the site, says it is not PHI)."""
        key = hash_string(form.lower()) if isinstance(form, str) else form
        common = self.count(COMMON, key)
        titled = self.count(TITLED_DOCTOR, key) + self.count(TITLED_OTHER, key)
        if common >= self.min_patients and common > titled:
            return True
        return (
            self.count(USED, key) >= self.min_patients
            and not titled
            and not self.mostly_tagged(key)
        )

    def clinician_label(self, form: int) -> Optional[str]:
        """DOCTOR for a form seen after a clinician's title ("Dr.") at this
        site, more often than not, and not site vocabulary: clinicians are the
        names shared across patients. The other titles ("Mr.", "Chief",
        "Sgt.") name patients and relatives, and heads of common phrases
        ("Chief Complaint"): they are not shared."""
        doctor, other = self.count(TITLED_DOCTOR, form), self.count(TITLED_OTHER, form)
        if not doctor or doctor < other or self.is_site_vocabulary(form):
            return None
        return labels.DOCTOR

    def site_place_label(self, form: int) -> Optional[str]:
        """The place label (HOSPITAL, DEPARTMENT, CITY, ...) of a form the
        pipeline tagged, written like a name, inside a place or institution in
        the notes of at least `min_patients` patients, in at least half of all
        its occurrences, and that is not site vocabulary: a site's hospitals,
        wards and towns are names its notes share across patients, like its
        clinicians. The label it was tagged with most often. (`label_to_add`
        asks this only of words no English or clinical list knows, or that a
        place list knows.)"""
        if self.count(TAGGED_PLACE, form) < self.min_patients:
            return None
        if not self.mostly_tagged(form) or self.is_site_vocabulary(form):
            return None
        found = self.place_labels[form]  # counted with TAGGED_PLACE, so never empty here
        return min(found, key=lambda label: (-found[label], label))

    def patient_name_label(self, form: int, patient: str) -> Optional[str]:
        """The label of a form the pipeline tagged as a name in this patient's
        notes, when no other patient's notes use it; else None."""
        key = _patient_hash(patient)
        found = self.names.get(key, {}).get(form)
        if not found or self.stats[USED].get(form, set()) != {key}:
            return None
        # Used by this patient alone: the corpus counts are this patient's.
        if self.is_site_vocabulary(form) or not self.mostly_tagged(form):
            return None
        return min(found, key=lambda label: (-found[label], label))

    def should_drop(self, ent: Span, cased: bool) -> bool:
        if labels.category_of(ent.label_) not in DROPPABLE_CATEGORIES:
            return False
        words = [token for token in ent if not (token.is_punct or token.is_space)]
        if not words or any(not _is_word(token) for token in words):
            return False  # digits, one-letter initials: not for this rule
        if any(title_before(token, cased) is not None for token in words):
            return False  # "Dr. Foley", or a title inside the span
        if cased and sum(token.is_title or token.is_upper for token in words) > 1:
            return False  # a run of capitalised words in cased text is a proper name
        return all(self.is_site_vocabulary(token.lower) for token in words)

    def label_to_add(self, token: Token, patient: str, cased: bool) -> Optional[str]:
        if not _is_word(token) or not _written_like_name(token, cased):
            return None
        if self.is_site_vocabulary(token.lower):
            return None
        label = self.patient_name_label(token.lower, patient)
        if label is None and self.share_titled_names and _may_be_shared_name(token, cased):
            label = self.clinician_label(token.lower)
        if label is None and self.share_site_places and _may_be_site_place(token):
            label = self.site_place_label(token.lower)
        return label

    # --- second pass --------------------------------------------------------
    def apply(self, doc: Doc, patient: Optional[str] = None) -> Doc:
        """Drop spurious entities and add missed mentions of identifying words
        in `doc.ents`; what changed goes to doc.spans[DROPPED_KEY] / [ADDED_KEY]."""
        patient = _patient_of(doc, patient)
        cased = note_is_cased(doc)
        kept: List[Span] = []
        dropped: List[Span] = []
        for ent in doc.ents:
            (dropped if self.should_drop(ent, cased) else kept).append(ent)
        covered = {token.i for ent in kept for token in ent}
        added: List[Span] = []
        for token in doc:
            if token.i in covered:
                continue
            label = self.label_to_add(token, patient, cased)
            if label is None:
                continue
            previous = added[-1] if added else None
            if (
                previous is not None
                and previous.end == token.i
                and previous.label_ == label
            ):
                added[-1] = Span(doc, previous.start, token.i + 1, label=label)
            else:
                added.append(Span(doc, token.i, token.i + 1, label=label))
        doc.ents = sorted(filter_spans(kept + added), key=lambda span: span.start)
        doc.spans[DROPPED_KEY] = SpanGroup(doc, name=DROPPED_KEY, spans=dropped)
        doc.spans[ADDED_KEY] = SpanGroup(doc, name=ADDED_KEY, spans=added)
        return doc

    __call__ = apply

    # --- serialization (hashes and counts only) -----------------------------
    def to_dict(self) -> dict:
        return {
            "version": FORMAT_VERSION,
            "min_patients": self.min_patients,
            "share_titled_names": self.share_titled_names,
            "share_site_places": self.share_site_places,
            "notes": self.notes,
            "patients": sorted(self.patients),
            "stats": {
                name: {form: sorted(found) for form, found in sorted(table.items())}
                for name, table in self.stats.items()
            },
            "votes": {
                name: {form: count for form, count in sorted(table.items())}
                for name, table in self.votes.items()
            },
            "names": {
                patient: {form: dict(sorted(found.items())) for form, found in sorted(forms.items())}
                for patient, forms in sorted(self.names.items())
            },
            "place_labels": {
                form: dict(sorted(found.items())) for form, found in sorted(self.place_labels.items())
            },
        }

    @classmethod
    def from_dict(cls, data: dict) -> "CorpusEvidence":
        if data.get("version") not in READABLE_VERSIONS:
            raise ValueError(
                f"corpus evidence format {data.get('version')!r} is not one of "
                f"{', '.join(map(str, READABLE_VERSIONS))}"
            )
        evidence = cls(
            data["min_patients"], data["share_titled_names"], data.get("share_site_places", False)
        )
        evidence.notes = data["notes"]
        evidence.patients = set(data["patients"])
        for name, table in data["stats"].items():
            for form, found in table.items():
                evidence.stats[name][int(form)] = set(found)
        for name, table in data["votes"].items():
            evidence.votes[name].update({int(form): count for form, count in table.items()})
        for patient, forms in data["names"].items():
            for form, found in forms.items():
                evidence.names[int(patient)][int(form)] = Counter(found)
        for form, found in data.get("place_labels", {}).items():
            evidence.place_labels[int(form)] = Counter(found)
        return evidence

    def to_bytes(self) -> bytes:
        return srsly.msgpack_dumps(self.to_dict())

    def from_bytes(self, data: bytes) -> "CorpusEvidence":
        loaded = self.from_dict(srsly.msgpack_loads(data))
        self.__dict__.update(loaded.__dict__)
        return self

    def to_disk(self, path: Union[str, Path]) -> None:
        ensure_path(path).write_bytes(self.to_bytes())

    def from_disk(self, path: Union[str, Path]) -> "CorpusEvidence":
        path = ensure_path(path)
        try:
            return self.from_bytes(path.read_bytes())
        except (ValueError, KeyError, TypeError) as err:
            raise ValueError(f"{path}: not a corpus evidence file ({type(err).__name__})") from None

    def summary(self) -> str:
        """Counts only, safe to print."""
        vocabulary = sum(1 for form in self.stats[COMMON] if self.is_site_vocabulary(form))
        places = sum(1 for form in self.stats[TAGGED_PLACE] if self.site_place_label(form))
        return (
            f"corpus evidence: {self.notes} notes of {len(self.patients)} patients, "
            f"{vocabulary} site-vocabulary word forms, {places} site place word forms"
        )


def _batch_notes(
    input_path: Path, text_field: str, patient_field: str, max_length: int
) -> Iterator[Tuple[str, str]]:
    """(text, patient key) of every note the batch runner will release, with
    the keys it uses; a note over max_length comes in pieces (the statistics
    are per patient, so pieces count as the note). Files the runner cannot
    read are left to it to report."""
    from .batch import patient_key
    from ..corpus.listing import input_files
    from ..corpus.note_files import read_job
    from ..corpus.note_input import SUFFIXES
    from .split import split_points

    input_path = Path(input_path)
    base = input_path.parent if input_path.is_file() else input_path
    for path in input_files(input_path):
        if path.suffix.lower() not in SUFFIXES:
            continue
        relative = path.relative_to(base)
        try:
            job = read_job(path, relative, text_field, patient_field)
        except Exception:  # noqa: BLE001 - the second pass reports it by name
            continue
        for note in job.notes:
            points = split_points(note.text, max_length)
            if points is None:
                continue  # reported by the second pass
            bounds = [0, *points, len(note.text)]
            for start, end in zip(bounds, bounds[1:]):
                yield note.text[start:end], patient_key(note, relative)


def learn_from_inputs(
    nlp: Language,
    input_path: Union[str, Path],
    *,
    text_field: str,
    patient_field: str,
    n_process: int = 1,
    batch_size: int = 32,
    **settings,
) -> CorpusEvidence:
    """The first pass of `spacy-deid deidentify --corpus-aware`: the pipeline
    over every note under `input_path` (outputs already written included, so
    a resumed run decides alike), counted into a CorpusEvidence whose `apply`
    the batch runner calls on each Doc before release."""
    if not Path(input_path).exists():
        raise FileNotFoundError(f"input path does not exist: {input_path}")
    evidence = CorpusEvidence(**settings)
    notes = _batch_notes(Path(input_path), text_field, patient_field, nlp.max_length)
    # Batched as the second pass is (memory bounded by words, small workloads
    # spread over the workers).
    try:
        for doc, patient in pipe_bounded(nlp, notes, n_process=n_process, batch_size=batch_size):
            evidence.add(doc, patient)
    except WorkerDiedError as err:  # its message names no note: a message, not a traceback
        from .batch import PipelineError

        raise PipelineError(
            f"the first pass of --corpus-aware stopped (WorkerDiedError: {err}); nothing "
            "was released, rerun"
        ) from None
    return evidence


def _patient_of(doc: Doc, patient: Optional[str]) -> str:
    """The patient key: given, else doc._.patient_id, else the note alone."""
    if patient is not None:
        return str(patient)
    install_extensions()
    if doc._.patient_id:
        return str(doc._.patient_id)
    if doc._.note_id:
        return f"note:{doc._.note_id}"
    # No ids at all: the note is its own patient (its hash is its key).
    return f"doc:{hash_string(doc.text)}"
