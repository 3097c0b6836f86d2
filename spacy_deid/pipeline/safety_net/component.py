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
- or form an institution's name: a capitalised run on one line with a head
  word ("Family Court", "Mood Disorders Program", "US Marines") or with an
  institution word and a rare word ("Quarrytown VA Medical Center"); the
  capitalised words around an institution entity the pipeline found
  ("Quorvale County Family Court" around "Quorvale"; cue `extend`);
- or an occupation: a run of job-title words (`deid_lexicon` JOB tags), or a
  job head noun ("developer", "upholsterer": the last word of many titles in the
  shipped job-title lists) with its modifiers, after "is a", "works as",
  "retired", "(44, " and the like, unless clinical ("therapist");
- or initials of a name the pipeline found in the same note ("KMR" for a
  patient written "Kara Moss-Rennick" elsewhere; the post-processing of
  trusted mentions in the i2b2 hybrids), or after "initials:";
- or a room or bed ("bed 12-3", "Ward 4C"), or a country name;
- or look like an identifier: a run of letters and digits (or 5+ digits)
  within a few tokens of an ID cue ("MRN", "ID", "#", "account") or inside an
  ID attribute value.

The span's `id_` says which cue fired ("safety_net:title"). The component
only proposes: `deid_confidence` scores the spans and uses them at the
`recall` operating point (spacy_deid/pipeline/confidence/component.py). The word lists
arrive through `initialize` and are saved by `to_disk`. See docs/recall.md.
"""

import re
from collections import Counter
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union

import srsly
from spacy.lang.en.stop_words import STOP_WORDS
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc, Span, SpanGroup, Token
from spacy.util import ensure_path, registry

from ... import labels
from ...data_files import DATA_DIR
from ...extensions import SECTIONS_KEY, install_extensions, token_feature_values
from ...surrogates import lists
from ..lexicon import FIRST, INSTITUTION, JOB, LAST

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
        "evaluator",
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
SENTENCE_ENDS = frozenset({".", "!", "?", ":", ";", "-", "*", "•", ")", "]", "|"})

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
# Head words of institution names, by the label a name ending in them gets. A
# capitalised run with a head on one line is a name ("Quorvale County Family
# Court", "ANXIETY DISORDERS TEAM", "Department of Psychiatry"); without a head, it
# needs an institution word and a rare word ("Quarrytown VA Medical"), else it
# is a heading ("Psychiatric Evaluation").
INSTITUTION_HEADS: Dict[str, str] = {
    **dict.fromkeys(
        ("hospital", "center", "centre", "infirmary", "sanatorium", "manor", "facility"),
        labels.HOSPITAL,
    ),
    **dict.fromkeys(
        (
            "clinic",
            "program",
            "programme",
            "team",
            "service",
            "services",
            "department",
            "dept",
            "division",
            "unit",
            "ward",
            "institute",
        ),
        labels.DEPARTMENT,
    ),
    **dict.fromkeys(
        (
            "school",
            "college",
            "university",
            "academy",
            "church",
            "parish",
            "temple",
            "mosque",
            "synagogue",
            "ministry",
            "fellowship",
            "foundation",
            "associates",
            "partners",
            "court",
            "museum",
            "library",
            "company",
            "corporation",
            "inc",
            "llc",
            "bank",
            "union",
            "association",
            "society",
            "council",
            "agency",
            "army",
            "navy",
            "marines",
            "corps",
            "guard",
            "force",
        ),
        labels.ORGANIZATION,
    ),
    **dict.fromkeys(("park", "plaza", "quad", "mall", "square"), labels.LOCATION_OTHER),
}
# Heads that name an institution on their own ("joined the Army").
SINGLE_HEADS = frozenset({"army", "navy", "marines"})
# Labels of entities whose capitalised neighbours on the line are part of the name.
INSTITUTION_LABELS = frozenset(
    {labels.HOSPITAL, labels.DEPARTMENT, labels.ORGANIZATION, labels.LOCATION_OTHER}
)
# First words of attribute names with a head word ("Date of Service", "Level of care").
ATTRIBUTE_STARTS = frozenset({"date", "time", "type", "level", "reason", "course", "site"})
# Entities an institution's name may contain: places and institutions.
RUN_THROUGH_LABELS = INSTITUTION_LABELS | {labels.CITY, labels.STATE, labels.COUNTRY, labels.STREET}
# Words after a capitalised word that make it an eponym, not a person
# ("Cushing's syndrome", "Lewy body dementia", "Babinski sign").
EPONYM_NOUNS = frozenset(
    {
        "syndrome",
        "disease",
        "disorder",
        "palsy",
        "dementia",
        "body",
        "bodies",
        "phenomenon",
        "lymphoma",
        "encephalopathy",
        "thyroiditis",
        "sign",
        "test",
        "scale",
        "criteria",
        "triad",
        "reflex",
        "maneuver",
    }
)
# First words of a signature line that are verbs: the line is a signature only
# with "by" or ":" right after ("Reviewed by", "Signed:"), not "Reviewed risks".
SIGNATURE_VERBS = frozenset(
    {"signed", "electronically", "dictated", "cosigned", "co-signed", "reviewed", "transcribed"}
)
# Words just before an occupation ("is a", "works as", "retired", "(44, ").
OCCUPATION_CUES = frozenset(
    {
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
        "freelance",
        "self-employed",
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
# "a"/"an" is an occupation cue only after one of these ("she is a teacher",
# "his wife, a teacher"), not after "has a lawyer", "saw a counselor".
ARTICLE_CUES = frozenset({"a", "an"})
COPULAS = frozenset(
    {
        "is",
        "was",
        "are",
        "were",
        "be",
        "been",
        "being",
        "became",
        "become",
        "becomes",
        "as",
        ",",
        "(",
        "'s",
        "works",
        "worked",
        "employed",
    }
)
# Plural subjects before "are" ("parents are welders").
PLURAL_COPULAS = frozenset({"are", "were"})
# Head nouns of the job-title lists that are no evidence of an occupation.
GENERIC_JOB_HEADS = frozenset(
    {
        "member",
        "person",
        "man",
        "woman",
        "hand",
        "lead",
        "leader",
        "helper",
        "agent",
        "professional",
        "associate",
        "partner",
        "owner",
        "staff",
        "care",
        "head",
        "friend",
        "volunteer",
        "patient",
        "parent",
        "student",
        "resident",
        "fellow",
        "intern",
        "trainee",
        "provider",
        "consultant",
        "specialist",
        "expert",
        "adult",
        "child",
        "doctor",
        "master",
        "miller",
        "closer",
        "counter",
        "computer",
        "primary",
        "plastic",
        "labor",
        "transfer",
        "senior",
        "consumer",
        "customer",
        "winter",
        "factor",
    }
)
# A job head noun names a person: the suffixes of the hybrid CRF's "profession
# suffix" feature (-ist, -ian, -man) and the other agent-noun endings.
JOB_HEAD_SUFFIXES = (
    "er",
    "or",
    "ist",
    "ian",
    "man",
    "ant",
    "yst",
    "ive",
    "ary",
    "eur",
    "ess",
    "ee",
    "ic",
    "ect",
    "ch",
    "ef",
    "ot",
    "ey",
    "ard",
)
# Rarer heads (fewer titles) must end like this and be this long ("upholsterer").
RARE_JOB_HEAD_SUFFIXES = ("er", "or", "ist", "ian")
MIN_RARE_JOB_HEAD_LENGTH = 6
# Job titles have a few modifiers ("retired furniture upholsterer").
MAX_JOB_MODIFIERS = 3
# Shortest job head noun, and how many titles it must end.
MIN_JOB_HEAD_LENGTH = 4
MIN_JOB_HEAD_TITLES = 3
# Units after a number that make it a quantity, not a room ("bed 10 hours").
QUANTITY_WORDS = frozenset(
    {"hours", "hrs", "hr", "h", "days", "minutes", "min", "mins", "times", "x", "weeks", "nights"}
)
# Shapes that are codes, not identifiers: ICD-10 codes ("F43.21", "F34.1").
NOT_AN_ID = re.compile(r"^[A-TV-Z][0-9][0-9AB](\.[0-9A-TV-Z]{1,4})?$")
# The country the notes are written in names no one ("came to the United States").
HOME_COUNTRY = frozenset({"united states", "united states of america", "america", "usa", "us"})
# Behaviours, not jobs, among the job head nouns ("former pipe smoker", "is a runner").
BEHAVIOUR_HEADS = frozenset(
    {
        "smoker",
        "drinker",
        "user",
        "abuser",
        "runner",
        "walker",
        "sleeper",
        "eater",
        "monitor",
        "survivor",
        "learner",
        "thinker",
        "believer",
        "follower",
        "lover",
        "gambler",
        "swimmer",
        "jogger",
        "talker",
        "worrier",
        "fighter",
        "hoarder",
        "dancer",
        "reader",
    }
)
QUOTES = frozenset({'"', "'", "”", "’", "“"})
# Words after which a short run of capitals is a person's initials.
INITIALS_CUES = frozenset({"initials", "initial"})
# Words before a room or bed number ("bed 12-3", "Ward 4C", "room 214").
ROOM_CUES = frozenset({"room", "rm", "bed", "ward", "pod", "suite", "bay"})
# Span groups whose tokens are never proposed (section headers are not PHI).

# The cue words themselves are never part of a name.
CUE_WORDS = TITLES | RELATIONS | SIGNATURE_STARTS | ID_CUES | CREDENTIALS
# Never part of an institution's name ("N. Crowder, PsyD and X Hospital", "Unit No").
NOT_IN_NAMES = TITLES | ID_CUES | CREDENTIALS | {"psyd", "lmft", "edd", "dds", "rph"}


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


@registry.misc("spacy-deid.JobHeadNouns.v1")
def load_job_heads() -> List[str]:
    """Head nouns of the shipped job-title lists (find-job-titles, BLS occupations):
    last words of at least MIN_JOB_HEAD_TITLES titles with an agent-noun ending,
    or of any title with a strong one ("upholsterer"); no generic or -ment words."""
    counts: Counter = Counter()
    for title in lists.words("job_titles.txt") + lists.words("professions.txt"):
        last = title.split()[-1].lower()
        if last.isalpha() and len(last) >= MIN_JOB_HEAD_LENGTH:
            counts[last] += 1
    return sorted(
        word
        for word, n in counts.items()
        if word not in GENERIC_JOB_HEADS
        and word not in BEHAVIOUR_HEADS
        and not word.endswith("ment")
        and (
            (n >= MIN_JOB_HEAD_TITLES and word.endswith(JOB_HEAD_SUFFIXES))
            or (len(word) >= MIN_RARE_JOB_HEAD_LENGTH and word.endswith(RARE_JOB_HEAD_SUFFIXES))
        )
    )


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
        self._set_data(load_clinical_vocabulary(), load_common_words(), load_job_heads())

    def _set_data(
        self, clinical: Iterable[str], common: Dict[str, int], job_heads: Iterable[str]
    ) -> None:
        self.clinical: Set[str] = {str(w).lower() for w in clinical}
        self.common: Dict[str, int] = {str(w).lower(): int(z) for w, z in common.items()}
        self.job_heads: Set[str] = {str(w).lower() for w in job_heads}

    # --- what counts as a name ------------------------------------------------

    def _zipf(self, token: Token) -> int:
        return self.common.get(token.lower_, 0)

    def _nameish(self, token: Token, *, strong: bool) -> bool:
        """A capitalised word that may be (part of) a name."""
        text = token.text
        if not (token.is_alpha and text[0].isupper() and len(text) >= 2):
            return False
        if token.lower_ in self.clinical or token.lower_ in CUE_WORDS or self._eponym(token):
            return False
        if strong:
            # In shouted text ("HE DENIES AH/VH") only a known name that is no
            # common word counts.
            if token.is_upper and len(text) > 3 and self._shouted(token.doc, token.i):
                return (
                    self._known_name(token)
                    and token.lower_ not in STOP_WORDS
                    and self._zipf(token) < self.stop_zipf
                )
            return self._zipf(token) < self.stop_zipf
        # Weak cue: "Tamsin", not "QTc" or "NSAIDs" (inner capitals are abbreviations),
        # nor a word glued to the one before ("useStimulants": a lost line break).
        doc = token.doc
        return (
            text[1:].islower()
            and self._zipf(token) < self.common_zipf
            and not self._glued(doc, token.i)
            # "Evaluator:" is an attribute name
            and not (token.i + 1 < len(doc) and doc[token.i + 1].text == ":")
        )

    @staticmethod
    def _known_name(token: Token) -> bool:
        return bool({FIRST, LAST} & set((token._.lexicon or "").split("|")))

    @staticmethod
    def _eponym(token: Token) -> bool:
        """ "Cushing" in "Cushing's syndrome", "Lewy" in "Lewy body dementia"."""
        doc, j = token.doc, token.i + 1
        while j < len(doc) and doc[j].text in ("'s", "'", "’s", "’"):
            j += 1
        return j < len(doc) and doc[j].lower_ in EPONYM_NOUNS

    @staticmethod
    def _line_starts(doc: Doc) -> List[int]:
        """The first token of each token's line (as `_line_start`, in one pass)."""
        starts = [0] * len(doc)
        start = 0
        for i in range(1, len(doc)):
            before = doc[i - 1]
            if "\n" in before.text_with_ws or before.is_space or before.text == "|":
                start = i
            starts[i] = start
        return starts

    @staticmethod
    def _line_start(doc: Doc, i: int) -> int:
        """First token of i's line; a table cell ("| Attending: ...") counts as a line."""
        while (
            i > 0
            and "\n" not in doc[i - 1].text_with_ws
            and not doc[i - 1].is_space
            and doc[i - 1].text != "|"
        ):
            i -= 1
        return i

    @staticmethod
    def _shouted(doc: Doc, i: int) -> bool:
        """Token i is in an all-capitals stretch (its neighbours are capitals too)."""
        near = [t for t in doc[max(0, i - 3) : i + 4] if t.is_alpha and len(t) > 1]
        return len(near) >= 3 and all(t.is_upper for t in near)

    def _sentence_initial(self, doc: Doc, i: int) -> bool:
        j = i - 1
        while j >= 0 and doc[j].is_space:
            j -= 1
        if j < 0 or "\n" in doc[j].whitespace_ or doc[j].is_space and "\n" in doc[j].text:
            return True
        if doc[j].text in QUOTES and j > 0 and doc[j - 1].text in SENTENCE_ENDS:
            return True  # 'he "doesn't join in." Tantrums ...'
        return doc[j].text in SENTENCE_ENDS or "\n" in doc[i - 1].text_with_ws

    def _after_sentence_end(self, doc: Doc, i: int) -> bool:
        """Token i opens a sentence after ". ", "! ", "? " (not after an initial's dot)."""
        j = i - 1
        while j >= 0 and doc[j].is_space:
            j -= 1
        return (
            j >= 1
            and doc[j].text in (".", "!", "?")
            and not (doc[j - 1].is_alpha and len(doc[j - 1]) == 1)
        ) or (j >= 0 and (doc[j].text == "|" or (doc[j].text[-1:] in "!?" and len(doc[j]) > 1)))

    @staticmethod
    def _attribute_name_at(doc: Doc, i: int) -> bool:
        """Token i opens an attribute name: "Payer:", "Unit/Bed:"."""
        j = i + 1
        # words joined by "/" or "-" without spaces ("Unit/Bed")
        while (
            j + 1 < len(doc)
            and j - i < 4
            and doc[j].text in ("/", "-")
            and not doc[j - 1].whitespace_
            and doc[j + 1].is_alpha
        ):
            j += 2
        return j < len(doc) and doc[j].text == ":"

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
            # "fatherRaised:": a lost line break, not a name after "father"
            if self._glued(doc, i):
                return None
            return "relation"
        return None

    def _signature_start(self, doc: Doc, start: int, line_starts: List[int]) -> bool:
        """The line from `start` opens with a signature word ("Signed by", "Attending:")."""
        k = start
        while k < len(doc) and line_starts[k] == start and (doc[k].is_space or doc[k].is_punct):
            k += 1
        if k >= len(doc) or line_starts[k] != start or doc[k].lower_ not in SIGNATURE_STARTS:
            return False
        if doc[k].lower_ not in SIGNATURE_VERBS:
            return True
        return any(t.lower_ in ("by", ":", "-") for t in doc[k + 1 : k + 4])

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
        proposals += self._rooms(doc, covered)
        for start, end, _, _ in proposals:
            for i in range(start, end):
                covered[i] = True
        proposals += self._occupations(doc, covered) + self._profession_modifiers(doc, covered)
        proposals += self._initials(doc, covered)
        for start, end, _, _ in proposals:
            for i in range(start, end):
                covered[i] = True
        blocked = [c or h for c, h in zip(covered, headers)]
        proposals += self._places(doc, blocked)
        for start, end, _, _ in proposals:
            for i in range(start, end):
                blocked[i] = True
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
        line_starts = self._line_starts(doc)
        signature_lines: Dict[int, bool] = {}
        attributes = token_feature_values(doc, "attribute_name")
        i = 0
        while i < len(doc):
            token = doc[i]
            if covered[i]:
                i += 1
                continue
            line_start = line_starts[i]
            if line_start not in signature_lines:
                signature_lines[line_start] = self._signature_start(doc, line_start, line_starts)
            attribute = attributes[i]
            before = self._cue_before(doc, i)
            if before is not None and self._nameish(token, strong=True):
                cue, label = (
                    ("title", labels.DOCTOR)
                    if before == "doctor_title"
                    else (before, labels.PATIENT)
                )
            elif (
                attribute in NAME_ATTRIBUTES
                and self._nameish(token, strong=True)
                # A value may run on into sentences: "Reports ..." opens one.
                and not (self._after_sentence_end(doc, i) and self._zipf(token) >= self.common_zipf)
                # or into the next attribute's name ("Payer:", "Unit/Bed:")
                and not self._attribute_name_at(doc, i)
            ):
                cue, label = "attribute", (
                    labels.DOCTOR if attribute in DOCTOR_ATTRIBUTES else labels.PATIENT
                )
            elif self._nameish(token, strong=True) and (
                signature_lines[line_start] or self._name_before_credential(doc, line_start, i)
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

    def _name_before_credential(self, doc: Doc, line_start: int, i: int) -> bool:
        """ "Ann Lee-Ray, MD": a name that opens its line and runs up to a credential."""
        return all(
            t.is_space or self._name_part(t) for t in doc[line_start:i]
        ) and self._before_credential(doc, i)

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

    # --- institutions -------------------------------------------------------------

    def _run_word(self, token: Token, covered: bool) -> bool:
        """A word that can be part of a capitalised name run."""
        if not self._capitalised(token) or (not covered and token.lower_ in NOT_IN_NAMES):
            return False
        # "I", "A", and in capitals function words ("IN", "TO"), end the name;
        # institution words do not ("FIRST STEP PROGRAM").
        return (
            not (
                token.is_upper
                and (len(token) == 1 or self._shouted(token.doc, token.i))
                and token.lower_ in STOP_WORDS
                and token.lower_ not in INSTITUTION_JOINERS
                and INSTITUTION not in (token._.lexicon or "")
            )
            or covered
        )

    def _capitalised_run(self, doc: Doc, i: int, covered: List[bool], headers: List[bool]) -> int:
        """End of the run of capitalised words from i on its line, joined by "of",
        "and", "&" ("Museum of Local History") or a hyphen ("Walk-In")."""
        end = i + 1
        while end < len(doc) and not headers[end] and "\n" not in doc[end - 1].whitespace_:
            nxt = doc[end]
            if self._glued(doc, end):
                break  # "ClinicIntake": a line break lost in extraction
            if self._run_word(nxt, covered[end]):
                end += 1
            elif (
                (
                    nxt.lower_ in INSTITUTION_JOINERS
                    or (nxt.text == "-" and not nxt.whitespace_ and not doc[end - 1].whitespace_)
                )
                and end + 1 < len(doc)
                and self._run_word(doc[end + 1], covered[end + 1])
                and "\n" not in nxt.whitespace_
            ):
                end += 2
            else:
                break
        return end

    def _function_word(self, doc: Doc, i: int) -> bool:
        """A capitalised function word ("The", "At"), not an acronym ("US Marines") nor
        the first part of a compound ("Walk-In")."""
        token = doc[i]
        if token.lower_ not in STOP_WORDS or token.lower_ in INSTITUTION_JOINERS:
            return False
        if token.is_upper and len(token) > 1 and not self._shouted(doc, i):
            return False
        # Capitalised mid-sentence, it is part of the name ("at Such Center").
        if token.is_title and len(token) > 1 and not self._sentence_initial(doc, i):
            return False
        return token.whitespace_ != "" or i + 1 >= len(doc) or doc[i + 1].text != "-"

    @staticmethod
    def _after_titled_name(doc: Doc, i: int, end: int) -> int:
        """After a title ("Dr Marc Kong and Fay Center"), the run opens with a person:
        the institution starts after the first joiner, or nowhere (end)."""
        j = i - 1
        if j >= 0 and doc[j].text == ".":
            j -= 1
        if j < 0 or doc[j].lower_.rstrip(".") not in TITLES:
            return i
        joiners = [k for k in range(i, end) if doc[k].lower_ in ("and", "&", ",")]
        return joiners[0] + 1 if joiners else end

    @staticmethod
    def _line_ends(doc: Doc, end: int) -> bool:
        return end >= len(doc) or "\n" in doc[end - 1].whitespace_ or doc[end].is_space

    @staticmethod
    def _glued(doc: Doc, i: int) -> bool:
        """Token i is a capitalised word stuck to the word before it ("CenterNew")."""
        return (
            i > 0
            and not doc[i - 1].whitespace_
            and (doc[i - 1].is_alpha or doc[i - 1].is_digit)
            and doc[i].is_alpha
            and doc[i].text[0].isupper()
        )

    def _institutions(
        self, doc: Doc, covered: List[bool], headers: List[bool]
    ) -> List[Tuple[int, int, str, str]]:
        """Capitalised runs on one line that name an institution (a head word, or an
        institution word with a rare word), and the capitalised words around an
        institution entity; only their uncovered parts are proposed."""
        entity_label = [""] * len(doc)
        for ent in doc.ents:
            for k in range(ent.start, ent.end):
                entity_label[k] = ent.label_
        # A run may go through places and institutions ("[Quorvale] County Family
        # Court"), not through a person ("Dr. [Merabet] and Brar Clinic").
        blocked = [
            h or (c and lab not in RUN_THROUGH_LABELS)
            for h, c, lab in zip(headers, covered, entity_label)
        ]
        found: List[Tuple[int, int, str, str]] = []
        i = 0
        while i < len(doc):
            if blocked[i] or not self._run_word(doc[i], covered[i]):
                i += 1
                continue
            end = self._capitalised_run(doc, i, covered, blocked)
            # A function word, or a capitalised common word opening a sentence
            # ("Yesterday Quarrytown Hospital called"), is not part of the name; in
            # capitals (a header line) or a compound ("Walk-In Behavioral Health")
            # it may be.
            while (
                end - i > 1
                and not covered[i]
                and INSTITUTION not in (doc[i]._.lexicon or "")
                and (
                    self._function_word(doc, i)
                    or self._sentence_initial(doc, i)
                    and self._zipf(doc[i]) >= self.common_zipf
                    # a line that is only the name is a header ("Mobile Crisis Service")
                    and not (self._line_start(doc, i) == i and self._line_ends(doc, end))
                    and not doc[i:end].text.isupper()
                    and not (i + 1 < end and doc[i + 1].text == "-" and not doc[i].whitespace_)
                )
            ):
                i += 1
            i = self._after_titled_name(doc, i, end)
            if i >= end:
                continue
            label, cue, name_end = self._institution_label(doc, i, end, covered, entity_label)
            if label:
                found.extend(self._uncovered_parts(doc, i, name_end, covered, label, cue))
            i = end
        return found

    def _institution_label(self, doc, i, end, covered, entity_label) -> Tuple[str, str, int]:
        """(label, cue, end of the name) of the run i..end; no label: not a name."""
        run = doc[i:end]
        # "COURSE IN HOSPITAL:" is a heading, "Date of Service =" an attribute name.
        if end < len(doc) and doc[end].text in (":", "="):
            return "", "", end
        if all(covered[i:end]) or run[0].lower_ in ATTRIBUTE_STARTS:
            return "", "", end
        heads = [k for k in range(i, end) if doc[k].lower_ in INSTITUTION_HEADS]
        words = [t for t in run if t.is_alpha and t.lower_ not in INSTITUTION_JOINERS]
        if heads and (
            len(words) >= 2
            or (run[0].lower_ in SINGLE_HEADS and not self._sentence_initial(doc, i))
        ):
            # The name ends at its last head unless "of ..." follows ("Museum of
            # Local History"): "EMERGENCY SERVICE [EVALUATION]" is a heading.
            last = heads[-1] + 1
            if last < end and doc[last].lower_ not in INSTITUTION_JOINERS:
                end = last
            named = [t for t in doc[i:end] if t.is_alpha and t.lower_ not in INSTITUTION_JOINERS]
            if len(named) >= 2 or run[0].lower_ in SINGLE_HEADS:
                return INSTITUTION_HEADS[doc[heads[-1]].lower_], "institution", end
        kinds = [t._.lexicon or "" for t in run]
        # In capitals, a rare word is no evidence (whole paragraphs are shouted).
        rare = not run.text.isupper() and any(
            self._zipf(t) < self.common_zipf and t.lower_ not in self.clinical for t in run
        )
        if len(words) >= 2 and rare and any(INSTITUTION in k.split("|") for k in kinds):
            return labels.HOSPITAL, "institution", end
        inside = [entity_label[k] for k in range(i, end) if entity_label[k] in INSTITUTION_LABELS]
        if inside:
            return inside[0], "extend", end
        return "", "", end

    @staticmethod
    def _uncovered_parts(doc, i, end, covered, label, cue) -> List[Tuple[int, int, str, str]]:
        """The uncovered stretches of the run i..end; a joiner or hyphen stays only
        between two parts of the name ("Mood and [Anxiety Program]")."""
        parts = []
        k = i
        while k < end:
            if covered[k]:
                k += 1
                continue
            stop = k
            while stop < end and not covered[stop]:
                stop += 1
            s, e = k, stop
            while (
                s < e and s == i and (doc[s].lower_ in INSTITUTION_JOINERS or not doc[s].is_alpha)
            ):
                s += 1
            while (
                e > s
                and e == end
                and (doc[e - 1].lower_ in INSTITUTION_JOINERS or not doc[e - 1].is_alpha)
            ):
                e -= 1
            # "[Papadopoulos Building] of [Finnegan Hospital]": two names, not one
            if any(
                doc[t].is_alpha and doc[t].lower_ not in INSTITUTION_JOINERS for t in range(s, e)
            ):
                parts.append((s, e, label, cue))
            k = stop
        return parts

    # --- occupations ----------------------------------------------------------------

    def _occupations(self, doc: Doc, covered: List[bool]) -> List[Tuple[int, int, str, str]]:
        """Job titles after an occupation cue: runs of job-title words (lexicon JOB
        tags) or a job head noun with up to three modifiers, unless all clinical
        ("therapist", "psychiatrist": the care team, not the patient's job)."""
        found: List[Tuple[int, int, str, str]] = []
        may_start = self._job_candidates(doc)
        i = 0
        while i < len(doc):
            if covered[i] or not may_start[i]:
                i += 1
                continue
            end = self._job_end(doc, i, covered)
            if end == i:
                i += 1
                continue
            start = i
            while (
                start > 0
                and i - start < MAX_JOB_MODIFIERS
                and not covered[start - 1]
                and "\n" not in doc[start - 1].whitespace_
                and self._modifier(doc[start - 1])
            ):
                start -= 1  # "embedded [software developer]", "middle school [art teacher]"
            run = doc[start:end]
            if doc[end - 1].lower_ in GENERIC_JOB_HEADS | BEHAVIOUR_HEADS:
                pass  # "a struggling student", "a heavy smoker"
            elif self._occupation_cued(doc, start, end) and not all(
                t.lower_ in self.clinical
                or t.lower_ in CUE_WORDS
                or self._zipf(t) >= self.stop_zipf
                or not t.is_alpha
                for t in run
            ):
                found.append((start, end, labels.PROFESSION, "occupation"))
            i = end
        return found

    def _profession_modifiers(
        self, doc: Doc, covered: List[bool]
    ) -> List[Tuple[int, int, str, str]]:
        """Modifiers right before a profession entity ("embedded [software developer]")."""
        found: List[Tuple[int, int, str, str]] = []
        for ent in doc.ents:
            if ent.label_ != labels.PROFESSION:
                continue
            start = ent.start
            while (
                start > 0
                and ent.start - start < MAX_JOB_MODIFIERS
                and not covered[start - 1]
                and "\n" not in doc[start - 1].whitespace_
                and self._modifier(doc[start - 1])
            ):
                start -= 1
            if start < ent.start and self._occupation_cued(doc, start, ent.end):
                found.append((start, ent.start, labels.PROFESSION, "occupation"))
        return found

    def _job_candidates(self, doc: Doc) -> List[bool]:
        """Per token: can `_job_end` find a title starting here? Only at a lexicon
        JOB word, or within MAX_JOB_MODIFIERS tokens before a job head noun."""
        tags = token_feature_values(doc, "lexicon")
        heads = self.job_heads
        near_head = [False] * len(doc)
        for k, token in enumerate(doc):
            lower = token.lower_
            # `_is_job_head` needs the word or its singular in the list: test that first.
            if (lower in heads or lower[:-1] in heads) and self._is_job_head(token):
                for j in range(max(0, k - MAX_JOB_MODIFIERS), k + 1):
                    near_head[j] = True
        return [near or JOB in (tag or "").split("|") for near, tag in zip(near_head, tags)]

    def _is_job_word(self, token: Token) -> bool:
        return JOB in (token._.lexicon or "").split("|")

    def _is_job_head(self, token: Token) -> bool:
        """A job head noun, in lower case (or shouted): "developer", "STONEMASON"."""
        lower = token.lower_
        if not token.is_alpha or not (token.is_lower or self._shouted(token.doc, token.i)):
            return False
        singular = lower[:-1] if lower.endswith("s") and lower[:-1] in self.job_heads else lower
        return singular in self.job_heads and singular not in self.clinical

    def _job_end(self, doc: Doc, i: int, covered: List[bool]) -> int:
        """End of a job title starting at i (i itself if none does)."""
        end = i
        while end < len(doc) and not covered[end] and self._is_job_word(doc[end]):
            end += 1
        if end > i:
            return end
        # A head noun after its modifiers: look ahead for it.
        for k in range(i, min(len(doc), i + MAX_JOB_MODIFIERS + 1)):
            line_break = k > i and "\n" in doc[k - 1].whitespace_
            if covered[k] or not doc[k].is_alpha or line_break:
                break
            if self._is_job_head(doc[k]):
                return k + 1
            if not self._modifier(doc[k]):
                break
        return i

    def _modifier(self, token: Token) -> bool:
        """A word that may modify a job head ("furniture", "software", "embedded")."""
        return (
            token.is_alpha
            and token.lower_ not in OCCUPATION_CUES
            and token.lower_ not in ARTICLE_CUES
            and token.lower_ not in STOP_WORDS
            and (
                self._zipf(token) < self.stop_zipf
                or {JOB, INSTITUTION} & set((token._.lexicon or "").split("|"))
            )
        )

    def _occupation_cued(self, doc: Doc, start: int, end: int) -> bool:
        before = doc[max(0, start - 3) : start]
        if any(t.lower_ in OCCUPATION_CUES for t in before):
            return True
        if len(before) >= 2 and before[-1].text == "," and before[-2].like_num:
            return True  # "(44, teacher)"
        # "is a teacher", "his wife, a teacher", "parents are welders"; not "has a lawyer"
        j = start - 1
        if j >= 1 and doc[j].lower_ in ARTICLE_CUES:
            return doc[j - 1].lower_ in COPULAS
        return j >= 0 and doc[j].lower_ in PLURAL_COPULAS and doc[end - 1].lower_.endswith("s")

    # --- initials, rooms, places ----------------------------------------------------

    @staticmethod
    def _initials_of(doc: Doc) -> Dict[str, str]:
        """Initials ("KMR", "TB") of the person entities of the Doc -> their label."""
        found: Dict[str, str] = {}
        for ent in doc.ents:
            if ent.label_ not in (labels.PATIENT, labels.DOCTOR):
                continue
            parts = [t.text for t in ent if t.is_alpha and t.lower_ not in TITLES]
            parts = [p for piece in parts for p in piece.split("-") if p]
            if len(parts) < 2:
                continue
            for order in (parts, parts[1:] + parts[:1]):  # "Lee, Ann" -> "AL" too
                found.setdefault("".join(p[0].upper() for p in order), ent.label_)
        return found

    def _initials(self, doc: Doc, covered: List[bool]) -> List[Tuple[int, int, str, str]]:
        """Capitals standing for a person: the initials of a name found in the note
        ("KMR reports ..."), or any after "initials:"."""
        known = self._initials_of(doc)
        found: List[Tuple[int, int, str, str]] = []
        for token in doc:
            letters = token.text.replace(".", "")
            if (
                covered[token.i]
                or not (2 <= len(letters) <= 3 and letters.isalpha() and letters.isupper())
                or not all(c.isupper() or c == "." for c in token.text)
                or letters.lower() in CREDENTIALS
            ):
                continue
            before = [t.lower_ for t in doc[max(0, token.i - 2) : token.i]]
            if any(b in INITIALS_CUES for b in before):
                found.append((token.i, token.i + 1, labels.PATIENT, "initials"))
                known.setdefault(letters, labels.PATIENT)  # "Patient initials: T.B." ... "TB"
            elif (
                letters in known
                and not self._shouted(doc, token.i)
                and letters.lower() not in self.clinical  # "BP", "ED", "AH"
                # "RE:", "MR#", "AM": common words and abbreviations, not initials.
                and self.common.get(letters.lower(), 0) < self.stop_zipf
                and not (token.i > 0 and doc[token.i - 1].like_num)
                and not (
                    token.i + 1 < len(doc)
                    and (doc[token.i + 1].text == "#" or doc[token.i + 1].lower_ in ID_CUES)
                )
            ):
                found.append((token.i, token.i + 1, known[letters], "initials"))
        return found

    def _rooms(self, doc: Doc, covered: List[bool]) -> List[Tuple[int, int, str, str]]:
        """A number right after "room", "bed", "ward" ("bed 12-3", "Ward 4C")."""
        found: List[Tuple[int, int, str, str]] = []
        for token in doc[:-1]:
            if token.lower_.rstrip(".") not in ROOM_CUES:
                continue
            i = token.i + 1
            while i < len(doc) and doc[i].text in ("#", ":", "no", "no."):
                i += 1
            end = i
            # The whitespace-free run after the cue ("12-3", "4C").
            while end < len(doc) and (end == i or not doc[end - 1].whitespace_):
                if not (doc[end].is_alpha or doc[end].is_digit or doc[end].text in "-/"):
                    break
                end += 1
            while end > i and not (doc[end - 1].is_alpha or doc[end - 1].is_digit):
                end -= 1
            text = doc[i:end].text if end > i else ""
            if (
                text
                and any(c.isdigit() for c in text)
                and len(text) <= 8
                and not any(covered[i:end])
                # "bed 10 hours": a number followed by a unit is a quantity
                and not (
                    end < len(doc)
                    and (doc[end].lower_ in self.clinical or doc[end].lower_ in QUANTITY_WORDS)
                )
            ):
                found.append((i, end, labels.ROOM, "room"))
        return found

    def _places(self, doc: Doc, covered: List[bool]) -> List[Tuple[int, int, str, str]]:
        """Capitalised country names (lexicon COUNTRY tags) in running text."""
        found: List[Tuple[int, int, str, str]] = []
        tags = token_feature_values(doc, "lexicon")
        countries = [labels.COUNTRY in (tag or "").split("|") for tag in tags]
        i = 0
        while i < len(doc):
            if not countries[i]:
                i += 1  # no run starts here
                continue
            end = i
            while (
                end < len(doc)
                and not covered[end]
                and countries[end]
                and (self._capitalised(doc[end]) or doc[end].lower_ in INSTITUTION_JOINERS)
                and not (doc[end].is_upper and len(doc[end]) <= 3)
            ):
                end += 1
            while end > i and not self._capitalised(doc[end - 1]):
                end -= 1
            if end > i and doc[i:end].text.lower() in HOME_COUNTRY:
                i = end
            elif end > i and not doc[i].is_upper:
                found.append((i, end, labels.COUNTRY, "place"))
                i = end
            else:
                i += 1
        return found

    def _identifiers(self, doc: Doc, covered: List[bool]) -> List[Tuple[int, int, str, str]]:
        found: List[Tuple[int, int, str, str]] = []
        has_digit = [any(map(str.isdigit, token.text)) for token in doc]
        attributes = token_feature_values(doc, "attribute_name")
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
            if not any(has_digit[i:end]):
                i = end
                continue
            run = doc[i:end]
            if any(covered[k] for k in range(i, end)) or not self._idlike(run.text):
                i = end
                continue
            attribute = attributes[i]
            window = range(max(0, i - self.id_window), i)
            if attribute in ID_ATTRIBUTES or any(self._id_cue(doc, k, i) for k in window):
                found.append((i, end, labels.IDNUM, "id_cue"))
            i = end
        return found

    @staticmethod
    def _id_cue(doc: Doc, k: int, i: int) -> bool:
        """Token k is an ID cue for the word at i: on its line, and "no" only as an
        abbreviation ("Docket No. ...", "no: ..."), not "Cocaine: no"."""
        if doc[k].lower_ not in ID_CUES or any("\n" in t.whitespace_ for t in doc[k:i]):
            return False
        if doc[k].lower_ == "no":
            return k + 1 < i and doc[k + 1].text in (".", ":", "#")
        return True

    def _idlike(self, text: str) -> bool:
        digits = sum(c.isdigit() for c in text)
        letters = sum(c.isalpha() for c in text)
        if digits == 0 or text.lower() in self.clinical or NOT_AN_ID.match(text):
            return False
        # "PHQ-9", "GAD-7": a scale on the clinical list with its item count.
        if text.split("-")[0].lower() in self.clinical:
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
        job_heads: Optional[Sequence[str]] = None,
    ) -> None:
        """Replace the word lists (None: the packaged ones)."""
        self._set_data(
            load_clinical_vocabulary() if clinical_vocabulary is None else clinical_vocabulary,
            load_common_words() if common_words is None else common_words,
            load_job_heads() if job_heads is None else job_heads,
        )

    def _data(self) -> Dict[str, Any]:
        return {
            "clinical": sorted(self.clinical),
            "common": dict(sorted(self.common.items())),
            "job_heads": sorted(self.job_heads),
        }

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        return srsly.msgpack_dumps(self._data())

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()) -> "SafetyNet":
        data = srsly.msgpack_loads(bytes_data)
        self._set_data(data["clinical"], data["common"], data.get("job_heads", load_job_heads()))
        return self

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> None:
        path = ensure_path(path)
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_json(path / "clinical_vocabulary.json", sorted(self.clinical))
        srsly.write_json(path / "common_words.json", dict(sorted(self.common.items())))
        srsly.write_json(path / "job_heads.json", sorted(self.job_heads))

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> "SafetyNet":
        path = ensure_path(path)
        for name in ("clinical_vocabulary.json", "common_words.json"):
            if not (path / name).exists():
                raise ValueError(f"{self.name}: {path / name} is missing")
        # Pipelines saved before the job heads existed get the packaged ones.
        heads = path / "job_heads.json"
        self._set_data(
            srsly.read_json(path / "clinical_vocabulary.json"),
            srsly.read_json(path / "common_words.json"),
            srsly.read_json(heads) if heads.exists() else load_job_heads(),
        )
        return self
