"""Parquet and JSONL in and out, and the mapping dataset, for the command.

Input: a Parquet dataset (file or folder) with note id, patient id and text
columns, or JSON lines (file or folder) with those fields. JSONL is parsed
by Spark itself (`try_parse_json`) so a line that is not JSON, or whose text
is a number or an object, is a row with a status, not a failed job.

Output: the released notes are appended to OUTPUT (Parquet, or JSON lines
part files); a rerun reads the note ids already there and skips them. The
mapping rows are appended to the mapping dataset (always Parquet) with a
`generation` (the run's start time in ns); `read_mapping` keeps the latest
row of each patient. Appending is what every Spark file system (HDFS, S3,
DBFS, local) supports; nothing is renamed or overwritten.
"""

import dataclasses
import time
from typing import Optional, Sequence, Tuple

from pyspark.errors import AnalysisException
from pyspark.sql import DataFrame, SparkSession, Window
from pyspark.sql import functions as F

from . import status as st
from .settings import Columns

PARQUET, JSONL = "parquet", "jsonl"
FORMATS = (PARQUET, JSONL)
JSONL_SUFFIXES = (".jsonl", ".json", ".ndjson", ".jsonl.gz", ".json.gz")
# The column in which the JSONL reader names a problem with a line.
PROBLEM = "_deid_input_problem"
MAPPING_FILE_SCHEMA = "patient_id string, seed string, state string, generation long"


def guess_format(path: str, given: str = "auto") -> str:
    if given != "auto":
        if given not in FORMATS:
            raise ValueError(f"unknown format {given!r}; choose auto, {', '.join(FORMATS)}")
        return given
    return JSONL if path.lower().rstrip("/").endswith(JSONL_SUFFIXES) else PARQUET


def read_notes(
    spark: SparkSession,
    path: str,
    fmt: str,
    columns: Columns,
    id_fields: Optional[Sequence[str]] = None,
) -> Tuple[DataFrame, Optional[str]]:
    """The notes at `path` and the name of the column of reading problems (or
    None). `id_fields`: JSONL fields to take the note id from, the first
    present of each line (into `columns.note_id`), instead of that one field."""
    if fmt == JSONL:
        return read_jsonl(spark, path, columns, id_fields), PROBLEM
    return spark.read.parquet(path), None


def with_id_column(notes: DataFrame, columns: Columns, id_fields: Sequence[str]) -> Columns:
    """`columns` naming the first of `id_fields` the notes have (ValueError if none)."""
    found = next((name for name in id_fields if name in notes.columns), None)
    if found is None:
        raise ValueError(
            f"the notes have no note id column ({' or '.join(id_fields)}; "
            "name another with --id-field)"
        )
    return dataclasses.replace(columns, note_id=found)


def read_jsonl(
    spark: SparkSession, path: str, columns: Columns, id_fields: Optional[Sequence[str]] = None
) -> DataFrame:
    """One row per non-blank line: id, patient and order as strings (numbers
    written as JSON numbers become their digits), the text only if it is a
    JSON string."""
    lines = spark.read.text(path).where(F.trim("value") != "")
    record = F.try_parse_json("value")
    text = F.try_variant_get(record, _path(columns.text), "variant")
    text_type = F.schema_of_variant(text)
    problem = (
        F.when(
            record.isNull() | ~F.startswith(F.schema_of_variant(record), F.lit("OBJECT")),
            st.INVALID_JSON,
        )
        .when(text.isNull() | (text_type == "VOID"), st.MISSING_TEXT)
        .when(text_type != "STRING", st.TEXT_NOT_STRING)
    )
    def field(name: str):
        return F.try_variant_get(record, _path(name), "string")

    def present(name: str):  # blank ids count as absent, as deidentify reads them
        return F.when(F.trim(field(name)) != "", field(name))

    note_id = F.coalesce(*map(present, id_fields)) if id_fields else field(columns.note_id)
    fields = [note_id.alias(columns.note_id)] + [
        field(name).alias(name)
        for name in (columns.patient_id, columns.order_by)
        if name is not None
    ]
    return lines.select(
        *fields,
        F.when(problem.isNull(), F.try_variant_get(record, _path(columns.text), "string")).alias(
            columns.text
        ),
        problem.alias(PROBLEM),
    )


def _path(field: str) -> str:
    """A JSON path for a top-level field of any name."""
    return "$[" + '"' + field.replace("\\", "\\\\").replace('"', '\\"') + '"' + "]"


def exists(spark: SparkSession, path: str) -> bool:
    """Whether `path` exists, on any file system Spark reads (asked through
    Hadoop's FileSystem, so Spark does not log a stack trace for a new path)."""
    jvm = getattr(spark, "_jvm", None)
    if jvm is None:  # Spark Connect: no JVM here; try to read instead
        try:
            spark.read.format("binaryFile").load(path).limit(0).collect()
            return True
        except AnalysisException as err:
            if _condition(err) == "PATH_NOT_FOUND":
                return False
            raise
    hadoop_path = jvm.org.apache.hadoop.fs.Path(path)
    return hadoop_path.getFileSystem(spark._jsc.hadoopConfiguration()).exists(hadoop_path)


def read_done(spark: SparkSession, path: str, fmt: str) -> Optional[DataFrame]:
    """The note ids of an earlier run's output at `path`, or None if there is
    none; frozen as they are now (see `frozen`)."""
    if not exists(spark, path):
        return None
    reader = spark.read.schema("note_id string")
    return frozen(reader.json(path) if fmt == JSONL else reader.parquet(path))


def frozen(frame: DataFrame) -> DataFrame:
    """`frame` read now, once, and kept on the executors (a local checkpoint).

    A run reads the output and the mapping dataset and then appends to both.
    Spark re-reads a path after a write to it: a cached result that depends on
    the path is dropped and computed again, and the mapping rows the run just
    wrote would give this run's patients a state they already have, so the
    notes written would differ from those the mapping was written for. A
    frozen frame no longer depends on the files. If an executor holding it is
    lost, the job fails rather than read the newer files."""
    return frame.localCheckpoint(eager=True)


def write_notes(notes: DataFrame, path: str, fmt: str) -> None:
    writer = notes.write.mode("append")
    if fmt == JSONL:
        # Nulls written out: a row with an error status still shows every field.
        writer.option("ignoreNullFields", "false").json(path)
    else:
        writer.parquet(path)


def read_mapping(spark: SparkSession, path: str) -> Optional[DataFrame]:
    """The latest mapping row of each patient (patient_id, seed, state), or
    None; frozen as they are now (see `frozen`)."""
    if not exists(spark, path):
        return None
    rows = spark.read.schema(MAPPING_FILE_SCHEMA).parquet(path)
    latest = Window.partitionBy("patient_id").orderBy(F.col("generation").desc())
    return frozen(
        rows.withColumn("_deid_rank", F.row_number().over(latest))
        .where(F.col("_deid_rank") == 1)
        .select("patient_id", "seed", "state")
    )


def write_mapping(mapping: DataFrame, path: str, generation: Optional[int] = None) -> None:
    generation = time.time_ns() if generation is None else generation
    mapping.withColumn("generation", F.lit(generation)).write.mode("append").parquet(path)


def mapping_seeds(mapping: DataFrame) -> set:
    return {row["seed"] for row in mapping.select("seed").distinct().collect()}


def _condition(err: AnalysisException) -> Optional[str]:
    getter = getattr(err, "getCondition", None) or err.getErrorClass
    return getter()
