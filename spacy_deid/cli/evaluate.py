"""`spacy-deid evaluate`: score a pipeline or a folder of system outputs
against gold i2b2 XML and write the report (Markdown, JSON, PNG plots)."""
from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from ..corpus import Note
from ..corpus.problems import CorpusFormatError, ProblemLog
from ..evaluation.measures import ALL_SUBTYPES, BINARY_TOKEN, LABEL_SETS, STRICT
from ..evaluation.pairing import EvaluationInputError, pair_notes
from ..evaluation.plots import MissingPlotDependency, require_matplotlib
from ..evaluation.report import build_report, write_report
from ..evaluation.schemes import I2B2_2014, get_scheme, scheme_names
from ..evaluation.systems import CorpusAware, System, load_system, read_notes
from ._app import app
from ._util import IF_EMPTY_HELP, corpus_path_or_default, warn_lines

# Errors that stop a command with a message (none of them carries note text).
INPUT_ERRORS = (CorpusFormatError, EvaluationInputError, FileNotFoundError, OSError, ValueError)
SYSTEM_HELP = "spaCy pipeline (name or path) or folder of i2b2 2014 XML system outputs"
SCHEME_HELP = (
    "The gold corpus's annotation scheme: " + ", ".join(scheme_names())
    + " (physionet: professions and ages under 90 left out, names word by word, "
    "binary token measures as the headline)"
)


def fail(error: Exception) -> "typer.Exit":
    msg.fail(str(error))
    return typer.Exit(code=1)


def read_gold(gold: Path, lenient: bool, log: Optional[ProblemLog] = None) -> List[Note]:
    notes = read_notes(gold, lenient=lenient, log=log)
    if not notes:
        raise EvaluationInputError(f"{gold}: no notes found")
    return notes


def check_label_set(label_set: str) -> None:
    if label_set not in LABEL_SETS:
        msg.fail(f"--labels must be one of {', '.join(LABEL_SETS)}", exits=1)


def load_scored_system(
    system: str,
    gold: List[Note],
    lenient: bool,
    log: Optional[ProblemLog] = None,
    operating_point: Optional[str] = None,
    corpus_aware: Optional[CorpusAware] = None,
) -> System:
    return load_system(system, gold, lenient=lenient, log=log,
                       operating_point=operating_point, corpus_aware=corpus_aware)


@app.command("evaluate")
def evaluate_cli(
    system: str = typer.Argument(..., help=SYSTEM_HELP),
    gold_arg: str = typer.Argument(
        ..., metavar="GOLD", help="Gold corpus: folder of i2b2 2014 XML (or another format)"
    ),
    output: Path = typer.Option(..., "--output", "-o", help="Folder for the report"),
    show_text: bool = typer.Option(
        False, "--show-text", help="Put the leaked tokens' text in the leak list (PHI!)"
    ),
    plots: bool = typer.Option(True, "--plots/--no-plots", help="Draw PNG plots (matplotlib)"),
    trained_on: Optional[str] = typer.Option(
        None, "--trained-on", help="The data the system was trained on, for the report"
    ),
    name: Optional[str] = typer.Option(None, "--name", help="System name in the report"),
    lenient: bool = typer.Option(False, "--lenient", help="Skip and count bad tags in the XML"),
    if_empty: Optional[Path] = typer.Option(None, "--if-empty", help=IF_EMPTY_HELP),
    scheme_name: str = typer.Option(I2B2_2014, "--scheme", help=SCHEME_HELP),
    operating_point: Optional[str] = typer.Option(
        None, "--operating-point",
        help="A pipeline's operating point: balanced, recall or a score threshold in 0..1, "
        "as `deidentify --operating-point` (docs/recall.md); default: the pipeline's",
    ),
    corpus_aware: bool = typer.Option(
        False, "--corpus-aware",
        help="Score what `deidentify --corpus-aware` releases: corpus evidence learned from all "
        "the gold notes' texts (patients from the corpus) and applied (docs/corpus-aware.md)",
    ),
    share_across_patients: bool = typer.Option(
        True, "--share-across-patients/--no-share-across-patients",
        help="With --corpus-aware: as `deidentify --no-share-across-patients` when off",
    ),
) -> None:
    """Score a system against gold notes: entity strict/relaxed, token, binary,
    all subtypes and HIPAA subsets, confusion matrix, leak list."""
    try:
        scheme = get_scheme(scheme_name)
    except ValueError as err:
        raise fail(err)
    gold = corpus_path_or_default(gold_arg, if_empty)
    if plots:
        try:
            require_matplotlib()
        except MissingPlotDependency as err:
            msg.fail(str(err) + " (or pass --no-plots)", exits=1)
    # What --lenient skips (gold and system files) is counted and shown.
    log = ProblemLog(lenient=lenient)
    try:
        gold_notes = read_gold(gold, lenient, log)
        aware = CorpusAware(share_across_patients) if corpus_aware else None
        scored = load_scored_system(system, gold_notes, lenient, log, operating_point, aware)
        pairs = pair_notes(gold_notes, scored.notes)
    except INPUT_ERRORS as err:
        raise fail(err)
    if log.total:
        warn_lines(log.summary())
    system_info = {
        "name": name or scored.name,
        "kind": scored.kind,
        **scored.info,
        "trained_on": trained_on or scored.info.get("trained_on"),
    }
    report = build_report(
        pairs, system=system_info, gold={"path": str(gold)}, show_text=show_text, scheme=scheme
    )
    written = write_report(report, output, plots=plots)
    scores = report["scores"][ALL_SUBTYPES]
    strict, binary = scores[STRICT]["overall"], scores[BINARY_TOKEN]["overall"]

    def pct(value: Optional[float]) -> str:
        return "–" if value is None else f"{100 * value:.2f}"

    if scheme.headline == BINARY_TOKEN:
        headline = (
            f"{scheme.name} scheme: binary token P {pct(binary['p'])} R {pct(binary['r'])} "
            f"F1 {pct(binary['f'])}; strict F1 {pct(strict['f'])}"
        )
    else:
        headline = (
            f"strict P {pct(strict['p'])} R {pct(strict['r'])} F1 {pct(strict['f'])}; "
            f"binary token recall {pct(binary['r'])}"
        )
    msg.good(
        f"{len(pairs)} notes: {headline}; {len(report['leaks']['entries'])} leaked token(s)"
    )
    for path in written.values():
        msg.text(f"wrote {path}")
