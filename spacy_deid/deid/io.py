"""Where the batch used to read its input formats; they are read in corpus/
now (note_input.py, note_files.py, jsonl_notes.py, csv_notes.py, listing.py).
Kept only for the importers not yet moved; new code imports from corpus."""

from ..corpus.listing import input_files, is_hidden  # noqa: F401
from ..corpus.note_files import read_job, released_note  # noqa: F401
from ..corpus.note_input import (  # noqa: F401
    DEFAULT_PATIENT_FIELD,
    DEFAULT_TEXT_FIELD,
    ID_FIELDS,
    SUFFIXES,
    FileJob,
    InputError,
    NoteIn,
    encoding_name,
    field_value,
)
from ..corpus.jsonl_notes import jsonl_records  # noqa: F401
