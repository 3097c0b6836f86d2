"""`spacy-deid calibrate` and `spacy-deid evaluate-confidence`: fit the score
calibration of a pipeline on held-out annotated notes, and report how well
calibrated it is, with the precision-recall curve and both operating points."""

from pathlib import Path
from typing import List, Optional

import srsly
import typer
from wasabi import msg

from ..corpus import Note
from ..evaluation.calibration import (
    ScoredNote,
    calibration_records,
    confidence_report,
    decision_records,
    fit_keep_drop,
)
from ..evaluation.pairing import pair_notes
from ..evaluation.report import build_report, write_report
from ..evaluation.systems import pipeline_info, read_notes
from ..pipeline.confidence.decision import DEFAULT_POSITIVE_WEIGHT
from ._app import app
from ._util import IF_EMPTY_HELP, corpus_path_or_default

HELDOUT_HELP = (
    "Held-out annotated notes (never the evaluation notes): e.g. "
    "`spacy-deid synth OUT --seed 11` with a seed the pipeline was not trained on"
)


def _load(model: str):
    import spacy

    from ..pipeline.confidence import add_confidence_pipes

    nlp = spacy.load(model)
    added = add_confidence_pipes(nlp)
    if added:
        msg.info(f"Added {', '.join(added)} to the pipeline")
    nlp.get_pipe("deid_confidence").operating_point = "balanced"
    return nlp


def score_notes(nlp, notes: List[Note], batch_size: int = 8) -> List[ScoredNote]:
    """Run the pipeline (at its current operating point) on annotated notes."""
    docs = nlp.pipe((n.text for n in notes), batch_size=batch_size)
    return [
        ScoredNote(n.note_id, n.text, [m.key() for m in n.mentions], doc)
        for n, doc in zip(notes, docs)
    ]


def _read_site(path: Path) -> List[Note]:
    """A site's corrected notes: a review export (.zip, .jsonl) or a corpus."""
    from ..review.export import ExportError, unpacked

    try:
        with unpacked(path) as site_path:
            return _read(site_path)
    except ExportError as error:
        msg.fail(str(error), exits=1)


def _read(path: Path) -> List[Note]:
    notes = read_notes(path)
    if not notes:
        msg.fail(f"{path}: no notes found", exits=1)
    return notes


@app.command("calibrate")
def calibrate_cli(
    model: str = typer.Argument(..., help="Trained pipeline (name or path)"),
    heldout: Path = typer.Argument(..., help=HELDOUT_HELP),
    output: Path = typer.Argument(
        ..., help="Folder for the calibrated pipeline (may be MODEL itself)"
    ),
    min_count: int = typer.Option(
        30, "--min-count", min=1, help="Spans an evidence class needs for its own curve"
    ),
    map_out: Optional[Path] = typer.Option(
        None, "--map", help="Also write the calibration map (JSON) here"
    ),
    decision: bool = typer.Option(
        True, "--decision/--no-decision",
        help="Fit the keep/drop decision on the soft drops (off: no decision, every "
        "drop rule a veto)",
    ),
    site: Optional[Path] = typer.Option(
        None, "--site",
        help="A site's corrected notes (review export .zip/.jsonl or a corpus folder): "
        "the decision is fitted on their soft drops too, so that the site's corrections "
        "can overrule a drop rule (fine-tune-site)",
    ),
    positive_weight: float = typer.Option(
        DEFAULT_POSITIVE_WEIGHT, "--positive-weight", min=0.0,
        help="Class weight of the PHI rows when fitting the decision (recall first)",
    ),
) -> None:
    """Fit the calibration map of deid_confidence on held-out notes, and its
    keep/drop decision on the mentions the reconciler's soft drop rules removed,
    and save the pipeline with them (adding deid_ner_scores, deid_safety_net and
    deid_confidence where missing)."""
    nlp = _load(model)
    component = nlp.get_pipe("deid_confidence")
    # The map is fitted on the spans as the reconciler left them (a decision
    # fitted before would restore some): refitted below.
    component.decision = None
    notes = score_notes(nlp, _read(heldout))
    site_notes = score_notes(nlp, _read_site(site)) if site is not None else []
    from ..pipeline.confidence.calibration_map import CalibrationMap

    try:
        calibration = CalibrationMap.fit(calibration_records(notes), min_count=min_count)
        fitted = None
        if decision:
            fitted = fit_keep_drop(
                decision_records(component, notes),
                decision_records(component, site_notes),
                positive_weight=positive_weight,
            )
    except (ImportError, ValueError) as err:
        msg.fail(str(err), exits=1)
    component.initialize(
        calibration=calibration.to_dict(),
        decision=fitted.to_dict() if fitted is not None else None,
    )
    nlp.to_disk(output)
    if map_out is not None:
        srsly.write_json(map_out, calibration.to_dict())
    msg.good(
        f"Calibrated on {len(notes)} notes ({len(calibration.classes)} evidence classes); "
        f"saved {output}"
    )
    if decision and fitted is None:
        msg.warn("No soft drop in the notes: no keep/drop decision (every drop rule a veto)")
    if fitted is not None:
        info = fitted.fitted_on
        msg.info(
            f"Keep/drop decision: {info['rows']} soft drops ({info['phi_rows']} PHI; "
            f"{info['site_rows']} from the site, weight {info['site_row_weight']}), "
            f"{len(fitted.weights)} features"
        )


@app.command("evaluate-confidence")
def evaluate_confidence_cli(
    model: str = typer.Argument(..., help="Pipeline with deid_confidence (name or path)"),
    gold_arg: str = typer.Argument(
        ..., metavar="GOLD", help="Gold notes: folder of i2b2 2014 XML (or another format)"
    ),
    output: Path = typer.Option(..., "--output", "-o", help="Folder for the report"),
    recall_threshold: Optional[float] = typer.Option(
        None, "--recall-threshold", help="Override the pipeline's recall threshold"
    ),
    plots: bool = typer.Option(True, "--plots/--no-plots", help="Draw PNG plots (matplotlib)"),
    name: Optional[str] = typer.Option(None, "--name", help="System name in the report"),
    if_empty: Optional[Path] = typer.Option(None, "--if-empty", help=IF_EMPTY_HELP),
) -> None:
    """The evaluation report at the balanced point, plus the confidence section:
    reliability tables and ECE, both operating points, the safety net's own gain,
    and the binary-token precision-recall curve over score thresholds."""
    gold = corpus_path_or_default(gold_arg, if_empty)
    nlp = _load(model)
    component = nlp.get_pipe("deid_confidence")
    if recall_threshold is not None:
        component.recall_threshold = recall_threshold
    gold_notes = _read(gold)
    scored = score_notes(nlp, gold_notes)
    predicted = [Note(n.note_id, n.text, _mentions(n)) for n in scored]
    pairs = pair_notes(gold_notes, predicted)
    report = build_report(
        pairs,
        system={"name": name or model, "kind": "pipeline", **pipeline_info(nlp)},
        gold={"path": str(gold)},
    )
    report["confidence"] = confidence_report(scored, recall_threshold=component.recall_threshold)
    written = write_report(report, output, plots=plots)
    points = report["confidence"]["points"]
    ece = report["confidence"]["reliability"]["balanced_output"]["ece"]
    msg.good(
        "binary token P/R: balanced {:.2f}/{:.2f}, recall {:.2f}/{:.2f}; ECE {}".format(
            100 * (points["balanced"]["p"] or 0),
            100 * (points["balanced"]["r"] or 0),
            100 * (points["recall"]["p"] or 0),
            100 * (points["recall"]["r"] or 0),
            "–" if ece is None else f"{ece:.3f}",
        )
    )
    for path in written.values():
        msg.text(f"wrote {path}")


def _mentions(note: ScoredNote):
    from ..corpus.note import PhiMention

    return [PhiMention(e.start_char, e.end_char, e.label_) for e in note.doc.ents]
