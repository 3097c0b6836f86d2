"""Throughput of `spacy-deid deidentify` (notes/s, words/s) with 1 and 2 processes.

    python scripts/bench/benchmark_deidentify.py --n 300 --processes 1 2 --output benchmark_deidentify.json

Generates N fictional notes (`spacy_deid.synth.generate_notes`) as .txt files,
then runs the batch command's runner (`spacy_deid.deid.batch.run_batch`,
what the command calls) once per process count into a fresh folder. The
pipeline is the rules-only one (blank_deid + deid_sections + deid_phi_rules +
deid_reconciler, saved to a temporary folder) unless --model names another.
Times cover reading, nlp.pipe, release and atomic writes, not model loading.
Prints counts and rates only, never note text.
"""

import argparse
import json
import platform
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional

import spacy

from spacy_deid.deid import Deidentifier
from spacy_deid.deid.batch import run_batch
from spacy_deid.synth import generate_notes
from spacy_deid.tokenizer import blank_deid

RULES_COMPONENTS = ("deid_sections", "deid_phi_rules", "deid_reconciler")


def save_rules_pipeline(path: Path) -> Path:
    nlp = blank_deid()
    for name in RULES_COMPONENTS:
        nlp.add_pipe(name)
    nlp.initialize()
    nlp.to_disk(path)
    return path


def write_notes(folder: Path, n: int, seed: int) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    words = 0
    for note in generate_notes(n, seed=seed):
        (folder / f"{note.note_id}.txt").write_text(note.text, encoding="utf-8", newline="")
        words += len(note.text.split())
    return words


def benchmark(
    model: str,
    notes_dir: Path,
    work: Path,
    processes: List[int],
    batch_size: int,
    operator: str,
    repeats: int,
) -> List[Dict]:
    rows = []
    for n_process in processes:
        best: Optional[Dict] = None
        for repeat in range(repeats):
            nlp = spacy.load(model)
            deid = Deidentifier(operator, seed="benchmark")
            out = work / f"out-{n_process}-{repeat}"
            start = time.perf_counter()
            summary = run_batch(
                nlp,
                deid,
                notes_dir,
                out,
                n_process=n_process,
                batch_size=batch_size,
                progress=False,
            )
            seconds = time.perf_counter() - start
            row = {
                "n_process": n_process,
                "batch_size": batch_size,
                "operator": operator,
                "notes": summary.notes,
                "words": summary.words,
                "seconds": round(seconds, 3),
                "notes_per_second": round(summary.notes / seconds, 2),
                "words_per_second": round(summary.words / seconds, 1),
                "files_failed": summary.files_failed,
            }
            if best is None or row["seconds"] < best["seconds"]:
                best = row
        rows.append(best)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=300, help="number of generated notes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--operator", default="surrogate")
    parser.add_argument(
        "--repeats", type=int, default=1, help="runs per setting; the fastest is kept"
    )
    parser.add_argument(
        "--model", default=None, help="pipeline to use instead of the rules-only one"
    )
    parser.add_argument("--output", type=Path, default=None, help="JSON file for the results")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="deid-bench-") as tmp:
        work = Path(tmp)
        model = args.model or str(save_rules_pipeline(work / "rules-pipeline"))
        write_notes(work / "notes", args.n, args.seed)
        rows = benchmark(
            model,
            work / "notes",
            work,
            args.processes,
            args.batch_size,
            args.operator,
            args.repeats,
        )
    result = {
        "model": args.model or "rules-only (blank_deid + " + " + ".join(RULES_COMPONENTS) + ")",
        "n_notes": args.n,
        "cpu": platform.processor() or platform.machine(),
        "runs": rows,
    }
    print(f"{'processes':>9} {'notes':>6} {'seconds':>8} {'notes/s':>8} {'words/s':>9}")
    for row in rows:
        print(
            f"{row['n_process']:>9} {row['notes']:>6} {row['seconds']:>8.2f} "
            f"{row['notes_per_second']:>8.1f} {row['words_per_second']:>9.0f}"
        )
    if args.output is not None:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
