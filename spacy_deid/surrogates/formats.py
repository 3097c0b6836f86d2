"""Surface forms: how dates, ages and phone numbers are written in notes.

Each format has a name, so a caller can ask for one (`render_date(d, "mdy_slash")`)
or find the one a given string uses (`date_format_of("3/14/2019")`) and
write a new value the same way; that makes surrogates format-aware.
"""
import datetime as dt
import re
from typing import Callable, Dict, List, Optional, Tuple

MONTHS = (
    "January February March April May June July August September October November December"
).split()
MONTH_ABBR = [m[:3] for m in MONTHS]
WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
SEASONS = ("winter", "spring", "summer", "fall", "autumn")


def match_case(value: str, like: str) -> str:
    """`value` in the case of `like`: CAPS for a word in capitals ("SMITH"),
    lower for lower case; otherwise as it is. A single capital ("J") says
    nothing about the case of a longer value."""
    if len(like) > 1 and like.isupper():
        return value.upper()
    if like.islower():
        return value.lower()
    return value


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }".replace(" ", "")


# name -> (renderer, kind). kind says how much of the date the form shows:
# "full" (day, month, year), "md" (no year), "my" (month and year), "y" (year).
DATE_FORMATS: Dict[str, Tuple[Callable[[dt.date], str], str]] = {
    "mdy_slash": (lambda d: f"{d.month}/{d.day}/{d.year}", "full"),
    "mdy_slash0": (lambda d: f"{d.month:02d}/{d.day:02d}/{d.year}", "full"),
    "mdy_slash2": (lambda d: f"{d.month}/{d.day}/{d.year % 100:02d}", "full"),
    "mdy_dash": (lambda d: f"{d.month:02d}-{d.day:02d}-{d.year}", "full"),
    "mdy_dot": (lambda d: f"{d.month}.{d.day}.{d.year % 100:02d}", "full"),
    "iso": (lambda d: d.isoformat(), "full"),
    "month_d_y": (lambda d: f"{MONTHS[d.month - 1]} {d.day}, {d.year}", "full"),
    "mon_d_y": (lambda d: f"{MONTH_ABBR[d.month - 1]} {d.day}, {d.year}", "full"),
    "mon_d_y_nocomma": (lambda d: f"{MONTH_ABBR[d.month - 1]} {d.day} {d.year}", "full"),
    "d_month_y": (lambda d: f"{d.day} {MONTHS[d.month - 1]} {d.year}", "full"),
    "month_ord_y": (lambda d: f"{MONTHS[d.month - 1]} {_ordinal(d.day)}, {d.year}", "full"),
    "md_slash": (lambda d: f"{d.month}/{d.day}", "md"),
    "md_slash0": (lambda d: f"{d.month:02d}/{d.day:02d}", "md"),
    "month_d": (lambda d: f"{MONTHS[d.month - 1]} {d.day}", "md"),
    "mon_d": (lambda d: f"{MONTH_ABBR[d.month - 1]} {d.day}", "md"),
    "month_ord": (lambda d: f"{MONTHS[d.month - 1]} {_ordinal(d.day)}", "md"),
    "month_y": (lambda d: f"{MONTHS[d.month - 1]} {d.year}", "my"),
    "month_of_y": (lambda d: f"{MONTHS[d.month - 1]} of {d.year}", "my"),
    "mon_y": (lambda d: f"{MONTH_ABBR[d.month - 1]} {d.year}", "my"),
    "my_slash": (lambda d: f"{d.month}/{d.year}", "my"),
    "my_slash2": (lambda d: f"{d.month:02d}/{d.year % 100:02d}", "my"),
    "month": (lambda d: MONTHS[d.month - 1], "m"),
    "year": (lambda d: str(d.year), "y"),
    "year_apos": (lambda d: f"'{d.year % 100:02d}", "y"),
    "weekday": (lambda d: WEEKDAYS[d.weekday()], "wd"),
    "weekday_md": (lambda d: f"{WEEKDAYS[d.weekday()]}, {MONTHS[d.month - 1]} {d.day}", "md"),
    "weekday_mdy": (lambda d: f"{WEEKDAYS[d.weekday()][:3]} {d.month}/{d.day}/{d.year}", "full"),
}

# Forms for specific dates (visit dates, birth dates) and their weights.
FULL_DATE_WEIGHTS = {
    "mdy_slash": 30, "mdy_slash0": 20, "mdy_slash2": 8, "mdy_dash": 4, "mdy_dot": 2, "iso": 4,
    "month_d_y": 12, "mon_d_y": 5, "mon_d_y_nocomma": 2, "d_month_y": 2, "month_ord_y": 2,
    "weekday_mdy": 1,
}
# Forms for dates mentioned in history (less precise on average).
HISTORY_DATE_WEIGHTS = {
    **FULL_DATE_WEIGHTS,
    "md_slash": 10, "md_slash0": 3, "month_d": 6, "mon_d": 2, "month_ord": 2,
    "month_y": 14, "month_of_y": 3, "mon_y": 3, "my_slash": 6, "my_slash2": 2,
    "year": 40, "year_apos": 2, "month": 6, "weekday_md": 1,
}


def render_date(date: dt.date, fmt: str) -> str:
    return DATE_FORMATS[fmt][0](date)


def date_kind(fmt: str) -> str:
    return DATE_FORMATS[fmt][1]


_PROBE = dt.date(2019, 11, 23)  # a Saturday; every field has two digits


def _format_regex(fmt: str) -> "re.Pattern[str]":
    """A regex for every date a format can render, built from the probe."""
    padded = "03" in render_date(dt.date(2019, 3, 4), fmt) or "04" in render_date(dt.date(2019, 3, 4), fmt)
    day_or_month = r"\d{2}" if padded else r"\d{1,2}"
    parts = {
        "November": "(?:" + "|".join(MONTHS) + ")",
        "Nov": "(?:" + "|".join(MONTH_ABBR) + ")",
        "Saturday": "(?:" + "|".join(WEEKDAYS) + ")",
        "Sat": "(?:" + "|".join(w[:3] for w in WEEKDAYS) + ")",
        "23rd": r"\d{1,2}(?:st|nd|rd|th)",
        "2019": r"\d{4}",
        "19": r"\d{2}",
        "11": day_or_month,
        "23": day_or_month,
    }
    token = re.compile("|".join(sorted(map(re.escape, parts), key=len, reverse=True)))
    rendered = render_date(_PROBE, fmt)
    pattern, position = [], 0
    for match in token.finditer(rendered):
        pattern.append(re.escape(rendered[position:match.start()]))
        pattern.append(parts[match.group(0)])
        position = match.end()
    pattern.append(re.escape(rendered[position:]))
    return re.compile("".join(pattern), re.IGNORECASE)


# Padded forms first, so "07/04/2021" is told apart from "7/4/2021".
_FORMAT_REGEXES = sorted(
    ((name, _format_regex(name)) for name in DATE_FORMATS),
    key=lambda item: "\\d{2}" not in item[1].pattern,
)


def date_format_of(text: str) -> Optional[str]:
    """The name of the format `text` is written in, or None."""
    text = text.strip()
    for name, regex in _FORMAT_REGEXES:
        if regex.fullmatch(text):
            return name
    return None


# --- a date written the way another is -------------------------------------------
#
# A surrogate or shifted date keeps the source's writing: zero padding
# ("03/14/91" -> "02/04/91", "3/14/91" -> "2/4/91"), the order of its fields
# (day first when the first number cannot be a month, year first when it has
# four digits), its separators, the case and length of month and weekday
# names, and a weekday written next to the date (recomputed for the new date).
# `date_shape` reads which field each token of a mention holds; the new date
# is written into the same tokens, every other character kept.

DATE_TOKEN = re.compile(r"\d+|[^\W\d_]+")
# Weekdays as notes abbreviate them; the long short forms for rendering.
WEEKDAY_SHORT = ("Mon", "Tues", "Wed", "Thurs", "Fri", "Sat", "Sun")
_WEEKDAY_WORD = (
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|mon|tues?|weds?|thu(?:rs?)?|fri|sat|sun)"
)
_WEEKDAY_ALONE = re.compile(rf"{_WEEKDAY_WORD}\.?", re.IGNORECASE)
_WEEKDAY_FIRST = re.compile(rf"(?P<weekday>{_WEEKDAY_WORD})\.?,?\s+(?P<date>.+)", re.IGNORECASE)
_WEEKDAY_LAST = re.compile(
    rf"(?P<date>.+?),?\s+\(?(?P<weekday>{_WEEKDAY_WORD})\.?\)?", re.IGNORECASE
)
# Three numbers with one separator: month/day/year, day/month/year, year/month/day.
_NUMERIC_DATE = re.compile(r"(?P<a>\d{1,4})(?P<sep>[./-])(?P<b>\d{1,2})(?P=sep)(?P<c>\d{1,4})")
_PROBE_ROLES = {
    "11": "month", "23": "day", "2019": "year", "19": "year2", "november": "month_name",
    "nov": "month_name", "saturday": "weekday", "sat": "weekday", "rd": "ordinal",
}
DateRoles = Tuple[Optional[str], ...]


def date_shape(text: str) -> Optional[Tuple[str, DateRoles]]:
    """(kind, roles) of a written date, else None: the kind as `date_kind`
    gives it ("full", "md", "my", "m", "y", "wd"), and per token of the text
    (`DATE_TOKEN`) the field it holds: "month", "day", "year", "year2",
    "month_name", "weekday", "ordinal" (the "rd" of "23rd"), or None for a
    word kept as it is ("of")."""
    text = text.strip()
    numeric = _NUMERIC_DATE.fullmatch(text)
    if numeric is not None:  # before the formats, which read every one as month first
        roles = _numeric_roles(numeric.group("a"), numeric.group("b"), numeric.group("c"))
        return None if roles is None else ("full", roles)
    fmt = date_format_of(text)
    if fmt is not None:
        probe = DATE_TOKEN.findall(render_date(_PROBE, fmt))
        roles = tuple(_PROBE_ROLES.get(token.lower()) for token in probe)
        return (date_kind(fmt), roles) if len(roles) == len(DATE_TOKEN.findall(text)) else None
    if _WEEKDAY_ALONE.fullmatch(text):
        return "wd", ("weekday",)
    for pattern, weekday_first in ((_WEEKDAY_FIRST, True), (_WEEKDAY_LAST, False)):
        match = pattern.fullmatch(text)
        inner = date_shape(match.group("date")) if match else None
        if inner is not None and inner[0] in ("full", "md") and "weekday" not in inner[1]:
            roles = ("weekday",) + inner[1] if weekday_first else inner[1] + ("weekday",)
            return inner[0], roles
    return None


def _numeric_roles(a: str, b: str, c: str) -> Optional[DateRoles]:
    if len(a) == 4 and len(c) <= 2:
        return "year", "month", "day"
    if len(a) <= 2 and len(c) in (2, 4):
        year = "year" if len(c) == 4 else "year2"
        if int(a) > 12 and int(b) <= 12:  # the first number cannot be a month
            return "day", "month", year
        return "month", "day", year
    return None


def render_date_like(date: dt.date, like: str, roles: DateRoles) -> Optional[str]:
    """`date` written the way `like` is (its `date_shape` roles): each token
    that holds a field gets the new value in the same form, every other
    character of `like` is kept. Days and months are zero-padded when `like`
    pads them (a leading zero, or two numbers of two digits each)."""
    tokens = list(DATE_TOKEN.finditer(like))
    if len(tokens) != len(roles):
        return None
    numbers = [m.group() for m, role in zip(tokens, roles) if role in ("month", "day")]
    pad = any(len(n) == 2 and n.startswith("0") for n in numbers) or (
        len(numbers) >= 2 and all(len(n) == 2 for n in numbers)
    )
    out, position = [], 0
    for match, role in zip(tokens, roles):
        out.append(like[position : match.start()])
        out.append(_field_like(date, role, match.group(), pad))
        position = match.end()
    out.append(like[position:])
    return "".join(out)


def _field_like(date: dt.date, role: Optional[str], token: str, pad: bool) -> str:
    if role in ("month", "day"):
        value = date.month if role == "month" else date.day
        return f"{value:02d}" if pad else str(value)
    if role == "year":
        return str(date.year)
    if role == "year2":
        return f"{date.year % 100:02d}"
    if role == "month_name":
        # "May" is a whole name and its own abbreviation: read as a whole name.
        whole = token.lower() in (month.lower() for month in MONTHS)
        name = MONTHS[date.month - 1] if whole else MONTH_ABBR[date.month - 1]
        return match_case(name, token)
    if role == "weekday":
        weekday = date.weekday()
        if token.lower() in (day.lower() for day in WEEKDAYS):
            name = WEEKDAYS[weekday]
        else:
            name = WEEKDAYS[weekday][:3] if len(token) == 3 else WEEKDAY_SHORT[weekday]
        return match_case(name, token)
    if role == "ordinal":
        return match_case(_ordinal(date.day).lstrip("0123456789"), token)
    return token


# --- ages --------------------------------------------------------------------
_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_to_words(n: int) -> str:
    """English words for 0..119 ("forty-two"), the way ages are spelled out."""
    if n < 0 or n > 119:
        raise ValueError("number_to_words handles 0..119")
    if n >= 100:
        rest = n - 100
        return "one hundred" + (f" {number_to_words(rest)}" if rest else "")
    if n < 20:
        return _ONES[n]
    tens, ones = divmod(n, 10)
    return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")


_WORD_VALUES = {number_to_words(n): n for n in range(120)}


def words_to_number(text: str) -> Optional[int]:
    return _WORD_VALUES.get(text.strip().lower())


# --- phone numbers -------------------------------------------------------------
PHONE_FORMATS: Dict[str, str] = {
    "paren": "({a}) {e}-{n}",
    "paren_nospace": "({a}){e}-{n}",
    "dash": "{a}-{e}-{n}",
    "dot": "{a}.{e}.{n}",
    "space": "{a} {e} {n}",
    "local": "{e}-{n}",
    "one_dash": "1-{a}-{e}-{n}",
    "plain": "{a}{e}{n}",
}
PHONE_WEIGHTS = {"paren": 30, "dash": 35, "dot": 6, "space": 3, "local": 6, "one_dash": 4,
                 "paren_nospace": 4, "plain": 2}
EXTENSION_FORMATS: List[str] = [" x{x}", " ext. {x}", " ext {x}", " x. {x}", ", ext. {x}", " X{x}"]
