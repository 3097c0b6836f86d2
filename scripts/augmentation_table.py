"""PHICON ablation (the seed paper's Table 4): train with no augmentation,
PHI augmentation, context augmentation and both, for each alpha, and score
every model on a held-out-template split and on the development notes.

    python scripts/augmentation_table.py --train assets/split/train_A \
        --test heldout=assets/split/test_B --test dev=assets/dev_notes \
        --config configs/cpu.cfg --max-steps 800 --output metrics/augmentation

Each run is `spacy train` with the config's `[corpora.train.augmenter]` set
to `spacy-deid.Phicon.v1`, then `spacy-deid evaluate` of model-last (no model
selection on test data). Writes table.md and table.json to --output.
"""
import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from spacy.util import load_config

AUGMENTER = "spacy-deid.Phicon.v1"
KINDS = {"none": (False, False), "phi": (True, False), "context": (False, True), "both": (True, True)}


def settings(alphas: List[int]) -> List[Tuple[str, int]]:
    return [("none", 0)] + [(kind, alpha) for kind in ("phi", "context", "both") for alpha in alphas]


def write_config(base: Path, kind: str, alpha: int, seed: int, target: Path) -> Path:
    config = load_config(base)
    if kind == "none":
        config["corpora"]["train"]["augmenter"] = None
    else:
        phi, context = KINDS[kind]
        config["corpora"]["train"]["augmenter"] = {
            "@augmenters": AUGMENTER,
            "alpha": alpha,
            "phi": phi,
            "context": context,
            "synonym_rate": 0.1,
            "insertion_rate": 0.1,
            "seed": seed,
        }
    target.mkdir(parents=True, exist_ok=True)
    path = target / "config.cfg"
    config.to_disk(path)
    return path


def run(command: List[str], log: Path) -> None:
    with log.open("w") as out:
        done = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT)
    if done.returncode:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(command)}; see {log}")


def one_setting(args, kind: str, alpha: int, tests: Dict[str, Path]) -> Dict:
    name = kind if kind == "none" else f"{kind}-a{alpha}"
    folder = args.output / name
    config = write_config(args.config, kind, alpha, args.seed, folder)
    start = time.perf_counter()
    run(
        [sys.executable, "-m", "spacy", "train", str(config), "--output", str(folder / "model"),
         "--paths.train", str(args.train), "--paths.dev", str(args.eval_during_training),
         "--training.max_steps", str(args.max_steps),
         "--training.eval_frequency", str(args.max_steps),
         "--system.seed", str(args.seed)],
        folder / "train.log",
    )
    minutes = (time.perf_counter() - start) / 60
    row = {"setting": name, "kind": kind, "alpha": alpha, "train_minutes": round(minutes, 1)}
    for test, path in tests.items():
        out = folder / f"eval_{test}"
        run(
            ["spacy-deid", "evaluate", str(folder / "model" / "model-last"), str(path),
             "--output", str(out), "--no-plots", "--name", name],
            folder / f"eval_{test}.log",
        )
        scores = json.loads((out / "report.json").read_text())["scores"]["all"]
        row[test] = {
            "strict_f": scores["strict"]["overall"]["f"],
            "binary_token_r": scores["binary_token"]["overall"]["r"],
            "binary_token_f": scores["binary_token"]["overall"]["f"],
        }
    print(f"{name}: done in {minutes:.1f} min", flush=True)
    return row


def markdown(rows: List[Dict], tests: List[str], note: str) -> str:
    header = ["setting", "alpha"] + [
        f"{test} {measure}" for test in tests for measure in ("strict F1", "binary token R")
    ]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        cells = [row["kind"], str(row["alpha"] or "-")]
        for test in tests:
            cells += [f"{100 * row[test]['strict_f']:.2f}", f"{100 * row[test]['binary_token_r']:.2f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines + ["", note, ""])


def parse_tests(values: List[str]) -> Dict[str, Path]:
    tests = {}
    for value in values:
        name, _, path = value.partition("=")
        if not path:
            raise SystemExit(f"--test takes NAME=PATH, not {value!r}")
        tests[name] = Path(path)
    return tests


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train", type=Path, required=True)
    parser.add_argument("--test", action="append", required=True, help="NAME=PATH, repeatable")
    parser.add_argument("--eval-during-training", type=Path, help="dev corpus for spacy train")
    parser.add_argument("--config", type=Path, default=Path("configs/cpu.cfg"))
    parser.add_argument("--max-steps", type=int, default=800)
    parser.add_argument("--alphas", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--output", type=Path, default=Path("metrics/augmentation"))
    args = parser.parse_args(argv)
    tests = parse_tests(args.test)
    if args.eval_during_training is None:
        args.eval_during_training = next(iter(tests.values()))
    args.output.mkdir(parents=True, exist_ok=True)
    plan = settings(args.alphas)
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        rows = list(pool.map(lambda s: one_setting(args, s[0], s[1], tests), plan))
    note = (
        f"Config {args.config}, {args.max_steps} steps, seed {args.seed}; trained on "
        f"{args.train}; scores of model-last (strict entity F1, binary token recall, all 30 "
        f"subtypes) on {', '.join(f'{k}={v}' for k, v in tests.items())}."
    )
    (args.output / "table.json").write_text(json.dumps(rows, indent=2))
    (args.output / "table.md").write_text(markdown(rows, list(tests), note))
    print(markdown(rows, list(tests), note))


if __name__ == "__main__":
    main()
