"""`spacy-deid deidentify-spark`: release Parquet or JSONL notes on Spark
(pip install "spacy-deid[spark]"; Java 17+). See docs/spark.md."""

import time
from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from ..deid import operators as ops
from ..deid.release import Deidentifier
from . import app
from .deidentify import CONFIG_SECTION


@app.command("deidentify-spark")
def deidentify_spark_cli(
    input_path: str = typer.Argument(
        ...,
        help="Parquet or JSONL notes: a file or folder, any path Spark reads (hdfs://, s3a://)",
    ),
    output_path: str = typer.Argument(
        ...,
        help="Folder the released notes are appended to (a rerun skips the note ids already there)",
    ),
    model: str = typer.Option(
        ..., "--model", "-m", help="Pipeline (installed name, or a path every executor can read)"
    ),
    seed: str = typer.Option(
        ...,
        "--seed",
        envvar="SPACY_DEID_SEED",  # keeps the secret out of process lists and shell history
        help="Secret seed for surrogates and date offsets (required: executors share nothing else)",
    ),
    operator: str = typer.Option(
        ops.PLACEHOLDER,
        "--operator",
        "-o",
        help=f"Replacement for every subtype: {', '.join(ops.GENERAL_OPERATORS)} "
        "(DATE under surrogate is shifted)",
    ),
    subtype_operator: List[str] = typer.Option(
        [], "--subtype-operator", "-s", help="SUBTYPE=operator, repeatable"
    ),
    config: Optional[Path] = typer.Option(
        None,
        "--config",
        "-c",
        help=f"A .cfg file whose [{CONFIG_SECTION}] block sets the operators",
    ),
    mapping: Optional[str] = typer.Option(
        None,
        "--mapping",
        help="Mapping dataset (Parquet; PHI! never beside the output): read, then appended to",
    ),
    date_shift_min: int = typer.Option(
        -365, "--date-shift-min", help="Smallest date offset, in days"
    ),
    date_shift_max: int = typer.Option(
        365, "--date-shift-max", help="Largest date offset, in days"
    ),
    operating_point: Optional[str] = typer.Option(
        None, "--operating-point", help="balanced, recall or a threshold in 0..1 (as deidentify)"
    ),
    input_format: str = typer.Option(
        "auto", "--input-format", help="auto (by suffix), parquet or jsonl"
    ),
    output_format: Optional[str] = typer.Option(
        None, "--output-format", help="parquet or jsonl (default: the input's)"
    ),
    id_field: str = typer.Option(
        "note_id", "--id-field", help="Column / JSON field with the note id"
    ),
    text_field: str = typer.Option(
        "text", "--text-field", help="Column / JSON field with the text"
    ),
    patient_field: str = typer.Option(
        "patient_id", "--patient-field", help="Column / JSON field with the patient id"
    ),
    order_by: Optional[str] = typer.Option(
        None, "--order-by", help="Column giving the order of a patient's notes (default: note id)"
    ),
    master: Optional[str] = typer.Option(
        None, "--master", help="Spark master (default: spark-submit's, else local[*])"
    ),
    partitions: Optional[int] = typer.Option(
        None, "--partitions", min=1, help="Shuffle partitions for the group-by-patient stage"
    ),
    batch_size: int = typer.Option(
        32, "--batch-size", "-b", min=1, help="Notes per nlp.pipe batch"
    ),
    max_note_chars: Optional[int] = typer.Option(
        None,
        "--max-note-chars",
        min=1,
        help="Longer notes get the status too_large (default 2,000,000)",
    ),
) -> None:
    """De-identify notes on Apache Spark: the same pipeline, operators and
    surrogates as `deidentify`, one task per patient for the release."""
    try:
        from ..spark import Columns, DeidSettings, deidentify_dataframe, pending, status_counts
        from ..spark import io as spark_io
        from ..spark.session import get_session
        from ..spark.settings import DEFAULT_MAX_NOTE_CHARS
    except ImportError as err:
        msg.fail(str(err), exits=1)
    if mapping is not None and _inside(mapping, output_path):
        msg.fail(
            f"the mapping {mapping} is inside the output {output_path}: the mapping is PHI "
            "and must never be released with the notes; put it elsewhere",
            exits=1,
        )
    try:
        in_format = spark_io.guess_format(input_path, input_format)
        out_format = spark_io.guess_format(output_path, output_format or in_format)
        deid = _deidentifier(
            config, operator, subtype_operator, seed, date_shift_min, date_shift_max
        )
        columns = Columns(id_field, patient_field, text_field, order_by)
        settings = DeidSettings.from_deidentifier(
            deid,
            model,
            operating_point=operating_point,
            batch_size=batch_size,
            max_note_chars=max_note_chars or DEFAULT_MAX_NOTE_CHARS,
            columns=columns,
        )
    except ValueError as err:
        msg.fail(str(err), exits=1)
    spark = get_session(master, partitions)
    started = time.perf_counter()
    notes, problem_col = spark_io.read_notes(spark, input_path, in_format, columns)
    notes = pending(notes, spark_io.read_done(spark, output_path, out_format), id_field)
    prior = spark_io.read_mapping(spark, mapping) if mapping is not None else None
    if prior is not None and spark_io.mapping_seeds(prior) - {seed}:
        msg.fail(f"the mapping {mapping} was made with another seed", exits=1)
    try:
        result = deidentify_dataframe(
            notes, settings, mapping=prior, input_problem_col=problem_col
        ).persist()
    except ValueError as err:  # a missing column, a text column that is not text
        msg.fail(f"{input_path}: {err}", exits=1)
    # The mapping first: a crash between the two writes leaves notes to redo,
    # never released notes whose surrogates the mapping lacks.
    if mapping is not None:
        spark_io.write_mapping(result.mapping, mapping)
    else:
        msg.warn("No --mapping: a later run cannot continue these patients' numbering")
    # Counted before the notes are written: writing to OUTPUT makes Spark drop
    # the cached result (it read OUTPUT for the resume), and a recount would
    # run the job again against the new OUTPUT.
    counts = status_counts(result.notes)
    spark_io.write_notes(result.notes, output_path, out_format)
    result.unpersist()
    seconds = time.perf_counter() - started
    total = sum(counts.values())
    problems = total - counts.get("ok", 0)
    (msg.warn if problems else msg.good)(
        f"notes: {total} in {seconds:.1f}s ({total / seconds if seconds else 0:.1f} notes/s); "
        f"written to {output_path}"
    )
    for name, count in counts.items():
        print(f"{name}: {count}")


def _deidentifier(config, operator, subtype_operator, seed, date_shift_min, date_shift_max):
    """The Deidentifier the settings describe (ValueError on bad settings)."""
    if config is None:
        overrides = ops.parse_overrides(subtype_operator)
        return Deidentifier(operator, overrides, seed, date_shift_min, date_shift_max)
    from spacy.util import load_config, registry

    if not config.is_file():
        raise ValueError(f"--config {config}: no such file")
    if (
        operator != ops.PLACEHOLDER
        or subtype_operator
        or (date_shift_min, date_shift_max) != (-365, 365)
    ):
        raise ValueError(
            f"operators and date shifts cannot be combined with --config: set them in its "
            f"[{CONFIG_SECTION}] block"
        )
    loaded = load_config(config)
    if CONFIG_SECTION not in loaded:
        raise ValueError(f"{config}: no [{CONFIG_SECTION}] block")
    deid = registry.resolve({CONFIG_SECTION: loaded[CONFIG_SECTION]})[CONFIG_SECTION]
    deid.use_mapping(None, seed)
    return deid


def _inside(path: str, folder: str) -> bool:
    """Whether `path` is `folder` or inside it (local paths resolved, URIs by prefix)."""
    if "://" in path or "://" in folder or path.startswith("dbfs:") or folder.startswith("dbfs:"):
        return (path.rstrip("/") + "/").startswith(folder.rstrip("/") + "/")
    resolved = Path(path).resolve()
    return resolved == Path(folder).resolve() or Path(folder).resolve() in resolved.parents
