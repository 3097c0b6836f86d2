"""The DataFrame entry: de-identify a Spark DataFrame of notes.

    from spacy_deid.spark import DeidSettings, deidentify_dataframe
    settings = DeidSettings(model="en_deid_psych", seed=secret, operator="surrogate")
    result = deidentify_dataframe(notes_df, settings).persist()
    result.notes     # note_id, status, error_type, released_text, spans, unparsed_dates
    result.mapping   # patient_id, seed, state: PHI, never next to the notes

Two stages, both Spark's own operators:

1. `mapInPandas` (narrow, no shuffle): the pipeline finds the PHI spans of
   any batch of notes; this is where nearly all the time goes, and it
   scales with the executors whatever the patients' sizes.
2. `groupBy(patient).cogroup(mapping).applyInPandas`: each patient's notes
   (with the text and spans) and their mapping row from an earlier run meet
   in one task and are released in a fixed order (the order column, then
   note id) with the same `Deidentifier` as `spacy-deid deidentify`. The
   result does not depend on partitioning, executors or retries.

Rows with a problem (no text, no patient id, too large, ...) get a status
and pass through both stages without being processed; none is dropped.
"""

from dataclasses import dataclass
from typing import Dict, Optional

from pyspark import StorageLevel
from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql import types as T

from . import status as st
from .schemas import (
    COMBINED,
    DETECTED_EXTRA,
    GROUP_KEY,
    MAPPING,
    MAPPING_COLUMNS,
    NOTE,
    NOTE_COLUMNS,
    ORDER,
    STATUS,
)
from .settings import DeidSettings
from functools import partial

from .worker import detect_frames, release_patient

MAPPING_SCHEMA = "patient_id string, seed string, state string"


@dataclass
class SparkRelease:
    """The job's output: released notes and, separately, the mapping rows."""

    combined: DataFrame

    @property
    def notes(self) -> DataFrame:
        """One row per input row: note_id, status, error_type, released_text
        (null unless the status is ok or empty_text), spans (in the released
        text), unparsed_dates. Patient ids are not copied here."""
        return self.combined.where(F.col("kind") == NOTE).select(*NOTE_COLUMNS)

    @property
    def mapping(self) -> DataFrame:
        """One row per patient: patient_id, seed, state (JSON). PHI."""
        return self.combined.where(F.col("kind") == MAPPING).select(*MAPPING_COLUMNS)

    def persist(self, level: StorageLevel = StorageLevel.MEMORY_AND_DISK) -> "SparkRelease":
        """Keep the result, so writing notes and mapping runs the pipeline once."""
        self.combined = self.combined.persist(level)
        return self

    def unpersist(self) -> None:
        self.combined.unpersist()


def deidentify_dataframe(
    notes: DataFrame,
    settings: DeidSettings,
    *,
    mapping: Optional[DataFrame] = None,
    input_problem_col: Optional[str] = None,
) -> SparkRelease:
    """Release `notes` (columns named by `settings.columns`) with `settings`.

    `mapping`: mapping rows of earlier runs (patient_id, seed, state; one row
    per patient, as `spacy_deid.spark.io.read_mapping` returns them), so new
    notes of known patients continue their surrogates and numbering.
    `input_problem_col`: a column naming a problem found while reading a row
    (a status such as invalid_json), null where the row is fine.
    """
    prepared = prepare(notes, settings, input_problem_col)
    detected_schema = T.StructType(
        prepared.schema.fields + T.StructType.fromDDL(DETECTED_EXTRA).fields
    )
    detected = prepared.mapInPandas(partial(detect_frames, settings), detected_schema)
    prior = mapping if mapping is not None else _empty_mapping(notes)
    prior = prior.select(
        F.col("patient_id").cast("string"),
        F.lit(None).cast("string").alias(GROUP_KEY),
        F.col("seed").cast("string"),
        F.col("state").cast("string"),
    )
    combined = (
        detected.groupBy("patient_id", GROUP_KEY)
        .cogroup(prior.groupBy("patient_id", GROUP_KEY))
        .applyInPandas(partial(release_patient, settings), COMBINED)
    )
    return SparkRelease(combined)


def prepare(
    notes: DataFrame, settings: DeidSettings, input_problem_col: Optional[str] = None
) -> DataFrame:
    """The input as (note_id, patient_id, text, order, status, group key):
    a status where a row cannot be processed, whose text then stays behind
    in the JVM (a huge note never reaches a Python worker)."""
    columns = settings.columns
    check_columns(notes, settings, input_problem_col)
    note_id = F.col(columns.note_id).cast("string")
    blank = lambda column: column.isNull() | (F.trim(column) == "")  # noqa: E731
    given_patient = F.col(columns.patient_id).cast("string")
    # A note without a patient id is its own patient, as in `deidentify`
    # (the key Deidentifier.release_doc gives a note alone).
    patient = F.when(blank(given_patient), F.concat(F.lit("note:"), note_id)).otherwise(
        given_patient
    )
    text = F.col(columns.text)
    problem = F.col(input_problem_col) if input_problem_col else F.lit(None).cast("string")
    status = (
        F.when(problem.isNotNull(), problem)
        .when(blank(note_id), st.MISSING_NOTE_ID)
        .when(text.isNull(), st.MISSING_TEXT)
        .when(F.length(text) > settings.max_note_chars, st.TOO_LARGE)
        .when(F.length(text) == 0, st.EMPTY_TEXT)
    )
    released = status.isNull() | (status == st.EMPTY_TEXT)
    order = F.col(columns.order_by) if columns.order_by else F.lit(None).cast("string")
    return notes.select(
        note_id.alias("note_id"),
        patient.alias("patient_id"),
        F.when(released, text).alias("text"),
        order.alias(ORDER),
        status.alias(STATUS),
        # Rows that skip the release get a group of their own: rows without
        # a patient id must not all meet in one task.
        F.when(~released, F.monotonically_increasing_id().cast("string")).alias(GROUP_KEY),
    )


def check_columns(
    notes: DataFrame, settings: DeidSettings, input_problem_col: Optional[str] = None
) -> None:
    """ValueError naming a missing column or a text column that is not text."""
    columns = settings.columns
    fields = {f.name: f.dataType for f in notes.schema.fields}
    wanted = [
        columns.note_id,
        columns.patient_id,
        columns.text,
        columns.order_by,
        input_problem_col,
    ]
    for name in wanted:
        if name is not None and name not in fields:
            raise ValueError(
                f"the notes have no column {name!r} (columns: {', '.join(sorted(fields))})"
            )
    if not isinstance(fields[columns.text], T.StringType):
        raise ValueError(
            f"the text column {columns.text!r} is {fields[columns.text].simpleString()}, "
            "not string: cast or decode it first"
        )


def _empty_mapping(notes: DataFrame) -> DataFrame:
    return notes.sparkSession.createDataFrame([], MAPPING_SCHEMA)


def pending(notes: DataFrame, done: Optional[DataFrame], note_id_col: str = "note_id") -> DataFrame:
    """The notes whose id is not in `done` (an earlier run's output): an
    anti-join, so a rerun resumes where the last one stopped. Rows without
    a note id are always kept (they get their status again)."""
    if done is None:
        return notes
    ids = done.select(F.col("note_id").alias("_deid_done_id")).distinct()
    condition = F.col(note_id_col).cast("string") == F.col("_deid_done_id")
    return notes.join(ids, condition, "left_anti")


def status_counts(released_notes: DataFrame) -> Dict[str, int]:
    """{status: number of notes}, for the summary at the end of a run."""
    rows = released_notes.groupBy(STATUS).count().collect()
    return {row[STATUS]: row["count"] for row in sorted(rows, key=lambda r: r[STATUS])}
