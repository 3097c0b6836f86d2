"""De-identified output: released text from Docs, and the batch runner.

`Deidentifier` (release.py) replaces PHI spans by placeholders, numbered
placeholders or consistent surrogates, shifts dates per patient and applies
the HIPAA age rule; `DeidMapping` (mapping.py) keeps the surrogates per
patient across runs (it is PHI itself); `run_batch` (batch.py) does it for
folders of .txt, i2b2 XML, JSONL and CSV files.
"""

from .component import ReleaseComponent, make_release
from .mapping import DeidMapping, MappingFormatError, PatientState
from .operators import GENERAL_OPERATORS, OPERATORS, parse_overrides, resolve_operators
from .release import Deidentifier, Released, ReleasedSpan, make_deidentifier

__all__ = [
    "DeidMapping",
    "Deidentifier",
    "GENERAL_OPERATORS",
    "MappingFormatError",
    "OPERATORS",
    "PatientState",
    "ReleaseComponent",
    "Released",
    "ReleasedSpan",
    "make_deidentifier",
    "make_release",
    "parse_overrides",
    "resolve_operators",
]
