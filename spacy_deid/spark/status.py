"""The status of every note of a Spark run: `ok`, or the kind of problem.

A status names a kind, never content: it is safe to print, count and keep
next to the released notes. Every input row gets exactly one.
"""

OK = "ok"
# The note was empty: released as "" (no PHI), counted apart.
EMPTY_TEXT = "empty_text"

# Found while reading the input (never processed, released_text is null).
INVALID_JSON = "invalid_json"  # a JSONL line that is not a JSON object
MISSING_NOTE_ID = "missing_note_id"
MISSING_TEXT = "missing_text"  # null or absent
TEXT_NOT_STRING = "text_not_string"  # a number, list or object
TOO_LARGE = "too_large"  # over max_note_chars: kept away from the Python worker
# No longer given: a note without a patient id is its own patient (as in
# `deidentify`); kept so outputs of earlier versions still read.
MISSING_PATIENT_ID = "missing_patient_id"

# Found while processing.
NO_SPLIT_POINT = "no_split_point"  # over nlp.max_length with no line or word break to cut at
PIPELINE_ERROR = "pipeline_error"  # the pipeline raised on this note (error_type says what)
PIPELINE_CHANGED_TEXT = "pipeline_changed_text"  # a Doc whose text differs cannot be released
RELEASE_ERROR = "release_error"  # the release step raised (error_type says what)

# Statuses whose released_text is set.
RELEASED = frozenset({OK, EMPTY_TEXT})

ALL = (
    OK,
    EMPTY_TEXT,
    INVALID_JSON,
    MISSING_NOTE_ID,
    MISSING_TEXT,
    TEXT_NOT_STRING,
    TOO_LARGE,
    MISSING_PATIENT_ID,
    NO_SPLIT_POINT,
    PIPELINE_ERROR,
    PIPELINE_CHANGED_TEXT,
    RELEASE_ERROR,
)
