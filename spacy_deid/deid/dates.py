"""Date shifting: parse a DATE mention in one of the known written formats,
move it by a number of days and write it back the same way.

The writings are those `spacy_deid.surrogates.formats.date_shape` reads (its
named formats, numbers in any order and separator, a weekday beside a date);
this module only adds the reading of the values, and the new date is written
into the same tokens (zero padding, order, separators and case kept,
`render_date_like`). Weekdays are recomputed from the shifted date; partial
dates are anchored (month-year on the 15th, a year alone on July 1st, a
month and day without a year in the note's reference year) so that intervals
between the mentions of a patient are preserved as well as the written
precision allows.
"""

import datetime as dt
import re
from dataclasses import dataclass
from typing import Dict, Optional

from ..surrogates import formats

_MONTH_BY_PREFIX = {name[:3].lower(): number for number, name in enumerate(formats.MONTHS, 1)}
_WEEKDAY_BY_PREFIX = {name[:3].lower(): number for number, name in enumerate(formats.WEEKDAYS)}
# A Saturday: a weekday alone is moved from it.
_PROBE = dt.date(2019, 11, 23)
# Two-digit years up to this value are read as 20xx, above as 19xx.
TWO_DIGIT_YEAR_PIVOT = 49
# A year to anchor month-day mentions when the note gives none (not a leap year).
DEFAULT_REFERENCE_YEAR = 2001


@dataclass(frozen=True)
class ParsedDate:
    """A date mention read in a known writing; `date` is anchored for partial forms."""

    fmt: Optional[str]  # the formats name, when the writing is one of them
    kind: str  # formats.date_kind: "full", "md", "my", "m", "y", "wd"
    date: Optional[dt.date]  # None for a weekday alone
    weekday: Optional[int] = None  # Monday = 0, for a weekday alone
    roles: formats.DateRoles = ()  # the field each token holds (formats.date_shape)


def parse_date(text: str, reference_year: int = DEFAULT_REFERENCE_YEAR) -> Optional[ParsedDate]:
    """Read `text` as a date written in a known way (formats.date_shape), else None."""
    shape = formats.date_shape(text)
    if shape is None:
        return None
    kind, roles = shape
    fields: Dict[str, int] = {}
    for role, token in zip(roles, formats.DATE_TOKEN.findall(text)):
        if role == "month_name":
            fields["month"] = _MONTH_BY_PREFIX.get(token.lower()[:3], 0)
        elif role == "weekday":
            fields["weekday"] = _WEEKDAY_BY_PREFIX.get(token.lower()[:3], -1)
        elif role == "year2":
            value = int(token)
            fields["year"] = value + (2000 if value <= TWO_DIGIT_YEAR_PIVOT else 1900)
        elif role in ("month", "day", "year"):
            fields[role] = int(token)
    fmt = formats.date_format_of(text)
    if kind == "wd":
        weekday = fields.get("weekday", -1)
        return ParsedDate(fmt, kind, None, weekday, roles) if weekday >= 0 else None
    year = fields.get("year", reference_year)
    month = fields.get("month", 7 if kind == "y" else 0)
    day = fields.get("day", 1 if kind == "y" else 15)
    try:
        date = dt.date(year, month, day)
    except ValueError:
        if kind != "md" or "year" in fields:
            return None
        try:  # February 29th without a year: anchor in a leap year
            date = dt.date(2000, month, day)
        except ValueError:
            return None
    return ParsedDate(fmt, kind, date, None, roles)


def shift_date(text: str, days: int, reference_year: int = DEFAULT_REFERENCE_YEAR) -> Optional[str]:
    """`text` moved by `days` and written the way it was, or None if unreadable.

    Surrounding whitespace, separators, zero padding, the order of the
    fields and the letter case of the original are kept; a weekday is
    recomputed for the new date (formats.render_date_like).
    """
    stripped = text.strip()
    parsed = parse_date(stripped, reference_year)
    if parsed is None:
        shifted_other = _shift_season(stripped, days) or _shift_plural_weekday(stripped, days)
        if shifted_other is None:
            return None
        start = text.index(stripped[:1])
        return text[:start] + shifted_other + text[start + len(stripped) :]
    if parsed.date is None:  # a weekday alone moves by the offset modulo 7
        shifted = _PROBE + dt.timedelta(days=(parsed.weekday - _PROBE.weekday()) + days)
    else:
        try:
            shifted = parsed.date + dt.timedelta(days=days)
        except OverflowError:
            return None
    rendered = formats.render_date_like(shifted, stripped, parsed.roles)
    if rendered is None:
        return None
    start = text.index(stripped[:1]) if stripped else 0
    return text[:start] + rendered + text[start + len(stripped) :]


# Seasons with a year ("summer 2019", "Fall of 2019"): anchored mid-season.
_SEASON_YEAR = re.compile(
    r"(?P<season>" + "|".join(formats.SEASONS) + r")(?P<between>\s+(?:of\s+)?)(?P<year>\d{4})", re.I
)
_SEASON_MONTH = {"winter": 1, "spring": 4, "summer": 7, "fall": 10, "autumn": 10}
_SEASON_OF_MONTH = {
    m: ("winter" if m in (12, 1, 2) else "spring" if m <= 5 else "summer" if m <= 8 else "fall")
    for m in range(1, 13)
}
# Plural weekdays ("on Tuesdays"): the weekday moves, the plural stays.
_PLURAL_WEEKDAY = re.compile(r"(?P<day>" + "|".join(formats.WEEKDAYS) + r")s", re.I)


def _shift_season(text: str, days: int) -> Optional[str]:
    match = _SEASON_YEAR.fullmatch(text)
    if match is None:
        return None
    season = match.group("season")
    moved = dt.date(int(match.group("year")), _SEASON_MONTH[season.lower()], 15) + dt.timedelta(
        days=days
    )
    new_season = _SEASON_OF_MONTH[moved.month]
    if new_season == "fall" and season.lower() == "autumn":
        new_season = "autumn"
    new_season = (
        new_season.upper()
        if season.isupper()
        else new_season.title() if season[0].isupper() else new_season
    )
    return f"{new_season}{match.group('between')}{moved.year}"


def _shift_plural_weekday(text: str, days: int) -> Optional[str]:
    match = _PLURAL_WEEKDAY.fullmatch(text)
    if match is None:
        return None
    shifted = shift_date(match.group("day"), days)
    return None if shifted is None else shifted + text[-1]


def reference_year(mentions) -> int:
    """The year of the first fully written date among `mentions` (strings)."""
    for text in mentions:
        parsed = parse_date(text.strip())
        if parsed is not None and parsed.kind == "full" and parsed.date is not None:
            return parsed.date.year
    return DEFAULT_REFERENCE_YEAR
