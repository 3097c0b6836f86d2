"""Byte-exact handling of note text inside XML.

An XML parser normalises CRLF to LF (inside CDATA too) and rejects control
characters, which would shift every offset of an i2b2 file whose note was
extracted with Windows line endings. So the note text is taken from the raw
file by these helpers, and the XML parser only ever sees the markup around it.
"""
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable

from . import problems as P
from .problems import CorpusFormatError

# One CDATA section; its content is taken verbatim.
CDATA_SECTION = r"<!\[CDATA\[.*?\]\]>"
# Element content that is not markup: characters other than "<".
CHARACTER_DATA = r"[^<]"
# The body of an element whose content is text (with CDATA sections).
TEXT_BODY = rf"(?:{CDATA_SECTION}|{CHARACTER_DATA})*"
_CDATA_RE = re.compile(r"<!\[CDATA\[(.*?)\]\]>", re.S)
# Predefined XML entities and character references.
_ENTITY_RE = re.compile(r"&(#x[0-9A-Fa-f]+|#[0-9]+|[A-Za-z]+);")
_NAMED_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
# The encoding named in an XML declaration.
_DECLARED_ENCODING = re.compile(rb"^\s*<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9._-]+)[\"']")
_UTF8_BOM = b"\xef\xbb\xbf"


# UTF-16 as the XML specification (appendix F) detects it: a byte order
# mark, else the first characters "<?" in two bytes each.
_UTF16_STARTS = [
    (b"\xff\xfe", "utf-16-le", 2),
    (b"\xfe\xff", "utf-16-be", 2),
    (b"<\x00?\x00", "utf-16-le", 0),
    (b"\x00<\x00?", "utf-16-be", 0),
]


def decode_xml_bytes(path: Path, data: bytes) -> str:
    """Decode an XML file's bytes: UTF-16 by its byte order mark or first
    characters, else by its declaration (UTF-8 by default)."""
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
    for start, encoding, skip in _UTF16_STARTS:
        if data.startswith(start):
            return _decode(path, data[skip:], encoding)
    match = _DECLARED_ENCODING.match(data)
    encoding = match.group(1).decode("ascii") if match else "utf-8"
    if encoding.lower().replace("_", "-") in ("utf-16", "utf16"):
        raise CorpusFormatError(
            path, "declared UTF-16 but the bytes are not UTF-16 XML", kind=P.UNDECODABLE
        )
    return _decode(path, data, encoding)


def _decode(path: Path, data: bytes, encoding: str) -> str:
    try:
        return data.decode(encoding)
    except LookupError:
        raise CorpusFormatError(
            path,
            "unknown encoding in the XML declaration (the name is not shown)",
            kind=P.UNDECODABLE,
        ) from None
    except UnicodeDecodeError as err:
        raise CorpusFormatError(
            path,
            f"bytes {err.start}-{err.end} are not valid {_shown_encoding(encoding)}",
            kind=P.UNDECODABLE,
        ) from None


def _shown_encoding(encoding: str) -> str:
    """A codec's name as a message may show it (a known codec, bounded and plain;
    the declaration is input, so an unknown name is never shown)."""
    if re.fullmatch(r"[A-Za-z0-9._-]{1,40}", encoding):
        return encoding
    return "(name not shown)"


def parse_markup(path: Path, xml: str) -> ET.Element:
    """Parse XML markup; a syntax error names the file, line and column (no content)."""
    try:
        return ET.fromstring(xml)
    except ET.ParseError as err:
        line, column = err.position
        raise CorpusFormatError(
            path, f"malformed XML at line {line}, column {column}", kind=P.MALFORMED_XML
        ) from None


def unescape_text_body(path: Path, body: str) -> str:
    """The exact text of an element body: CDATA verbatim, the rest unescaped."""
    pieces = []
    position = 0
    for match in _CDATA_RE.finditer(body):
        pieces.append(_unescape(path, body[position : match.start()]))
        pieces.append(match.group(1))
        position = match.end()
    pieces.append(_unescape(path, body[position:]))
    return "".join(pieces)


def _unescape(path: Path, data: str) -> str:
    def replace(match: "re.Match[str]") -> str:
        name = match.group(1)
        if name.startswith("#"):
            code = int(name[2:], 16) if name.startswith("#x") else int(name[1:])
            if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                raise CorpusFormatError(
                    path,
                    "a character reference in the note text is not a Unicode character",
                    kind=P.MALFORMED_XML,
                )
            return chr(code)
        if name in _NAMED_ENTITIES:
            return _NAMED_ENTITIES[name]
        raise CorpusFormatError(
            path, "an undefined XML entity in the note text", kind=P.MALFORMED_XML
        )

    if "&" not in data:
        return data
    return _ENTITY_RE.sub(replace, data)


def blank_out(body: str) -> str:
    """A stand-in for a removed text body that keeps the parser's line numbers."""
    return "\n" * body.count("\n")


# Characters XML 1.0 allows nowhere, not even as references (section 2.2):
# C0 controls but tab, LF and CR, and U+FFFE/U+FFFF. (Lone surrogates cannot
# be written as UTF-8 at all: write_i2b2_2014 refuses them by name.)
_NOT_XML_1_0 = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
# What such a character is written as: one for one, so every offset holds.
XML_SUBSTITUTE = "\ufffd"


def xml_1_0_text(text: str) -> str:
    """`text` with each character XML 1.0 forbids replaced by U+FFFD
    (REPLACEMENT CHARACTER); same length, so offsets stay valid."""
    return _NOT_XML_1_0.sub(XML_SUBSTITUTE, text)


def to_cdata(text: str) -> str:
    """Text as CDATA; a "]]>" inside the text is split across two sections."""
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def text_element_body(text: str) -> str:
    """Note text as an element body that every XML parser reads exactly.

    Parsers turn CRLF and a lone CR into LF, inside CDATA too, which would
    shift every offset after the first line end. Text with a CR is therefore
    written as character data: "&", "<", ">" escaped (so "]]>" needs nothing
    more) and every CR as the reference &#13;, which parsers keep. Text
    without a CR keeps the CDATA form of the official i2b2 files. Characters
    XML 1.0 forbids (NUL and other control characters) are written as U+FFFD.
    """
    text = xml_1_0_text(text)
    if "\r" not in text:
        return to_cdata(text)
    return _escape_character_data(text).replace("\r", "&#13;")


_ATTRIBUTE_ESCAPES = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    # Attribute-value normalisation would turn these into spaces.
    "\n": "&#10;",
    "\r": "&#13;",
    "\t": "&#9;",
}
_ATTRIBUTE_SPECIALS = re.compile("[" + "".join(_ATTRIBUTE_ESCAPES) + "]")


def quote_attribute(value: str) -> str:
    """A double-quoted XML attribute value that reads back exactly (but for
    characters XML 1.0 forbids, written as U+FFFD)."""
    value = xml_1_0_text(value)
    return '"' + _ATTRIBUTE_SPECIALS.sub(lambda m: _ATTRIBUTE_ESCAPES[m.group(0)], value) + '"'


def replace_element_bodies(
    xml: str, element: str, handle_body: Callable[["re.Match[str]"], str]
) -> str:
    """Call `handle_body` for each <element>body</element>; it returns the new body."""
    pattern = re.compile(rf"(<{element}\b[^>]*>)({TEXT_BODY})(</{element}\s*>)", re.S)
    return pattern.sub(lambda m: m.group(1) + handle_body(m) + m.group(3), xml)


def protect_carriage_returns(xml: str) -> str:
    """Make an XML parser keep the CR characters of element text.

    CDATA sections become escaped character data and every CR in character
    data becomes the reference &#13;, which parsers do not normalise. Markup
    (tags, declarations) is left alone.
    """
    xml = _CDATA_RE.sub(lambda m: _escape_character_data(m.group(1)), xml)
    parts = re.split(r"(<[^>]*>)", xml)
    # Only inside the root element: the prolog and epilog allow no character data.
    elements = [i for i in range(1, len(parts), 2) if not parts[i].startswith(("<?", "<!"))]
    if not elements:
        return xml
    for index in range(elements[0] + 1, elements[-1], 2):  # even indexes are character data
        parts[index] = parts[index].replace("\r", "&#13;")
    return "".join(parts)


def _escape_character_data(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
