"""Annotation schemes: how to score a corpus whose PHI scheme differs from i2b2 2014.

A corpus annotated in another scheme cannot be compared raw with the
pipeline's output: it leaves out kinds of PHI the pipeline marks, uses
coarser types and cuts mentions differently. A `Scheme` says, as data:

- which subtype of the pipeline's 30 each system subtype becomes in the
  corpus's types (`subtype_map`; None: the corpus does not annotate it, so
  such mentions are left out of the output before scoring);
- which ages the corpus treats as PHI (`min_age`: only ages of at least
  this value; the rest are left out on both sides);
- whether a weekday name alone ("Monday", "fri.") is a date
  (`weekday_dates`; False: such DATE mentions are left out on both sides);
- which subtypes the corpus annotates word by word (`word_by_word`: a
  "First Last" mention is scored as "First" and "Last", on both sides);
- which measure is the headline (`headline`), and what the report says.

Both sides are mapped the same way, so every level stays a fair comparison.
The default scheme, `i2b2-2014`, changes nothing.
"""
import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Dict, FrozenSet, Iterable, List, Mapping, Optional, Tuple

from .. import labels
from ..deid.operators import age_value
from .measures import ALL_SUBTYPES, BINARY_TOKEN, LABEL_SETS, STRICT, Unit
from .pairing import NotePair

I2B2_2014 = "i2b2-2014"
PHYSIONET = "physionet"

# Runs of non-space characters: the words of a word-by-word mention.
_WORD = re.compile(r"\S+")
# Spelled-out ages over 89 that age_value does not read as one number.
_OVER_89_WORDS = re.compile(r"ninet|hundred", re.I)
# A mention that is a weekday name and nothing else ("Monday", "Tues.", "Sundays").
_WEEKDAY_ONLY = re.compile(
    r"^\W*(?:mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)(?:day|days|\.)?\W*$"
    r"|^\W*(?:wednesday|saturday|wednesdays|saturdays)\W*$",
    re.I,
)


@dataclass(frozen=True)
class Scheme:
    name: str
    description: str
    # System subtype -> corpus subtype; None = not annotated (left out). A
    # subtype missing from the map is kept as it is.
    subtype_map: Mapping[str, Optional[str]] = field(default_factory=dict)
    # Ages below this are not PHI in the corpus (None: every age is).
    min_age: Optional[int] = None
    # Whether a weekday name alone is a date (i2b2 2014 annotates it).
    weekday_dates: bool = True
    word_by_word: FrozenSet[str] = frozenset()
    headline: str = STRICT
    # Label sets of the report; None = the i2b2 2014 sets (all, HIPAA subsets).
    label_sets: Optional[Mapping[str, FrozenSet[str]]] = None

    def map_subtype(self, subtype: str) -> Optional[str]:
        return self.subtype_map.get(subtype, subtype)

    def keeps_age(self, text: str) -> bool:
        """Whether an AGE mention with this text is PHI in the scheme."""
        if self.min_age is None:
            return True
        value = age_value(text)
        if value is not None and value >= self.min_age:
            return True
        # "ninety-two", "a hundred": over the limit even where no one number is read.
        return value is None and bool(_OVER_89_WORDS.search(text))

    def keeps_date(self, text: str) -> bool:
        """Whether a DATE mention with this text is PHI in the scheme."""
        return self.weekday_dates or not _WEEKDAY_ONLY.match(text)

    def map_units(self, text: str, units: Iterable[Unit]) -> List[Unit]:
        """One side's mentions in the corpus's view: mapped, filtered, split."""
        result = []
        for start, end, subtype in units:
            mapped = self.map_subtype(subtype)
            if mapped is None:
                continue
            if mapped == labels.AGE and not self.keeps_age(text[start:end]):
                continue
            if mapped == labels.DATE and not self.keeps_date(text[start:end]):
                continue
            if mapped in self.word_by_word:
                result += [
                    (start + m.start(), start + m.end(), mapped)
                    for m in _WORD.finditer(text[start:end])
                ]
            else:
                result.append((start, end, mapped))
        return sorted(set(result))

    def apply(self, pairs: Iterable[NotePair]) -> List[NotePair]:
        """Gold and predicted mentions of every note pair in the corpus's view."""
        return [
            NotePair(p.note_id, p.text, self.map_units(p.text, p.gold),
                     self.map_units(p.text, p.predicted))
            for p in pairs
        ]

    def report_label_sets(self) -> Dict[str, FrozenSet[str]]:
        return dict(LABEL_SETS if self.label_sets is None else self.label_sets)

    def to_dict(self) -> Dict[str, object]:
        left_out = sorted(s for s, m in self.subtype_map.items() if m is None)
        renamed = {s: m for s, m in sorted(self.subtype_map.items()) if m is not None and m != s}
        return {
            "name": self.name,
            "description": self.description,
            "left_out": left_out,
            "renamed": renamed,
            "min_age": self.min_age,
            "weekday_dates": self.weekday_dates,
            "word_by_word": sorted(self.word_by_word),
            "headline": self.headline,
        }


def _physionet_map() -> Dict[str, Optional[str]]:
    """The pipeline's 30 subtypes in the PhysioNet deid types (as the corpus
    reader maps them: PTName -> PATIENT, HCPName -> DOCTOR, Location ->
    LOCATION-OTHER, Other -> IDNUM, Date, Age, Phone)."""
    mapping: Dict[str, Optional[str]] = {
        labels.PROFESSION: None,  # professions are not PHI in this corpus
        labels.USERNAME: labels.DOCTOR,  # clinicians' user names: HCPName
        labels.FAX: labels.PHONE,
    }
    for subtype in labels.SUBTYPES_BY_CATEGORY[labels.LOCATION_CATEGORY]:
        mapping[subtype] = labels.LOCATION_OTHER  # hospitals, wards, towns, companies
    for subtype in labels.SUBTYPES_BY_CATEGORY[labels.ID_CATEGORY]:
        mapping[subtype] = labels.IDNUM
    for subtype in (labels.EMAIL, labels.URL, labels.IPADDR):
        mapping[subtype] = labels.IDNUM  # "Other"
    return mapping


PHYSIONET_SUBTYPES: FrozenSet[str] = frozenset(
    {labels.PATIENT, labels.DOCTOR, labels.LOCATION_OTHER, labels.DATE, labels.AGE,
     labels.PHONE, labels.IDNUM}
)

SCHEMES: Mapping[str, Scheme] = MappingProxyType({
    I2B2_2014: Scheme(
        name=I2B2_2014,
        description="the i2b2 2014 / CEGS N-GRID 2016 scheme: 30 subtypes, mentions as annotated",
    ),
    PHYSIONET: Scheme(
        name=PHYSIONET,
        description=(
            "the PhysioNet deid gold standard (ICU nursing notes): names (patient, relative, "
            "clinician), locations, dates (years alone included), phones, ages over 89 and "
            "other identifiers; professions, ages of 89 or less and weekday names alone are "
            "not annotated and are left out of the system's output; names and places are "
            "scored word by word, as the corpus annotates them; binary token measures are the "
            "headline"
        ),
        subtype_map=MappingProxyType(_physionet_map()),
        min_age=90,
        weekday_dates=False,
        word_by_word=frozenset({labels.PATIENT, labels.DOCTOR, labels.LOCATION_OTHER}),
        headline=BINARY_TOKEN,
        label_sets=MappingProxyType({ALL_SUBTYPES: PHYSIONET_SUBTYPES}),
    ),
})


def get_scheme(name: str) -> Scheme:
    try:
        return SCHEMES[name]
    except KeyError:
        raise ValueError(
            f"unknown scheme {name!r}; expected one of {', '.join(SCHEMES)}"
        ) from None


def scheme_names() -> Tuple[str, ...]:
    return tuple(SCHEMES)
