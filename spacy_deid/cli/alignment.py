"""`spacy-deid check-alignment`: how many PHI mentions start or end inside a token.

A mention whose boundary falls inside a token cannot be tagged exactly, so
the share of such mentions measures what a tokenizer costs before any model
runs. The command compares spaCy's default English tokenizer with the
package's tokenizer (`spacy-deid.Tokenizer.v1`) or any pipeline given with
`--base`. It prints counts, labels and file names, never note text.
"""

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Tuple

import typer
from spacy.tokens import Doc
from wasabi import msg

from ..corpus.formats import AUTO, FORMATS, read_corpus
from ..corpus.note import Note
from ..corpus.problems import ProblemLog
from ._app import app
from ._util import CORPUS_ERRORS, fail_on_corpus_error, load_tokenizer_pipeline


@dataclass
class AlignmentCounts:
    """Mentions, and mentions with a boundary inside a token, in a corpus."""

    notes: int = 0
    mentions: int = 0
    misaligned: int = 0
    by_label: Counter = field(default_factory=Counter)
    by_file: Counter = field(default_factory=Counter)

    @property
    def share(self) -> float:
        return self.misaligned / self.mentions if self.mentions else 0.0


def misaligned_offsets(doc: Doc, start: int, end: int) -> bool:
    """Whether a character span's start or end falls inside a token of `doc`."""
    return doc.char_span(start, end, alignment_mode="strict") is None


def count_misaligned(
    notes: Iterable[Note], make_docs: Dict[str, Callable[[str], Doc]]
) -> Dict[str, AlignmentCounts]:
    """Count misaligned mentions per tokenizer (name -> make_doc) over the notes."""
    counts = {name: AlignmentCounts() for name in make_docs}
    for note in notes:
        source = Path(note.source_file).name if note.source_file else note.note_id
        for name, make_doc in make_docs.items():
            doc = make_doc(note.text)
            result = counts[name]
            result.notes += 1
            for mention in note.mentions:
                result.mentions += 1
                if misaligned_offsets(doc, mention.start, mention.end):
                    result.misaligned += 1
                    result.by_label[mention.label] += 1
                    result.by_file[source] += 1
    return counts


def default_tokenizers(base: Optional[str] = None) -> Dict[str, Callable[[str], Doc]]:
    """spaCy's English tokenizer and the package's (or `base`'s) tokenizer."""
    import spacy

    from ..tokenizer import blank_deid

    other = load_tokenizer_pipeline(base) if base is not None else blank_deid()
    name = base if base is not None else "spacy-deid.Tokenizer.v1"
    # Tokenizers, not make_doc: max_length guards the parser/NER's memory, and
    # a note over it must be counted like any other.
    return {"spacy.blank('en')": spacy.blank("en").tokenizer, name: other.tokenizer}


def _rows(counts: Dict[str, AlignmentCounts]) -> List[Tuple[str, int, int, str]]:
    return [(name, c.mentions, c.misaligned, f"{100 * c.share:.2f}%") for name, c in counts.items()]


@app.command("check-alignment")
def check_alignment_cli(
    input_path: Path = typer.Argument(..., help="Corpus file or folder", exists=True),
    format: str = typer.Option(AUTO, "--format", "-f", help=f"One of {', '.join(FORMATS)}"),
    base: Optional[str] = typer.Option(
        None,
        "--base",
        "-b",
        help="Pipeline (name or path) or .cfg whose tokenizer to compare with spaCy's "
        "English one; default: spacy-deid.Tokenizer.v1",
    ),
    lenient: bool = typer.Option(
        False, "--lenient", help="Skip and count bad tags instead of stopping at the first"
    ),
    details: bool = typer.Option(
        False, "--details", "-d", help="Also list misaligned mentions per label and per file"
    ),
) -> None:
    """Share of PHI mentions whose start or end falls inside a token."""
    if format not in FORMATS:
        msg.fail(f"--format must be one of {', '.join(FORMATS)}", exits=1)
    make_docs = default_tokenizers(base)
    log = ProblemLog(lenient=lenient)
    try:
        counts = count_misaligned(read_corpus(input_path, format, log=log), make_docs)
    except CORPUS_ERRORS as error:
        raise fail_on_corpus_error(error)
    n_notes = next(iter(counts.values())).notes
    msg.info(f"{n_notes} notes in {input_path}")
    msg.table(
        _rows(counts),
        header=("tokenizer", "mentions", "misaligned", "share"),
        divider=True,
        aligns=("l", "r", "r", "r"),
    )
    if details:
        for name, result in counts.items():
            if result.misaligned:
                msg.text(f"{name}: by label: {dict(sorted(result.by_label.items()))}")
                worst = dict(result.by_file.most_common(10))
                msg.text(f"{name}: files with most (up to 10): {worst}")
    if log.total:
        msg.warn(log.summary())
