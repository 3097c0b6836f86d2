"""`spacy-deid deidentify-spark`: release Parquet or JSONL notes on Spark
(pip install "spacy-deid[spark]"; Java 17+). See docs/spark.md."""

import dataclasses
import time
from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from ..corpus.note_input import ID_FIELDS
from . import release_options as shared
from ._app import app
from ._util import build_deidentifier


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
    operator: str = shared.OPERATOR,
    subtype_operator: List[str] = shared.SUBTYPE_OPERATOR,
    config: Optional[Path] = shared.CONFIG,
    mapping: Optional[str] = typer.Option(
        None,
        "--mapping",
        help="Mapping dataset (Parquet; PHI! never beside the output): read, then appended to",
    ),
    date_shift_min: int = shared.DATE_SHIFT_MIN,
    date_shift_max: int = shared.DATE_SHIFT_MAX,
    operating_point: Optional[str] = shared.OPERATING_POINT,
    input_format: str = typer.Option(
        "auto", "--input-format", help="auto (by suffix), parquet or jsonl"
    ),
    output_format: Optional[str] = typer.Option(
        None, "--output-format", help="parquet or jsonl (default: the input's)"
    ),
    id_field: Optional[str] = typer.Option(
        None,
        "--id-field",
        help=f"Column / JSON field with the note id (default: {' or '.join(ID_FIELDS)}, "
        "the first present)",
    ),
    text_field: str = shared.TEXT_FIELD,
    patient_field: str = shared.PATIENT_FIELD,
    order_by: Optional[str] = typer.Option(
        None, "--order-by", help="Column giving the order of a patient's notes (default: note id)"
    ),
    master: Optional[str] = typer.Option(
        None, "--master", help="Spark master (default: spark-submit's, else local[*])"
    ),
    partitions: Optional[int] = typer.Option(
        None, "--partitions", min=1, help="Shuffle partitions for the group-by-patient stage"
    ),
    batch_size: int = shared.BATCH_SIZE,
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
        from ..spark import status as spark_status
        from ..spark import io as spark_io
        from ..spark.session import get_session
        from ..spark.settings import DEFAULT_MAX_NOTE_CHARS
    except ImportError as err:
        msg.fail(str(err), exits=1)
    try:
        in_format = spark_io.guess_format(input_path, input_format)
        out_format = spark_io.guess_format(output_path, output_format or in_format)
        deid = build_deidentifier(
            config=config,
            operator=operator,
            subtype_operator=subtype_operator,
            seed=seed,
            date_shift_min=date_shift_min,
            date_shift_max=date_shift_max,
            mapping_path=mapping,
            output=output_path,
        )
        columns = Columns(id_field or ID_FIELDS[0], patient_field, text_field, order_by)
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
    given, problem_col = spark_io.read_notes(
        spark, input_path, in_format, columns, id_fields=None if id_field else ID_FIELDS
    )
    if id_field is None and in_format != spark_io.JSONL:
        columns = spark_io.with_id_column(given, columns, ID_FIELDS)
        settings = dataclasses.replace(settings, columns=columns)
    notes = pending(given, spark_io.read_done(spark, output_path, out_format), columns.note_id)
    prior = spark_io.read_mapping(spark, mapping) if mapping is not None else None
    if prior is not None and spark_io.mapping_seeds(prior) - {seed}:
        msg.fail(f"the mapping {mapping} was made with another seed", exits=1)
    try:
        result = deidentify_dataframe(
            notes, settings, mapping=prior, input_problem_col=problem_col
        ).persist()
        # The first action runs the workers: one that cannot import the package says so.
        counts = _on_workers(lambda: status_counts(result.notes))
    except ValueError as err:  # a missing column, a text column that is not text
        msg.fail(f"{input_path}: {err}", exits=1)
    # The mapping first: a crash between the two writes leaves notes to redo,
    # never released notes whose surrogates the mapping lacks.
    if mapping is not None:
        spark_io.write_mapping(result.mapping, mapping)
    else:
        msg.warn("No --mapping: a later run cannot continue these patients' numbering")
    # The done ids and the mapping rows were read frozen (spark_io.frozen):
    # the two writes above and below cannot make Spark recompute the cached
    # result against the files this run adds.
    spark_io.write_notes(result.notes, output_path, out_format)
    result.unpersist()
    seconds = time.perf_counter() - started
    total = sum(counts.values())
    released = sum(n for name, n in counts.items() if name in spark_status.RELEASED)
    (msg.good if released == total else msg.warn)(
        f"notes: {total} in {seconds:.1f}s ({total / seconds if seconds else 0:.1f} notes/s); "
        f"released: {released}; written to {output_path}"
    )
    for name, count in counts.items():
        print(f"{name}: {count}")
    if total == 0 and given.limit(1).count() == 0:  # as deidentify: nothing given, nothing failed
        msg.warn(f"{input_path}: no notes found")
    if released < total:  # as deidentify: not every note given was released
        raise typer.Exit(code=1)


def _on_workers(action):
    """Run a Spark action; a worker Python without the package gets a message
    saying what to set (never the worker's traceback, which could quote a note)."""
    try:
        return action()
    except Exception as err:  # noqa: BLE001 - only the missing-module case is translated
        if "No module named" not in str(err):
            raise
        msg.fail(
            "the Spark workers' Python cannot import spacy / spacy_deid: set PYSPARK_PYTHON "
            "(or spark.pyspark.python) to a Python with spacy-deid and the model installed "
            "on every executor (docs/spark.md, 'Which Python the workers run')",
            exits=1,
        )
