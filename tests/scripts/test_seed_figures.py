"""scripts/experiments/seed_figures.py: set specs, and the mean and range over pipelines."""
import argparse

import pytest

import seed_figures


@pytest.mark.parametrize(
    "spec,expected",
    [
        ("dev=spacy_deid/data/dev_notes:i2b2-2014", ("dev", "spacy_deid/data/dev_notes", "i2b2-2014")),
        ("nursing=/data/a:b/physionet:physionet", ("nursing", "/data/a:b/physionet", "physionet")),
    ],
)
def test_a_set_is_name_path_and_scheme(spec, expected):
    assert seed_figures.parse_set(spec) == expected


@pytest.mark.parametrize("spec", ["dev", "dev=path", "=path:scheme", "dev=:scheme"])
def test_a_set_without_its_three_parts_is_refused(spec):
    with pytest.raises(argparse.ArgumentTypeError, match="NAME=PATH:SCHEME"):
        seed_figures.parse_set(spec)


def _row(p, r, f):
    level = {"p": p, "r": r, "f": f, "tp": 0, "fp": 0, "fn": 0}
    return {"binary_token": level, "strict": level}


def test_summary_gives_mean_min_and_max_per_row_and_level():
    runs = {
        "seed0": {"dev balanced": _row(0.90, 0.96, 0.93)},
        "seed1": {"dev balanced": _row(0.94, 0.98, 0.96)},
        "seed2": {"dev balanced": _row(0.92, 0.97, 0.945)},
    }
    summary = seed_figures.summary(runs)
    assert summary["dev balanced"]["binary_token"]["p"] == {"mean": 0.92, "min": 0.90, "max": 0.94}
    assert summary["dev balanced"]["strict"]["r"] == {"mean": 0.97, "min": 0.96, "max": 0.98}
    table = seed_figures.markdown(summary)
    assert "| dev balanced | 92.0 (90.0-94.0) | 97.0 (96.0-98.0) |" in table
