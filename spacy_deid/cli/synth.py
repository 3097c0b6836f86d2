"""`spacy-deid synth`: write fictional psychiatric intake notes with gold PHI
as i2b2 2014 XML (the package's default training corpus)."""
import time
from pathlib import Path
from typing import Optional

import srsly
import typer
from wasabi import msg

from ..corpus.i2b2_2014 import write_i2b2_2014
from ..synth.generate import TEMPLATE_HALVES, VALUE_HALVES, generate_notes_with_info
from ..synth.stats import format_table, summarize
from ._app import app


@app.command("synth")
def synth_cli(
    output_dir: Path = typer.Argument(..., help="Folder for the PPP-RR.xml files"),
    n: int = typer.Option(600, "--n", "-n", help="Number of notes", min=1),
    seed: int = typer.Option(0, "--seed", "-s", help="Random seed: same seed, same files"),
    templates: str = typer.Option(
        "all", "--templates", "-t",
        help="Template half: A (train), B (held-out test) or all",
    ),
    values: str = typer.Option(
        "all", "--values", "-v",
        help="Value half: PHI values from half A or B of every value list (name-held-out split), or all",
    ),
    nursing: Optional[float] = typer.Option(
        None, "--nursing",
        help="Share of ICU, ward and psychiatric-unit nursing notes (0 = none, below 1); "
             "default: the generator's NURSING_SHARE",
    ),
    report: Optional[Path] = typer.Option(
        None, "--report", "-r",
        help="Also write a JSON report: counts per subtype, lengths, diversity, phenomena",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print no summary table"),
) -> None:
    """Generate synthetic psychiatric intake notes (fictional, annotated)."""
    if templates not in TEMPLATE_HALVES:
        msg.fail(f"--templates must be one of {', '.join(TEMPLATE_HALVES)}", exits=1)
    if values not in VALUE_HALVES:
        msg.fail(f"--values must be one of {', '.join(v for v in VALUE_HALVES if v)}", exits=1)
    if nursing is not None and not 0 <= nursing < 1:
        msg.fail("--nursing must be at least 0 and below 1", exits=1)
    existing = sorted(output_dir.glob("*.xml")) if output_dir.is_dir() else []
    if existing:
        msg.warn(f"{output_dir} already holds {len(existing)} .xml files: files with the same "
                 "names are overwritten, the others are kept")
    start = time.perf_counter()
    pairs = []
    for note, info in generate_notes_with_info(n, seed, templates, values, nursing):
        write_i2b2_2014(note, output_dir / f"{note.note_id}.xml")
        pairs.append((note, info))
    seconds = time.perf_counter() - start
    summary = summarize(pairs, seconds)
    msg.good(f"Wrote {len(pairs)} notes to {output_dir} ({summary['notes_per_second']} notes/s)")
    if summary["missing_subtypes"]:
        msg.warn(f"Subtypes with no mention: {', '.join(summary['missing_subtypes'])}")
    if report is not None:
        srsly.write_json(report, summary)
        msg.good(f"Report written to {report}")
    if not quiet:
        for line in format_table(summary):
            print(line)
