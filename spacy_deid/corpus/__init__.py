"""Reading and writing de-identification corpora.

Formats: i2b2 2014 / CEGS N-GRID 2016 standoff XML, i2b2 2006 inline XML,
the PhysioNet deid gold standard and annotated JSONL; all become `Note`s (exact text, PHI
mentions, note and patient ids), then spaCy Docs with the PHI as doc.ents.
"""
from .docbin import convert_corpus, notes_to_docbin, read_docbin_docs
from .docs import MISALIGNED_POLICIES, AlignmentReport, doc_to_note, note_to_doc
from .formats import FORMATS, corpus_files, read_corpus, sniff_xml_format
from .i2b2_2006 import read_i2b2_2006
from .i2b2_2014 import note_to_i2b2_2014, read_i2b2_2014, write_i2b2_2014
from .jsonl import read_jsonl_corpus
from .note import Note, PhiMention
from .physionet import read_physionet
from .problems import CorpusFormatError, ProblemLog

__all__ = [
    "AlignmentReport",
    "CorpusFormatError",
    "FORMATS",
    "MISALIGNED_POLICIES",
    "Note",
    "PhiMention",
    "ProblemLog",
    "convert_corpus",
    "corpus_files",
    "doc_to_note",
    "note_to_doc",
    "note_to_i2b2_2014",
    "notes_to_docbin",
    "read_corpus",
    "read_docbin_docs",
    "read_i2b2_2006",
    "read_i2b2_2014",
    "read_jsonl_corpus",
    "read_physionet",
    "sniff_xml_format",
    "write_i2b2_2014",
]
