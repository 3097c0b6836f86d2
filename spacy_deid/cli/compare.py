"""`spacy-deid compare`: is system A's strict entity P/R/F1 significantly
different from system B's? Approximate randomization with document-level
shuffling (Chinchor 1992)."""
import json
from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from ..evaluation.measures import ALL_SUBTYPES, LABEL_SETS, STRICT
from ..evaluation.pairing import pair_notes
from ..evaluation.scores import Evaluation
from ..evaluation.significance import DEFAULT_ALPHA, DEFAULT_ITERATIONS, approximate_randomization
from ._app import app
from .evaluate import (
    INPUT_ERRORS,
    SYSTEM_HELP,
    check_label_set,
    fail,
    load_scored_system,
    read_gold,
)

_NAMES = {"p": "precision", "r": "recall", "f": "F1"}

LABEL_SETS_HELP = "Label set: " + ", ".join(LABEL_SETS)


@app.command("compare")
def compare_cli(
    system_a: str = typer.Argument(..., help="System A: " + SYSTEM_HELP),
    system_b: str = typer.Argument(..., help="System B: " + SYSTEM_HELP),
    gold: Path = typer.Argument(..., help="Gold corpus: folder of i2b2 2014 XML", exists=True),
    iterations: int = typer.Option(DEFAULT_ITERATIONS, "--iterations", "-n", min=1),
    seed: int = typer.Option(0, "--seed", help="Random seed of the shuffles"),
    alpha: float = typer.Option(DEFAULT_ALPHA, "--alpha", help="Significance level"),
    label_set: str = typer.Option(ALL_SUBTYPES, "--labels", help=LABEL_SETS_HELP),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the result as JSON"),
    lenient: bool = typer.Option(False, "--lenient", help="Skip and count bad tags in the XML"),
) -> None:
    """Approximate randomization test on strict entity P, R and F1."""
    check_label_set(label_set)
    try:
        gold_notes = read_gold(gold, lenient)
        per_note = []
        for system in (system_a, system_b):
            scored = load_scored_system(system, gold_notes, lenient)
            pairs = pair_notes(gold_notes, scored.notes)
            per_note.append(Evaluation(pairs).per_note(STRICT, label_set))
    except INPUT_ERRORS as err:
        raise fail(err)
    results = approximate_randomization(
        per_note[0], per_note[1], iterations=iterations, seed=seed
    )
    msg.divider(f"A: {system_a} | B: {system_b} | {len(gold_notes)} notes, labels {label_set}")
    rows = []
    for metric in ("p", "r", "f"):
        r = results[metric]
        rows.append((
            _NAMES[metric], f"{100 * r.a:.2f}", f"{100 * r.b:.2f}", f"{100 * r.difference:+.2f}",
            f"{r.s:.4f}", "yes" if r.significant(alpha) else "no",
        ))
    msg.table(rows, header=("strict", "A", "B", "A - B", "s", f"s <= {alpha}"), divider=True,
              aligns=("l", "r", "r", "r", "r", "l"))
    msg.text(f"N = {iterations} shuffles, seed {seed}; s = (n + 1) / (N + 1)")
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "a": system_a, "b": system_b, "gold": str(gold), "notes": len(gold_notes),
            "labels": label_set, "seed": seed, "alpha": alpha,
            "results": {m: r.to_dict() for m, r in results.items()},
        }
        output.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        msg.text(f"wrote {output}")
