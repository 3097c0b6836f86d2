"""PhysioNet "deid" gold standard: `id.text` plus `id-phi.phrase`.

`id.text` holds the records, each delimited as

    START_OF_RECORD=<patient>||||<note>||||
    ...note text...
    ||||END_OF_RECORD

and `id-phi.phrase` has one PHI mention per line,

    <patient> <note> <start> <end> <type> <phrase...>

with character offsets into the note text (the lines between the two
delimiters). Types (PTName, HCPName, Date, DateYear, Location, Phone, Age,
Other, ...) map into the scheme through labels.PHYSIONET_TYPES. Whether `end`
is exclusive or inclusive is decided per file from the phrases (`end_offsets`
= "auto"), or set explicitly.
"""
import re
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

from .. import labels
from . import problems as P
from .note import Note
from .problems import CorpusFormatError, PathLike, ProblemLog
from .validate import RawMention, _normalize_space, validate_mentions

TEXT_FILE = "id.text"
PHRASE_FILE = "id-phi.phrase"
END_OFFSET_CONVENTIONS = ("auto", "exclusive", "inclusive")

# "START_OF_RECORD=12||||3||||" on a line of its own.
_RECORD_START = re.compile(r"^START_OF_RECORD=(?P<patient>[^|\s]+)\|\|\|\|(?P<note>[^|\s]+)\|\|\|\|[ \t]*\r?\n", re.M)
# "||||END_OF_RECORD" at the start of a line.
_RECORD_END = re.compile(r"^\|\|\|\|END_OF_RECORD", re.M)


def phrase_file_for(text_path: Path) -> Path:
    """The annotation file beside `id.text` (`id-phi.phrase`, or `<stem>-phi.phrase`)."""
    candidates = [text_path.with_name(PHRASE_FILE), text_path.with_name(f"{text_path.stem}-phi.phrase")]
    for candidate in candidates:
        if candidate.exists():
            return candidate
    raise CorpusFormatError(
        text_path, f"no {PHRASE_FILE} annotation file beside it", kind=P.MISSING_RECORD
    )


def read_physionet(
    text_path: PathLike,
    phrase_path: Optional[PathLike] = None,
    log: Optional[ProblemLog] = None,
    end_offsets: str = "auto",
) -> Iterator[Note]:
    """Yield one Note per record of a PhysioNet deid corpus."""
    if end_offsets not in END_OFFSET_CONVENTIONS:
        raise ValueError(f"end_offsets must be one of {END_OFFSET_CONVENTIONS}, not {end_offsets!r}")
    text_path = Path(text_path)
    phrase_path = Path(phrase_path) if phrase_path is not None else phrase_file_for(text_path)
    log = log if log is not None else ProblemLog()
    records = _read_records(text_path)
    lines = _read_phrase_lines(phrase_path, log)
    unknown = sorted({key for key, *_ in lines} - set(records))
    for patient, note in unknown:
        log.report(
            phrase_path,
            P.MISSING_RECORD,
            f"annotations for record {patient}-{note}, which {text_path.name} does not contain",
        )
    inclusive = _ends_are_inclusive(records, lines) if end_offsets == "auto" else end_offsets == "inclusive"
    by_record: Dict[Tuple[str, str], List[RawMention]] = {}
    for key, line_no, start, end, subtype, phrase in lines:
        if key in records:
            by_record.setdefault(key, []).append(
                RawMention(f"line {line_no}", start, end + 1 if inclusive else end, subtype, phrase)
            )
    for (patient, note), text in records.items():
        yield Note(
            note_id=f"{patient}-{note}",
            text=text,
            mentions=validate_mentions(phrase_path, text, by_record.get((patient, note), []), log),
            patient_id=patient,
            source_file=str(text_path),
        )


def _read_records(path: Path) -> Dict[Tuple[str, str], str]:
    data = _read_text(path)
    records: Dict[Tuple[str, str], str] = {}
    position = 0
    for start in _RECORD_START.finditer(data):
        if start.start() < position:
            continue
        end = _RECORD_END.search(data, start.end())
        if end is None:
            raise CorpusFormatError(
                path,
                f"record {start['patient']}-{start['note']} (offset {start.start()}) has no "
                "||||END_OF_RECORD line",
                kind=P.MALFORMED_XML,
            )
        key = (start["patient"], start["note"])
        if key in records:
            raise CorpusFormatError(
                path, f"record {key[0]}-{key[1]} appears twice", kind=P.DUPLICATE_ID
            )
        records[key] = data[start.end() : end.start()]
        position = end.end()
    if not records:
        raise CorpusFormatError(path, "no START_OF_RECORD= lines found", kind=P.MALFORMED_XML)
    return records


def _read_phrase_lines(path: Path, log: ProblemLog):
    lines = []
    for line_no, line in enumerate(_read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        fields = line.split(None, 5)
        where = f"line {line_no}"
        if len(fields) < 5:
            log.report(path, P.MISSING_ATTRIBUTE, "fewer than 5 fields", tag_id=where)
            continue
        patient, note, start, end, type_name = fields[:5]
        try:
            start_offset, end_offset = int(start), int(end)
        except ValueError:
            log.report(path, P.BAD_OFFSETS, "start/end are not integers", tag_id=where)
            continue
        subtype = labels.PHYSIONET_TYPES.get(type_name.upper())
        if subtype is None:
            problem = "unknown PhysioNet PHI type (the value is not shown)"
            log.report(path, P.UNKNOWN_TYPE, problem, tag_id=where)
            continue
        phrase = fields[5] if len(fields) > 5 else None
        lines.append(((patient, note), line_no, start_offset, end_offset, subtype, phrase))
    return lines


def _ends_are_inclusive(records, lines) -> bool:
    """Whether most phrases match text[start:end + 1] rather than text[start:end]."""
    exclusive = inclusive = 0
    for key, _, start, end, _, phrase in lines:
        text = records.get(key)
        if text is None or phrase is None:
            continue
        wanted = _normalize_space(phrase)
        exclusive += _normalize_space(text[start:end]) == wanted
        inclusive += _normalize_space(text[start : end + 1]) == wanted
    return inclusive > exclusive


def _read_text(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise CorpusFormatError(
            path, f"bytes {err.start}-{err.end} are not valid UTF-8", kind=P.UNDECODABLE
        ) from None
