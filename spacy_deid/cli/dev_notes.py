"""`spacy-deid dev-notes`: write out the shipped fictional development notes."""
from pathlib import Path

import typer
from wasabi import msg

from ..dev_notes import copy_dev_notes
from ._app import app


@app.command("dev-notes")
def dev_notes_cli(
    output_dir: Path = typer.Argument(..., help="Folder for the i2b2 2014 XML files"),
) -> None:
    """Copy the package's fictional development notes (gold PHI, i2b2 2014 XML)."""
    copied = copy_dev_notes(output_dir)
    msg.good(f"Wrote {len(copied)} development notes to {output_dir}")
