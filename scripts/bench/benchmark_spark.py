"""Throughput of de-identification on Spark (local mode) next to single-machine
`spacy-deid deidentify --n-process N`, on the same generated notes.

    python scripts/bench/benchmark_spark.py --n 1000 --master "local[2]" --processes 2 \
        --output metrics/benchmark_spark.json

Generates N fictional notes (`spacy_deid.synth.generate_notes`, their own
patient ids), writes them once as JSONL (for `deidentify`) and once as
Parquet (for Spark), and releases them with the rules-only pipeline
(blank_deid + deid_sections + deid_phi_rules + deid_reconciler) unless
--model names another, operator surrogate, one seed:

- single machine: `run_batch` (what `deidentify` calls) with --processes;
  the time covers reading, nlp.pipe, release and writing, not model loading;
- Spark: what `deidentify-spark` does (read Parquet, `deidentify_dataframe`,
  write the mapping and the notes as Parquet, count statuses), run --repeats
  times in one session; the first run includes starting the Python workers
  and loading the pipeline in each, later runs find them warm. Session start
  is timed apart.

Also checks that both give the same released text for every note. Prints
counts and rates only, never note text.
"""

import argparse
import json
import os
import platform
import tempfile
import time
from pathlib import Path

import spacy

from spacy_deid.deid import Deidentifier
from spacy_deid.deid.batch import run_batch
from spacy_deid.synth import generate_notes

from benchmark_deidentify import RULES_COMPONENTS, save_rules_pipeline

SEED = "benchmark"


def write_inputs(work: Path, n: int, seed: int):
    records = [
        {"note_id": note.note_id, "patient_id": note.patient_id, "text": note.text}
        for note in generate_notes(n, seed=seed)
    ]
    records.sort(key=lambda r: r["note_id"])  # the order Spark releases a patient's notes in
    jsonl = work / "jsonl" / "notes.jsonl"
    jsonl.parent.mkdir(parents=True)
    with jsonl.open("w", encoding="utf-8", newline="") as file_:
        for record in records:
            file_.write(json.dumps(record) + "\n")
    words = sum(len(r["text"].split()) for r in records)
    return records, jsonl, words


def single_machine(model: str, jsonl: Path, work: Path, processes: int, words: int) -> dict:
    nlp = spacy.load(model)
    deid = Deidentifier("surrogate", seed=SEED)
    start = time.perf_counter()
    summary = run_batch(nlp, deid, jsonl, work / "single-out", n_process=processes, progress=False)
    seconds = time.perf_counter() - start
    return {
        "system": f"deidentify --n-process {processes}",
        "notes": summary.notes,
        "seconds": round(seconds, 2),
        "notes_per_second": round(summary.notes / seconds, 2),
        "words_per_second": round(words / seconds, 1),
    }


def spark_runs(model, records, work, master, partitions, repeats, words):
    from pyspark.sql import SparkSession

    from spacy_deid.spark import DeidSettings, deidentify_dataframe, status_counts
    from spacy_deid.spark import io as spark_io

    started = time.perf_counter()
    spark = (
        SparkSession.builder.master(master)
        .appName("spacy-deid-benchmark")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", str(partitions))
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    session_seconds = time.perf_counter() - started
    source = str(work / "parquet")
    spark.createDataFrame(records, "note_id string, patient_id string, text string").write.parquet(
        source
    )
    settings = DeidSettings(model=model, seed=SEED, operator="surrogate")
    runs, released = [], {}
    for repeat in range(repeats):
        out = work / f"spark-out-{repeat}"
        start = time.perf_counter()
        notes = spark.read.parquet(source)
        result = deidentify_dataframe(notes, settings).persist()
        spark_io.write_mapping(result.mapping, str(out / "mapping"))
        counts = status_counts(result.notes)
        spark_io.write_notes(result.notes, str(out / "notes"), spark_io.PARQUET)
        result.unpersist()
        seconds = time.perf_counter() - start
        total = sum(counts.values())
        runs.append(
            {
                "system": f"spark {master}"
                + (" (first run)" if repeat == 0 else " (warm workers)"),
                "notes": total,
                "statuses": counts,
                "seconds": round(seconds, 2),
                "notes_per_second": round(total / seconds, 2),
                "words_per_second": round(words / seconds, 1),
            }
        )
        if repeat == 0:
            rows = spark.read.parquet(str(out / "notes")).select("note_id", "released_text")
            released = {row.note_id: row.released_text for row in rows.collect()}
    spark.stop()
    return session_seconds, runs, released


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=1000, help="number of generated notes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--partitions", type=int, default=4, help="shuffle partitions")
    parser.add_argument("--processes", type=int, default=2, help="deidentify --n-process")
    parser.add_argument("--repeats", type=int, default=2, help="Spark runs in one session")
    parser.add_argument("--model", default=None, help="pipeline instead of the rules-only one")
    parser.add_argument("--output", type=Path, default=None, help="JSON file for the results")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="deid-spark-bench-") as tmp:
        work = Path(tmp)
        model = args.model or str(save_rules_pipeline(work / "rules-pipeline"))
        records, jsonl, words = write_inputs(work, args.n, args.seed)
        single = single_machine(model, jsonl, work, args.processes, words)
        single_lines = (work / "single-out" / "notes.jsonl").read_text(encoding="utf-8")
        single_text = {
            r["note_id"]: json.loads(line)["text"]
            for r, line in zip(records, single_lines.splitlines())
        }
        session_seconds, runs, spark_text = spark_runs(
            model, records, work, args.master, args.partitions, args.repeats, words
        )
    identical = single_text == spark_text
    result = {
        "model": args.model or "rules-only (blank_deid + " + " + ".join(RULES_COMPONENTS) + ")",
        "n_notes": args.n,
        "words": words,
        "cpu": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "load_average_at_end": [round(x, 1) for x in os.getloadavg()],
        "spark_session_start_seconds": round(session_seconds, 2),
        "same_released_text": identical,
        "runs": [single, *runs],
    }
    print(f"{args.n} notes, {words} words; Spark session start {session_seconds:.1f}s")
    print(f"{'system':<36} {'seconds':>8} {'notes/s':>8} {'words/s':>9}")
    for row in result["runs"]:
        print(
            f"{row['system']:<36} {row['seconds']:>8.1f} {row['notes_per_second']:>8.2f} "
            f"{row['words_per_second']:>9.0f}"
        )
    print(f"same released text on both: {identical}")
    if args.output is not None:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
