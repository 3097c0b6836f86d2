"""SurrogateGenerator: every subtype, determinism, format-aware `like`."""
import datetime as dt
import re

import pytest
import regex

from spacy_deid import labels
from spacy_deid.synth import SurrogateGenerator
from spacy_deid.surrogates.formats import (
    DATE_FORMATS,
    date_format_of,
    number_to_words,
    render_date,
    words_to_number,
)


@pytest.mark.parametrize("subtype", labels.SUBTYPES)
def test_every_subtype_has_values(subtype):
    gen = SurrogateGenerator(seed=1)
    values = {gen.generate(subtype) for _ in range(30)}
    assert all(v and v == v.strip() for v in values)
    assert len(values) > 3, "values vary"


def test_same_seed_same_values():
    a, b = SurrogateGenerator(seed="x"), SurrogateGenerator(seed="x")
    assert [a.generate(s) for s in labels.SUBTYPES] == [b.generate(s) for s in labels.SUBTYPES]


def test_unknown_subtype_raises():
    with pytest.raises(labels.UnknownLabelError):
        SurrogateGenerator(0).generate("NOT-A-TYPE")


def _shape(text):
    return re.sub(r"[a-z]", "a", re.sub(r"[A-Z]", "A", re.sub(r"\d", "9", text)))


@pytest.mark.parametrize(
    "subtype,like",
    [
        (labels.MEDICALRECORD, "12G00123"),
        (labels.PHONE, "(617) 555-0123 x45"),
        (labels.SSN, "123-45-6789"),
        (labels.ZIP, "02114"),
        (labels.IDNUM, "AB-123456"),
        (labels.IPADDR, "10.20.30.40"),
    ],
)
def test_ids_keep_their_shape(subtype, like):
    gen = SurrogateGenerator(seed=2)
    values = [gen.generate(subtype, like=like) for _ in range(10)]
    assert all(_shape(v) == _shape(like) for v in values)
    assert any(v != like for v in values)


@pytest.mark.parametrize("fmt", sorted(set(DATE_FORMATS) - {"my_slash2", "md_slash0", "mdy_slash0"}))
def test_dates_keep_their_format(fmt):
    like = render_date(dt.date(2019, 11, 23), fmt)
    gen = SurrogateGenerator(seed=3)
    value = gen.generate(labels.DATE, like=like)
    assert date_format_of(value) == date_format_of(like)


@pytest.mark.parametrize(
    "text,fmt",
    [("3/14/2019", "mdy_slash"), ("03/04/2019", "mdy_slash0"), ("2067-05-03", "iso"),
     ("March 14, 2019", "month_d_y"), ("Mar 4, 2019", "mon_d_y"), ("Tuesday", "weekday"),
     ("2019", "year"), ("March 2019", "month_y"), ("3/14", "md_slash"), ("blah", None)],
)
def test_date_format_detection(text, fmt):
    assert date_format_of(text) == fmt


@pytest.mark.parametrize(
    "like,pattern",
    # \p{Ll} / \p{Lu}: names of the world lists carry accented letters ("Marqués")
    [("smith, john", r"[\p{Ll}' -]+, [\p{Ll}' -]+"), ("J.S.", r"\p{Lu}\.\p{Lu}\."),
     ("JS", r"\p{Lu}{2}"), ("SMITH", r"[\p{Lu}' -]+"), ("John Smith", r"\S+ \S+")],
)
def test_names_keep_order_and_case(like, pattern):
    gen = SurrogateGenerator(seed=4)
    for _ in range(30):
        assert regex.fullmatch(pattern, gen.generate(labels.PATIENT, like=like))


def test_ages_in_words_and_digits():
    gen = SurrogateGenerator(seed=5)
    assert words_to_number(gen.generate(labels.AGE, like="forty-two")) is not None
    assert gen.generate(labels.AGE, like="42").isdigit()
    assert number_to_words(42) == "forty-two" and number_to_words(100) == "one hundred"
    assert words_to_number("Seventy-one") == 71


def test_state_abbreviation_like():
    gen = SurrogateGenerator(seed=6)
    assert re.fullmatch(r"[A-Z]{2}", gen.generate(labels.STATE, like="MA"))


def test_abbreviation_of_hospital():
    assert SurrogateGenerator.abbreviate("Riverside General Hospital") == "RGH"


# --- shared helpers: one case rule, one set of shaped subtypes, one name list ----------
@pytest.mark.parametrize(
    "value,like,expected",
    [
        ("Smith", "JONES", "SMITH"),
        ("Smith", "jones", "smith"),
        ("Smith", "Jones", "Smith"),
        ("Smith", "J", "Smith"),  # one capital says nothing about case
        ("McDonald", "McKee", "McDonald"),
        ("march 3", "APRIL 2", "MARCH 3"),
    ],
)
def test_match_case(value, like, expected):
    from spacy_deid.surrogates.formats import match_case

    assert match_case(value, like) == expected


def test_every_subtype_has_a_plain_generator_and_shaped_subtypes_are_subtypes():
    from spacy_deid.surrogates import generator

    assert set(generator._PLAIN) == set(labels.SUBTYPES)
    assert labels.SHAPED_SUBTYPES < set(labels.SUBTYPES)
    assert {labels.PHONE, labels.MEDICALRECORD, labels.ROOM} <= labels.SHAPED_SUBTYPES
    assert not {labels.PATIENT, labels.DATE, labels.CITY} & labels.SHAPED_SUBTYPES


def test_date_patterns_and_surrogates_share_the_holiday_list():
    from spacy_deid.pipeline.phi_rules import fragments as regex_fragments
    from spacy_deid.surrogates import lists

    assert regex_fragments.HOLIDAYS == lists.words("holidays.txt")
    assert "Cinco de Mayo" in regex_fragments.HOLIDAYS and "Palm Sunday" in regex_fragments.HOLIDAYS
