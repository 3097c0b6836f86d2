"""Where system output comes from: a spaCy pipeline run on the gold texts,
or a folder of i2b2 2014 XML files written by any tool."""
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Union

from ..corpus import Note, ProblemLog, doc_to_note, read_corpus

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
    nlp, gold: Iterable[Note], *, enable: Optional[Iterable[str]] = None, batch_size: int = 16
) -> List[Note]:
    """The pipeline's doc.ents on each gold text, as Notes with the gold note ids.

    `enable`: the components to run (all others are switched off); None runs all.
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
    return [doc_to_note(doc, note_id=note.note_id) for doc, note in zip(docs, gold)]


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
) -> System:
    """Read an output folder, or load a pipeline (name or path) and run it on the gold texts."""
    if is_output_folder(system):
        return System(str(system), "outputs", read_notes(system, lenient=lenient, log=log))
    nlp = load_pipeline(system)
    return System(str(system), "pipeline", run_pipeline(nlp, gold), pipeline_info(nlp))
