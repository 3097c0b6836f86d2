"""Privacy holes of the bad-input suite (issue 29, items 2, 3, 4 and 7), one table each.

Every failure path plants PHI-like strings (`PLANTED`) in the input and
asserts that no message, report, output file or temporary file shows one.
No assertion message shows note text.
"""

import os
import stat
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_deid import labels
from spacy_deid.cli import app
from spacy_deid.corpus import Note, PhiMention, read_i2b2_2014, write_i2b2_2014
from spacy_deid.deid import Deidentifier
from spacy_deid.deid.release import SpanError

pytestmark = pytest.mark.faults

NAME = "Zebulon Quartermaine"  # PHI-like strings planted in bad input
MRN = "MRN 88812345"
PLANTED = (NAME, "Zebulon", "Quartermaine", "88812345")
NOTE = f"Patient {NAME} seen today. {MRN}.\n"
NAME_START = NOTE.index(NAME)
NAME_END = NAME_START + len(NAME)


def shows_planted(*texts: str) -> bool:
    return any(value in text for text in texts for value in PLANTED)


def files_show_planted(folder: Path) -> bool:
    """Whether any file under `folder` (temporary files included) holds a planted string."""
    for path in folder.rglob("*"):
        if path.is_file() and shows_planted(path.read_bytes().decode("utf-8", "replace")):
            return True
    return False


# --- 2. Deidentifier.release checks its spans ---------------------------------------
BAD_SPANS = [
    ("negative-start", [(-5, NAME_END, labels.PATIENT)], "negative"),
    ("negative-end", [(NAME_START, -1, labels.PATIENT)], "negative"),
    ("reversed", [(NAME_END, NAME_START, labels.PATIENT)], "end before start"),
    ("float", [(float(NAME_START), float(NAME_END), labels.PATIENT)], "not a whole number"),
    ("string-offset", [(str(NAME_START), NAME_END, labels.PATIENT)], "not a whole number"),
    ("bool-offset", [(True, NAME_END, labels.PATIENT)], "bool"),
    ("past-the-end", [(NAME_START, len(NOTE) + 40, labels.PATIENT)], "past the end"),
    ("overlapping", [(NAME_START, NAME_END, labels.PATIENT), (NAME_START + 3, NAME_END, labels.DOCTOR)], "overlapping"),
    ("two-items", [(NAME_START, NAME_END)], "triple"),
    ("label-is-a-name", [(NAME_START, NAME_END, NAME)], "not a PHI subtype"),
    ("label-none", [(NAME_START, NAME_END, None)], "not a PHI subtype"),
    ("spans-a-string", NAME, "string"),
]


@pytest.mark.parametrize("case,spans,problem", BAD_SPANS, ids=[c[0] for c in BAD_SPANS])
@pytest.mark.parametrize("operator", ["placeholder", "surrogate"])
def test_2_release_refuses_bad_spans(case, spans, problem, operator):
    deid = Deidentifier(operator, seed="s")
    with pytest.raises(SpanError) as error:
        deid.release(NOTE, spans, "p1")
    assert problem in str(error.value)
    assert not shows_planted(str(error.value))


GOOD_SPANS = [
    ("exact", [(NAME_START, NAME_END, labels.PATIENT)]),
    ("numpy-ints", "numpy"),
    ("empty-span", [(NAME_START, NAME_START, labels.PATIENT), (NAME_START, NAME_END, labels.PATIENT)]),
    ("to-the-end", [(NAME_START, len(NOTE), labels.PATIENT)]),
    ("touching", [(NAME_START, NAME_START + 7, labels.PATIENT), (NAME_START + 8, NAME_END, labels.PATIENT)]),
    ("generator", "generator"),
]


@pytest.mark.parametrize("case,spans", GOOD_SPANS, ids=[c[0] for c in GOOD_SPANS])
def test_2_release_takes_good_spans(case, spans):
    if spans == "numpy":
        import numpy

        spans = [(numpy.int64(NAME_START), numpy.int32(NAME_END), labels.PATIENT)]
    elif spans == "generator":
        spans = ((s, e, label) for s, e, label in [(NAME_START, NAME_END, labels.PATIENT)])
    released = Deidentifier("placeholder").release(NOTE, spans, "p1")
    assert not shows_planted(released.text.replace(MRN, ""))
    assert released.text.startswith("Patient [")
