"""The options `deidentify` and `deidentify-spark` share, declared once.

Each is a typer option object a command takes as its parameter's default
(`operator: str = OPERATOR`); typer builds the same option for both commands
from it, so a name, default or help text cannot drift between them. The
defaults come from the layers that own them (deid/operators.py, the input
fields of corpus/note_input.py).
"""
from typing import List, Optional

import typer

from ..corpus.note_input import DEFAULT_PATIENT_FIELD, DEFAULT_TEXT_FIELD
from ..deid import operators as ops

# The block of a --config file that builds the Deidentifier.
CONFIG_SECTION = "deidentifier"

OPERATOR: str = typer.Option(
    ops.PLACEHOLDER,
    "--operator",
    "-o",
    help=f"Replacement for every subtype: {', '.join(ops.GENERAL_OPERATORS)} "
    "(DATE under surrogate is shifted)",
)
SUBTYPE_OPERATOR: List[str] = typer.Option(
    [],
    "--subtype-operator",
    "-s",
    help=f"SUBTYPE=operator, repeatable (operators: {', '.join(ops.OPERATORS)}); "
    "AGE defaults to hipaa_age",
)
CONFIG = typer.Option(
    None,
    "--config",
    "-c",
    # {!r}, not [...]: typer's help would read square brackets as markup
    help=f"A .cfg file whose {CONFIG_SECTION!r} block (spacy-deid.Deidentifier.v1) sets "
    "the operators",
)
DATE_SHIFT_MIN: int = typer.Option(
    ops.DATE_SHIFT_MIN_DAYS, "--date-shift-min", help="Smallest date offset, in days"
)
DATE_SHIFT_MAX: int = typer.Option(
    ops.DATE_SHIFT_MAX_DAYS, "--date-shift-max", help="Largest date offset, in days"
)
OPERATING_POINT: Optional[str] = typer.Option(
    None,
    "--operating-point",
    help="balanced, recall (removes more: lower threshold, NER candidates, safety net) "
    "or a score threshold in 0..1; default: the pipeline's (docs/recall.md)",
)
BATCH_SIZE: int = typer.Option(32, "--batch-size", "-b", min=1, help="Notes per nlp.pipe batch")
TEXT_FIELD: str = typer.Option(
    DEFAULT_TEXT_FIELD, "--text-field", help="JSONL field / CSV or Parquet column with the text"
)
PATIENT_FIELD: str = typer.Option(
    DEFAULT_PATIENT_FIELD,
    "--patient-field",
    help="JSONL field / CSV or Parquet column with the patient id (optional: a note "
    "without one is its own patient)",
)


def check_seed(seed: Optional[str]) -> None:
    """An empty or blank --seed is refused: surrogates and date offsets keyed by
    an empty secret could be recomputed by anyone (None: no seed given)."""
    if seed is not None and not seed.strip():
        raise ValueError(
            "--seed is empty: give a secret seed (or, for deidentify, leave --seed out)"
        )
