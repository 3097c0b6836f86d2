"""Peak memory (RSS) of `spacy-deid deidentify` with default settings, per input set.

    python scripts/bench/benchmark_memory.py --model en_deid_psych --cases batch32 long3mb dev \\
        --output metrics/benchmark_memory.json [--keep-outputs /tmp/mem-out]

Each case is one run of the command line under `/usr/bin/time -v` (its
"Maximum resident set size"), on inputs written to a temporary folder:

- batch32: 32 notes of about 37 KB (generated notes joined, `spacy_deid.synth`)
- long3mb: one note of about 3 MB (generated notes joined)
- dev: the 15 fictional dev notes (spacy_deid/data/dev_notes)

The notes are fictional; nothing is committed. With --keep-outputs the
released files stay in that folder (one sub-folder per case), so two code
versions can be compared file by file (--compare OTHER_FOLDER). Prints
sizes, seconds and MiB only, never note text.
"""

import argparse
import filecmp
import json
import platform
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional

from benchmark_long_note import long_text

DEV_NOTES = Path(__file__).resolve().parents[2] / "spacy_deid" / "data" / "dev_notes"
CASES = ("batch32", "long3mb", "dev")
_PEAK = re.compile(r"Maximum resident set size \(kbytes\): (\d+)")


def write_case(case: str, folder: Path) -> Dict[str, int]:
    folder.mkdir(parents=True)
    if case == "batch32":
        texts = {f"note{i:02d}.txt": long_text(37_000, False, seed=100 + i) for i in range(32)}
    elif case == "long3mb":
        texts = {"long.txt": long_text(3_000_000, False, seed=7)}
    elif case == "dev":
        for path in sorted(DEV_NOTES.glob("*.xml")):
            shutil.copy(path, folder / path.name)
        texts = {}
    else:
        raise ValueError(f"unknown case {case!r}; choose from {', '.join(CASES)}")
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    files = sorted(folder.iterdir())
    return {"files": len(files), "bytes": sum(f.stat().st_size for f in files)}


def run_case(model: str, source: Path, output: Path, extra: List[str]) -> Dict[str, float]:
    command = ["/usr/bin/time", "-v", "spacy-deid", "deidentify", str(source), str(output),
               "--model", model, *extra]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    match = _PEAK.search(done.stderr)
    if done.returncode != 0 or match is None:
        tail = "\n".join(line for line in done.stderr.splitlines() if "Command" not in line)[-2000:]
        raise RuntimeError(f"deidentify failed (exit {done.returncode}):\n{tail}")
    return {"peak_rss_mib": round(int(match.group(1)) / 1024, 1), "seconds": round(seconds, 1)}


def same_outputs(a: Path, b: Path) -> Optional[bool]:
    if not a.exists() or not b.exists():
        return None
    names = sorted(p.name for p in a.iterdir())
    if names != sorted(p.name for p in b.iterdir()):
        return False
    match, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
    return not mismatch and not errors


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="en_deid_psych")
    parser.add_argument("--cases", nargs="+", default=list(CASES), choices=CASES)
    parser.add_argument("--extra", nargs=argparse.REMAINDER, default=[],
                        help="Further deidentify options (after everything else)")
    parser.add_argument("--keep-outputs", type=Path, default=None)
    parser.add_argument("--compare", type=Path, default=None,
                        help="A --keep-outputs folder of another run to compare with")
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="deid-memory-") as tmp:
        for case in args.cases:
            source = Path(tmp) / "in" / case
            sizes = write_case(case, source)
            out_root = args.keep_outputs or Path(tmp) / "out"
            output = out_root / case
            if output.exists():
                shutil.rmtree(output)
            row = {"case": case, **sizes, **run_case(args.model, source, output, args.extra)}
            if args.compare is not None:
                row["same_output_as_compared"] = same_outputs(output, args.compare / case)
            rows.append(row)
            print(json.dumps(row), flush=True)
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        result = {"model": args.model, "extra": args.extra, "machine": platform.machine(),
                  "python": platform.python_version(), "rows": rows}
        args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
