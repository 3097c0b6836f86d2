"""deid_safety_net's `known_pair` cue: a given name and a surname the name lists
know, side by side, in a note typed in one case. Invented names; the lists are
the test's own."""

import pytest

from spacy_deid import labels


@pytest.fixture(scope="module")
def nlp(safety_net_nlp_with):
    return safety_net_nlp_with(
        {
            "FIRST": ["zorblatt", "ottavine", "will", "rose"],
            "LAST": ["quimby", "harrowgate", "wood", "heparin", "rose"],
        }
    )


def proposals(nlp, text):
    doc = nlp(text)
    return [(s.text, s.id_, s.label_) for s in doc.spans["phi_safety_net"]]


CUE = "safety_net:known_pair"


@pytest.mark.parametrize(
    "text,expected",
    [
        ("spoke with zorblatt quimby at length re plan", "zorblatt quimby"),
        ("SPOKE WITH ZORBLATT QUIMBY RE PLAN", "ZORBLATT QUIMBY"),
        ("family meeting held. ottavine harrowgate present.", "ottavine harrowgate"),
    ],
)
def test_known_pair_in_one_case(nlp, text, expected):
    assert (expected, CUE, labels.PATIENT) in proposals(nlp, text)


@pytest.mark.parametrize(
    "text",
    [
        "spoke with zorblatt about the plan",  # one word: no pair
        "will wood be delivered",  # common English words the lists hold
        "zorblatt heparin gtt",  # a clinical word, in the list or not
        "quimby zorblatt today",  # surname first: order unknown, left to other cues
        "Spoke With Zorblatt Quimby today",  # mixed case: the capitalised cues' work
        "SPOKE with ZORBLATT QUIMBY",  # capitals not in an all-capitals stretch
        "zorblatt\nquimby was here",  # a line break between them
    ],
)
def test_no_known_pair(nlp, text):
    assert all(cue != CUE for _, cue, _ in proposals(nlp, text))
