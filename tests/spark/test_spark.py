"""spacy_deid.spark on Spark in local mode: the released text, spans and
mapping equal what single-machine `spacy-deid deidentify` gives with the
same seed, whatever the partitioning and row order; bad rows get statuses.

Marked `spark` (deselect with -m "not spark"); skipped where pyspark or
Java 17+ is missing. One local[2] SparkSession is shared by the module.
"""

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
from spacy.language import Language
from typer.testing import CliRunner

pytest.importorskip("pyspark", reason='pyspark is not installed (pip install "spacy-deid[spark]")')
pytest.importorskip("pandas", reason="pandas is not installed")
pytest.importorskip("pyarrow", reason="pyarrow is not installed")

from spacy_deid.cli import app  # noqa: E402
from spacy_deid.corpus import read_i2b2_2014  # noqa: E402
from spacy_deid.deid import DeidMapping  # noqa: E402
from spacy_deid.spark import (  # noqa: E402
    Columns,
    DeidSettings,
    deidentify_dataframe,
    mapping_from_rows,
    pending,
    status,
    status_counts,
)
from spacy_deid.spark import io as spark_io  # noqa: E402
from spacy_deid.spark.worker import _released_spans, detect_texts  # noqa: E402
from spacy_deid.synth import generate_notes  # noqa: E402

SEED = "spark-test-seed"
SUBTYPE_OPERATORS = ("STATE=numbered",)  # numbering depends on the order of a patient's notes
N_NOTES, N_PATIENTS = 200, 60
SECRET = "Zebulon Quattlebaum"  # a PHI-like string that must never reach statuses or logs


def _java_17() -> bool:
    java = shutil.which("java")
    if java is None:
        return False
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    first = (out.stderr or out.stdout).split('"')
    try:
        return out.returncode == 0 and int(first[1].split(".")[0]) >= 17
    except (IndexError, ValueError):
        return False


JAVA_17 = _java_17()
NO_JAVA = "Spark 4 needs Java 17+ (java -version failed or is older)"


def needs_spark(test):
    """Marked `spark`; skipped without Java 17+."""
    return pytest.mark.spark(pytest.mark.skipif(not JAVA_17, reason=NO_JAVA)(test))


@pytest.fixture(scope="module")
def model_dir(rules_model_dir) -> str:
    return str(rules_model_dir)


@pytest.fixture(scope="module")
def spark():
    if not JAVA_17:
        pytest.skip(NO_JAVA)
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("spacy-deid-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def records():
    """200 generated notes of 60 patients (several notes each), in note-id order."""
    notes = list(generate_notes(N_NOTES, seed=21))
    rows = [
        {"note_id": note.note_id, "patient_id": f"P{(i * 7) % N_PATIENTS:02d}", "text": note.text}
        for i, note in enumerate(notes)
    ]
    return sorted(rows, key=lambda r: r["note_id"])


def _write_jsonl(path: Path, rows) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as file_:
        for row in rows:
            file_.write(json.dumps(row) + "\n")
    return path


@pytest.fixture(scope="module")
def reference(tmp_path_factory, model_dir, records):
    """Single-machine `spacy-deid deidentify` on the notes in note-id order:
    {note_id: (released text, [(start, end, label, operator)])} and the mapping."""
    work = tmp_path_factory.mktemp("single-machine")
    source = _write_jsonl(work / "in" / "notes.jsonl", records)
    args = ["deidentify", str(source), str(work / "out"), "--model", model_dir]
    args += ["--operator", "surrogate", "--seed", SEED, "--mapping", str(work / "mapping.json")]
    args += ["--audit-dir", str(work / "audit"), "--no-progress"]
    for spec in SUBTYPE_OPERATORS:
        args += ["--subtype-operator", spec]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = (work / "out" / "notes.jsonl").read_text(encoding="utf-8").splitlines()
    released = {}
    for index, (record, line) in enumerate(zip(records, lines)):
        audit = read_i2b2_2014(work / "audit" / f"notes-jsonl-{index + 1:04d}.xml")
        spans = [(m.start, m.end, m.label, m.comment) for m in audit.mentions]
        released[record["note_id"]] = (json.loads(line)["text"], spans)
    mapping = json.loads((work / "mapping.json").read_text(encoding="utf-8"))
    return released, mapping["patients"]


def _settings(model_dir, **overrides) -> DeidSettings:
    operators = tuple(spec.split("=") for spec in SUBTYPE_OPERATORS)
    return DeidSettings(
        model=model_dir,
        seed=SEED,
        operator="surrogate",
        operators=tuple(map(tuple, operators)),
        **overrides,
    )


def _as_reference(rows):
    """Spark note rows as {note_id: (released text, spans without removed ones)}."""
    return {
        row.note_id: (
            row.released_text,
            [(s.start, s.end, s.label, s.operator) for s in row.spans if s.end > s.start],
        )
        for row in rows
    }


@needs_spark
@pytest.mark.parametrize("partitions", [1, 3, 8])
def test_spark_equals_single_machine_for_any_partitioning(
    spark, model_dir, records, reference, partitions
):
    shuffled = list(records)
    random.Random(partitions).shuffle(shuffled)
    notes = spark.createDataFrame(shuffled, "note_id string, patient_id string, text string")
    # Adaptive execution would merge the small shuffle partitions into one.
    spark.conf.set("spark.sql.adaptive.enabled", "false")
    spark.conf.set("spark.sql.shuffle.partitions", str(partitions))
    try:
        result = deidentify_dataframe(notes.repartition(partitions), _settings(model_dir))
        result.persist()
        rows = result.notes.collect()
        mapping_rows = result.mapping.collect()
        result.unpersist()
    finally:
        spark.conf.unset("spark.sql.adaptive.enabled")
        spark.conf.set("spark.sql.shuffle.partitions", "2")
    expected_text, expected_mapping = reference
    assert {row.status for row in rows} == {status.OK}
    assert len(rows) == N_NOTES
    got = _as_reference(rows)
    differing = sorted(k for k in expected_text if got.get(k) != expected_text[k])
    assert (
        not differing
    ), f"{len(differing)} notes differ from single-machine, first ids: {differing[:5]}"
    assert len(mapping_rows) == N_PATIENTS
    assert mapping_from_rows(mapping_rows).to_dict()["patients"] == expected_mapping


BAD_ROWS = [
    # (line of a JSONL file, expected status)
    ({"note_id": "b-null-text", "patient_id": "P01", "text": None}, status.MISSING_TEXT),
    ({"note_id": "b-no-text", "patient_id": "P01"}, status.MISSING_TEXT),
    ({"note_id": "b-empty", "patient_id": "P01", "text": ""}, status.EMPTY_TEXT),
    ({"note_id": "b-number", "patient_id": "P01", "text": 5}, status.TEXT_NOT_STRING),
    ({"note_id": "b-object", "patient_id": "P01", "text": {"t": SECRET}}, status.TEXT_NOT_STRING),
    # No patient id: the note is its own patient, as with `deidentify` (issue 27, item 4).
    ({"note_id": "b-no-patient", "text": "Seen today."}, status.OK),
    ({"note_id": "b-null-patient", "patient_id": None, "text": "x"}, status.OK),
    ({"note_id": "b-blank-patient", "patient_id": "  ", "text": "x"}, status.OK),
    ({"patient_id": "P02", "text": f"{SECRET} called."}, status.MISSING_NOTE_ID),
    ({"note_id": "b-large", "patient_id": "P02", "text": "word " * 10_000}, status.TOO_LARGE),
    (f'{{"note_id": "b-broken", "text": "{SECRET}', status.INVALID_JSON),
    ('["a list", "not an object"]', status.INVALID_JSON),
]


@needs_spark
def test_bad_rows_all_get_a_status(spark, model_dir, records, tmp_path):
    good = records[:6]
    lines = [json.dumps(r) for r in good]
    lines += [row if isinstance(row, str) else json.dumps(row) for row, _ in BAD_ROWS]
    source = tmp_path / "bad.jsonl"
    source.write_text("\n".join(lines) + "\n\n", encoding="utf-8")  # a blank line is no note
    columns = Columns()
    notes, problem = spark_io.read_notes(spark, str(source), spark_io.JSONL, columns)
    settings = _settings(model_dir, max_note_chars=40_000)
    result = deidentify_dataframe(notes, settings, input_problem_col=problem).persist()
    try:
        rows = result.notes.collect()
        counts = status_counts(result.notes)
    finally:
        result.unpersist()
    assert len(rows) == len(good) + len(BAD_ROWS)  # nothing dropped
    by_id = {row.note_id: row for row in rows if row.note_id is not None}
    for row, expected in BAD_ROWS:
        if isinstance(row, dict) and "note_id" in row:
            got = by_id[row["note_id"]]
            assert got.status == expected, row["note_id"]
            if expected == status.EMPTY_TEXT:
                assert got.released_text == "" and got.spans == []
            elif expected == status.OK:
                assert got.released_text == row["text"]
            else:
                assert got.released_text is None
    for record in good:
        assert by_id[record["note_id"]].status == status.OK
    expected_counts = {status.OK: len(good)}  # plus the bad rows that are released
    for _, expected in BAD_ROWS:
        expected_counts[expected] = expected_counts.get(expected, 0) + 1
    assert counts == expected_counts
    assert not any(SECRET in str(value) for row in rows for value in (row.status, row.error_type))


@needs_spark
def test_cli_resumes_and_continues_the_mapping(spark, model_dir, records, reference, tmp_path):
    """Run 1 on the first half of every patient's notes, run 2 on all of them
    (the output exists: run 2 skips what run 1 released and continues from its
    mapping): together they equal the single-machine run over everything."""
    half = _write_jsonl(tmp_path / "half.jsonl", records[: N_NOTES // 2])
    everything = _write_jsonl(tmp_path / "all.jsonl", records)
    output, mapping = tmp_path / "released", tmp_path / "private" / "mapping"
    common = ["--model", model_dir, "--operator", "surrogate", "--seed", SEED]
    common += ["--mapping", str(mapping), "--output-format", "parquet", "--partitions", "2"]
    for spec in SUBTYPE_OPERATORS:
        common += ["--subtype-operator", spec]
    for source in (half, everything):
        result = CliRunner().invoke(app, ["deidentify-spark", str(source), str(output), *common])
        assert result.exit_code == 0, result.output
        assert SECRET not in result.output
    assert "ok: 100" in result.output  # the second run released only the rest
    rows = spark.read.parquet(str(output)).collect()
    assert sorted(row.note_id for row in rows) == [r["note_id"] for r in records]
    expected_text, expected_mapping = reference
    assert _as_reference(rows) == expected_text
    latest = spark_io.read_mapping(spark, str(mapping)).collect()
    assert mapping_from_rows(latest, SEED).to_dict()["patients"] == expected_mapping
    # a third run has nothing left to do
    done = spark_io.read_done(spark, str(output), spark_io.PARQUET)
    notes, _ = spark_io.read_notes(spark, str(everything), spark_io.JSONL, Columns())
    assert pending(notes, done).count() == 0


@needs_spark
def test_the_mapping_and_done_ids_a_run_read_ignore_its_own_writes(spark, tmp_path):
    """A run appends to the datasets it read; what it read must not change
    with them (Spark would re-read the files when the write drops its cache,
    and release notes with the state the run had just written)."""
    mapping, output = str(tmp_path / "mapping"), str(tmp_path / "out")
    schema = "patient_id string, seed string, state string"
    spark_io.write_mapping(spark.createDataFrame([("P1", SEED, "{}")], schema), mapping, 1)
    spark.createDataFrame([("n1",)], "note_id string").write.parquet(output)
    # cached and counted, as the command does with its result before writing
    prior = spark_io.read_mapping(spark, mapping).persist()
    done = spark_io.read_done(spark, output, spark_io.PARQUET).persist()
    assert prior.count() == done.count() == 1
    later = spark.createDataFrame([("P1", SEED, '{"date_offset": 5}'), ("P2", SEED, "{}")], schema)
    spark_io.write_mapping(later, mapping, generation=2)
    spark.createDataFrame([("n2",)], "note_id string").write.mode("append").parquet(output)
    assert [tuple(r) for r in prior.collect()] == [("P1", SEED, "{}")]
    assert [r.note_id for r in done.collect()] == ["n1"]
    prior.unpersist(), done.unpersist()
    # read again, both see the new rows
    assert spark_io.read_mapping(spark, mapping).count() == 2
    assert spark_io.read_done(spark, output, spark_io.PARQUET).count() == 2


def test_cli_refuses_a_mapping_inside_the_output(tmp_path, model_dir):
    args = ["deidentify-spark", str(tmp_path / "in.jsonl"), str(tmp_path / "out")]
    args += ["--model", model_dir, "--seed", SEED, "--mapping", str(tmp_path / "out" / "m")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1 and "PHI" in result.output


# --- the worker functions, without Spark ----------------------------------------


@Language.component("spark_test_fails_on_boom")
def _fails_on_boom(doc):
    """Raises on notes that contain BOOM, quoting the note (as a real error might)."""
    if "BOOM" in doc.text:
        raise RuntimeError(f"cannot handle {doc.text}")
    return doc


@pytest.mark.parametrize(
    "texts,statuses",
    [
        (["fine one", "BOOM here", "fine two"], [status.OK, status.PIPELINE_ERROR, status.OK]),
        (["all fine", "also fine"], [status.OK, status.OK]),
        (["BOOM"], None),  # a single note that fails raises: the caller has nothing to isolate
    ],
)
def test_detect_isolates_the_note_that_fails(texts, statuses):
    nlp = spacy.blank("en")
    nlp.add_pipe("spark_test_fails_on_boom")
    if statuses is None:
        with pytest.raises(RuntimeError):
            detect_texts(nlp, texts, batch_size=8)
        return
    results = detect_texts(nlp, texts, batch_size=8)
    assert [r[0] for r in results] == statuses
    errors = [r[1] for r in results if r[0] == status.PIPELINE_ERROR]
    assert errors == ["RuntimeError"] * len(errors)  # the type only, never the message


def test_detect_splits_notes_over_max_length():
    nlp = spacy.blank("en")
    nlp.max_length = 20
    text = "a short line\nanother line\nand a third one\n"
    (result,) = detect_texts(nlp, [text], batch_size=4)
    assert result[0] == status.OK
    (unsplittable,) = detect_texts(nlp, ["x" * 30], batch_size=4)
    assert unsplittable[0] == status.NO_SPLIT_POINT


@pytest.mark.parametrize(
    "ents,n_spans,scores",
    [
        # whitespace-only spans are not replaced: the scores still line up
        ([(0, 4, 0.9), (4, 5, 0.1), (6, 9, 0.8)], 2, [0.9, 0.8]),
        ([(0, 4, 0.9), (6, 9, None)], 2, [0.9, None]),
        ([], 0, []),
    ],
)
def test_released_spans_carry_the_score_of_their_span(ents, n_spans, scores):
    from spacy_deid.deid import Deidentifier

    text = "John Joe Bos"
    spans = [
        {"start": s, "end": e, "label": "CITY", "score": sc, "source": None} for s, e, sc in ents
    ]
    released = Deidentifier("placeholder", seed="s").release(
        text, [(s["start"], s["end"], s["label"]) for s in spans]
    )
    assert len(released.spans) == n_spans
    out = _released_spans(text, spans, released.spans)
    assert [s["score"] for s in out] == scores
    assert all(s["operator"] == "placeholder" for s in out)


@pytest.mark.parametrize(
    "kwargs,error",
    [
        ({"seed": ""}, "seed"),
        ({"seed": "s", "operator": "nonsense"}, "unknown operator"),
        ({"seed": "s", "date_shift_min_days": 0, "date_shift_max_days": 0}, "0 days"),
        ({"seed": "s", "operating_point": "nonsense"}, "operating point|balanced|recall"),
    ],
)
def test_settings_are_checked_on_the_driver(kwargs, error):
    with pytest.raises(ValueError, match=error):
        DeidSettings(model="unused", **kwargs)


def test_settings_rebuild_a_config_deidentifier():
    from spacy_deid.deid import Deidentifier

    deid = Deidentifier(
        "numbered",
        {"DATE": "shift", "AGE": "keep"},
        "s",
        date_shift_min_days=3,
        date_shift_max_days=9,
    )
    rebuilt = DeidSettings.from_deidentifier(deid, "unused").deidentifier()
    assert rebuilt.operators == deid.operators and rebuilt.date_shift == (3, 9)
    assert rebuilt.mapping.seed == "s"


@pytest.mark.parametrize(
    "path,given,expected",
    [
        ("notes.jsonl", "auto", spark_io.JSONL),
        ("s3a://bucket/notes.json", "auto", spark_io.JSONL),
        ("notes/", "auto", spark_io.PARQUET),
        ("notes.jsonl", "parquet", spark_io.PARQUET),
    ],
)
def test_guess_format(path, given, expected):
    assert spark_io.guess_format(path, given) == expected


def test_mapping_rows_round_trip_and_refuse_mixed_seeds():
    mapping = DeidMapping(seed="s")
    mapping.patient("P1").date_offset = 12
    from spacy_deid.spark.mapping import state_to_json

    rows = [{"patient_id": "P1", "seed": "s", "state": state_to_json(mapping.patients["P1"])}]
    assert mapping_from_rows(rows).to_dict() == mapping.to_dict()
    with pytest.raises(ValueError, match="seeds"):
        mapping_from_rows(rows + [{"patient_id": "P2", "seed": "t", "state": "{}"}])


@pytest.mark.parametrize(
    "orders,expected",
    [
        # (order value, note id) -> release order: by order, missing last, then note id
        ([(2, "a"), (1, "b"), (None, "c")], ["b", "a", "c"]),
        ([(float("nan"), "a"), (5.0, "b")], ["b", "a"]),
        ([(None, "b"), (None, "a")], ["a", "b"]),
        ([("2094-01-02", "x"), ("2094-01-01", "y")], ["y", "x"]),
    ],
)
def test_a_patients_notes_are_released_in_a_fixed_order(orders, expected):
    from spacy_deid.spark.schemas import ORDER
    from spacy_deid.spark.worker import _order_key

    rows = [{ORDER: order, "note_id": note_id, "text": ""} for order, note_id in orders]
    for shuffled in (rows, rows[::-1]):
        assert [r["note_id"] for r in sorted(shuffled, key=_order_key)] == expected


def test_release_refuses_a_mapping_made_with_another_seed():
    import pandas as pd

    from spacy_deid.spark.schemas import ORDER, STATUS
    from spacy_deid.spark.worker import release_patient

    notes = pd.DataFrame(
        [
            {
                "note_id": "n1",
                "text": "x",
                ORDER: None,
                STATUS: status.OK,
                "error_type": None,
                "ents": [],
            }
        ]
    )
    prior = pd.DataFrame([{"patient_id": "P1", "seed": "other", "state": "{}"}])
    settings = DeidSettings(model="unused", seed="s")
    with pytest.raises(ValueError, match="another seed"):
        release_patient(settings, ("P1", None), notes, prior)
    released = release_patient(settings, ("P1", None), notes, prior.iloc[:0])
    assert list(released["kind"]) == ["note", "mapping"]
    assert released["released_text"].iloc[0] == "x"


def test_the_pipeline_is_loaded_once_per_worker_process(model_dir):
    from spacy_deid.spark.worker import load_pipeline

    first = load_pipeline(model_dir)
    assert load_pipeline(model_dir) is first
    assert load_pipeline(model_dir, "recall") is not first  # another operating point


# --- deidentify and deidentify-spark read the same files the same way (issue 27) ----
def _without_the_virtual_environment() -> dict:
    """The environment of a shell where the virtual environment is not
    activated: its bin folder off PATH (so `python3` is another Python),
    VIRTUAL_ENV unset; Java and the package's source path kept."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYSPARK_PYTHON")}
    venv_bin = str(Path(sys.executable).parent)
    java_bin = str(Path(shutil.which("java")).resolve().parent) if shutil.which("java") else ""
    path = [p for p in env.get("PATH", "").split(os.pathsep) if p and p != venv_bin]
    env["PATH"] = os.pathsep.join([p for p in path if "pyenv" not in p] + [java_bin])
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return env


@needs_spark
@pytest.mark.faults
def test_dev_notes_give_the_same_release_from_both_commands(tmp_path, model_dir, dev_corpus_dir):
    """The dev notes as JSONL with an `id` field (no patient id): `deidentify`
    and `deidentify-spark` on local[2], started from an unactivated virtual
    environment, release byte-identical texts, every note `ok`, exit 0."""
    notes = [read_i2b2_2014(path) for path in sorted(dev_corpus_dir.glob("*.xml"))]
    source = _write_jsonl(
        tmp_path / "in" / "notes.jsonl", [{"id": n.note_id, "text": n.text} for n in notes]
    )
    options = ["--model", model_dir, "--seed", SEED, "--operator", "surrogate"]
    single = CliRunner().invoke(
        app, ["deidentify", str(source), str(tmp_path / "single"), *options, "--no-progress"]
    )
    assert single.exit_code == 0, single.output
    lines = (tmp_path / "single" / "notes.jsonl").read_text(encoding="utf-8").splitlines()
    expected = {json.loads(line)["id"]: json.loads(line)["text"] for line in lines}
    command = [sys.executable, "-c", "from spacy_deid.cli import main; main()"]
    command += ["deidentify-spark", str(source)]
    command += [str(tmp_path / "spark"), *options, "--master", "local[2]", "--partitions", "2"]
    run = subprocess.run(
        command, capture_output=True, text=True, timeout=600, env=_without_the_virtual_environment()
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    rows = [
        json.loads(line)
        for part in sorted((tmp_path / "spark").glob("part-*"))
        for line in part.read_text(encoding="utf-8").splitlines()
    ]
    assert {row["status"] for row in rows} == {status.OK} and len(rows) == len(notes)
    got = {row["note_id"]: row["released_text"] for row in rows}
    assert sorted(got) == sorted(expected)
    differing = [i for i in expected if got[i].encode("utf-8") != expected[i].encode("utf-8")]
    assert not differing, differing


@needs_spark
@pytest.mark.faults
def test_spark_cli_exits_1_unless_every_note_is_released(tmp_path, model_dir):
    source = _write_jsonl(tmp_path / "notes.jsonl", [{"id": "n1", "text": f"Seen by {SECRET}."}])
    with source.open("a", encoding="utf-8") as file_:
        file_.write('{"id": "n2", "text": "' + SECRET + '"\n')  # not JSON
    args = ["deidentify-spark", str(source), str(tmp_path / "out"), "--model", model_dir]
    args += ["--seed", SEED, "--master", "local[2]"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    assert "invalid_json: 1" in result.output and "ok: 1" in result.output
    assert SECRET not in result.output
