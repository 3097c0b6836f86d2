"""What runs on the Python workers: detection (a map over any batch of notes)
and release (one group per patient, in a fixed order).

Only pandas and the package are needed here, no Spark. The pipeline is
loaded once per worker process (Spark reuses its Python workers) and kept in
a module-level cache; the Deidentifier is rebuilt per patient from the
settings and that patient's mapping row, so nothing is shared between
patients and a retried task gives the same rows.

Errors are caught per note and reported by kind and exception type only:
an exception's message may quote the note.
"""

import math
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import pandas as pd
from spacy.language import Language
from spacy.tokens import Doc

from ..deid.mapping import DeidMapping, PatientState
from ..deid.windows import join_pieces, note_pieces
from ..extensions import install_extensions
from . import status as st
from .mapping import state_from_json, state_to_json
from .schemas import COMBINED, MAPPING, NOTE, ORDER, STATUS
from .settings import DeidSettings

_PIPELINES: Dict[Tuple[str, Optional[str]], Language] = {}

Ents = List[Dict]
Detected = Tuple[str, Optional[str], Optional[Ents]]  # status, error type, ents


def load_pipeline(model: str, operating_point: Optional[str] = None) -> Language:
    """The pipeline `model` (a name or path) at `operating_point`, loaded
    once per worker process, as `spacy-deid deidentify` loads it."""
    key = (model, operating_point)
    nlp = _PIPELINES.get(key)
    if nlp is None:
        from ..pipeline.confidence import load_at_operating_point

        install_extensions()
        nlp = _PIPELINES[key] = load_at_operating_point(model, operating_point)
    return nlp


def _missing(value: object) -> bool:
    """A null as pandas hands it over: None, NaN (numbers) or NaT (timestamps)."""
    return value is None or value is pd.NaT or (isinstance(value, float) and math.isnan(value))


def detect_frames(settings: DeidSettings, frames: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    """mapInPandas function (bind `settings` with functools.partial): PHI
    spans (`ents`, offsets into the original text) of every row whose status
    is still unset; other rows pass through."""
    for frame in frames:
        yield detect_frame(settings, frame)


def detect_frame(settings: DeidSettings, frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.copy()
    statuses = [None if _missing(s) else s for s in frame[STATUS]]
    todo = [i for i, s in enumerate(statuses) if s is None]
    results: List[Detected] = []
    if todo:
        nlp = load_pipeline(settings.model, settings.operating_point)
        texts = [frame["text"].iat[i] for i in todo]
        results = detect_texts(nlp, texts, settings.batch_size)
    error_types: List[Optional[str]] = [None] * len(frame)
    ents: List[Optional[Ents]] = [[] if s == st.EMPTY_TEXT else None for s in statuses]
    for index, (status, error_type, found) in zip(todo, results):
        statuses[index], error_types[index], ents[index] = status, error_type, found
    frame[STATUS] = statuses
    frame["error_type"] = error_types
    frame["ents"] = ents
    return frame


def detect_texts(nlp: Language, texts: Sequence[str], batch_size: int) -> List[Detected]:
    """(status, error type, ents) per text; a batch that fails is redone note
    by note, so one bad note does not fail its neighbours."""
    try:
        return list(_detect(nlp, texts, batch_size))
    except Exception:  # noqa: BLE001 - isolate the note that failed
        if len(texts) == 1:
            raise
    results: List[Detected] = []
    for text in texts:
        try:
            results.extend(_detect(nlp, [text], 1))
        except Exception as err:  # noqa: BLE001 - reported by type, never message
            results.append((st.PIPELINE_ERROR, type(err).__name__, None))
    return results


def _detect(nlp: Language, texts: Sequence[str], batch_size: int) -> Iterator[Detected]:
    """As `spacy-deid deidentify` does: a long note is processed in overlapping
    pieces cut at paragraph, line or word breaks and joined again away from
    any mention (deid/windows.py: note_pieces, join_pieces)."""
    splits = [note_pieces(text, nlp.max_length) for text in texts]

    def pieces():
        for index, (text, bounds) in enumerate(zip(texts, splits)):
            if bounds is None:
                continue
            for start, end in bounds:
                yield text[start:end], (index, start)

    docs: Dict[int, List[Tuple[int, Doc]]] = {}
    for doc, (index, start) in nlp.pipe(pieces(), as_tuples=True, batch_size=batch_size):
        docs.setdefault(index, []).append((start, doc))
    for index, text in enumerate(texts):
        if splits[index] is None:
            yield st.NO_SPLIT_POINT, None, None
            continue
        parts = docs[index]
        doc = join_pieces(parts)
        if doc.text != text:
            yield st.PIPELINE_CHANGED_TEXT, None, None
            continue
        yield st.OK, None, [
            {
                "start": ent.start_char,
                "end": ent.end_char,
                "label": ent.label_,
                "score": ent._.phi_score,
                "source": ent._.phi_source,
            }
            for ent in doc.ents
        ]


def _order_key(row: Dict) -> Tuple:
    """A patient's notes in a fixed order: the order column (missing last),
    then note id, then text (so even duplicate ids cannot depend on the shuffle)."""
    order = row[ORDER]
    missing = _missing(order)
    return (missing, None if missing else order, row["note_id"], row["text"])


def release_patient(
    settings: DeidSettings, key: Tuple, notes: pd.DataFrame, prior: pd.DataFrame
) -> pd.DataFrame:
    """cogroup applyInPandas function (bind `settings` with functools.partial):
    one patient's notes (and their mapping row from an earlier run, if any)
    -> released notes and one mapping row."""
    patient_id, bad_row = key
    records = notes.to_dict("records")
    if not _missing(bad_row):  # rows that never reach release: statuses only
        return _frame([_note_row(r, r[STATUS], r["error_type"]) for r in records])
    state = _prior_state(settings, prior)
    deid = settings.deidentifier(DeidMapping(seed=settings.seed, patients={patient_id: state}))
    rows = []
    released_any = False
    for record in sorted(records, key=_order_key):
        if record[STATUS] not in st.RELEASED:
            rows.append(_note_row(record, record[STATUS], record["error_type"]))
            continue
        ents = [] if record["ents"] is None else list(record["ents"])
        try:
            released = deid.release(
                record["text"],
                [(e["start"], e["end"], e["label"]) for e in ents],
                patient_key=patient_id,
            )
        except Exception as err:  # noqa: BLE001 - reported by type, never message
            rows.append(_note_row(record, st.RELEASE_ERROR, type(err).__name__))
            continue
        released_any = True
        rows.append(_note_row(record, record[STATUS], None, released, ents))
    # Only patients whose state this run may have changed: read_mapping keeps
    # the latest row of each patient, so unchanged ones need no new row.
    if released_any:
        rows.append(
            {
                "kind": MAPPING,
                "patient_id": patient_id,
                "seed": settings.seed,
                "state": state_to_json(deid.mapping.patient(patient_id)),
            }
        )
    return _frame(rows)


def _prior_state(settings: DeidSettings, prior: pd.DataFrame) -> PatientState:
    if len(prior) == 0:
        return PatientState()
    if len(prior) > 1:
        raise ValueError("the mapping holds more than one row for a patient")
    row = prior.iloc[0]
    if row["seed"] != settings.seed:
        raise ValueError("the mapping was made with another seed than this run's")
    return state_from_json(row["state"])


def _note_row(record: Dict, status: str, error_type: Optional[str], released=None, ents=()) -> Dict:
    row = {"kind": NOTE, "note_id": record["note_id"], "status": status, "error_type": error_type}
    if released is not None:
        row["released_text"] = released.text
        row["spans"] = _released_spans(record["text"], ents, released.spans)
        row["unparsed_dates"] = released.unparsed_dates
    return row


def _released_spans(text: str, ents: Sequence[Dict], spans) -> List[Dict]:
    """The replacements (offsets into the released text, with their operator),
    each with the score and provenance of the PHI span it replaced."""
    # The release keeps spans in text order and drops those of whitespace alone.
    kept = [
        e
        for e in sorted(ents, key=lambda e: (e["start"], e["end"]))
        if text[e["start"] : e["end"]].strip()
    ]
    if len(kept) != len(spans):
        kept = [{}] * len(spans)
    return [
        {
            "start": span.start,
            "end": span.end,
            "label": span.label,
            "operator": span.operator,
            "score": _none_if_missing(ent.get("score")),
            "source": _none_if_missing(ent.get("source")),
        }
        for span, ent in zip(spans, kept)
    ]


def _none_if_missing(value):
    return None if _missing(value) else value


_COLUMNS = [part.split()[0] for part in COMBINED.split(", ")]


def _frame(rows: List[Dict]) -> pd.DataFrame:
    # Every key present: a missing one would become NaN, which Arrow cannot
    # read as a null list or string.
    frame = pd.DataFrame([{**dict.fromkeys(_COLUMNS), **row} for row in rows], columns=_COLUMNS)
    frame["unparsed_dates"] = frame["unparsed_dates"].astype("Int32")
    return frame
