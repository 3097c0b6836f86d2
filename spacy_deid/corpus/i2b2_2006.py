"""i2b2 2006 inline XML: many records per file, PHI marked inline.

    <ROOT>
    <RECORD ID="1">
    <TEXT>
    ... seen by <PHI TYPE="DOCTOR">John Bland</PHI> on <PHI TYPE="DATE">4/17</PHI> ...
    </TEXT>
    </RECORD>
    </ROOT>

The 8 types map into the 30-subtype scheme through labels.I2B2_2006_TYPES.
The record ID is the note id; the format has no patient id.
"""
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Iterator, List, Optional, Tuple

from .. import labels
from . import problems as P
from .note import Note
from .problems import PathLike, ProblemLog
from .validate import RawMention, validate_mentions
from .xml_text import decode_xml_bytes, parse_markup, protect_carriage_returns

RECORD_ELEMENT = "RECORD"
PHI_ELEMENT = "PHI"


def read_i2b2_2006(path: PathLike, log: Optional[ProblemLog] = None) -> Iterator[Note]:
    """Yield one Note per RECORD of an i2b2 2006 file, text exactly as in the file."""
    path = Path(path)
    log = log if log is not None else ProblemLog()
    xml = protect_carriage_returns(decode_xml_bytes(path, path.read_bytes()))
    root = parse_markup(path, xml)
    records = [root] if root.tag == RECORD_ELEMENT else root.findall(RECORD_ELEMENT)
    seen_ids = set()
    for position, record in enumerate(records):
        note_id = record.get("ID")
        where = f"RECORD {P.shown_id(note_id, f'#{position}')}"
        if not note_id:
            log.report(path, P.MISSING_ATTRIBUTE, "RECORD without an ID attribute", tag_id=where)
            continue
        if note_id in seen_ids:
            log.report(path, P.DUPLICATE_ID, "RECORD ID used twice", tag_id=where)
            continue
        seen_ids.add(note_id)
        text_element = record.find("TEXT")
        if text_element is None:
            log.report(path, P.MALFORMED_XML, "RECORD without a TEXT element", tag_id=where)
            continue
        text, raw = _flatten(path, where, text_element, log)
        yield Note(
            note_id=note_id,
            text=text,
            mentions=validate_mentions(path, text, raw, log),
            patient_id=None,
            source_file=str(path),
        )


def _flatten(
    path: Path, where: str, text_element: ET.Element, log: ProblemLog
) -> Tuple[str, List[RawMention]]:
    """Concatenate a TEXT element's text, recording the offsets of its PHI children."""
    pieces = [text_element.text or ""]
    length = len(pieces[0])
    raw: List[RawMention] = []
    for index, child in enumerate(text_element):
        tag_id = f"{where} PHI #{index}"
        inner = "".join(child.itertext())
        if child.tag != PHI_ELEMENT or len(child):
            log.report(
                path,
                P.MALFORMED_XML,
                "an element other than PHI (or nested markup) inside TEXT; "
                "its text is kept as plain text",
                tag_id=tag_id,
            )
        else:
            type_name = child.get("TYPE")
            subtype = labels.I2B2_2006_TYPES.get((type_name or "").strip().upper())
            if subtype is None:
                problem = "unknown i2b2 2006 PHI TYPE (the value is not shown)"
                log.report(path, P.UNKNOWN_TYPE, problem, tag_id=tag_id)
            else:
                raw.append(RawMention(tag_id, length, length + len(inner), subtype))
        tail = child.tail or ""
        pieces.extend([inner, tail])
        length += len(inner) + len(tail)
    return "".join(pieces), raw
