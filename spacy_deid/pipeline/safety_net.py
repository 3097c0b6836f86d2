"""`deid_safety_net`: possible PHI that no other component marked (Philter's idea).

Runs after the reconciler. Tokens outside `doc.ents` become candidate spans
in `doc.spans["phi_safety_net"]` when they

- look like a name in their context: a capitalised word right after a title
  ("Dr.", "Mrs."), after a relation word ("her son", "sister,"), inside a
  name-like attribute value ("Name:", "Referred by:", "Emergency contact:"),
  on a signature line ("Electronically signed by ..."), or, weakest, a
  capitalised word in running text (not at a sentence or line start) that is
  neither common English (wordfreq's list the package ships) nor clinical
  vocabulary (`data/clinical_vocabulary.txt`);
- or form an institution's name (capitalised words around a word of the
  institution lexicon: "Ridgefield VA Medical Center"), or an occupation (words
  the `deid_lexicon` component marks as job titles, unless clinical);
- or look like an identifier: a run of letters and digits (or 5+ digits)
  within a few tokens of an ID cue ("MRN", "ID", "#", "account") or inside an
  ID attribute value.

The span's `id_` says which cue fired ("safety_net:title"). The component
only proposes: `deid_confidence` scores the spans and uses them at the
`recall` operating point (spacy_deid/pipeline/confidence.py). The word lists
arrive through `initialize` and are saved by `to_disk`. See docs/recall.md.
"""

from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union

import srsly
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc, Span, SpanGroup, Token
from spacy.util import ensure_path, registry

from .. import labels
from ..data_files import DATA_DIR
from ..extensions import SECTIONS_KEY, install_extensions
from ..surrogates import lists
from .lexicon import INSTITUTION, JOB

DEFAULT_VOCABULARY_PATH = DATA_DIR / "clinical_vocabulary.txt"
DEFAULT_SPANS_KEY = "phi_safety_net"
SOURCE = "safety_net"

# Cues, as lower-cased token texts. Why each: these are the contexts in which
# a capitalised word is a person's name far more often than not in notes.
TITLES = frozenset({"dr", "doctor", "mr", "mrs", "ms", "miss", "mx", "prof", "professor"})
DOCTOR_TITLES = frozenset({"dr", "doctor", "prof", "professor"})
RELATIONS = frozenset(
    {
        "son",
        "daughter",
        "wife",
        "husband",
        "spouse",
        "partner",
        "mother",
        "father",
        "mom",
        "dad",
        "brother",
        "sister",
        "sibling",
        "boyfriend",
        "girlfriend",
        "fiance",
        "fiancee",
        "aunt",
        "uncle",
        "grandmother",
        "grandfather",
        "grandma",
        "grandpa",
        "cousin",
        "niece",
        "nephew",
        "friend",
        "roommate",
        "stepmother",
        "stepfather",
        "stepson",
        "stepdaughter",
        "guardian",
        "caseworker",
        "sponsor",
        "child",
        "kids",
        "children",
    }
)
# Words allowed between a relation word and the name ("her son, named Tom").
RELATION_GAP = frozenset({",", "named", "is", "was", "called", "(", ":"})
# Normalised attribute names (data/attribute_names.jsonl) whose values are names.
NAME_ATTRIBUTES = frozenset({"name", "referral_source", "pcp", "clinician", "emergency_contact"})
DOCTOR_ATTRIBUTES = frozenset({"referral_source", "pcp", "clinician"})
# First word of a signature line.
SIGNATURE_STARTS = frozenset(
    {
        "signed",
        "electronically",
        "attending",
        "dictated",
        "author",
        "cosigned",
        "co-signed",
        "reviewed",
        "provider",
        "clinician",
        "resident",
        "/s/",
        "transcribed",
    }
)
ID_CUES = frozenset(
    {
        "mrn",
        "id",
        "#",
        "number",
        "no",
        "acct",
        "account",
        "record",
        "ssn",
        "license",
        "lic",
        "dea",
        "npi",
        "member",
        "policy",
        "badge",
        "chart",
        "case",
        "identifier",
        "serial",
        "plate",
        "vin",
        "device",
    }
)
ID_ATTRIBUTES = frozenset(
    {"mrn", "id_number", "account", "license", "ssn", "health_plan", "username"}
)
# Sentence and line ends: a capitalised word after these is not evidence of a name.
SENTENCE_ENDS = frozenset({".", "!", "?", ":", ";", "-", "*", "•", ")", "]"})

# Credentials after a comma mark a signature line ("Ann Lee-Ray, MD"); the name
# is what comes before the first comma.
CREDENTIALS = frozenset(
    {
        "md",
        "do",
        "np",
        "pa",
        "pa-c",
        "phd",
        "psyd",
        "lcsw",
        "lmhc",
        "lpc",
        "lmft",
        "rn",
        "aprn",
        "pmhnp",
        "pmhnp-bc",
        "dnp",
        "msw",
        "mft",
        "fnp",
        "crnp",
        "lcsw-c",
        "lpcc",
        "mph",
        "licsw",
        "lmsw",
        "ladc",
        "cadc",
        "bcba",
    }
)
# Words that join the parts of an institution's name ("Institute of Technology").
INSTITUTION_JOINERS = frozenset({"of", "and", "&", "de", "for", "the", "la", "del"})
# An institution's name has a rare word ("Ridgefield") or one of these heads;
# without either, a capitalised run is a heading ("Psychiatric Evaluation").
INSTITUTION_HEADS = frozenset(
    {
        "hospital",
        "center",
        "centre",
        "clinic",
        "program",
        "programme",
        "institute",
        "school",
        "college",
        "university",
        "academy",
        "team",
        "facility",
        "manor",
        "infirmary",
        "sanatorium",
        "church",
        "parish",
        "foundation",
        "associates",
        "partners",
    }
)
# Words just before an occupation ("is a", "works as", "retired", "(44, ").
OCCUPATION_CUES = frozenset(
    {
        "a",
        "an",
        "as",
        "retired",
        "former",
        "works",
        "worked",
        "employed",
        "job",
        "career",
        "profession",
        "occupation",
        "unemployed",
        "part-time",
        "full-time",
        # "47 yo married attending anesthesiologist"
        "yo",
        "y/o",
        "year-old",
        "single",
        "married",
        "divorced",
        "widowed",
        "separated",
    }
)
# Span groups whose tokens are never proposed (section headers are not PHI).

# The cue words themselves are never part of a name.
CUE_WORDS = TITLES | RELATIONS | SIGNATURE_STARTS | ID_CUES | CREDENTIALS


@registry.misc("spacy-deid.ClinicalVocabulary.v1")
def load_clinical_vocabulary(path: Optional[str] = None) -> List[str]:
    """Lower-cased clinical words that are never names (the packaged list by default)."""
    source = Path(path) if path else DEFAULT_VOCABULARY_PATH
    words: List[str] = []
    for line in source.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            words.extend(part.lower() for part in line.split())
    return sorted(set(words))


def load_common_words() -> Dict[str, int]:
    """word -> Zipf bucket of common English words (wordfreq, via the shipped list)."""
    return {word.lower(): int(zipf) for word, zipf in lists.pairs("common_words.tsv")}


@Language.factory(
    "deid_safety_net",
    requires=["doc.ents"],
    assigns=["doc.spans"],
    default_config={
        "spans_key": DEFAULT_SPANS_KEY,
        "common_zipf": 3,
        "stop_zipf": 5,
        "max_name_tokens": 3,
        "id_window": 4,
    },
    default_score_weights={},
)
def make_safety_net(
    nlp: Language,
    name: str,
    spans_key: str,
    common_zipf: int,
    stop_zipf: int,
    max_name_tokens: int,
    id_window: int,
) -> "SafetyNet":
    """Create a `deid_safety_net` (word lists come through `initialize`)."""
    return SafetyNet(
        nlp.vocab,
        name,
        spans_key=spans_key,
        common_zipf=common_zipf,
        stop_zipf=stop_zipf,
        max_name_tokens=max_name_tokens,
        id_window=id_window,
    )


class SafetyNet(Pipe):
    """Propose low-confidence PHI spans for tokens no other component marked.

    spans_key: the span group written.
    common_zipf: a word this common (wordfreq Zipf bucket) in English is not
        flagged by the weak "capitalised in running text" cue.
    stop_zipf: a word this common is never flagged ("The", "And").
    max_name_tokens: longest name run after a title or relation word.
    id_window: how many tokens before an identifier-like word an ID cue may be.
    """

    def __init__(
        self,
        vocab,
        name: str = "deid_safety_net",
        *,
        spans_key: str = DEFAULT_SPANS_KEY,
        common_zipf: int = 3,
        stop_zipf: int = 5,
        max_name_tokens: int = 3,
        id_window: int = 4,
    ) -> None:
        install_extensions()
        self.vocab = vocab
        self.name = name
        self.spans_key = spans_key
        self.common_zipf = common_zipf
        self.stop_zipf = stop_zipf
        self.max_name_tokens = max_name_tokens
        self.id_window = id_window
        # Until `initialize` or `from_disk`, the packaged lists.
        self._set_data(load_clinical_vocabulary(), load_common_words())

    def _set_data(self, clinical: Iterable[str], common: Dict[str, int]) -> None:
        self.clinical: Set[str] = {str(w).lower() for w in clinical}
        self.common: Dict[str, int] = {str(w).lower(): int(z) for w, z in common.items()}

    # --- what counts as a name ------------------------------------------------

    def _zipf(self, token: Token) -> int:
        return self.common.get(token.lower_, 0)

    def _nameish(self, token: Token, *, strong: bool) -> bool:
        """A capitalised word that may be (part of) a name."""
        text = token.text
        if not (token.is_alpha and text[0].isupper() and len(text) >= 2):
            return False
        if token.lower_ in self.clinical or token.lower_ in CUE_WORDS:
            return False
        if strong:
            return self._zipf(token) < self.stop_zipf
        # Weak cue: "Tamsin", not "QTc" or "NSAIDs" (inner capitals are abbreviations).
        return text[1:].islower() and self._zipf(token) < self.common_zipf

    @staticmethod
    def _line_start(doc: Doc, i: int) -> int:
        while i > 0 and "\n" not in doc[i - 1].text_with_ws and not doc[i - 1].is_space:
            i -= 1
        return i

    def _sentence_initial(self, doc: Doc, i: int) -> bool:
        j = i - 1
        while j >= 0 and doc[j].is_space:
            j -= 1
        if j < 0 or "\n" in doc[j].whitespace_ or doc[j].is_space and "\n" in doc[j].text:
            return True
        return doc[j].text in SENTENCE_ENDS or "\n" in doc[i - 1].text_with_ws

    def _cue_before(self, doc: Doc, i: int) -> Optional[str]:
        """The strong cue right before token i, if any."""
        j = i - 1
        if j >= 0 and doc[j].text == ".":
            j -= 1
        title = doc[j].lower_.rstrip(".") if j >= 0 else ""
        if title in TITLES:
            return "doctor_title" if title in DOCTOR_TITLES else "title"
        j = i - 1
        gap = 0
        while j >= 0 and doc[j].lower_ in RELATION_GAP and gap < 2:
            j -= 1
            gap += 1
        if j >= 0 and doc[j].lower_ in RELATIONS:
            return "relation"
        return None

    # --- running ----------------------------------------------------------------

    def __call__(self, doc: Doc) -> Doc:
        covered = [False] * len(doc)
        for ent in doc.ents:
            for i in range(ent.start, ent.end):
                covered[i] = True
        headers = [False] * len(doc)
        for span in doc.spans.get(SECTIONS_KEY, []):
            for i in range(span.start, span.end):
                headers[i] = True
        proposals = self._institutions(doc, covered, headers)
        for start, end, _, _ in proposals:
            for i in range(start, end):
                covered[i] = True
        proposals += self._occupations(doc, covered)
        blocked = [c or h for c, h in zip(covered, headers)]
        proposals += self._names(doc, blocked) + self._identifiers(doc, covered)
        proposals.sort(key=lambda p: (p[0], p[1]))
        doc.spans[self.spans_key] = SpanGroup(
            doc,
            name=self.spans_key,
            spans=[
                Span(doc, s, e, label=label, span_id=f"{SOURCE}:{cue}")
                for s, e, label, cue in proposals
            ],
        )
        return doc

    def _names(self, doc: Doc, covered: List[bool]) -> List[Tuple[int, int, str, str]]:
        found: List[Tuple[int, int, str, str]] = []
        signature_line = -1
        i = 0
        while i < len(doc):
            token = doc[i]
            if covered[i]:
                i += 1
                continue
            line_start = self._line_start(doc, i)
            if line_start != signature_line:
                first = next(
                    (t for t in doc[line_start : i + 1] if not t.is_space and not t.is_punct), None
                )
                if first is not None and first.lower_ in SIGNATURE_STARTS:
                    signature_line = line_start
            # "Ann Lee-Ray, MD": only when the name opens its line.
            name_before_credential = all(
                t.is_space or self._name_part(t) for t in doc[line_start:i]
            ) and self._before_credential(doc, i)
            attribute = token._.attribute_name
            before = self._cue_before(doc, i)
            if before is not None and self._nameish(token, strong=True):
                cue, label = (
                    ("title", labels.DOCTOR)
                    if before == "doctor_title"
                    else (before, labels.PATIENT)
                )
            elif attribute in NAME_ATTRIBUTES and self._nameish(token, strong=True):
                cue, label = "attribute", (
                    labels.DOCTOR if attribute in DOCTOR_ATTRIBUTES else labels.PATIENT
                )
            elif (signature_line == line_start or name_before_credential) and self._nameish(
                token, strong=True
            ):
                cue, label = "signature", labels.DOCTOR
            elif self._nameish(token, strong=False) and not self._sentence_initial(doc, i):
                cue, label = "capitalised", labels.PATIENT
            else:
                i += 1
                continue
            end = i + 1
            # The rest of the name: more capitalised words (and initials' dots).
            while (
                end < len(doc)
                and sum(t.is_alpha for t in doc[i:end]) < self.max_name_tokens
                and not covered[end]
                and "\n" not in doc[end - 1].whitespace_
                and (
                    self._nameish(doc[end], strong=True)
                    or (doc[end].text == "." and len(doc[end - 1]) == 1)
                    # hyphenated surnames: "Brennan-Sy"
                    or (
                        doc[end].text == "-"
                        and not doc[end - 1].whitespace_
                        and end + 1 < len(doc)
                        and not doc[end].whitespace_
                        and self._nameish(doc[end + 1], strong=True)
                    )
                )
            ):
                end += 1
            while doc[end - 1].text in (".", "-"):
                end -= 1
            found.append((i, end, label, cue))
            i = end
        return found

    def _name_part(self, token: Token) -> bool:
        return (
            token.text in ("-", ".")
            or self._nameish(token, strong=True)
            or (token.is_alpha and len(token) == 1)
        )

    def _before_credential(self, doc: Doc, i: int) -> bool:
        """Token i is in a name that runs up to ", MD" on its line (a signature)."""
        j = i
        while j < len(doc) and doc[j].text != ",":
            if not self._name_part(doc[j]) or "\n" in doc[j].whitespace_:
                return False
            j += 1
        return (
            j + 1 < len(doc) and doc[j].text == "," and doc[j + 1].lower_.rstrip(".") in CREDENTIALS
        )

    @staticmethod
    def _capitalised(token: Token) -> bool:
        return token.is_alpha and token.text[0].isupper()

    def _institutions(
        self, doc: Doc, covered: List[bool], headers: List[bool]
    ) -> List[Tuple[int, int, str, str]]:
        """Runs of capitalised words with an institution word ("Ridgefield VA Medical
        Center", "Early Psychosis Program"), joined by "of", "and", "&"; one line."""
        found: List[Tuple[int, int, str, str]] = []
        i = 0
        while i < len(doc):
            if covered[i] or headers[i] or not self._capitalised(doc[i]):
                i += 1
                continue
            end = i + 1
            while (
                end < len(doc)
                and not covered[end]
                and not headers[end]
                and "\n" not in doc[end - 1].whitespace_
            ):
                nxt = doc[end]
                if self._capitalised(nxt):
                    end += 1
                elif (
                    nxt.lower_ in INSTITUTION_JOINERS
                    and end + 1 < len(doc)
                    and not covered[end + 1]
                    and self._capitalised(doc[end + 1])
                    and "\n" not in nxt.whitespace_
                ):
                    end += 2
                else:
                    break
            # A capitalised common word opening a sentence is not part of the name.
            while (
                end - i > 1
                and self._sentence_initial(doc, i)
                and self._zipf(doc[i]) >= self.common_zipf
                and INSTITUTION not in (doc[i]._.lexicon or "")
            ):
                i += 1
            run = doc[i:end]
            kinds = [t._.lexicon or "" for t in run]
            has_head = any(t.lower_ in INSTITUTION_HEADS for t in run)
            # In capitals, a rare word is no evidence (whole paragraphs are shouted).
            named = has_head or (
                not run.text.isupper()
                and any(
                    self._zipf(t) < self.common_zipf and t.lower_ not in self.clinical for t in run
                )
            )
            if len(run) >= 2 and named and any(INSTITUTION in k.split("|") for k in kinds):
                found.append((i, end, labels.HOSPITAL, "institution"))
            i = end
        return found

    def _occupations(self, doc: Doc, covered: List[bool]) -> List[Tuple[int, int, str, str]]:
        """Runs of words the lexicon knows as (parts of) job titles, unless all clinical
        ("therapist", "psychiatrist": the care team, not the patient's job)."""
        found: List[Tuple[int, int, str, str]] = []
        i = 0
        while i < len(doc):
            if covered[i] or JOB not in (doc[i]._.lexicon or "").split("|"):
                i += 1
                continue
            end = i + 1
            while (
                end < len(doc) and not covered[end] and JOB in (doc[end]._.lexicon or "").split("|")
            ):
                end += 1
            run = doc[i:end]
            before = doc[max(0, i - 3) : i]
            cued = any(t.lower_ in OCCUPATION_CUES for t in before) or (
                len(before) >= 2 and before[-1].text == "," and before[-2].like_num
            )
            if cued and not all(
                t.lower_ in self.clinical
                or t.lower_ in CUE_WORDS
                or self._zipf(t) >= self.stop_zipf
                or not t.is_alpha
                for t in run
            ):
                found.append((i, end, labels.PROFESSION, "occupation"))
            i = end
        return found

    def _identifiers(self, doc: Doc, covered: List[bool]) -> List[Tuple[int, int, str, str]]:
        found: List[Tuple[int, int, str, str]] = []
        i = 0
        while i < len(doc):
            # A whitespace-free run of tokens: the splitter may have cut "AB123" in two.
            end = i + 1
            while (
                end < len(doc)
                and not doc[end - 1].whitespace_
                and (doc[end].is_alpha or doc[end].is_digit or doc[end].text in "-/")
            ):
                end += 1
            while end > i + 1 and not (doc[end - 1].is_alpha or doc[end - 1].is_digit):
                end -= 1
            run = doc[i:end]
            if any(covered[k] for k in range(i, end)) or not self._idlike(run.text):
                i = end
                continue
            attribute = doc[i]._.attribute_name
            window = doc[max(0, i - self.id_window) : i]
            if attribute in ID_ATTRIBUTES or any(t.lower_ in ID_CUES for t in window):
                found.append((i, end, labels.IDNUM, "id_cue"))
            i = end
        return found

    def _idlike(self, text: str) -> bool:
        digits = sum(c.isdigit() for c in text)
        letters = sum(c.isalpha() for c in text)
        if text.lower() in self.clinical or digits == 0:
            return False
        return (letters > 0 and digits + letters >= 4) or digits >= 5

    # --- initialize and serialisation ---------------------------------------------

    def initialize(
        self,
        get_examples=None,
        *,
        nlp: Optional[Language] = None,
        clinical_vocabulary: Optional[Sequence[str]] = None,
        common_words: Optional[Dict[str, int]] = None,
    ) -> None:
        """Replace the word lists (None: the packaged ones)."""
        self._set_data(
            load_clinical_vocabulary() if clinical_vocabulary is None else clinical_vocabulary,
            load_common_words() if common_words is None else common_words,
        )

    def _data(self) -> Dict[str, Any]:
        return {"clinical": sorted(self.clinical), "common": dict(sorted(self.common.items()))}

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        return srsly.msgpack_dumps(self._data())

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()) -> "SafetyNet":
        data = srsly.msgpack_loads(bytes_data)
        self._set_data(data["clinical"], data["common"])
        return self

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> None:
        path = ensure_path(path)
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_json(path / "clinical_vocabulary.json", sorted(self.clinical))
        srsly.write_json(path / "common_words.json", dict(sorted(self.common.items())))

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> "SafetyNet":
        path = ensure_path(path)
        for name in ("clinical_vocabulary.json", "common_words.json"):
            if not (path / name).exists():
                raise ValueError(f"{self.name}: {path / name} is missing")
        self._set_data(
            srsly.read_json(path / "clinical_vocabulary.json"),
            srsly.read_json(path / "common_words.json"),
        )
        return self
