"""Spark schemas (DDL) of the rows between the stages and of the outputs.

Spans in the output index the *released* text and carry the operator, never
the original value; `ents` between the stages index the original text and
never leave the job.
"""

ENT = "struct<start:int,end:int,label:string,score:double,source:string>"
SPAN = "struct<start:int,end:int,label:string,operator:string,score:double,source:string>"

# Columns the job adds to the input before the first stage.
GROUP_KEY = "_deid_bad_row"  # null for good rows; a per-row key for rows that skip release
ORDER = "_deid_order"
STATUS = "status"

# The first stage (detection) adds these to the input columns.
DETECTED_EXTRA = f"error_type string, ents array<{ENT}>"

NOTE_COLUMNS = (
    "note_id",
    "status",
    "error_type",
    "released_text",
    "spans",
    "unparsed_dates",
)
MAPPING_COLUMNS = ("patient_id", "seed", "state")

# The second stage (release, one group per patient) writes notes and mapping
# rows in one frame, told apart by `kind`.
NOTE, MAPPING = "note", "mapping"
COMBINED = (
    "kind string, note_id string, status string, error_type string, "
    f"released_text string, spans array<{SPAN}>, unparsed_dates int, "
    "patient_id string, seed string, state string"
)
