"""Annotated notes as JSONL: the package's JSONL note format with PHI spans.

One JSON object per line, as `deidentify` and `review` read notes (a `text`
field, an optional `note_id` or `id` and `patient_id`; other fields are
ignored), plus `spans`: a list of objects with `start` and `end` (character
offsets into the text, counting Unicode code points as Python does) and
`label` (an i2b2 2014 subtype). The spans' shape is that of spaCy's and
Prodigy's JSONL (`{"text": ..., "spans": [{"start", "end", "label"}]}`). A
span may carry `text` (checked against the note), and the review page's
export adds `review` (accepted, added, unreviewed), `was` (the subtype before
a change) and `score`; these become the mention's comment
(`review=accepted was=HOSPITAL score=0.410`, as in the page's i2b2 export).

Problems are reported by file, line and span position, never with content.
"""
from pathlib import Path
from typing import Iterator, List, Optional

from .. import labels
from . import problems as P
from .jsonl_notes import jsonl_records
from .note import Note
from .note_input import DEFAULT_PATIENT_FIELD, InputError, field_value
from .problems import CorpusFormatError, PathLike, ProblemLog
from .validate import RawMention, validate_mentions

SPANS_FIELD = "spans"
# The span fields kept in the mention's comment, in this order.
_COMMENT_FIELDS = ("review", "was", "score")


def read_jsonl_corpus(path: PathLike, log: Optional[ProblemLog] = None) -> Iterator[Note]:
    """The notes of one annotated JSONL file. A line that is not a note (not
    JSON, no text) raises CorpusFormatError; bad spans too, or with a lenient
    log they are skipped and counted."""
    path = Path(path)
    log = log if log is not None else ProblemLog()
    try:
        records = list(jsonl_records(path))
    except InputError as err:
        problem = str(err)[len(f"{path}: ") :] if str(err).startswith(f"{path}: ") else str(err)
        raise CorpusFormatError(path, problem, kind=P.UNDECODABLE) from None
    for number, record, record_id, problem in records:
        where = f"{path}: line {number}"
        if record is None:
            raise CorpusFormatError(where, str(problem), kind=P.MALFORMED_XML)
        spans = record.get(SPANS_FIELD, [])
        if not isinstance(spans, list):
            raise CorpusFormatError(where, f"{SPANS_FIELD!r} is not a list", kind=P.MALFORMED_XML)
        text = record["text"]
        mentions = validate_mentions(where, text, _raw_mentions(where, spans, log), log)
        yield Note(
            note_id=record_id or f"{path.stem}:{number}",
            text=text,
            mentions=mentions,
            patient_id=field_value(record.get(DEFAULT_PATIENT_FIELD)),
            source_file=str(path),
        )


def _raw_mentions(where: str, spans: List[object], log: ProblemLog) -> Iterator[RawMention]:
    for position, span in enumerate(spans):
        tag_id = f"#{position}"
        if not isinstance(span, dict):
            log.report(where, P.MISSING_ATTRIBUTE, "a span is not an object", tag_id=tag_id)
            continue
        missing = [name for name in ("start", "end", "label") if span.get(name) is None]
        if missing:
            log.report(where, P.MISSING_ATTRIBUTE, f"missing field(s) {', '.join(missing)}",
                       tag_id=tag_id)
            continue
        start, end = span["start"], span["end"]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end)):
            log.report(where, P.BAD_OFFSETS, "start/end are not integers", tag_id=tag_id)
            continue
        try:
            label = labels.normalize_subtype(str(span["label"]))
        except labels.UnknownLabelError:
            log.report(
                where,
                P.UNKNOWN_TYPE,
                f"unknown label: not one of the {len(labels.SUBTYPES)} subtypes "
                "(the value is not shown)",
                tag_id=tag_id,
            )
            continue
        shown = span.get("text")
        yield RawMention(
            tag_id=tag_id,
            start=start,
            end=end,
            label=label,
            text=shown if isinstance(shown, str) else None,
            comment=_comment(span),
        )


def _comment(span: dict) -> str:
    parts = []
    for name in _COMMENT_FIELDS:
        value = span.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            parts.append(f"{name}={value:.3f}")
        elif isinstance(value, str) and value and " " not in value and "=" not in value:
            parts.append(f"{name}={value}")
    return " ".join(parts)
