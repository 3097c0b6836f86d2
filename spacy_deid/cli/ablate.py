"""`spacy-deid ablate`: the pipeline with its components added one step at a
time (cumulative, like Table 7 of the hybrid-system paper), each row tested
against the previous one."""
import json
from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from ..evaluation.ablation import AblationError, ablation_markdown, run_ablation
from ..evaluation.measures import ALL_SUBTYPES, LABEL_SETS
from ..evaluation.significance import DEFAULT_ALPHA, DEFAULT_ITERATIONS
from ._app import app
from .evaluate import INPUT_ERRORS, check_label_set, fail, read_gold

LABEL_SETS_HELP = "Label set: " + ", ".join(LABEL_SETS)


@app.command("ablate")
def ablate_cli(
    model: str = typer.Argument(..., help="spaCy pipeline (name or path)"),
    gold: Path = typer.Argument(..., help="Gold corpus: folder of i2b2 2014 XML", exists=True),
    step: Optional[List[str]] = typer.Option(
        None, "--step", "-s",
        help="One row: components (and true/false settings components.NAME.SETTING, "
        "false in earlier rows) added together, comma-separated; repeat in order. "
        "Default: one row per component, in pipeline order",
    ),
    keep: Optional[List[str]] = typer.Option(
        None, "--keep", "-k", help="Component that always runs (e.g. the transformer); repeatable"
    ),
    iterations: int = typer.Option(DEFAULT_ITERATIONS, "--iterations", "-n", min=1),
    seed: int = typer.Option(0, "--seed"),
    alpha: float = typer.Option(DEFAULT_ALPHA, "--alpha"),
    label_set: str = typer.Option(ALL_SUBTYPES, "--labels", help=LABEL_SETS_HELP),
    output: Optional[Path] = typer.Option(
        None, "--output", "-o", help="Folder for ablation.md and ablation.json"
    ),
    lenient: bool = typer.Option(False, "--lenient", help="Skip and count bad tags in the XML"),
) -> None:
    """Cumulative ablation table (strict entity P/R/F1, significance vs the row above)."""
    check_label_set(label_set)
    steps = [[name.strip() for name in s.split(",") if name.strip()] for s in step or []]
    try:
        gold_notes = read_gold(gold, lenient)
        rows = run_ablation(
            model, gold_notes, steps=steps or None, keep=keep or [], label_set=label_set,
            iterations=iterations, seed=seed,
        )
    except AblationError as err:
        raise fail(err)
    except INPUT_ERRORS as err:
        raise fail(err)
    table = ablation_markdown(rows, alpha=alpha, label_set=label_set)
    print(table)
    if output is not None:
        output.mkdir(parents=True, exist_ok=True)
        header = f"# Ablation: {model} on {gold} ({len(gold_notes)} notes)\n\n"
        if keep:
            header += f"Always on: {', '.join(keep)}.\n\n"
        (output / "ablation.md").write_text(header + table, encoding="utf-8")
        data = {
            "model": model, "gold": str(gold), "notes": len(gold_notes), "labels": label_set,
            "keep": keep or [], "iterations": iterations, "seed": seed, "alpha": alpha,
            "rows": [row.to_dict() for row in rows],
        }
        (output / "ablation.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        msg.good(f"wrote {output / 'ablation.md'} and {output / 'ablation.json'}")
