"""`spacy-deid review`: one static HTML page of notes with their PHI marked,
most uncertain first, for authorised reviewers (the page shows note text).
The page is an annotation view whose export (a ZIP of i2b2 2014 XML, or JSONL) this
command opens again to continue a review (review/export.py)."""

import os
import random
from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from ..deid.files import atomic_write_text
from ..corpus.listing import input_files, is_hidden
from ..corpus.note_files import read_job
from ..corpus.note_input import InputError, NoteIn
from ..review.export import ExportError, is_export, read_export
from ..review.page import DEFAULT_LOW_SCORE, NOTICE, ReviewNote, render_page, review_note
from ._app import app


def read_review_notes(path: Path) -> List[NoteIn]:
    """Every note under `path` (.txt, i2b2 XML, .jsonl, .csv), in file order."""
    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    notes: List[NoteIn] = []
    for file in input_files(path):
        if is_hidden(file, path):
            continue
        job = read_job(file, file.relative_to(path) if path.is_dir() else Path(file.name))
        if job.refused:  # a bad JSONL line / CSV row: reported, never silently left out
            more = f" (and {len(job.refused) - 1} more)" if len(job.refused) > 1 else ""
            raise InputError(job.refused[0] + more)
        for note in job.notes:
            # Ids stay unique across files: "folder/file.jsonl:3".
            note_id = note.note_id if len(job.notes) == 1 else f"{job.relative}:{note.note_id}"
            notes.append(NoteIn(note.text, note_id, note.patient_id))
    return notes


@app.command(
    "review",
    help="Write one self-contained HTML page of notes with their PHI highlighted "
    "(subtype, score and provenance on hover; low-confidence spans marked; most "
    "uncertain notes first) where a reviewer accepts, rejects, relabels and adds spans "
    "and exports the corrected notes (a ZIP of i2b2 2014 XML, or JSONL, for `spacy-deid convert`). "
    "Given such an export as NOTES, the review continues from it (no model is run). "
    f"WARNING: {NOTICE}",
)
def review_cli(
    notes_path: Path = typer.Argument(
        ...,
        metavar="NOTES",
        help="A file or folder of .txt, i2b2 .xml, .jsonl or .csv notes, or a review export",
    ),
    output: Path = typer.Argument(
        ..., metavar="OUT.html", help="The page to write (contains note text!)"
    ),
    model: str = typer.Option("en_deid_psych", "--model", "-m", help="Pipeline (name or path)"),
    sample: Optional[int] = typer.Option(
        None, "--sample", min=1, help="Review a random sample of N notes"
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the sample"),
    sort: str = typer.Option(
        "uncertainty", "--sort", help="uncertainty (most unsure first) or input"
    ),
    operating_point: Optional[str] = typer.Option(
        None,
        "--operating-point",
        help="balanced, recall or a threshold in 0..1 (default: the pipeline's)",
    ),
    low_score: float = typer.Option(
        DEFAULT_LOW_SCORE, "--low-score", help="Spans scored below this are marked"
    ),
) -> None:
    if sort not in ("uncertainty", "input"):
        msg.fail("--sort must be 'uncertainty' or 'input'", exits=1)
    problem = output_problem(output)
    if problem:
        msg.fail(problem, exits=1)
    point = None
    try:
        if notes_path.exists() and is_export(notes_path):
            reviewed = read_export(notes_path)
            msg.info(f"Continuing the review exported in {notes_path}: no model is run")
            reviewed = _sample(reviewed, sample, seed)
            point = "as in the export"
        else:
            reviewed, point = _review_with_model(notes_path, model, operating_point, sample, seed)
    except (InputError, ExportError, ValueError, OSError) as err:
        msg.fail(str(err), exits=1)
    page = render_page(
        reviewed,
        sort=sort,
        low_score=low_score,
        operating_point=point,
        export_name=f"{output.stem}-export.zip",
    )
    try:
        atomic_write_text(output, page, private=True)
    except OSError as err:
        msg.fail(f"{output}: cannot write the page ({err.strerror or type(err).__name__})", exits=1)
    msg.good(
        f"Wrote {output} ({len(reviewed)} notes). It contains note text: authorised reviewers only."
    )


def output_problem(output: Path) -> Optional[str]:
    """Why the page cannot be written to `output`, checked before any work; None if it can."""
    if output.is_dir():
        return f"{output} is a folder: give the page's file name (e.g. {output / 'review.html'})"
    parent = output.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        return f"{output}: {parent} is a file, not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"{output}: the folder {parent} is not writable"
    return None


def _sample(notes: List, sample: Optional[int], seed: int) -> List:
    if sample is not None and sample < len(notes):
        return sorted(random.Random(seed).sample(notes, sample), key=lambda n: n.note_id)
    return notes


def _review_with_model(
    notes_path: Path, model: str, operating_point: Optional[str], sample: Optional[int], seed: int
):
    from ..pipeline.confidence import load_at_operating_point

    notes = read_review_notes(notes_path)
    nlp = load_at_operating_point(model, operating_point)
    if not notes:
        raise InputError(f"{notes_path}: no notes found")
    notes = _sample(notes, sample, seed)
    docs = nlp.pipe((n.text for n in notes), batch_size=8)
    reviewed: List[ReviewNote] = [review_note(doc, n.note_id) for n, doc in zip(notes, docs)]
    point = None
    if "deid_confidence" in nlp.pipe_names:
        point = str(nlp.get_pipe("deid_confidence").operating_point)
    return reviewed, point
