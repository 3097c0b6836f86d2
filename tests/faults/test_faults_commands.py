"""Planted PHI through every command that reads an annotated corpus (issue 29).

tests/faults/test_faults_privacy.py sends each bad tag of its table (a TYPE, tag
name, id or entity that holds a planted name or number) through `convert`
and `evaluate`; this sweep sends the same inputs through the other commands
that read such corpora, and asserts that no message names a planted value
and that every command either finishes or fails with a clear exit status
(no traceback of an unexpected kind).
"""
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_deid.cli import app
from test_faults_privacy import BAD_TAGS, GOOD_TAG, i2b2_2014, shows_planted, write_corpus

pytestmark = pytest.mark.faults

runner = CliRunner()
XML_CASES = [case for case in BAD_TAGS if case[3] == "auto"]


def command_lines(tmp_path: Path, bad: Path, good: Path):
    """(command, argv) for each command that reads the bad corpus."""
    return [
        ("compare", ["compare", str(good), str(good), str(bad), "--iterations", "10"]),
        ("compare-system", ["compare", str(bad), str(good), str(good), "--iterations", "10"]),
        ("check-alignment", ["check-alignment", str(bad)]),
        ("finetune-mix", ["finetune-mix", str(bad), str(good), str(tmp_path / "mix.spacy")]),
        ("evaluate-system", ["evaluate", str(bad), str(good), "--output", str(tmp_path / "r"), "--no-plots"]),
    ]


@pytest.mark.parametrize("case,name,content,format", XML_CASES, ids=[c[0] for c in XML_CASES])
def test_no_command_names_a_planted_value(tmp_path, case, name, content, format):
    bad = write_corpus(tmp_path / "bad", name, content)
    good = write_corpus(tmp_path / "good", name, i2b2_2014(GOOD_TAG))
    for command, argv in command_lines(tmp_path, bad, good):
        result = runner.invoke(app, argv)
        output = result.output + (str(result.exception) if result.exception else "")
        assert not shows_planted(output), (case, command)
        unexpected = (AssertionError, TypeError, AttributeError, KeyError, IndexError)
        assert not isinstance(result.exception, unexpected), (case, command, type(result.exception))


def test_every_command_of_the_sweep_meets_the_bad_tag(tmp_path):
    """The sweep is not vacuous: each command reads the bad file and says so (file named or
    non-zero exit), so the privacy assertion above checks a real failure path."""
    case = next(c for c in XML_CASES if c[0] == "type-is-a-name")
    bad = write_corpus(tmp_path / "bad", case[1], case[2])
    good = write_corpus(tmp_path / "good", case[1], i2b2_2014(GOOD_TAG))
    for command, argv in command_lines(tmp_path, bad, good):
        result = runner.invoke(app, argv)
        output = result.output + (str(result.exception) if result.exception else "")
        assert result.exit_code != 0 or "a.xml" in output, command
