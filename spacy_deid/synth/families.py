"""Phenomenon families: named groups of slots, templates and layouts for what
independently written notes do and the first templates missed (issue 14).

A family names the subtypes it produces (TRAP for text that must stay
unannotated), where it goes and its weight:

- a family with `sections` has a template pool `fam_<name>` (sentences.jsonl for
  narrative and list sections, fields.jsonl for header and signature lines); each
  of those sections of a note gets one of its templates with probability
  `weight` (the note writer in generate.py does this);
- a family without sections is a slot or a style whose rate is `weight`
  (composed surnames, glued headers, other note types).

Slots of a family count `family:<name>` in the note's phenomena, so
`spacy-deid synth --report` shows how many notes hold each one.
"""
from dataclasses import dataclass
from typing import Dict, Tuple

from .. import labels
from ..surrogates.generator import COMPOSED_SURNAME_RATE
from .tables import records

TRAP = "trap"


@dataclass(frozen=True)
class Family:
    what: str
    subtypes: Tuple[str, ...]  # subtypes it produces, or (TRAP,)
    weight: float
    sections: Tuple[str, ...] = ()  # section keys (narrative, list) or field pools it joins


def _load_families() -> Dict[str, Family]:
    """families.jsonl: one record per family (`name`, `what`, `subtypes`, `weight`,
    `sections`); a family whose rate is set elsewhere names it in `weight_from`."""
    known = set(labels.SUBTYPES) | {TRAP}
    weights_from = {"surrogates.generator.COMPOSED_SURNAME_RATE": COMPOSED_SURNAME_RATE}
    families = {}
    for record in records("families.jsonl"):
        weight = record["weight"] if record["weight"] is not None else weights_from[record["weight_from"]]
        subtypes = tuple(record["subtypes"])
        if not set(subtypes) <= known:
            raise ValueError(f"families.jsonl: family {record['name']!r} has unknown subtypes "
                             f"{sorted(set(subtypes) - known)}")
        families[record["name"]] = Family(record["what"], subtypes, weight, tuple(record["sections"]))
    return families


FAMILIES: Dict[str, Family] = _load_families()


def family_key(name: str) -> str:
    """The phenomena counter key of a family."""
    if name not in FAMILIES:
        raise KeyError(f"unknown phenomenon family {name!r}")
    return f"family:{name}"


def families_for(section: str) -> Tuple[str, ...]:
    """Families (in table order) whose templates join a section or field pool."""
    return tuple(name for name, family in FAMILIES.items() if section in family.sections)


def pool_name(family: str, lines: bool = False) -> str:
    """A family's sentence pool (sentences.jsonl) or, with `lines`, its field pool (fields.jsonl)."""
    return f"fam_{family}_line" if lines else f"fam_{family}"
