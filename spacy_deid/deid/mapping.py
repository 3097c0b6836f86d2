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
        if data.get("version") not in READABLE_VERSIONS:
            raise MappingFormatError(f"{path}: unsupported mapping version {data.get('version')!r}")
        patients = data.get("patients") or {}
        if not isinstance(patients, dict):
            raise MappingFormatError(f"{path}: malformed mapping ('patients' is not an object)")
        for number, state in enumerate(patients.values(), 1):
            try:
                PatientState.from_dict(state)
            except (AttributeError, KeyError, TypeError, ValueError) as err:
                # By position and error type: the entry's key and values are PHI.
                raise MappingFormatError(
                    f"{path}: malformed mapping entry (patient {number} of {len(patients)}: "
                    f"{type(err).__name__})"
                ) from None
        return cls.from_dict(data)


def check_mapping_outside(mapping: Union[str, Path], output: Union[str, Path]) -> None:
    """ValueError when the mapping (PHI) is the output or inside it: it would
    be released with the notes. Local paths are compared resolved (links
    followed), URIs (hdfs://, s3a://, dbfs:) by prefix."""
    mapping, output = str(mapping), str(output)
    if any("://" in p or p.startswith("dbfs:") for p in (mapping, output)):
        inside = (mapping.rstrip("/") + "/").startswith(output.rstrip("/") + "/")
    else:
        resolved, folder = Path(mapping).resolve(), Path(output).resolve()
        inside = resolved == folder or folder in resolved.parents
    if inside:
        raise ValueError(
            f"the mapping {mapping} is inside the output {output}: the mapping is PHI "
            "and must never be released with the notes; put it elsewhere"
        )
