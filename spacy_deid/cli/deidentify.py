"""`spacy-deid deidentify`: release de-identified copies of a folder of notes."""

import gc
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, List, Optional

import typer
from wasabi import msg

from ..deid.batch import (
    MappingWriteError,
    OutputInUseError,
    PipelineError,
    check_run_paths,
    run_batch,
)
from ..deid.mapping import DeidMapping, MappingFormatError
from . import release_options as shared
from ._app import app
from ._util import build_deidentifier


@app.command("deidentify")
def deidentify_cli(
    input_path: Path = typer.Argument(
        ..., help="A file or folder of .txt, i2b2 2014 .xml, .jsonl or .csv notes"
    ),
    output_dir: Path = typer.Argument(
        ..., help="Folder for the released files (same names and formats)"
    ),
    model: str = typer.Option(
        ..., "--model", "-m", help="Pipeline (name or path) that sets PHI doc.ents"
    ),
    operator: str = shared.OPERATOR,
    subtype_operator: List[str] = shared.SUBTYPE_OPERATOR,
    config: Optional[Path] = shared.CONFIG,
    mapping: Optional[Path] = typer.Option(
        None,
        "--mapping",
        help="Mapping file (PHI! keep it away from the output): loaded if it exists, saved as the run goes",
    ),
    seed: Optional[str] = typer.Option(
        None, "--seed", help="Secret seed for surrogates and date offsets"
    ),
    date_shift_min: int = shared.DATE_SHIFT_MIN,
    date_shift_max: int = shared.DATE_SHIFT_MAX,
    n_process: int = typer.Option(1, "--n-process", "-n", min=1, help="Processes for nlp.pipe"),
    batch_size: int = shared.BATCH_SIZE,
    text_field: str = shared.TEXT_FIELD,
    patient_field: str = shared.PATIENT_FIELD,
    audit_dir: Optional[Path] = typer.Option(
        None, "--audit-dir", help="Also write i2b2 XML per note with the replacements tagged"
    ),
    overwrite: bool = typer.Option(
        False, "--overwrite", help="Redo files whose output exists (default: resume)"
    ),
    progress: bool = typer.Option(
        True, "--progress/--no-progress", help="Show a notes/s progress bar"
    ),
    operating_point: Optional[str] = shared.OPERATING_POINT,
    corpus_aware: bool = typer.Option(
        False,
        "--corpus-aware",
        help="Two passes: learn site vocabulary and identifying words from the whole batch "
        "(counts only), then drop and add entities by them (docs/corpus-aware.md)",
    ),
    share_across_patients: bool = typer.Option(
        True,
        "--share-across-patients/--no-share-across-patients",
        help="With --corpus-aware: add the site's clinicians (seen after 'Dr.') and places "
        "(tagged in several patients' notes) wherever a note leaves them untagged; with "
        "--no-share-across-patients no note's output depends on another patient's notes' names",
    ),
) -> None:
    """De-identify notes with a pipeline: placeholders, numbered placeholders,
    consistent surrogates with per-patient date shifting, or removal."""
    deid_mapping = None
    try:  # links followed, before the mapping is read or any note processed
        check_run_paths(input_path, output_dir, audit_dir=audit_dir, mapping_path=mapping)
    except (FileNotFoundError, ValueError) as err:
        msg.fail(str(err), exits=1)
    if mapping is not None and mapping.is_file():
        try:
            deid_mapping = DeidMapping.from_disk(mapping)
        except (MappingFormatError, OSError) as err:
            msg.fail(str(err), exits=1)
    try:
        deid = build_deidentifier(
            config=config,
            operator=operator,
            subtype_operator=subtype_operator,
            seed=seed,
            date_shift_min=date_shift_min,
            date_shift_max=date_shift_max,
            mapping=deid_mapping,
        )
    except ValueError as err:
        msg.fail(str(err), exits=1)
    if mapping is None and seed is None:
        msg.warn(
            "No --mapping or --seed: surrogates and date offsets of this run cannot be "
            "reproduced by a later (or resumed) run"
        )
    from ..pipeline.confidence import load_at_operating_point

    try:
        nlp = load_at_operating_point(model, operating_point)
    except ValueError as err:  # a bad --operating-point
        msg.fail(str(err), exits=1)
    except OSError as err:  # spaCy's E050 / E053: no such package or folder
        msg.fail(f"--model {model}: {err}", exits=1)
    try:
        with loaded_objects_frozen():
            adjust_doc = None
            if corpus_aware:
                from ..deid.corpus_evidence import learn_from_inputs

                evidence = learn_from_inputs(
                    nlp, input_path, text_field=text_field, patient_field=patient_field,
                    n_process=n_process, batch_size=batch_size,
                    share_titled_names=share_across_patients,
                    share_site_places=share_across_patients,
                )
                msg.info(evidence.summary())
                adjust_doc = evidence.apply
            summary = run_batch(
                nlp,
                deid,
                input_path,
                output_dir,
                n_process=n_process,
                batch_size=batch_size,
                text_field=text_field,
                patient_field=patient_field,
                mapping_path=mapping,
                audit_dir=audit_dir,
                overwrite=overwrite,
                progress=progress,
                adjust_doc=adjust_doc,
            )
    except (FileNotFoundError, ValueError, OutputInUseError, PipelineError,
            MappingWriteError) as err:
        msg.fail(str(err), exits=1)
    first, *rest = summary.lines()
    (msg.good if summary.complete else msg.warn)(first)
    for line in rest:
        print(line)
    if not summary.complete:  # a failed file or a refused line: not every note released
        raise typer.Exit(code=1)


@contextmanager
def loaded_objects_frozen() -> Iterator[None]:
    """Keep everything loaded so far (the pipeline's word lists, lexicons and
    model objects: about 250,000 tracked objects) out of Python's cyclic garbage
    collector while notes are processed (`gc.freeze`).

    A full collection walks every tracked object; with the default pipeline
    loaded one took about 0.25 CPU-s and ran every other pass over the 15 dev
    notes (docs/speed.md). Frozen objects are still freed when their last
    reference goes; only the cycle search skips them. Forked `--n-process`
    workers inherit the frozen state, so their collections do not touch (and
    copy) the parent's pages either. Unfrozen afterwards, for a caller that goes
    on in the same process (tests, notebooks); a caller that froze first keeps
    its own setting.
    """
    if gc.get_freeze_count():
        yield
        return
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
