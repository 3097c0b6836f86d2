import ast
from pathlib import Path

import pytest

import spacy_deid
from spacy_deid import labels


def test_scheme_has_30_subtypes_in_7_categories():
    assert len(labels.SUBTYPES) == 30
    assert len(set(labels.SUBTYPES)) == 30
    assert labels.CATEGORIES == ("NAME", "PROFESSION", "LOCATION", "AGE", "DATE", "CONTACT", "ID")
    assert all(labels.category_of(s) in labels.CATEGORIES for s in labels.SUBTYPES)


@pytest.mark.parametrize(
    "subtype,category",
    [("PATIENT", "NAME"), ("USERNAME", "NAME"), ("LOCATION-OTHER", "LOCATION"), ("ROOM", "LOCATION"),
     ("FAX", "CONTACT"), ("IPADDR", "CONTACT"), ("BIOID", "ID"), ("PROFESSION", "PROFESSION")],
)
def test_category_of(subtype, category):
    assert labels.category_of(subtype) == category


def test_hipaa_subsets():
    hipaa = labels.HIPAA_I2B2_2014
    assert len(hipaa) == 19 and hipaa <= set(labels.SUBTYPES)
    assert "IDNUM" in hipaa and "DOCTOR" not in hipaa and "PROFESSION" not in hipaa
    assert labels.HIPAA_SAFE_HARBOR - hipaa == {"URL", "IPADDR"}
    assert labels.is_hipaa("DATE") and not labels.is_hipaa("URL")
    assert labels.is_hipaa("URL", "safe-harbor")


@pytest.mark.parametrize(
    "given,expected",
    [("DATE", "DATE"), ("date", "DATE"), ("IDNUM ", "IDNUM"), ("OTHER", "LOCATION-OTHER"),
     ("LOCATION-OTHER", "LOCATION-OTHER")],
)
def test_normalize_subtype(given, expected):
    assert labels.normalize_subtype(given) == expected


@pytest.mark.parametrize("given", ["NAME", "PERSON", "", "LOCATION"])
def test_normalize_subtype_rejects_unknown(given):
    with pytest.raises(labels.UnknownLabelError):
        labels.normalize_subtype(given)


def test_other_corpora_map_into_the_scheme():
    assert set(labels.I2B2_2006_TYPES) == {
        "PATIENT", "DOCTOR", "HOSPITAL", "ID", "DATE", "LOCATION", "PHONE", "AGE"
    }
    for mapping in (labels.I2B2_2006_TYPES, labels.PHYSIONET_TYPES):
        assert set(mapping.values()) <= set(labels.SUBTYPES)


def test_no_label_string_is_spelled_outside_the_label_module():
    """Every module takes labels from spacy_deid.labels (no label spelled twice)."""
    package = Path(spacy_deid.__file__).parent
    offenders = []
    for path in sorted(package.rglob("*.py")):
        if path.name == "labels.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in labels.SUBTYPES:
                offenders.append(f"{path.relative_to(package)}:{node.lineno}")
    assert not offenders, offenders
