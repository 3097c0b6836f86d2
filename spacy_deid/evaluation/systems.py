"""Where system output comes from: a spaCy pipeline run on the gold texts,
or a folder of i2b2 2014 XML files written by any tool."""
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Union

from ..corpus import Note, ProblemLog, doc_to_note, read_corpus
from .pairing import EvaluationInputError

# Files whose presence marks a folder as a saved spaCy pipeline.
_PIPELINE_MARKERS = ("config.cfg", "meta.json")


def read_notes(
    path: Union[str, Path], *, lenient: bool = False, log: Optional[ProblemLog] = None
) -> List[Note]:
    """All notes of a corpus file or folder (any format read_corpus knows);
    what a lenient read skips is counted in `log`."""
    return list(read_corpus(path, lenient=lenient, log=log))


def is_output_folder(system: Union[str, Path]) -> bool:
    """A folder of system outputs (not a saved pipeline)."""
    path = Path(system)
    return path.is_dir() and not any((path / marker).exists() for marker in _PIPELINE_MARKERS)


def load_pipeline(name: Union[str, Path]):
    import spacy

    return spacy.load(name)


def run_pipeline(
    nlp,
    gold: Iterable[Note],
    *,
    enable: Optional[Iterable[str]] = None,
    batch_size: int = 16,
    corpus_aware: Optional["CorpusAware"] = None,
) -> List[Note]:
    """The pipeline's doc.ents on each gold text, as Notes with the gold note ids.

    `enable`: the components to run (all others are switched off); None runs all.
    `corpus_aware`: learn corpus evidence from all the gold texts' Docs and apply
    it before scoring, as `spacy-deid deidentify --corpus-aware` does with a batch
    (patients: the gold notes' patient ids; a note without one is its own patient).
    """
    gold = list(gold)
    texts = [note.text for note in gold]
    if enable is None:
        docs = list(nlp.pipe(texts, batch_size=batch_size))
    else:
        enable = list(enable)
        disable = [name for name in nlp.pipe_names if name not in enable]
        with nlp.select_pipes(disable=disable):
            docs = list(nlp.pipe(texts, batch_size=batch_size))
    if corpus_aware is not None:
        corpus_aware.apply(docs, [note.patient_id or f"note:{note.note_id}" for note in gold])
    return [doc_to_note(doc, note_id=note.note_id) for doc, note in zip(docs, gold)]


@dataclass(frozen=True)
class CorpusAware:
    """The settings of corpus-aware scoring (docs/corpus-aware.md): what
    `deidentify --corpus-aware [--no-share-across-patients]` would release."""

    share_across_patients: bool = True

    def apply(self, docs: List[Any], patients: List[str]) -> None:
        """Learn the evidence from every Doc, then change each Doc's entities by it."""
        from ..deid.corpus_evidence import CorpusEvidence

        evidence = CorpusEvidence.from_docs(
            zip(docs, patients),
            share_titled_names=self.share_across_patients,
            share_site_places=self.share_across_patients,
        )
        for doc, patient in zip(docs, patients):
            evidence.apply(doc, patient)

    def info(self) -> Dict[str, Any]:
        return {"corpus_aware": True, "share_across_patients": self.share_across_patients}


@dataclass
class System:
    """A system to score: its predicted notes and what the report says about it."""

    name: str
    kind: str  # "pipeline" or "outputs"
    notes: List[Note]
    info: Dict[str, Any] = field(default_factory=dict)


def pipeline_info(nlp) -> Dict[str, Any]:
    meta = nlp.meta or {}
    return {
        "pipeline": f"{meta.get('lang', '')}_{meta.get('name', '')}",
        "version": meta.get("version"),
        "components": list(nlp.pipe_names),
        # Where the pipeline says it was trained (spaCy's meta "sources"/"trained_on" if set).
        "trained_on": meta.get("trained_on") or meta.get("sources"),
    }


def load_system(
    system: Union[str, Path],
    gold: List[Note],
    *,
    lenient: bool = False,
    log: Optional[ProblemLog] = None,
    operating_point: Optional[str] = None,
    corpus_aware: Optional[CorpusAware] = None,
) -> System:
    """Read an output folder, or load a pipeline (name or path) and run it on the
    gold texts: at `operating_point` (balanced, recall or a threshold) if given,
    corpus-aware over all the gold notes if `corpus_aware` is given."""
    if is_output_folder(system):
        if operating_point is not None or corpus_aware is not None:
            raise EvaluationInputError(
                f"{system}: a folder of system outputs; an operating point and corpus-aware "
                "scoring apply to a pipeline only"
            )
        return System(str(system), "outputs", read_notes(system, lenient=lenient, log=log))
    if operating_point is None:
        nlp = load_pipeline(system)
    else:
        from ..pipeline.confidence import load_at_operating_point

        nlp = load_at_operating_point(system, operating_point)
    info = pipeline_info(nlp)
    if operating_point is not None:
        info["operating_point"] = operating_point
    if corpus_aware is not None:
        info.update(corpus_aware.info())
    return System(str(system), "pipeline", run_pipeline(nlp, gold, corpus_aware=corpus_aware), info)
