"""The options `deidentify` and `deidentify-spark` share (cli/release_options.py):
declared once, the same defaults and help in both commands; an empty --seed
refused by both; an empty input treated alike (exit 0, nothing released)."""
import shutil
import subprocess

import pytest
import spacy
import typer
from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.deid import operators as ops
from spacy_deid.deid.release import Deidentifier, make_deidentifier

SHARED = [
    "--operator", "--subtype-operator", "--config", "--date-shift-min", "--date-shift-max",
    "--operating-point", "--batch-size", "--text-field", "--patient-field",
]


def options(command_name):
    command = typer.main.get_command(app).commands[command_name]
    return {name: param for param in command.params for name in param.opts}


@pytest.mark.parametrize("name", SHARED)
def test_the_shared_options_are_the_same_in_both_commands(name):
    local, spark = options("deidentify")[name], options("deidentify-spark")[name]
    assert (local.opts, local.default, local.help) == (spark.opts, spark.default, spark.help)


def test_the_commands_own_options_stay_their_own():
    assert options("deidentify")["--seed"].required is False
    assert options("deidentify-spark")["--seed"].required is True
    assert "--n-process" in options("deidentify") and "--n-process" not in options("deidentify-spark")


def test_the_date_shift_default_is_the_one_of_deid_operators():
    assert (ops.DATE_SHIFT_MIN_DAYS, ops.DATE_SHIFT_MAX_DAYS) == (-365, 365)
    assert Deidentifier().date_shift == make_deidentifier().date_shift == (-365, 365)
    local = options("deidentify")
    assert (local["--date-shift-min"].default, local["--date-shift-max"].default) == (-365, 365)


@pytest.fixture(scope="module")
def blank_model(tmp_path_factory):
    path = tmp_path_factory.mktemp("blank") / "model"
    spacy.blank("en").to_disk(path)
    return str(path)


@pytest.mark.faults
@pytest.mark.parametrize("command", ["deidentify", "deidentify-spark"])
@pytest.mark.parametrize("seed,refused", [("", True), ("   ", True), ("s3cret", False)])
def test_an_empty_seed_is_refused(tmp_path, blank_model, command, seed, refused):
    source = tmp_path / "in"
    source.mkdir()
    (source / "a.txt").write_text("Seen today.", encoding="utf-8")
    args = [command, str(source), str(tmp_path / "out"), "--model", blank_model, "--seed", seed]
    if command == "deidentify-spark" and not refused:
        args += ["--config", str(tmp_path / "missing.cfg")]  # stops before Spark starts
    result = CliRunner().invoke(app, args)
    assert ("--seed is empty" in result.output) is refused, result.output
    assert result.exit_code == (1 if refused or command == "deidentify-spark" else 0)
    assert not (tmp_path / "out").exists() or not refused  # refused before any note


def _java_17() -> bool:
    java = shutil.which("java")
    if java is None:
        return False
    out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30)
    try:
        return int((out.stderr or out.stdout).split('"')[1].split(".")[0]) >= 17
    except (IndexError, ValueError):
        return False


@pytest.mark.faults
@pytest.mark.parametrize(
    "command",
    [
        "deidentify",
        pytest.param("deidentify-spark", marks=pytest.mark.spark),
    ],
)
def test_an_empty_input_exits_0_in_both_commands(tmp_path, blank_model, command):
    """As deidentify documents: exit 1 when a note given was not released; an
    input with no note releases nothing and fails nothing (deidentify-spark
    exited 1)."""
    if command == "deidentify-spark":
        pytest.importorskip("pyspark")
        if not _java_17():
            pytest.skip("Spark needs Java 17+")
    (tmp_path / "in").mkdir()
    source = tmp_path / "in" / "notes.jsonl"
    source.write_text("", encoding="utf-8")
    args = [command, str(source), str(tmp_path / "out"), "--model", blank_model, "--seed", "s"]
    if command == "deidentify-spark":
        args += ["--master", "local[1]"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    # a bad line next to nothing else is still a failure
    source.write_text('{"text": "Seen by Zebulon\n', encoding="utf-8")
    result = CliRunner().invoke(app, args[:2] + [str(tmp_path / "out2")] + args[3:])
    assert result.exit_code == 1, result.output
