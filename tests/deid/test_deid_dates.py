"""Date shifting (spacy_deid.deid.dates): intervals and written formats kept."""

import datetime as dt

import pytest

from spacy_deid.deid.dates import parse_date, reference_year, shift_date
from spacy_deid.surrogates import formats


@pytest.mark.parametrize(
    "first,second,fmt",
    [
        ("4/17/94", "5/2/94", "mdy_slash2"),
        ("04/17/1994", "12/30/1994", "mdy_slash0"),
        ("1994-04-17", "1995-02-28", "iso"),
        ("April 17, 1994", "March 1, 1996", "month_d_y"),
        ("April 17th, 1994", "May 2nd, 1994", "month_ord_y"),
        ("Sun 4/17/1994", "Mon 4/18/1994", "weekday_mdy"),
    ],
)
@pytest.mark.parametrize("days", [1, 45, -200, 365, -1000])
def test_full_dates_keep_interval_and_format(first, second, fmt, days):
    before = parse_date(first).date, parse_date(second).date
    new_first, new_second = shift_date(first, days), shift_date(second, days)
    assert formats.date_format_of(new_first) == formats.date_format_of(first) == fmt
    after = parse_date(new_first).date, parse_date(new_second).date
    assert after[0] - before[0] == dt.timedelta(days=days)
    assert after[1] - after[0] == before[1] - before[0]


@pytest.mark.parametrize(
    "text,days,expected",
    [
        ("April 17th", 10, "April 27th"),
        ("APRIL 17", 14, "MAY 1"),
        ("4/17", -17, "3/31"),
        ("Saturday, November 23", 3, "Tuesday, November 26"),  # weekdays follow
        ("Saturday", 3, "Tuesday"),
        ("Sunday", 7, "Sunday"),
        ("Sat 11/23/2019", 1, "Sun 11/24/2019"),
        ("March 2019", 30, "April 2019"),
        ("February of 2017", -20, "January of 2017"),
        ("Jun 2009", 400, "Jul 2010"),
        ("2019", 200, "2020"),  # a year alone moves with the offset
        ("2019", -100, "2019"),
        ("'94", 200, "'95"),
        (" 4/17/94 ", 1, " 4/18/94 "),
        ("summer 2047", 100, "fall 2047"),  # seasons with a year move mid-season
        ("Autumn of 2081", 90, "Winter of 2082"),
        ("Tuesdays", 2, "Thursdays"),
    ],
)
def test_partial_dates_shift_in_their_own_format(text, days, expected):
    assert shift_date(text, days, reference_year=2019) == expected


def test_month_day_dates_shift_from_the_notes_reference_year():
    # 2020 is a leap year: Feb 28 + 2 days is March 1st there, March 2nd in 2019.
    assert shift_date("2/28", 2, reference_year=2020) == "3/1"
    assert shift_date("2/28", 2, reference_year=2019) == "3/2"
    assert reference_year(["March", "5/6/2020", "2019"]) == 2020


@pytest.mark.parametrize(
    "text", ["Thanksgiving", "2/30/2019", "13/45/2019", "the other day", "", "summer", "Mondayss"]
)
def test_unreadable_dates_are_none(text):
    assert shift_date(text, 10) is None
