"""Train config variants and score each on test corpora (shared by the
experiment scripts: augmentation_table.py, feature_ablation.py).

A variant is a name and a function that edits a loaded config. Each one is
trained with `spacy train` (its own folder, config.cfg and train.log), then
`spacy-deid evaluate` scores model-last (no model selection on test data) on
every test corpus.
"""
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List

from spacy.util import load_config
from thinc.api import Config

MEASURES = ("strict_f", "binary_token_r", "binary_token_f")


@dataclass
class Variant:
    name: str
    edit: Callable[[Config], None]
    info: Dict


def run(command: List[str], log: Path) -> None:
    with log.open("w") as out:
        done = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT)
    if done.returncode:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(command)}; see {log}")


def train_and_score(
    variant: Variant,
    *,
    base: Path,
    output: Path,
    train: Path,
    dev: Path,
    tests: Dict[str, Path],
    max_steps: int,
    seed: int,
) -> Dict:
    folder = output / variant.name
    folder.mkdir(parents=True, exist_ok=True)
    config = load_config(base)
    variant.edit(config)
    config.to_disk(folder / "config.cfg")
    start = time.perf_counter()
    run(
        [sys.executable, "-m", "spacy", "train", str(folder / "config.cfg"),
         "--output", str(folder / "model"), "--paths.train", str(train), "--paths.dev", str(dev),
         "--training.max_steps", str(max_steps), "--training.eval_frequency", str(max_steps),
         "--system.seed", str(seed)],
        folder / "train.log",
    )
    row = {"setting": variant.name, **variant.info,
           "train_minutes": round((time.perf_counter() - start) / 60, 1)}
    row.update(score_model(folder / "model" / "model-last", tests, folder, variant.name))
    print(f"{variant.name}: trained in {row['train_minutes']} min", flush=True)
    return row


def score_model(model: Path, tests: Dict[str, Path], folder: Path, name: str) -> Dict:
    """test name -> strict F1, binary token R and F1 of `spacy-deid evaluate` on it."""
    row = {}
    for test, path in tests.items():
        out = folder / f"eval_{test}"
        run(["spacy-deid", "evaluate", str(model), str(path),
             "--output", str(out), "--no-plots", "--name", name],
            folder / f"eval_{test}.log")
        scores = json.loads((out / "report.json").read_text())["scores"]["all"]
        row[test] = {
            "strict_f": scores["strict"]["overall"]["f"],
            "binary_token_r": scores["binary_token"]["overall"]["r"],
            "binary_token_f": scores["binary_token"]["overall"]["f"],
            "binary_token_p": scores["binary_token"]["overall"]["p"],
        }
    return row


def run_variants(variants: List[Variant], jobs: int, **kwargs) -> List[Dict]:
    kwargs["output"].mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda v: train_and_score(v, **kwargs), variants))


def add_common_arguments(parser, config: str, max_steps: int, output: str) -> None:
    """The arguments every experiment script takes."""
    parser.add_argument("--train", type=Path, required=True)
    parser.add_argument("--test", action="append", required=True, help="NAME=PATH, repeatable")
    parser.add_argument("--eval-during-training", type=Path, help="dev corpus for spacy train")
    parser.add_argument("--config", type=Path, default=Path(config))
    parser.add_argument("--max-steps", type=int, default=max_steps)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="runs trained at once")
    parser.add_argument("--output", type=Path, default=Path(output))


def run_experiment(args, variants: List[Variant], columns: List[str]) -> str:
    """Train and score `variants` as the common arguments say; the table."""
    tests = parse_tests(args.test)
    rows = run_variants(
        variants, args.jobs, base=args.config, output=args.output, train=args.train,
        dev=args.eval_during_training or next(iter(tests.values())), tests=tests,
        max_steps=args.max_steps, seed=args.seed,
    )
    note = (
        f"Config {args.config}, {args.max_steps} steps, seed {args.seed}; trained on "
        f"{args.train}; model-last scored on {', '.join(f'{k}={v}' for k, v in tests.items())} "
        "(strict entity F1 and binary token recall, all 30 subtypes)."
    )
    return write_table(rows, list(tests), columns, note, args.output)


def parse_tests(values: List[str]) -> Dict[str, Path]:
    tests = {}
    for value in values:
        name, _, path = value.partition("=")
        if not path:
            raise SystemExit(f"--test takes NAME=PATH, not {value!r}")
        tests[name] = Path(path)
    return tests


def write_table(rows: List[Dict], tests: List[str], columns: List[str], note: str, output: Path) -> str:
    header = columns + [f"{t} {m}" for t in tests for m in ("strict F1", "binary token R")]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        cells = [str(row.get(column, "")) for column in columns]
        for test in tests:
            cells += [f"{100 * row[test]['strict_f']:.2f}", f"{100 * row[test]['binary_token_r']:.2f}"]
        lines.append("| " + " | ".join(cells) + " |")
    text = "\n".join(lines + ["", note, ""])
    (output / "table.json").write_text(json.dumps(rows, indent=2))
    (output / "table.md").write_text(text)
    return text
