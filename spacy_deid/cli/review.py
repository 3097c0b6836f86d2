"""`spacy-deid review`: one static HTML page of notes with their PHI marked,
most uncertain first, for authorised reviewers (the page shows note text)."""

import random
from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from ..deid.files import atomic_write_text
from ..deid.io import InputError, NoteIn, input_files, is_hidden, read_job
from ..review.page import DEFAULT_LOW_SCORE, NOTICE, render_page, review_note
from . import app


def read_review_notes(path: Path) -> List[NoteIn]:
    """Every note under `path` (.txt, i2b2 XML, .jsonl, .csv), in file order."""
    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    notes: List[NoteIn] = []
    for file in input_files(path):
        if is_hidden(file, path):
            continue
        job = read_job(file, file.relative_to(path) if path.is_dir() else Path(file.name))
        for note in job.notes:
            # Ids stay unique across files: "folder/file.jsonl:3".
            note_id = note.note_id if len(job.notes) == 1 else f"{job.relative}:{note.note_id}"
            notes.append(NoteIn(note.text, note_id, note.patient_id))
    return notes


@app.command(
    "review",
    help="Write one self-contained HTML page of notes with their PHI highlighted "
    "(subtype, score and provenance on hover; low-confidence spans marked; most "
    f"uncertain notes first). WARNING: {NOTICE}",
)
def review_cli(
    notes_path: Path = typer.Argument(
        ..., metavar="NOTES", help="A file or folder of .txt, i2b2 .xml, .jsonl or .csv notes"
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
    from ..pipeline.confidence import load_at_operating_point

    if sort not in ("uncertainty", "input"):
        msg.fail("--sort must be 'uncertainty' or 'input'", exits=1)
    try:
        notes = read_review_notes(notes_path)
        nlp = load_at_operating_point(model, operating_point)
    except (InputError, ValueError, OSError) as err:
        msg.fail(str(err), exits=1)
    if not notes:
        msg.fail(f"{notes_path}: no notes found", exits=1)
    if sample is not None and sample < len(notes):
        notes = sorted(random.Random(seed).sample(notes, sample), key=lambda n: n.note_id)
    docs = nlp.pipe((n.text for n in notes), batch_size=8)
    reviewed = [review_note(doc, note.note_id) for note, doc in zip(notes, docs)]
    point = None
    if "deid_confidence" in nlp.pipe_names:
        point = str(nlp.get_pipe("deid_confidence").operating_point)
    page = render_page(reviewed, sort=sort, low_score=low_score, operating_point=point)
    atomic_write_text(output, page, private=True)
    msg.good(
        f"Wrote {output} ({len(reviewed)} notes). It contains note text: authorised reviewers only."
    )
