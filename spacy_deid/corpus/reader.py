"""The corpus reader for training configs: `spacy-deid.I2b2Corpus.v1`.

    [corpora.train]
    @readers = "spacy-deid.I2b2Corpus.v1"
    path = ${paths.train}

`path` is a `.spacy` file, a folder of them, or a corpus in one of the
supported formats (read on the fly, tokenized by the pipeline being trained).
"""
import random
import warnings
from pathlib import Path
from typing import Callable, Iterable, Iterator, List, Optional

from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import registry

from .docbin import DOCBIN_SUFFIX, docbin_files, read_docbin_docs
from .docs import EXPAND, MISALIGNED_POLICIES, AlignmentReport, note_to_doc
from .formats import AUTO, FORMATS, read_corpus
from .problems import ProblemLog

Augmenter = Callable[[Language, Example], Iterable[Example]]


@registry.readers("spacy-deid.I2b2Corpus.v1")
def create_i2b2_corpus_reader(
    path: Optional[Path],
    format: str = AUTO,
    limit: int = 0,
    shuffle: bool = False,
    lenient: bool = False,
    misaligned: str = EXPAND,
    augmenter: Optional[Augmenter] = None,
) -> Callable[[Language], Iterable[Example]]:
    """Training examples from a DocBin or an annotated corpus (see module doc)."""
    if path is None:
        raise ValueError(
            "spacy-deid.I2b2Corpus.v1: path is not set; give it in the config or "
            "with --paths.train / --paths.dev"
        )
    return I2b2Corpus(
        Path(path),
        format=format,
        limit=limit,
        shuffle=shuffle,
        lenient=lenient,
        misaligned=misaligned,
        augmenter=augmenter,
    )


class I2b2Corpus:
    """Iterate over Examples whose reference docs carry the gold PHI as ents."""

    def __init__(
        self,
        path: Path,
        *,
        format: str = AUTO,
        limit: int = 0,
        shuffle: bool = False,
        lenient: bool = False,
        misaligned: str = EXPAND,
        augmenter: Optional[Augmenter] = None,
    ) -> None:
        if format not in FORMATS:
            raise ValueError(f"unknown corpus format {format!r}; choose from {', '.join(FORMATS)}")
        if misaligned not in MISALIGNED_POLICIES:
            raise ValueError(f"misaligned must be one of {MISALIGNED_POLICIES}")
        if not path.exists():
            raise FileNotFoundError(f"corpus path does not exist: {path}")
        self.path = path
        self.format = format
        self.limit = limit
        self.shuffle = shuffle
        self.lenient = lenient
        self.misaligned = misaligned
        self.augmenter = augmenter
        self._reported = False

    def __call__(self, nlp: Language) -> Iterator[Example]:
        references = list(self._reference_docs(nlp))
        if self.shuffle:
            random.shuffle(references)
        if self.limit >= 1:
            references = references[: self.limit]
        for reference in references:
            example = Example(nlp.make_doc(reference.text), reference)
            if self.augmenter is None:
                yield example
            else:
                yield from self.augmenter(nlp, example)

    def _is_docbin(self) -> bool:
        if self.path.is_file():
            return self.path.suffix == DOCBIN_SUFFIX
        return bool(docbin_files(self.path))

    def _reference_docs(self, nlp: Language) -> Iterator[Doc]:
        if self._is_docbin():
            yield from read_docbin_docs(self.path, nlp.vocab)
            return
        log = ProblemLog(lenient=self.lenient)
        report = AlignmentReport()
        docs: List[Doc] = [
            note_to_doc(note, nlp.make_doc, misaligned=self.misaligned, report=report)
            for note in read_corpus(self.path, self.format, log=log)
        ]
        if not self._reported:  # once, not every epoch
            self._reported = True
            for problems in (log.total and log.summary(), report.misaligned and report.summary()):
                if problems:
                    warnings.warn(f"{self.path}: {problems}")
        yield from docs
