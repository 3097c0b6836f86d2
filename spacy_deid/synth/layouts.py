"""Note layouts: which sections, in which order, with which header spellings.

A section has header spellings and a body kind ("narrative", "fields",
"list", "mse", "checklist", "title", "block": one multi-line template); a
layout is an ordered list of (section, probability) with an id and a half
(A/B, alternating), like the templates. Both are data: `data/synth/sections.jsonl`
and `data/synth/layouts.jsonl`, one record per section or layout. Header
styles, field separators and bullets vary per note on top of that.
"""
from dataclasses import dataclass
from typing import Dict, Tuple

from .families import FAMILIES
from .tables import as_tuple, records
from .template import HALVES


@dataclass(frozen=True)
class Section:
    key: str
    headers: Tuple[str, ...]
    kind: str  # narrative | fields | list | mse | checklist | title | block
    pool: str = ""
    count: Tuple[int, int] = (1, 1)  # sentences or lines, scaled by the note's verbosity
    plain_pool: str = ""  # PHI-free sentences mixed into a narrative section
    plain_share: float = 0.0
    field_pool: str = ""  # attribute-value lines that may replace the narrative
    field_share: float = 0.0  # probability of the attribute-value variant


@dataclass(frozen=True)
class Layout:
    id: str
    half: str
    sections: Tuple[Tuple[str, float], ...]
    weight: float = 1.0  # sampling weight against the other layouts of the half
    upper: bool = False  # the whole note in capitals (dictation transcripts)
    note_type: str = "intake"
    case: str = ""  # "mixed": each note as written, in capitals or in lower case (nursing notes)


NURSING = "nursing"  # the note type of the nursing layouts
SECTION_KINDS = ("narrative", "fields", "list", "mse", "checklist", "title", "block")


def _load_sections() -> Dict[str, Section]:
    sections = {}
    for record in records("sections.jsonl"):
        section = Section(record["key"], as_tuple(record["headers"]), record["kind"], record["pool"],
                          as_tuple(record["count"]), record["plain_pool"], record["plain_share"],
                          record["field_pool"], record["field_share"])
        if section.kind not in SECTION_KINDS:
            raise ValueError(f"sections.jsonl: section {section.key!r} has unknown kind {section.kind!r}")
        sections[section.key] = section
    return sections


SECTIONS: Dict[str, Section] = _load_sections()

# Intake notes end with a multi-line signature block ("Last, First, MD" /
# department / facility) this often, after or instead of the signature lines.
INTAKE_SIGNATURE_BLOCK = 0.25


def _load_layouts() -> Tuple[Layout, ...]:
    """Intake layouts have weight 1 and may end with a signature block; the
    other note types (the "note_type" family) weigh that family's weight each;
    nursing notes weigh 0 here: the writer gives them their share of notes
    (`NURSING` layouts, the `nursing_style` family)."""
    layouts = []
    for position, record in enumerate(records("layouts.jsonl")):
        expected = (f"layout.{position:03d}", HALVES[position % 2])
        if (record["id"], record["half"]) != expected:
            raise ValueError(f"layouts.jsonl: record {record['id']!r} should be {expected[0]} "
                             f"(half {expected[1]}): layouts are appended, never reordered")
        sections = as_tuple(record["sections"])
        unknown = [key for key, _ in sections if key not in SECTIONS]
        if unknown:
            raise ValueError(f"layouts.jsonl: {record['id']} names unknown sections {unknown}")
        if record["note_type"] == "intake":
            layouts.append(Layout(record["id"], record["half"],
                                  sections + (("sig_block", INTAKE_SIGNATURE_BLOCK),)))
        elif record["note_type"] == NURSING:
            layouts.append(Layout(record["id"], record["half"], sections, 0.0, record["upper"],
                                  NURSING, record.get("case", "")))
        else:
            layouts.append(Layout(record["id"], record["half"], sections, FAMILIES["note_type"].weight,
                                  record["upper"], record["note_type"]))
    return tuple(layouts)


LAYOUTS: Tuple[Layout, ...] = _load_layouts()

# Header styles: how a header line is written; "{h}" is the spelling.
HEADER_STYLES = {
    # "HPIPatient reports": glued to the first word (the glued_header family; the writer
    # falls back to "inline" where the tokenizer would not split the case change)
    "glued_inline": ("{h}", 100 * FAMILIES["glued_header"].weight / 2),
    "upper_glued_inline": ("{H}", 100 * FAMILIES["glued_header"].weight / 2),
    "colon_line": ("{h}:", 30),         # header alone on its line, colon
    "upper_colon_line": ("{H}:", 20),   # upper-cased
    "bare_line": ("{h}", 12),           # no colon
    "inline": ("{h}: ", 25),           # text follows on the same line
    "upper_inline": ("{H}: ", 8),
    "dashes": ("--- {h} ---", 3),
    "underlined": ("{h}\n" + "-" * 20, 2),
}
FIELD_SEPARATORS = {": ": 60, ":  ": 8, ":": 6, " - ": 8, ":\t": 6, " = ": 2}
BULLETS = {"": 30, "- ": 25, "* ": 10, "• ": 6, "#": 14, "#)": 6}
