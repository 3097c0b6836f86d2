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
- or, in the charting style of nursing notes, a month/day date with no cue
  ("plan reviewed 7/23"; not a score, a part or a setting: "3/10", "1/2", "10/5"),
  a number opening a line before "s/p" (an age), a name list's rare word
  after a role abbreviation ("W/MD <surname>") or rare words joined to a
  titled name ("<name> AND DRS ..."), a two-digit year with an apostrophe
  after it ("AVR 89'"), the words after "lives ... in" and the rare word
  after a move between places ("c/o to", "admitted from") (charting.py);
- or look like an identifier: a run of letters and digits (or 5+ digits)
  within a few tokens of an ID cue ("MRN", "ID", "#", "account") or inside an
  ID attribute value.

The cue families live in their own modules (names, institutions,
occupations, places, charting; the token shapes they share in tokens), their cue words
in `data/safety_net_cues.json` (read by cues). The span's `id_` says which
cue fired ("safety_net:title"). The component only proposes: `deid_confidence`
scores the spans and uses them at the `recall` operating point
(spacy_deid/pipeline/confidence/component.py). The word lists (clinical
vocabulary, common English words, job head nouns) arrive through `initialize`
only and are saved by `to_disk`; without them the component warns. See
docs/recall.md.
"""

from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc, Span, SpanGroup
from spacy.util import registry

from ...data_files import DATA_DIR, warn_no_data
from ...extensions import SECTIONS_KEY, install_extensions
from ...surrogates import lists
from ..serialize import Part, SavedParts
from ..shared_words import load_job_heads
from .charting import ChartingCues
from .institutions import InstitutionCues
from .names import NameCues
from .occupations import OccupationCues
from .places import PlaceCues
from .tokens import shouted_tokens

DEFAULT_VOCABULARY_PATH = DATA_DIR / "clinical_vocabulary.txt"
DEFAULT_SPANS_KEY = "phi_safety_net"
SOURCE = "safety_net"


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
    # It reads the lexicon's tags (job titles, institution words, countries)
    # and the section detector's attribute values besides the entities.
    requires=["doc.ents", "token._.lexicon", "token._.attribute_name"],
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


class SafetyNet(
    NameCues, InstitutionCues, OccupationCues, PlaceCues, ChartingCues, SavedParts, Pipe
):
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
        # Empty until `initialize` or `from_disk` (the safety net warns when it runs so).
        self._set_data([], {}, [])

    def _set_data(
        self, clinical: Iterable[str], common: Dict[str, int], job_heads: Iterable[str]
    ) -> None:
        self.clinical: Set[str] = {str(w).lower() for w in clinical}
        self.common: Dict[str, int] = {str(w).lower(): int(z) for w, z in common.items()}
        self.job_heads: Set[str] = {str(w).lower() for w in job_heads}

    # --- running ----------------------------------------------------------------

    @property
    def is_loaded(self) -> bool:
        return bool(self.clinical or self.common or self.job_heads)

    def __call__(self, doc: Doc) -> Doc:
        if not self.is_loaded:
            warn_no_data(self.name, "word lists", "takes every capitalised word for a name")
        covered = [False] * len(doc)
        for ent in doc.ents:
            for i in range(ent.start, ent.end):
                covered[i] = True
        headers = [False] * len(doc)
        for span in doc.spans.get(SECTIONS_KEY, []):
            for i in range(span.start, span.end):
                headers[i] = True
        self._shouted_flags = (doc, shouted_tokens(doc))
        try:
            proposals = self._propose(doc, covered, headers)
        finally:
            self._shouted_flags = None  # never keep a Doc alive
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

    def _propose(self, doc: Doc, covered: List[bool], headers: List[bool]) -> List[Tuple[int, int, str, str]]:
        """Every family's proposals (start, end, label, cue), in the order they block each other."""
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
        proposals += self._places(doc, blocked) + self._charting(doc, blocked)
        for start, end, _, _ in proposals:
            for i in range(start, end):
                blocked[i] = True
        names = self._names(doc, blocked)
        for start, end, _, _ in names:
            for i in range(start, end):
                blocked[i] = True
        proposals += names + self._one_case_names(doc, blocked) + self._identifiers(doc, covered)
        return proposals

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

    # Saved as three JSON files (pipeline/serialize.py); `exclude` takes
    # "clinical_vocabulary", "common_words", "job_heads".
    def saved_parts(self) -> Dict[str, Part]:
        return {
            "clinical_vocabulary": Part("clinical_vocabulary.json", lambda: sorted(self.clinical)),
            "common_words": Part("common_words.json", lambda: dict(sorted(self.common.items()))),
            "job_heads": Part("job_heads.json", lambda: sorted(self.job_heads)),
        }

    def load_parts(self, values: Dict[str, Any], source: str) -> None:
        self._set_data(
            values.get("clinical_vocabulary", self.clinical),
            values.get("common_words", self.common),
            values.get("job_heads", self.job_heads),
        )
