"""Transfer learning: the fine-tune strategy's training config.

The NeuroNER transfer study found two strategies best when an external
annotated corpus (e.g. i2b2 2014) sits beside the target one (e.g. N-GRID
2016): *concurrent* (train on both together; needs only a folder holding
both .spacy files) and *fine-tune* (train on the external corpus, then go on
training that pipeline on the target corpus). For fine-tuning, every trained
component of the base config is sourced from the external pipeline instead
of being built by its factory; spaCy then resumes their training rather than
initializing them afresh, keeping the learned weights, labels, rules and
dictionaries. The [training], [corpora] and [initialize] blocks stay those of
the base config.

For a site's own corrected notes (the review page's export), `mixed_notes`
mixes them with generated notes (rehearsal) for the `fine-tune-site`
workflow (docs/review.md). `phi_windows` cuts the site's notes at line breaks
and keeps the lines that hold PHI with only a share of those that do not:
real notes mostly carry no PHI, and training on all of their text teaches
the NER to fire less.
"""
import random
from dataclasses import replace
from pathlib import Path
from typing import Iterator, List, Optional, Sequence, Sized, Tuple, TypeVar, Union

from thinc.api import Config

from .corpus.note import Note

T = TypeVar("T")

# The optimizer's rate when a site fine-tunes the installed pipeline on its
# corrected notes (`fine-tune-site`, var site_learn_rate): a fifth of the rate the
# pipeline was trained with. At the full rate a few hundred small batches move
# the weights far from what the generated notes taught and the site's held-out
# recall falls below the pipeline's own (docs/review.md, the learning curve).
SITE_LEARN_RATE = 0.0002


def check_learn_rate(learn_rate: Optional[float]) -> None:
    """ValueError unless `learn_rate` is None (keep the base's) or in (0, 1)."""
    if learn_rate is not None and not 0 < learn_rate < 1:
        raise ValueError(f"the learn rate must be between 0 and 1, not {learn_rate}")


def finetune_config(
    base: Config, source: Union[str, Path], learn_rate: Optional[float] = None
) -> Config:
    """`base` with each pipeline component sourced from the pipeline `source`,
    and the optimizer's `learn_rate` if one is given (else the base's)."""
    check_learn_rate(learn_rate)
    config = Config(base).copy()
    pipeline = config["nlp"]["pipeline"]
    missing = [name for name in pipeline if name not in config["components"]]
    if missing:
        raise ValueError(f"the base config lists {', '.join(missing)} but has no block for them")
    for name in pipeline:
        config["components"][name] = {"source": str(source)}
    if learn_rate is not None:
        config["training"]["optimizer"]["learn_rate"] = learn_rate
    return config


def site_copies(site: Sized, generated: Sized, repeat: Optional[int] = None) -> int:
    """How often each site note is repeated: `repeat`, or about as many site
    notes as generated ones."""
    return repeat if repeat is not None else max(1, round(len(generated) / max(1, len(site))))


def mixed_notes(
    site: Sequence[T], generated: Sequence[T], repeat: Optional[int] = None, seed: int = 0
) -> Tuple[List[T], int]:
    """A site's corrected notes mixed with generated notes, shuffled, and the copies made.

    Fine-tuning on a few site notes alone would forget what the generated
    notes taught (rehearsal keeps it); the site notes are repeated (`repeat`,
    default about as many site notes as generated ones) so they still weigh.
    """
    copies = site_copies(site, generated, repeat)
    notes = [note for note in site for _ in range(copies)] + list(generated)
    random.Random(seed).shuffle(notes)
    return notes, copies


def line_windows(note: Note) -> Iterator[Tuple[int, int]]:
    """(start, end) of the note's lines, each with its line break; a line
    break inside a PHI mention joins the lines on either side."""
    start = 0
    for position, char in enumerate(note.text):
        if char != "\n":
            continue
        if any(m.start <= position < m.end for m in note.mentions):
            continue
        yield start, position + 1
        start = position + 1
    if start < len(note.text):
        yield start, len(note.text)


def phi_windows(notes: Sequence[Note], phi_free_share: float, seed: int = 0) -> List[Note]:
    """The notes' lines as notes of their own: every line holding PHI, and a
    share `phi_free_share` (0..1, drawn with `seed`) of the lines with none.
    Blank lines are left out. Ids are `<note id>#<line index>`. A share of 1
    keeps all text: the notes are returned whole."""
    if not 0.0 <= phi_free_share <= 1.0:
        raise ValueError(f"phi_free_share must be in 0..1, not {phi_free_share}")
    if phi_free_share == 1.0:
        return list(notes)
    rng = random.Random(seed)
    windows: List[Note] = []
    for note in notes:
        for index, (start, end) in enumerate(line_windows(note)):
            text = note.text[start:end]
            if not text.strip():
                continue
            mentions = [
                replace(m, start=m.start - start, end=m.end - start)
                for m in note.mentions
                if start <= m.start and m.end <= end
            ]
            if not mentions and rng.random() >= phi_free_share:
                continue
            windows.append(
                Note(f"{note.note_id}#{index}", text, mentions, note.patient_id, note.source_file)
            )
    return windows
