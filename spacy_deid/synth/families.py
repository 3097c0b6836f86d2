"""Phenomenon families: named groups of slots, templates and layouts for what
independently written notes do and the first templates missed (issue 14).

A family names the subtypes it produces (TRAP for text that must stay
unannotated), where it goes and its weight:

- a family with `sections` has a template pool `fam_<name>` (sentences.py for
  narrative and list sections, fields.py for header and signature lines); each
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

TRAP = "trap"


@dataclass(frozen=True)
class Family:
    what: str
    subtypes: Tuple[str, ...]  # subtypes it produces, or (TRAP,)
    weight: float
    sections: Tuple[str, ...] = ()  # section keys (narrative, list) or field pools it joins


FAMILIES: Dict[str, Family] = {
    "department": Family(
        "department, program, unit and service names in header, banner, signature lines and "
        "text, in title, upper or lower case", (labels.DEPARTMENT,), 0.5, ("header", "signature")),
    "room": Family(
        '"Rm 2207", "Room 5, Bed B", "Bay 9" (the designator inside the span), "interview room '
        'D-3" (the identifier only)', (labels.ROOM,), 0.3,
        ("header", "hpi", "mse_narr", "plan", "hospital_course")),
    "signature_block": Family(
        'signature and team/cc lines in "Last, First, MD" and "Last, First M" form, user ids '
        "in brackets after the name", (labels.DOCTOR, labels.USERNAME), 0.5, ("signature",)),
    "social_handle": Family(
        "social-media handles with dots and underscores after a platform cue",
        (labels.USERNAME,), 0.12, ("social", "hpi", "collateral")),
    "cued_identifier": Family(
        'letter-digit-hyphen identifiers after "#", "no.", "Booking", "accession", "incident", '
        '"case", "license" cues', (labels.IDNUM, labels.LICENSE, labels.MEDICALRECORD,
                                   labels.HEALTHPLAN), 0.25,
        ("legal", "hpi", "labs", "plan", "header", "signature", "hospital_course")),
    "multiword_town": Family(
        'towns of two or three words, listed ("Salt Lake City") or composed from surnames '
        '("Port Wexley Junction", "Cedar Hollow")', (labels.CITY, labels.STATE), 0.35,
        ("social", "hpi", "family", "id")),
    "foreign_place": Family(
        'foreign cities with hyphens ("Port-au-Prince") and countries with "and" ("Trinidad and '
        'Tobago")', (labels.CITY, labels.COUNTRY), 0.2, ("social", "developmental", "trauma")),
    "function_word_org": Family(
        'organisations with inner function words or symbols: "Office on Aging", "Board of '
        'Health", "X & Y LLP", "Local 802"', (labels.ORGANIZATION,), 0.35,
        ("social", "hpi", "legal", "collateral", "plan")),
    "multiword_profession": Family(
        "occupations of three or more words in running text", (labels.PROFESSION,), 0.35,
        ("social", "hpi", "family", "id")),
    "caps_name": Family(
        'names in capitals inside running text ("seen with JOHN SMITH today")',
        (labels.PATIENT, labels.DOCTOR), 0.3,
        ("hpi", "collateral", "plan", "social", "interval", "hospital_course")),
    "nickname": Family(
        'nicknames in quotes: Robert "Bobby" Smith, three mentions', (labels.PATIENT,), 0.12,
        ("id", "social", "family")),
    "lone_name": Family(
        'a lone first name; "Mrs./Dr. Surname" with an unusual surname',
        (labels.PATIENT, labels.DOCTOR), 0.35,
        ("hpi", "collateral", "family", "plan", "interval")),
    "clinical_trap": Family(
        'clinical abbreviations (OSA, CHF, MI, "Ca"), durations ("in 2 wks"), rating-scale '
        'scores ("AUDIT 10", "MoCA 24/30") and clock times ("at 3 am") next to names and ages',
        (TRAP,), 0.45,
        ("hpi", "medical", "plan", "formulation", "interval", "letter_body")),
    "composed_surname": Family(
        "hyphenated and double-barrelled surnames, particles (van, de, al-, O') for every "
        "person (SurrogateGenerator.composed_last_name)", (labels.PATIENT, labels.DOCTOR),
        COMPOSED_SURNAME_RATE),
    "glued_header": Family(
        'a section header glued to its first word ("HPIPatient reports"), only where the '
        "tokenizer splits the case change (share of notes)", (TRAP,), 0.04),
    "note_type": Family(
        "other note types: progress note, consult, discharge summary, letter, ALL-CAPS "
        "dictation; two layouts each, one per template half (sampling weight of each layout "
        "against 1 for an intake layout)", (), 0.3),
}


def family_key(name: str) -> str:
    """The phenomena counter key of a family."""
    if name not in FAMILIES:
        raise KeyError(f"unknown phenomenon family {name!r}")
    return f"family:{name}"


def families_for(section: str) -> Tuple[str, ...]:
    """Families (in table order) whose templates join a section or field pool."""
    return tuple(name for name, family in FAMILIES.items() if section in family.sections)


def pool_name(family: str, lines: bool = False) -> str:
    """A family's sentence pool (sentences.py) or, with `lines`, its field pool (fields.py)."""
    return f"fam_{family}_line" if lines else f"fam_{family}"
