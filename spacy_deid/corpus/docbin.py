"""Corpora to spaCy's binary DocBin format and back."""
from pathlib import Path
from typing import Callable, Iterable, Iterator, List, Optional, Tuple

from spacy.tokens import Doc, DocBin
from spacy.vocab import Vocab

from .docs import EXPAND, AlignmentReport, note_to_doc
from .formats import AUTO, read_corpus
from .note import Note
from .problems import PathLike, ProblemLog

DOCBIN_SUFFIX = ".spacy"


def notes_to_docbin(
    notes: Iterable[Note],
    make_doc: Callable[[str], Doc],
    *,
    misaligned: str = EXPAND,
    report: Optional[AlignmentReport] = None,
) -> DocBin:
    """A DocBin of the notes (user data kept: note, patient and file ids)."""
    docbin = DocBin(store_user_data=True)
    for note in notes:
        docbin.add(note_to_doc(note, make_doc, misaligned=misaligned, report=report))
    return docbin


def convert_corpus(
    input_path: PathLike,
    output_path: PathLike,
    make_doc: Callable[[str], Doc],
    *,
    format: str = AUTO,
    lenient: bool = False,
    misaligned: str = EXPAND,
) -> Tuple[int, int, ProblemLog, AlignmentReport]:
    """Convert a corpus to one `.spacy` file; returns (notes, mentions, problems, alignment)."""
    output_path = Path(output_path)
    if output_path.suffix != DOCBIN_SUFFIX:
        raise ValueError(f"output file must end in {DOCBIN_SUFFIX}: {output_path}")
    log = ProblemLog(lenient=lenient)
    report = AlignmentReport()
    notes: List[Note] = list(read_corpus(input_path, format, log=log))
    docbin = notes_to_docbin(notes, make_doc, misaligned=misaligned, report=report)
    output_path.parent.mkdir(parents=True, exist_ok=True)
    docbin.to_disk(output_path)
    return len(notes), sum(len(note.mentions) for note in notes), log, report


def docbin_files(path: PathLike) -> List[Path]:
    """`path` itself if it is a .spacy file, else the .spacy files under it."""
    path = Path(path)
    if path.is_file():
        return [path]
    return sorted(path.rglob(f"*{DOCBIN_SUFFIX}"))


def read_docbin_docs(path: PathLike, vocab: Vocab) -> Iterator[Doc]:
    """The Docs of a .spacy file or of all .spacy files under a folder."""
    for file_path in docbin_files(path):
        yield from DocBin().from_disk(file_path).get_docs(vocab)
