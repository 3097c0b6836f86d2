"""Surrogate and shifted dates keep the source's writing (issue 61, item 8):
zero padding ("03/14/91" became "2/4/91"), the order of the fields (day or
year first), the separators, and a weekday written next to a full date
(which became "[DATE]" under --operator surrogate), recomputed for the new
date. Each positive row but the unpadded controls fails on the code before."""
import datetime as dt
import re

import pytest

from spacy_deid import labels
from spacy_deid.deid import Deidentifier
from spacy_deid.deid.dates import parse_date, shift_date
from spacy_deid.surrogates import SurrogateGenerator
from spacy_deid.surrogates.formats import WEEKDAYS

pytestmark = pytest.mark.faults

SHIFTED = [
    # (written, days, expected)
    ("03/14/91", -38, "02/04/91"),  # the case: padding kept
    ("3/14/91", -38, "2/4/91"),  # control: not padded, stays so
    ("03/14/1991", 1, "03/15/1991"),
    ("14/03/2019", 1, "15/03/2019"),  # day first (14 cannot be a month)
    ("31/12/2019", 1, "01/01/2020"),
    ("2019/03/14", 20, "2019/04/03"),  # year first
    ("2019.03.14", 1, "2019.03.15"),
    ("3-14-19", 1, "3-15-19"),
    ("03.14.2019", -14, "02.28.2019"),
    ("03/2019", 31, "04/2019"),
    ("Monday, March 14, 2022", 1, "Tuesday, March 15, 2022"),  # weekday and full date
    ("Monday 3/14/2022", 7, "Monday 3/21/2022"),
    ("Thurs 3/17/22", 1, "Fri 3/18/22"),
    ("THURSDAY 03/17/2022", 2, "SATURDAY 03/19/2022"),
    ("3/17/2022 (Thursday)", 1, "3/18/2022 (Friday)"),
    ("3/17/2022, Thursday", -3, "3/14/2022, Monday"),
    ("Tuesday March 15th, 2022", 1, "Wednesday March 16th, 2022"),
    ("Mon 03/14/2022", 1, "Tue 03/15/2022"),
    ("Tues.", 1, "Wed."),
    ("May 2nd, 1994", 45, "June 16th, 1994"),  # "May" is a whole month name
]


@pytest.mark.parametrize("text,days,expected", SHIFTED)
def test_shifted_dates_keep_padding_order_separators_and_weekday(text, days, expected):
    assert shift_date(text, days) == expected


@pytest.mark.parametrize(
    "text", ["13/13/2019", "2019/14/03", "32/01/2019", "1/2/3", "Monday March", "Monday, 2019"]
)
def test_unreadable_numbers_and_weekdays_stay_unread(text):
    assert shift_date(text, 10) is None


@pytest.mark.parametrize(
    "text,date",
    [("14/03/2019", dt.date(2019, 3, 14)), ("2019/03/14", dt.date(2019, 3, 14)),
     ("03/04/2019", dt.date(2019, 3, 4)),  # ambiguous: month first, as US notes write
     ("Monday, March 14, 2022", dt.date(2022, 3, 14)), ("3-14-19", dt.date(2019, 3, 14))],
)
def test_dates_are_read_in_their_order(text, date):
    assert parse_date(text).date == date


WEEKDAY = "(?:" + "|".join(WEEKDAYS) + ")"
MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
GENERATED = [
    # (like, pattern every surrogate must match)
    ("03/14/91", r"\d\d/\d\d/\d\d"),
    ("3/4/91", r"[1-9]\d?/[1-9]\d?/\d\d"),
    ("14/03/2019", r"\d\d/\d\d/\d{4}"),
    ("2019-3-14", r"\d{4}-[1-9]\d?-[1-9]\d?"),
    ("Monday, March 14, 2022", rf"{WEEKDAY}, {MONTH} [1-9]\d?, \d{{4}}"),
    ("Thurs 3/17/22", r"(?:Mon|Tues|Wed|Thurs|Fri|Sat|Sun) [1-9]\d?/[1-9]\d?/\d\d"),
]


@pytest.mark.parametrize("like,pattern", GENERATED)
def test_generated_dates_are_written_like_the_original(like, pattern):
    for seed in range(8):
        value = SurrogateGenerator(seed=seed).generate(labels.DATE, like=like)
        assert re.fullmatch(pattern, value), (like, value)
        if value[0].isalpha():  # a weekday: the right one for the new date
            parsed = parse_date(value)
            assert parsed is not None and value.startswith(WEEKDAYS[parsed.date.weekday()][:3])


@pytest.mark.parametrize(
    "written,pattern",
    [("Monday, March 14, 2022", rf"{WEEKDAY}, {MONTH} [1-9]\d?, \d{{4}}"),
     ("THURSDAY 03/17/2022", r"[A-Z]+DAY \d\d/\d\d/\d{4}"),
     ("03/14/91", r"\d\d/\d\d/\d\d")],
)
def test_surrogate_operator_shifts_a_weekday_beside_a_date(written, pattern):
    text = f"Seen {written} in clinic."
    start = text.index(written)
    released = Deidentifier("surrogate", seed="s").release(
        text, [(start, start + len(written), labels.DATE)], patient_key="p"
    )
    new = released.text[released.spans[0].start : released.spans[0].end]
    assert released.unparsed_dates == 0 and "[DATE]" not in released.text
    assert re.fullmatch(pattern, new) and new != written
    parsed = parse_date(new)
    assert parsed is not None and parsed.date is not None
