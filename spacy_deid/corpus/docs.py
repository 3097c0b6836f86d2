"""Notes to spaCy Docs (gold PHI as doc.ents) and back."""
from collections import Counter
from typing import Callable, Dict, List, Optional

from spacy.language import Language
from spacy.tokens import Doc, Span

from ..extensions import install_extensions
from .note import Note, PhiMention, without_edge_whitespace
from .problems import CorpusFormatError

# What to do with a mention whose start or end falls inside a token.
EXPAND, CONTRACT, SKIP, ERROR = "expand", "contract", "skip", "error"
MISALIGNED_POLICIES = (EXPAND, CONTRACT, SKIP, ERROR)


def default_tokenizer_nlp() -> Language:
    """The blank pipeline whose tokenizer converts corpora by default."""
    from ..tokenizer import blank_deid  # the training configs' tokenizer

    return blank_deid("en")


class AlignmentReport:
    """Counts, per file, of mentions that did not fall on token boundaries.

    Kinds: "misaligned" (every such mention), then what became of it:
    "expanded", "contracted", "skipped" (policy skip, or nothing left after
    contracting) and "collided" (overlapped another mention once aligned).
    """

    def __init__(self) -> None:
        self.counts: Dict[str, Counter] = {}

    def add(self, source: str, kind: str) -> None:
        self.counts.setdefault(source, Counter())[kind] += 1

    @property
    def misaligned(self) -> int:
        return sum(counter["misaligned"] for counter in self.counts.values())

    def by_kind(self) -> Counter:
        total: Counter = Counter()
        for counter in self.counts.values():
            total.update(counter)
        return total

    def summary(self, max_files: int = 20) -> str:
        """Totals by kind, then one line per file (the first `max_files` files)."""
        if not self.misaligned:
            return "all mentions fall on token boundaries"
        totals = ", ".join(f"{kind} x{n}" for kind, n in sorted(self.by_kind().items()))
        lines = [
            f"{self.misaligned} mention(s) in {len(self.counts)} file(s) start or end "
            f"inside a token ({totals}):"
        ]
        for source, counter in sorted(self.counts.items())[:max_files]:
            kinds = ", ".join(f"{kind} x{n}" for kind, n in sorted(counter.items()))
            lines.append(f"  {source}: {kinds}")
        if len(self.counts) > max_files:
            lines.append(f"  ... and {len(self.counts) - max_files} more file(s)")
        return "\n".join(lines)


def note_to_doc(
    note: Note,
    make_doc: Callable[[str], Doc],
    *,
    misaligned: str = EXPAND,
    report: Optional[AlignmentReport] = None,
) -> Doc:
    """A Doc of the note's exact text with its mentions as doc.ents.

    `make_doc` tokenizes (use the training pipeline's `nlp.make_doc` so that
    reference and predicted docs share tokens). Mentions that do not fall on
    token boundaries are handled by `misaligned` and always counted in
    `report`; with "error" they raise CorpusFormatError.
    """
    if misaligned not in MISALIGNED_POLICIES:
        raise ValueError(f"misaligned must be one of {MISALIGNED_POLICIES}, not {misaligned!r}")
    install_extensions()
    report = report if report is not None else AlignmentReport()
    source = note.source_file or note.note_id
    doc = make_doc(note.text)
    spans: List[Span] = []
    for mention in sorted(note.mentions):
        span = doc.char_span(mention.start, mention.end, label=mention.label)
        if span is None:
            span = _align(doc, mention, misaligned, source, report)
        if span is None:
            continue
        if spans and span.start < spans[-1].end:
            report.add(source, "collided")
            continue
        spans.append(span)
    doc.ents = spans
    doc._.note_id = note.note_id
    doc._.patient_id = note.patient_id
    doc._.source_file = note.source_file
    return doc


def _align(
    doc: Doc, mention: PhiMention, policy: str, source: str, report: AlignmentReport
) -> Optional[Span]:
    report.add(source, "misaligned")
    if policy == ERROR:
        raise CorpusFormatError(
            source,
            f"mention {mention.start}-{mention.end} ({mention.label}) starts or ends inside a token",
            tag_id=mention.tag_id,
            kind="misaligned",
        )
    if policy == SKIP:
        report.add(source, "skipped")
        return None
    mode = "expand" if policy == EXPAND else "contract"
    span = doc.char_span(mention.start, mention.end, label=mention.label, alignment_mode=mode)
    if span is None or not len(span):
        report.add(source, "skipped")
        return None
    report.add(source, "expanded" if policy == EXPAND else "contracted")
    return span


def doc_to_note(doc: Doc, note_id: Optional[str] = None) -> Note:
    """A Note with the doc's text and its doc.ents as mentions (system output).

    An entity may hold whitespace tokens at its edges (a name tagged with the
    paragraph break after it); the mention leaves them out, and an entity of
    whitespace alone is no mention."""
    install_extensions()
    text = doc.text
    mentions = []
    for ent in doc.ents:
        start, end = without_edge_whitespace(text, ent.start_char, ent.end_char)
        if end > start:
            mentions.append(PhiMention(start, end, ent.label_))
    return Note(
        note_id=note_id or doc._.note_id or "note",
        text=text,
        mentions=mentions,
        patient_id=doc._.patient_id,
        source_file=doc._.source_file,
    )
