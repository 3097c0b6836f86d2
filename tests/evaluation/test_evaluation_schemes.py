"""Annotation schemes: the corpus's own view of gold and system mentions."""
import json

import pytest
import spacy
from typer.testing import CliRunner

from spacy_deid import labels
from spacy_deid.cli import app
from spacy_deid.evaluation import NotePair, build_report
from spacy_deid.evaluation.measures import ALL_SUBTYPES, BINARY_TOKEN, STRICT
from spacy_deid.evaluation.schemes import I2B2_2014, PHYSIONET, get_scheme

PHYSIONET_SCHEME = get_scheme(PHYSIONET)

#       0         1         2         3         4         5         6
#       0123456789012345678901234567890123456789012345678901234567890123
TEXT = "Ann Lee, 93, nurse at Holy Cross seen 7/23; 45 yo; ninety-one."


@pytest.mark.parametrize(
    "unit, expected",
    [
        # names and places: word by word, in the corpus's types
        ((0, 7, labels.PATIENT), [(0, 3, labels.PATIENT), (4, 7, labels.PATIENT)]),
        ((22, 32, labels.HOSPITAL), [(22, 26, labels.LOCATION_OTHER),
                                     (27, 32, labels.LOCATION_OTHER)]),
        ((22, 32, labels.CITY), [(22, 26, labels.LOCATION_OTHER),
                                 (27, 32, labels.LOCATION_OTHER)]),
        ((0, 3, labels.USERNAME), [(0, 3, labels.DOCTOR)]),
        # ages over 89, in digits or words, stay
        ((9, 11, labels.AGE), [(9, 11, labels.AGE)]),
        ((51, 61, labels.AGE), [(51, 61, labels.AGE)]),
        # dates are not split
        ((38, 42, labels.DATE), [(38, 42, labels.DATE)]),
        ((38, 42, labels.MEDICALRECORD), [(38, 42, labels.IDNUM)]),
        ((38, 42, labels.FAX), [(38, 42, labels.PHONE)]),
        # left out: professions, ages of 89 or less
        ((13, 18, labels.PROFESSION), []),
        ((44, 46, labels.AGE), []),
        ((44, 49, labels.AGE), []),
    ],
)
def test_physionet_view_of_one_mention(unit, expected):
    assert PHYSIONET_SCHEME.map_units(TEXT, [unit]) == expected


@pytest.mark.parametrize(
    "date, kept",
    [
        # a weekday name alone is not annotated in the PhysioNet corpus
        ("Monday", False), ("monday", False), ("Tues.", False), ("WEDNESDAY", False),
        ("Sundays", False), ("fri", False),
        # a weekday with a date, and dates, stay
        ("Monday, June 19", True), ("Thurs 7/23", True), ("7/23", True), ("1999", True),
        ("May", True), ("Sunnyside", True),
    ],
)
def test_physionet_view_of_weekday_dates(date, kept):
    text = f"seen {date} in clinic"
    unit = (5, 5 + len(date), labels.DATE)
    assert PHYSIONET_SCHEME.map_units(text, [unit]) == ([unit] if kept else [])
    assert get_scheme(I2B2_2014).map_units(text, [unit]) == [unit]  # i2b2 2014 annotates them


@pytest.mark.parametrize(
    "unit",
    [(0, 7, labels.PATIENT), (13, 18, labels.PROFESSION), (44, 46, labels.AGE),
     (22, 32, labels.HOSPITAL)],
)
def test_i2b2_scheme_changes_nothing(unit):
    assert get_scheme(I2B2_2014).map_units(TEXT, [unit]) == [unit]


def test_unknown_scheme_is_an_error():
    with pytest.raises(ValueError, match="unknown scheme"):
        get_scheme("nope")


def test_every_subtype_maps_into_the_scored_set():
    scored = PHYSIONET_SCHEME.label_sets[ALL_SUBTYPES]
    for subtype in labels.SUBTYPES:
        mapped = PHYSIONET_SCHEME.map_subtype(subtype)
        assert mapped is None or mapped in scored, subtype


def pair(gold, predicted):
    return [NotePair("1-1", TEXT, gold, predicted)]


def test_report_in_physionet_view_counts_what_the_corpus_annotates():
    gold = [(0, 3, labels.PATIENT), (4, 7, labels.PATIENT), (22, 26, labels.LOCATION_OTHER),
            (27, 32, labels.LOCATION_OTHER), (38, 42, labels.DATE)]
    predicted = [(0, 7, labels.PATIENT), (13, 18, labels.PROFESSION), (22, 32, labels.HOSPITAL),
                 (44, 46, labels.AGE)]
    report = build_report(pair(gold, predicted), system={"name": "s"}, gold={"path": "g"},
                          scheme=PHYSIONET_SCHEME)
    binary = report["scores"][ALL_SUBTYPES][BINARY_TOKEN]["overall"]
    assert (binary["tp"], binary["fp"], binary["fn"]) == (4, 0, 2)  # "7", "23" missed
    strict = report["scores"][ALL_SUBTYPES][STRICT]["overall"]
    assert (strict["tp"], strict["fp"], strict["fn"]) == (4, 0, 1)  # word by word
    assert report["scheme"]["name"] == PHYSIONET
    assert list(report["label_sets"]) == [ALL_SUBTYPES]
    # The same output in the i2b2 view: the profession and the age are false positives.
    raw = build_report(pair(gold, predicted), system={"name": "s"}, gold={"path": "g"})
    raw_binary = raw["scores"][ALL_SUBTYPES][BINARY_TOKEN]["overall"]
    assert raw_binary["fp"] == 2


def test_evaluate_cli_with_physionet_scheme(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "id.text").write_text(
        "START_OF_RECORD=3||||1||||\nSeen 7/23 by Dr. Ann Lee, RN, age 45.\n||||END_OF_RECORD\n"
    )
    # 0123456789012345678901234567890123456
    # Seen 7/23 by Dr. Ann Lee, RN, age 45.
    (corpus / "id-phi.phrase").write_text(
        "3 1 5 9 Date 7/23\n3 1 17 20 HCPName Ann\n3 1 21 24 HCPName Lee\n"
    )
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([
        {"label": labels.DOCTOR, "pattern": "Ann Lee"},
        {"label": labels.PROFESSION, "pattern": "RN"},
        {"label": labels.AGE, "pattern": "45"},
    ])
    nlp.to_disk(tmp_path / "model")
    result = CliRunner().invoke(app, [
        "evaluate", str(tmp_path / "model"), str(corpus), "--output", str(tmp_path / "out"),
        "--scheme", PHYSIONET,
    ])
    assert result.exit_code == 0, result.output
    output = " ".join(result.output.split())
    assert "physionet scheme: binary token P 100.00 R 50.00" in output
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["scheme"]["left_out"] == [labels.PROFESSION]
    markdown = (tmp_path / "out" / "report.md").read_text()
    assert "## Scheme: physionet" in markdown and "Headline (binary token)" in markdown
    assert report["scheme"]["weekday_dates"] is False
    assert "only a weekday name is left out" in markdown
    for phi in ("Ann", "Lee", "7/23"):
        assert phi not in markdown
    assert (tmp_path / "out" / "f1_per_subtype.png").stat().st_size > 0


def test_evaluate_cli_rejects_an_unknown_scheme(tmp_path):
    result = CliRunner().invoke(app, [
        "evaluate", "x", "y", "--output", str(tmp_path), "--no-plots", "--scheme", "nope",
    ])
    assert result.exit_code == 1
    assert "unknown scheme" in result.output
