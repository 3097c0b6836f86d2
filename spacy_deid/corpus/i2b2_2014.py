"""i2b2 2014 / CEGS N-GRID 2016 standoff XML: one note per file.

    <deIdi2b2>
    <TEXT><![CDATA[ ...note text... ]]></TEXT>
    <TAGS>
    <DATE id="P0" start="16" end="26" text="2067-05-03" TYPE="DATE" comment="" />
    </TAGS>
    </deIdi2b2>

Offsets index the note text exactly as it is in the file (CRLF included).
The reader takes it from the raw file, so files in the wild whose CDATA
holds CRLF read exactly; the writer writes a CR as &#13; (see
`xml_text.text_element_body`) so that ElementTree, lxml and the official
scorer read the same text and offsets as this package.
The official releases name files `PPP-RR.xml` (patient, record); the official
scorer pairs system and gold files by that name, so the writer keeps it.
"""
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import List, Optional, Sequence

from .. import labels
from . import problems as P
from .note import Note, PhiMention
from .problems import CorpusFormatError, PathLike, ProblemLog
from .validate import RawMention, validate_mentions
from .xml_text import (
    parse_markup,
    blank_out,
    decode_xml_bytes,
    quote_attribute,
    replace_element_bodies,
    text_element_body,
    unescape_text_body,
)

ROOT_ELEMENT = "deIdi2b2"
# "110-01.xml": patient 110, record 01.
_PATIENT_RECORD_NAME = re.compile(r"^(?P<patient>[0-9A-Za-z]+)-(?P<record>[0-9A-Za-z]+)$")


def patient_id_from_name(note_id: str) -> Optional[str]:
    """The patient part of an official `PPP-RR` note id, else None."""
    match = _PATIENT_RECORD_NAME.match(note_id)
    return match.group("patient") if match else None


def read_i2b2_2014(path: PathLike, log: Optional[ProblemLog] = None) -> Note:
    """Read one i2b2 2014 standoff XML file into a Note.

    Raises CorpusFormatError for malformed input; with a lenient ProblemLog,
    bad tags are skipped and counted instead (a malformed file still raises).
    """
    path = Path(path)
    log = log if log is not None else ProblemLog()
    xml = decode_xml_bytes(path, path.read_bytes())
    bodies: List[str] = []

    def take_body(match: "re.Match[str]") -> str:
        bodies.append(match.group(2))
        return blank_out(match.group(2))

    markup = replace_element_bodies(xml, "TEXT", take_body)
    root = parse_markup(path, markup)
    if root.find("TEXT") is None or len(bodies) != 1:
        raise CorpusFormatError(
            path,
            f"expected one TEXT element with the note text, found {len(bodies)}",
            kind=P.MALFORMED_XML,
        )
    text = unescape_text_body(path, bodies[0])
    raw = list(_raw_mentions(path, root, log))
    mentions = validate_mentions(path, text, raw, log)
    note_id = path.stem
    return Note(
        note_id=note_id,
        text=text,
        mentions=mentions,
        patient_id=patient_id_from_name(note_id),
        source_file=str(path),
    )


UNKNOWN_TYPE_PROBLEM = (
    f"unknown PHI TYPE: not one of the {len(labels.SUBTYPES)} subtypes (the value is not shown)"
)
UNKNOWN_CATEGORY_PROBLEM = "unknown tag name: not a PHI category (the name is not shown)"


def _raw_mentions(path: Path, root: ET.Element, log: ProblemLog):
    tags = root.find("TAGS")
    if tags is None:
        return
    seen_ids = set()
    for position, element in enumerate(tags):
        tag_id = element.get("id") or f"#{position}"
        # In messages: the id if it looks like one, else the tag's position.
        where = P.shown_id(tag_id, f"#{position}")
        if tag_id in seen_ids:
            log.report(path, P.DUPLICATE_ID, "tag id used twice", tag_id=where)
            continue
        seen_ids.add(tag_id)
        missing = [name for name in ("start", "end", "TYPE") if element.get(name) is None]
        if missing:
            log.report(
                path, P.MISSING_ATTRIBUTE, f"missing attribute(s) {', '.join(missing)}", tag_id=where
            )
            continue
        try:
            start, end = int(element.get("start")), int(element.get("end"))
        except ValueError:
            log.report(path, P.BAD_OFFSETS, "start/end are not integers", tag_id=where)
            continue
        # Neither the TYPE nor the tag name is echoed: either may hold a value.
        try:
            subtype = labels.normalize_subtype(element.get("TYPE"))
        except labels.UnknownLabelError:
            log.report(path, P.UNKNOWN_TYPE, UNKNOWN_TYPE_PROBLEM, tag_id=where)
            continue
        try:
            category = labels.normalize_category(element.tag)
        except labels.UnknownLabelError:
            log.report(path, P.UNKNOWN_TYPE, UNKNOWN_CATEGORY_PROBLEM, tag_id=where)
            continue
        if category is not None and labels.category_of(subtype) != category:
            log.report(
                path,
                P.CATEGORY_MISMATCH,
                f"TYPE {subtype} does not belong to category {category}",
                tag_id=where,
            )
            continue
        yield RawMention(
            tag_id=tag_id,
            start=start,
            end=end,
            label=subtype,
            text=element.get("text"),
            comment=element.get("comment") or "",
        )


def note_to_i2b2_2014(note: Note) -> str:
    """Serialise a Note as i2b2 2014 XML (as a string, newlines as in the text)."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8" ?>',
        f"<{ROOT_ELEMENT}>",
        f"<TEXT>{text_element_body(note.text)}</TEXT>",
        "<TAGS>",
    ]
    for tag_id, mention in zip(_tag_ids(note.mentions), sorted(note.mentions)):
        attributes = [
            ("id", tag_id),
            ("start", str(mention.start)),
            ("end", str(mention.end)),
            ("text", note.text[mention.start : mention.end]),
            ("TYPE", mention.label),
            ("comment", mention.comment),
        ]
        rendered = " ".join(f"{name}={quote_attribute(value)}" for name, value in attributes)
        lines.append(f"<{mention.category} {rendered} />")
    lines.extend(["</TAGS>", f"</{ROOT_ELEMENT}>", ""])
    return "\n".join(lines)


def _tag_ids(mentions: Sequence[PhiMention]) -> List[str]:
    """Keep the original ids when they are all present and distinct, else P0, P1, ..."""
    ordered = sorted(mentions)
    ids = [m.tag_id for m in ordered]
    if all(ids) and len(set(ids)) == len(ids):
        return ids  # type: ignore[return-value]
    return [f"P{i}" for i in range(len(ordered))]


def write_i2b2_2014(note: Note, path: PathLike) -> Path:
    """Write a Note to `path` as UTF-8 i2b2 2014 XML, text byte for byte."""
    path = Path(path)
    xml = note_to_i2b2_2014(note)
    try:
        data = xml.encode("utf-8")
    except UnicodeEncodeError:
        position = next(i for i, c in enumerate(note.text) if 0xD800 <= ord(c) <= 0xDFFF)
        raise CorpusFormatError(
            path,
            f"note {note.note_id}: a lone surrogate (half a UTF-16 pair) at character "
            f"{position} cannot be written as UTF-8",
            kind=P.UNDECODABLE,
        ) from None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path
