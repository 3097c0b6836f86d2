"""What a Spark run needs on every worker: the pipeline, the operators, the
seed and the column names. Plain, picklable values only (Spark ships them to
the Python workers with the functions that use them)."""

from dataclasses import dataclass, field
from typing import Dict, Optional, Tuple

from ..deid import operators as ops
from ..deid.mapping import DeidMapping
from ..deid.release import Deidentifier

# A note longer than this (characters) gets the status too_large and never
# reaches a Python worker: spaCy needs roughly 1 GB per 100,000 characters
# for a parser or NER, so a stray multi-megabyte "note" (a pasted log, a
# binary blob) would take a worker down.
DEFAULT_MAX_NOTE_CHARS = 2_000_000


@dataclass(frozen=True)
class Columns:
    """Names of the input columns (output columns use the default names)."""

    note_id: str = "note_id"
    patient_id: str = "patient_id"
    text: str = "text"
    # Optional: the order of a patient's notes (a date, a sequence number);
    # ties and the default order go by note id.
    order_by: Optional[str] = None


@dataclass(frozen=True)
class DeidSettings:
    """The settings `spacy-deid deidentify` takes, for the workers."""

    model: str  # pipeline name or path, as readable on every executor
    seed: str
    # balanced, recall or a threshold, as `deidentify --operating-point` (None: the pipeline's)
    operating_point: Optional[str] = None
    operator: str = ops.PLACEHOLDER
    operators: Tuple[Tuple[str, str], ...] = ()  # (subtype, operator) overrides
    date_shift_min_days: int = ops.DATE_SHIFT_MIN_DAYS
    date_shift_max_days: int = ops.DATE_SHIFT_MAX_DAYS
    age_limit: int = ops.HIPAA_AGE_LIMIT
    batch_size: int = 32
    max_note_chars: int = DEFAULT_MAX_NOTE_CHARS
    columns: Columns = field(default_factory=Columns)

    def __post_init__(self) -> None:
        if not str(self.seed):
            raise ValueError("a seed is required: without it no run can be repeated or resumed")
        self.deidentifier()  # operators and the date range checked on the driver
        if self.operating_point is not None:
            from ..pipeline.confidence import parse_operating_point

            parse_operating_point(self.operating_point)

    @classmethod
    def from_deidentifier(cls, deid: Deidentifier, model: str, **settings) -> "DeidSettings":
        """Settings that rebuild `deid` (e.g. one from a config's [deidentifier] block)."""
        low, high = deid.date_shift
        return cls(
            model=model,
            seed=deid.mapping.seed,
            operators=tuple(sorted(deid.operators.items())),
            date_shift_min_days=low,
            date_shift_max_days=high,
            age_limit=deid.age_limit,
            **settings,
        )

    def deidentifier(self, mapping: Optional[DeidMapping] = None) -> Deidentifier:
        overrides: Dict[str, str] = dict(self.operators)
        return Deidentifier(
            self.operator,
            overrides,
            self.seed,
            self.date_shift_min_days,
            self.date_shift_max_days,
            self.age_limit,
            mapping=mapping,
        )
