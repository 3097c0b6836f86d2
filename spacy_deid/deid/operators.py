"""Operators: what replaces a PHI span of each subtype in released text.

placeholder  "[PATIENT]"
numbered     "[PATIENT-1]", one number per distinct entity of a patient
surrogate    a realistic fictional value, consistent per patient, in the
             original's format (for DATE it means `shift`)
shift        DATE only: the date moved by the patient's offset, same format
hipaa_age    AGE only: ages above 89 become "90+", others are kept
keep         the original text (for subtypes a user decides not to hide)
remove       nothing
"""

import re
from typing import Dict, Iterable, Optional

from .. import labels
from ..surrogates import formats

PLACEHOLDER = "placeholder"
NUMBERED = "numbered"
SURROGATE = "surrogate"
SHIFT = "shift"
HIPAA_AGE = "hipaa_age"
KEEP = "keep"
REMOVE = "remove"
OPERATORS = (PLACEHOLDER, NUMBERED, SURROGATE, SHIFT, HIPAA_AGE, KEEP, REMOVE)
# Operators that make sense for every subtype (the --operator choices).
GENERAL_OPERATORS = (PLACEHOLDER, NUMBERED, SURROGATE, REMOVE)
ONLY_FOR = {SHIFT: labels.DATE, HIPAA_AGE: labels.AGE}
# HIPAA Safe Harbor: ages over 89 are aggregated into one category.
HIPAA_AGE_LIMIT = 90
# The range a patient's date offset is drawn from, in days (surrogate operator),
# for the Deidentifier, its config block, both commands and Spark's settings.
DATE_SHIFT_MIN_DAYS = -365
DATE_SHIFT_MAX_DAYS = 365
AGE_OVER_LIMIT = "90+"


def resolve_operators(default: str, overrides: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """The operator of every subtype: `overrides` ({subtype: operator}) over `default`.

    AGE follows the HIPAA rule unless overridden; DATE under `surrogate` is
    shifted. Raises ValueError for unknown operators or subtypes.
    """
    if default not in GENERAL_OPERATORS:
        raise ValueError(
            f"unknown operator {default!r}; choose one of {', '.join(GENERAL_OPERATORS)}"
        )
    chosen: Dict[str, str] = {}
    for subtype, operator in (overrides or {}).items():
        subtype = labels.normalize_subtype(subtype)
        if operator not in OPERATORS:
            raise ValueError(
                f"unknown operator {operator!r} for {subtype}; choose one of {', '.join(OPERATORS)}"
            )
        if operator in ONLY_FOR and ONLY_FOR[operator] != subtype:
            raise ValueError(
                f"operator {operator!r} applies to {ONLY_FOR[operator]} only, not {subtype}"
            )
        chosen[subtype] = operator
    result = {}
    for subtype in labels.SUBTYPES:
        operator = chosen.get(subtype, HIPAA_AGE if subtype == labels.AGE else default)
        if subtype == labels.DATE and operator == SURROGATE:
            operator = SHIFT
        result[subtype] = operator
    return result


def parse_overrides(specs: Iterable[str]) -> Dict[str, str]:
    """{subtype: operator} from "SUBTYPE=operator" strings (CLI options)."""
    result = {}
    for spec in specs:
        subtype, sep, operator = spec.partition("=")
        if not sep:
            raise ValueError(f"expected SUBTYPE=operator, got {spec!r}")
        result[labels.normalize_subtype(subtype)] = operator.strip().lower()
    return result


def placeholder(label: str) -> str:
    return f"[{label}]"


def numbered(label: str, number: int) -> str:
    return f"[{label}-{number}]"


_DIGITS = re.compile(r"\d+")
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)?")


def age_value(text: str) -> Optional[int]:
    """The number an AGE mention states, in digits or words ("92", "ninety-two"), or None."""
    digits = _DIGITS.findall(text)
    if digits:
        return max(int(d) for d in digits)
    value = formats.words_to_number(text)
    if value is not None:
        return value
    words = [formats.words_to_number(w) for w in _WORD.findall(text.lower())]
    numbers = [w for w in words if w is not None]
    return max(numbers) if numbers else None


def hipaa_age(text: str, limit: int = HIPAA_AGE_LIMIT) -> Optional[str]:
    """ "90+" for an age at or above `limit` (also "nineties", "a hundred"), else None (keep)."""
    value = age_value(text)
    lowered = text.lower()
    if (value is not None and value >= limit) or "ninet" in lowered or "hundred" in lowered:
        return AGE_OVER_LIMIT
    return None
