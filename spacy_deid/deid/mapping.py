"""The real -> surrogate mapping, per patient, saved and reloaded as JSON.

THE MAPPING IS PHI. It holds every real value next to its surrogate, the date
offset of every patient and the seed that derives new surrogates; anyone with
it can undo the de-identification. Keep it with the original notes, never
with the released ones.
"""

import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Optional, Union

from .files import atomic_write_text
from .paths import inside, where_link_lies
from .names import NameRegistry

FORMAT_NAME = "spacy-deid-mapping"
FORMAT_VERSION = 2
# Version 1 kept people per subtype; it is read (its registries joined).
READABLE_VERSIONS = (1, 2)


# Subtypes written with digits and letters whose surrogate keeps the shape of
# the original: one number met as MEDICALRECORD and as PHONE is one value.
NUMBERS = "numbers"


@dataclass
class PatientState:
    """What one patient's notes have been given so far.

    One registry of people for all person subtypes (someone met as PATIENT
    and as DOCTOR is one person), and one table of values for all shaped
    number subtypes (`NUMBERS`); the other subtypes keep a table each.
    """

    date_offset: Optional[int] = None
    values: Dict[str, Dict[str, str]] = field(default_factory=dict)  # table -> key -> surrogate
    people: NameRegistry = field(default_factory=NameRegistry)
    numbers: Dict[str, Dict[str, int]] = field(default_factory=dict)  # subtype -> entity -> n

    def registry(self, subtype: Optional[str] = None) -> NameRegistry:
        """The people of this patient's notes (one registry, whatever the subtype)."""
        return self.people

    def number(self, subtype: str, entity: str) -> int:
        numbers = self.numbers.setdefault(subtype, {})
        if entity not in numbers:
            numbers[entity] = len(numbers) + 1
        return numbers[entity]

    def to_dict(self) -> Dict:
        return {
            "date_offset": self.date_offset,
            "values": self.values,
            "people": self.people.to_list(),
            "numbers": self.numbers,
        }

    @classmethod
    def from_dict(cls, data: Dict) -> "PatientState":
        people = list(data.get("people") or [])
        for listed in (data.get("names") or {}).values():  # version 1: per subtype
            people.extend(listed)
        return cls(
            date_offset=data.get("date_offset"),
            values={k: dict(v) for k, v in (data.get("values") or {}).items()},
            people=NameRegistry.from_list(people),
            numbers={k: dict(v) for k, v in (data.get("numbers") or {}).items()},
        )


class MappingFormatError(ValueError):
    """A mapping file that is not one (names the file, never its content)."""


@dataclass
class DeidMapping:
    """Per-patient surrogates and date offsets, and the secret seed behind them."""

    seed: str = field(default_factory=lambda: secrets.token_hex(16))
    patients: Dict[str, PatientState] = field(default_factory=dict)

    def patient(self, key: str) -> PatientState:
        return self.patients.setdefault(key, PatientState())

    def to_dict(self) -> Dict:
        return {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "warning": "This file is PHI: it maps real values to surrogates.",
            "seed": self.seed,
            "patients": {key: state.to_dict() for key, state in sorted(self.patients.items())},
        }

    @classmethod
    def from_dict(cls, data: Dict) -> "DeidMapping":
        return cls(
            seed=str(data["seed"]),
            patients={
                k: PatientState.from_dict(v) for k, v in (data.get("patients") or {}).items()
            },
        )

    def to_disk(self, path: Union[str, Path]) -> Path:
        """Write atomically (a temporary file renamed over the old one), readable by the owner only."""
        return atomic_write_text(
            # ASCII escapes: a real value with a lone surrogate (from JSON input)
            # is still written and read back exactly.
            Path(path), json.dumps(self.to_dict(), ensure_ascii=True), private=True
        )

    @classmethod
    def from_disk(cls, path: Union[str, Path]) -> "DeidMapping":
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise MappingFormatError(
                f"{path}: not a spacy-deid mapping (unreadable JSON)"
            ) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT_NAME or "seed" not in data:
            raise MappingFormatError(f"{path}: not a spacy-deid mapping")
        if not isinstance(data["seed"], str) or not data["seed"]:
            raise MappingFormatError(f"{path}: malformed mapping ('seed' is not a non-empty string)")
        if data.get("version") not in READABLE_VERSIONS:
            raise MappingFormatError(f"{path}: unsupported mapping version {data.get('version')!r}")
        patients = data.get("patients") or {}
        if not isinstance(patients, dict):
            raise MappingFormatError(f"{path}: malformed mapping ('patients' is not an object)")
        for number, state in enumerate(patients.values(), 1):
            # By position and field: the entry's key and values are PHI.
            problem = patient_entry_problem(state)
            if problem is not None:
                raise MappingFormatError(
                    f"{path}: malformed mapping entry (patient {number} of {len(patients)}: "
                    f"{problem})"
                )
        return cls.from_dict(data)


def patient_entry_problem(state: object) -> Optional[str]:
    """What is wrong with one patient's entry of a mapping file, by field name
    and expected type (never a value), or None. Checked when the file is
    loaded, so a bad value is refused before any note is processed instead of
    failing in the middle of a release."""
    if not isinstance(state, dict):
        return "not an object"
    offset = state.get("date_offset")
    if offset is not None and not _whole_number(offset):
        return "'date_offset' is not a whole number of days"
    if offset == 0:
        return "'date_offset' is 0: dates would not move"
    tables = state.get("values") or {}
    if not isinstance(tables, dict) or not all(
        _strings_to(table, str) for table in tables.values()
    ):
        return "'values' is not an object of tables of strings"
    numbers = state.get("numbers") or {}
    if not isinstance(numbers, dict) or not all(
        _strings_to(table, int) for table in numbers.values()
    ):
        return "'numbers' is not an object of tables of whole numbers"
    people = list(state.get("people") or [])
    names = state.get("names") or {}  # version 1
    if not isinstance(state.get("people") or [], list) or not isinstance(names, dict):
        return "'people' is not a list"
    for listed in names.values():
        if not isinstance(listed, list):
            return "'names' is not an object of lists"
        people.extend(listed)
    for person in people:
        problem = _person_problem(person)
        if problem is not None:
            return problem
    return None


def _whole_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _strings_to(table: object, kind: type) -> bool:
    """Whether `table` is an object whose keys are strings and values `kind`."""
    if not isinstance(table, dict):
        return False
    check = _whole_number if kind is int else (lambda v: isinstance(v, kind))
    return all(isinstance(k, str) and check(v) for k, v in table.items())


def _person_problem(person: object) -> Optional[str]:
    if not isinstance(person, dict):
        return "a person is not an object"
    surrogate = person.get("surrogate")
    if (
        not isinstance(surrogate, list)
        or len(surrogate) != 4
        or not all(isinstance(part, str) for part in surrogate)
        or not surrogate[0]
        or not surrogate[1]
    ):
        return "a person's 'surrogate' is not [first, last, sex, middle initial] strings"
    for key in ("first", "last", "single"):
        if person.get(key) is not None and not isinstance(person[key], str):
            return f"a person's '{key}' is not a string"
    if not _strings_to(person.get("middle") or {}, str):
        return "a person's 'middle' is not an object of strings"
    return None


def check_mapping_outside(mapping: Union[str, Path], output: Union[str, Path]) -> None:
    """ValueError when the mapping (PHI) is the output or inside it: it would
    be released with the notes. Local paths are compared on real paths, the
    mapping both where it leads (links followed) and where the path given
    lies (a link inside the output to a mapping elsewhere is refused too);
    URIs (hdfs://, s3a://, dbfs:) by prefix."""
    mapping, output = str(mapping), str(output)
    if any("://" in p or p.startswith("dbfs:") for p in (mapping, output)):
        inside_ = (mapping.rstrip("/") + "/").startswith(output.rstrip("/") + "/")
    else:
        inside_ = inside(mapping, output) or inside(where_link_lies(mapping), output)
    if inside_:
        raise ValueError(
            f"the mapping {mapping} is inside the output {output} (or a link there): the "
            "mapping is PHI and must never be released with the notes; put it elsewhere"
        )
