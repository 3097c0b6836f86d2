"""Finding the notes under a path the user gave, in any supported format."""
import re
import warnings
from pathlib import Path
from typing import Iterator, List, Optional

from . import problems as P
from .i2b2_2006 import read_i2b2_2006
from .i2b2_2014 import read_i2b2_2014
from .jsonl import read_jsonl_corpus
from .note import Note
from .physionet import TEXT_FILE, read_physionet
from .problems import CorpusFormatError, PathLike, ProblemLog

I2B2_2014 = "i2b2-2014"
I2B2_2006 = "i2b2-2006"
PHYSIONET = "physionet"
JSONL = "jsonl"
AUTO = "auto"
FORMATS = (AUTO, I2B2_2014, I2B2_2006, PHYSIONET, JSONL)
# In a folder: XML files (either i2b2 format) and annotated JSONL (jsonl.py).
_CORPUS_SUFFIXES = {I2B2_2014: (".xml",), I2B2_2006: (".xml",), JSONL: (".jsonl",)}

# The first element of an i2b2 XML file tells the two i2b2 formats apart.
_ROOT_ELEMENT = re.compile(rb"<(?![?!])([A-Za-z_][\w.-]*)")
_SNIFF_BYTES = 4096
# Byte order marks of the wide encodings an XML file may be saved in (UTF-8 needs no decoding
# to find the root element); the XML parsers read these files themselves.
_WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def _ascii_head(head: bytes) -> bytes:
    """The first bytes of an XML file as ASCII bytes, decoded first when a byte order mark
    says it is UTF-16 or UTF-32 (a Windows editor's "Unicode")."""
    for bom, encoding in _WIDE_BOMS:
        if head.startswith(bom):
            usable = len(head) - len(head) % (4 if "32" in encoding else 2)
            text = head[len(bom):usable].decode(encoding, "replace")
            return text.encode("ascii", "replace")
    return head


def sniff_xml_format(path: Path) -> str:
    """i2b2-2014 for a <deIdi2b2> root, i2b2-2006 for <ROOT>/<RECORD> files."""
    with path.open("rb") as file_:
        head = _ascii_head(file_.read(_SNIFF_BYTES))
    match = _ROOT_ELEMENT.search(head)
    root = match.group(1).decode("ascii", "replace") if match else ""
    if root == "deIdi2b2":
        return I2B2_2014
    if root in ("ROOT", "RECORD") or b"<RECORD" in head:
        return I2B2_2006
    raise CorpusFormatError(
        path,
        f"cannot tell the corpus format from its root element <{root}>; "
        f"pass --format ({', '.join(FORMATS[1:])})",
        kind=P.MALFORMED_XML,
    )


def corpus_files(path: PathLike, format: str = AUTO) -> List[Path]:
    """The files that hold the corpus at `path` (a file or a folder)."""
    path = Path(path)
    if format not in FORMATS:
        raise ValueError(f"unknown corpus format {format!r}; choose from {', '.join(FORMATS)}")
    if not path.exists():
        raise FileNotFoundError(f"corpus path does not exist: {path}")
    if path.is_file():
        return [path]
    if format in (AUTO, PHYSIONET) and (path / TEXT_FILE).is_file():
        return [path / TEXT_FILE]
    if format == PHYSIONET:
        raise CorpusFormatError(path, f"no {TEXT_FILE} in this folder", kind=P.MISSING_RECORD)
    suffixes = _CORPUS_SUFFIXES.get(format, (".xml", ".jsonl"))
    wanted = " or ".join(suffixes)
    files = sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith("."))
    corpus = [p for p in files if p.suffix.lower() in suffixes]
    others = [p.name for p in files if p.suffix.lower() not in suffixes]
    if others:
        shown = ", ".join(others[:5]) + (", ..." if len(others) > 5 else "")
        warnings.warn(f"{path}: ignoring {len(others)} file(s) that are not {wanted}: {shown}")
    if not corpus:
        raise CorpusFormatError(path, f"no {wanted} files in this folder", kind=P.MISSING_RECORD)
    return corpus


def read_corpus(
    path: PathLike,
    format: str = AUTO,
    *,
    lenient: bool = False,
    log: Optional[ProblemLog] = None,
) -> Iterator[Note]:
    """Yield the Notes of a corpus file or folder in any supported format.

    Strict by default: the first bad tag raises CorpusFormatError. With
    `lenient=True` (or a lenient `log`), bad tags are skipped and counted in
    the log, whose `summary()` says what was skipped.
    """
    log = log if log is not None else ProblemLog(lenient=lenient)
    for file_path in corpus_files(path, format):
        file_format = format
        if file_format == AUTO:
            is_physionet = file_path.name == TEXT_FILE or file_path.suffix == ".text"
            if file_path.suffix.lower() == ".jsonl":
                file_format = JSONL
            else:
                file_format = PHYSIONET if is_physionet else sniff_xml_format(file_path)
        if file_format == JSONL:
            yield from read_jsonl_corpus(file_path, log)
        elif file_format == I2B2_2014:
            yield read_i2b2_2014(file_path, log)
        elif file_format == I2B2_2006:
            yield from read_i2b2_2006(file_path, log)
        else:
            yield from read_physionet(file_path, log=log)
